#!/bin/bash
# Burst overhead: the time from a job becoming cloud-eligible to RUNNING on a
# CLOUD node that burstd launched for it, minus the local provider's boot
# delay (issue 4's target: <= 1 s).  Both ends come from slurmctld's own log,
# so no polling blurs them:
#   eligible  "_slurm_rpc_update_job: complete JobId=J" (burstd's partition change)
#   running   "Configuration for JobId=J is complete" (CONFIGURING cleared: squeue says RUNNING)
# and the steps between from the other logs: Slurm's allocation, burstd's
# early launch, ResumeProgram's call, the node's slurmd answering.
#
#   bench/burst_overhead.sh BUILDDIR [RUNS]     (default 5 runs)
#   BOOT_DELAY=2      the local provider's BootDelay (s)
#   EARLY_LAUNCH=10   burstd's EarlyLaunch= (0: wait for ResumeProgram, the old path)
#   BATCH_SCHED_DELAY slurm.conf SchedulerParameters=batch_sched_delay=N (unset:
#                     Slurm's default, 3 s: how long after burstd's partition
#                     change Slurm may wait before it schedules the job)
#
# One cluster (1 local node kept busy, 2 CLOUD nodes), burstd with the
# "always" policy; each run submits a 2-core job that cannot start locally,
# waits for it to finish, then forces its CLOUD node down and waits until
# burstd retired the instance.  Prints one line per run, the median and max
# overhead, burstd's CPU time per run and the load average.  Run as root.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
export BURST_BUILDDIR=${1:?usage: $0 BUILDDIR [RUNS]}
BURST_BUILDDIR=$(cd "$BURST_BUILDDIR" && pwd)
runs=${2:-5}
boot_delay=${BOOT_DELAY:-2}
early=${EARLY_LAUNCH:-10}
# shellcheck source=../tests/slurm/lib/cluster.sh
source "$top/tests/slurm/lib/cluster.sh"
# shellcheck source=../tests/slurm/lib/burstd.sh
source "$top/tests/slurm/lib/burstd.sh"

work=$(mktemp -d /tmp/burst-overhead.XXXXXX)
burstd_programs "$work"
extra=()
[ -z "${BATCH_SCHED_DELAY:-}" ] || extra=(--conf "SchedulerParameters=batch_sched_delay=$BATCH_SCHED_DELAY")
cluster_start --local 1 --cloud 2 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name burstbench \
    --resume-program "$work/resume" --suspend-program "$work/suspend" \
    --resume-fail-program "$work/resume-fail" "${extra[@]}" || exit 1
trap 'burstd_cleanup; cluster_stop; rm -rf "$work"' EXIT
burstd_write_conf always "$boot_delay" "EarlyLaunch=$early"
burstd_start || { echo "burstd did not start: $(tail -3 "$work/burstd.log")" >&2; exit 1; }
burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || { echo "the plugin did not connect" >&2; exit 1; }
sbatch -p local -n2 -w n1 -o /dev/null --wrap 'sleep 100000' >/dev/null
wait_for "[ \"\$(squeue -h -t R -p local | wc -l)\" = 1 ]" 15 || { echo "n1 not filled" >&2; exit 1; }

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
echo "# boot delay $boot_delay s, EarlyLaunch=$early, batch_sched_delay=${BATCH_SCHED_DELAY:-3 (default)}, $runs runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '# %-4s %-5s %9s %9s %9s %9s %9s %9s %9s\n' run job allocated launch resume-prg responding running total overhead
results=()
ticks0=$(cpu_ticks "$BURSTD_PID")
for ((run = 1; run <= runs; run++)); do
    retired=$(grep -c 'retired c' "$work/burstd.log")
    job=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'sleep 1')
    if ! wait_job_done "$job" 90; then
        echo "# run $run: job $job did not finish within 90 s" >&2
        continue
    fi
    node=$(job_field "$job" NodeList)
    line=$(python3 - "$CLUSTER_DIR/log" "$work" "$job" "$node" "$boot_delay" <<'PY'
import datetime, re, sys
logdir, work, job, node, delay = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
def stamp(text):
    return datetime.datetime.fromisoformat(text).timestamp()
def first(path, pattern, after=0.0):
    for l in open(path, errors="replace"):
        m = re.match(r"\[([0-9T:.-]+)\] (.*)", l)
        if m and re.search(pattern, m.group(2)) and stamp(m.group(1)) >= after:
            return stamp(m.group(1))
    return None
ctld = f"{logdir}/slurmctld.log"
eligible = first(ctld, rf"_slurm_rpc_update_job: complete JobId={job} ")
allocated = first(ctld, rf"(sched: Allocate|backfill: Started) JobId={job} ")
running = first(ctld, rf"Configuration for JobId={job} is complete")
responding = first(ctld, rf"Node {node} now responding", eligible or 0)
launch = first(f"{work}/burstd.log", rf"job {job} was allocated")
resume = None
for l in open(f"{work}/power.log", errors="replace"):
    w = l.split()
    if len(w) >= 3 and w[1] == "resume" and eligible and float(w[0]) >= eligible:
        resume = float(w[0]); break
if None in (eligible, allocated, running, responding):
    print("missing", eligible, allocated, running, responding); sys.exit(0)
rel = lambda t: "-" if t is None else f"{t - eligible:.3f}"
print(f"{job} {rel(allocated)} {rel(launch)} {rel(resume)} {rel(responding)} {rel(running)} {running - eligible:.3f} {running - eligible - delay:.3f}")
PY
)
    if [[ $line == missing* ]]; then
        echo "# run $run: job $job: log lines missing ($line)" >&2
    else
        read -r j alloc launch resume resp running total overhead <<<"$line"
        printf '  %-4s %-5s %9s %9s %9s %9s %9s %9s %9s\n' "$run" "$j" "$alloc" "$launch" "$resume" "$resp" "$running" "$total" "$overhead"
        results+=("$overhead")
    fi
    scontrol update NodeName="$node" State=POWER_DOWN_FORCE
    wait_for "[ \"\$(grep -c 'retired c' '$work/burstd.log')\" -gt $retired ]" 30 || echo "# run $run: $node not retired" >&2
    wait_node_state "$node" 'POWERED_DOWN' 30 >/dev/null && wait_for "[[ \"\$(node_state $node)\" != *POWERING_DOWN* ]]" 30
done
ticks=$(($(cpu_ticks "$BURSTD_PID") - ticks0))
printf '%s\n' "${results[@]}" | sort -n | awk -v n="${#results[@]}" -v hz="$(getconf CLK_TCK)" -v t="$ticks" -v r="$runs" '
    { v[NR] = $1 }
    END {
        if (!n) { print "no run measured"; exit 1 }
        med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        printf "overhead (eligible -> RUNNING - boot delay): median %.3f s, max %.3f s over %d runs\n", med, v[n], n
        printf "burstd CPU time: %.3f s per run (utime+stime)\n", t / hz / r
    }'
echo "# load $(cut -d' ' -f1-3 /proc/loadavg)"
