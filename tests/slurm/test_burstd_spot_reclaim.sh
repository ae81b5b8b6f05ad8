#!/bin/bash
# A spot reclaim on a real cluster: a job runs on a CLOUD node that burstd
# launched through the local provider; the "cloud" takes the instance back
# (burst_local_provider reclaim: its slurmd, step daemon and tasks are
# SIGKILLed, the instance is listed gone and reclaimed).  burstd notices it
# as soon as Slurm marks the node NOT_RESPONDING (SlurmdTimeout=6: a ping
# every 2 s, failed after MessageTimeout=3), not at its periodic reconcile (ReconcileEvery=1000 here rules
# that out), hands the node back to Slurm (DOWN, POWER_DOWN_FORCE)
# so the job is requeued, and lifts the requeue's BeginTime (now + 121 s by
# default) so the job runs again at once.  The job completes on its second run,
# the node is powered down (idle~, not DOWN), and nothing is left: no
# instance, no slurmd, no open ledger record.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
tool=$BURST_BUILDDIR/tests/slurm/burst_local_provider
for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so" "$tool"; do
    [ -e "$f" ] || { tap_fail "$f is built (run make check first)"; exit 1; }
done

work=$(mktemp -d /tmp/burstd-reclaim.XXXXXX)
burstd_programs "$work"
cluster_start --local 1 --cloud 2 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name spotreclaim \
    --resume-program "$work/resume" --suspend-program "$work/suspend" \
    --resume-fail-program "$work/resume-fail" --conf SlurmdTimeout=6 --conf MessageTimeout=3 || exit 1
on_exit() {
    local rc=$?
    burstd_cleanup
    [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ] && rm -rf "$work" || echo "# burstd files kept in $work"
    cluster_stop "$rc"
}
trap on_exit EXIT
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

# 2 s: a slurmd up within a second of Slurm's boot request may report a boot
# time before it, and Slurm then waits for a boot until ResumeTimeout
# (burstd.conf(5), EarlyLaunch).
burstd_write_conf always 2
echo "ReconcileEvery=1000" >> "$work/burstd.conf"
if burstd_start; then
    tap_ok "burstd started"
else
    tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || tap_fail "the plugin connected to burstd"

filler=$(sbatch --parsable -p local -n2 -w n1 -o /dev/null --wrap 'sleep 600')
wait_for "[ \"\$(squeue -h -t R -j $filler | wc -l)\" = 1 ]" 15 || tap_fail "the local node is filled"
# Appends, so the output of the run the reclaim killed survives the requeue.
job=$(sbatch --parsable -p local -n2 --open-mode=append -o "$work/job.out" \
    --wrap 'echo "run ${SLURM_RESTART_COUNT:-0} on $SLURMD_NODENAME"; sleep 12.017; echo "done on $SLURMD_NODENAME"')

if wait_for "[ \"\$(squeue -h -j $job -o %T)\" = RUNNING ] && grep -q '^run 0' '$work/job.out'" 60; then
    node=$(squeue -h -j "$job" -o %N)
    tap_ok "job $job runs on cloud node $node"
else
    tap_fail "job $job started on a cloud node" "$(squeue -h -j "$job" -o '%T %r %N'); $(tail -5 "$work/burstd.log")"
    exit 1
fi
id=$(burstd_status_json | python3 -c "import json,sys; s=json.load(sys.stdin); s=s.get('status', s)
print(next(i['provider_id'] for i in s['instances'] if i['node'] == '$node'))")
tap_like "burstd's ledger holds its instance" "$id" "^local-$node-"

# The step daemon leaves slurmd's session but inherits its environment.
marked=$(grep -l "BURST_LOCAL_INSTANCE=$id" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 | xargs -r ps -o comm= -p | sort | tr '\n' ' ')
tap_like "the instance's slurmd and step daemon carry its marker" "$marked" "slurmd slurmstepd"

t_reclaim=$(now)
if SLURM_CONF=$SLURM_CONF CLUSTER_NAME=$CLUSTER_NAME "$tool" "$work/state/local-box" reclaim "$id"; then
    tap_ok "the provider reclaimed $id"
else
    tap_fail "the provider reclaimed $id"
fi
tap_is "its slurmd, step daemon and job tasks are gone" \
    "$(pgrep -f "slurmd -D -b -N $node -f $SLURM_CONF"; grep -l "BURST_LOCAL_INSTANCE=$id" /proc/[0-9]*/environ 2>/dev/null
       pgrep -fx 'sleep 12.017')" ""

# Slurm's ping (<= 2 s + MessageTimeout) + an export (1 s) + a cycle (1 s).
if wait_for "grep -q 'was reclaimed by the provider' '$work/burstd.log'" 12; then
    tap_ok "burstd noticed the reclaim $(elapsed "$t_reclaim") s later (bound 12 s)"
else
    tap_fail "burstd noticed the reclaim within 12 s" "$(tail -5 "$work/burstd.log")"
fi
tap_like "through Slurm losing contact with $node, not a periodic reconcile" \
    "$(grep 'reconcile now' "$work/burstd.log")" "reconcile now: Slurm lost contact with $node \\($id\\)"
if wait_for "[ \"\$(job_field $job Restarts)\" = 1 ]" 15; then
    tap_ok "Slurm requeued job $job ($(job_field "$job" JobState), reason $(job_field "$job" Reason))"
else
    tap_fail "Slurm requeued job $job" "$(scontrol show job "$job" | head -5)"
fi
tap_like "burstd lifted the requeue's BeginTime" \
    "$(grep "handed back to Slurm" "$work/burstd.log")" "node $node handed back to Slurm: job\(s\) $job requeued"

if wait_for "grep -q '^run 1' '$work/job.out'" 60; then
    tap_ok "job $job runs again $(elapsed "$t_reclaim") s after the reclaim, on $(squeue -h -j "$job" -o %N)"
else
    tap_fail "job $job ran again within 60 s" "$(squeue -h -j "$job" -o '%T %r %N')"
fi
if wait_job_done "$job" 60; then
    tap_is "job $job completed" "$(job_field "$job" JobState)" COMPLETED
else
    tap_fail "job $job completed within 60 s"
fi
tap_is "it ran twice and finished once" "$(grep -c '^run ' "$work/job.out") $(grep -c '^done' "$work/job.out")" "2 1"

# The reclaimed node came back as powered-down idle, never stuck DOWN, and
# both cloud nodes power down once idle: nothing of the burst remains.
for n in c1 c2; do
    if wait_node_state "$n" 'POWERED_DOWN' 60; then
        tap_ok "$n is powered down ($(node_state "$n"))"
    else
        tap_fail "$n is powered down" "state: $(node_state "$n")"
    fi
done
tap_is "no CLOUD node is DOWN or DRAINED" "$(sinfo -h -N -p cloud -t down,drain -o %N)" ""
if wait_for "[ -z \"\$(burstd_instance_slurmds)\" ]" 15; then
    tap_ok "no instance slurmd runs"
else
    tap_fail "no instance slurmd runs" "$(burstd_instance_slurmds)"
fi
tap_is "the provider lists no instance" "$(ls "$work/state/local-box" | grep -c '\.json$')" 0
tap_is "no instance is open in the ledger" \
    "$(sqlite3 "$work/state/ledger.sqlite" "SELECT count(*) FROM instances WHERE state NOT IN ('terminated','failed')")" 0
tap_like "the reclaimed instance is closed in the ledger" \
    "$(sqlite3 "$work/state/ledger.sqlite" "SELECT state FROM instances WHERE provider_id = '$id'")" terminated
scancel "$filler"
tap_finish
