#!/bin/bash
# What a snapshot costs slurmctld at growing queue sizes, next to the cost of
# one `squeue --json` (what a plugin-less poller would pay per look).
#
#   bench/plugin_snapshot.sh BUILDDIR [JOBS...]      (default: 1000 5000 20000)
#
# Starts a private cluster (tests/slurm/lib/cluster.sh) with job_submit/burst
# and a stand-in listener, fills the queue with held jobs (bench/submit_held,
# libslurm from several threads), and for each size prints, over SNAPSHOTS
# (default 10) snapshots taken at that size, the median and p99 (nearest
# rank) of the time the exporter held slurmctld's read locks and of the time
# it took to serialize, the snapshot's size, and for SQUEUES (default 5)
# `squeue --json` the median wall time and the mean CPU time slurmctld
# itself spent on one (its utime+stime from /proc, which includes the RPC
# threads; most of squeue's JSON work happens in the client, not here).
# "ratio" is squeue's slurmctld CPU over a snapshot's lock+serialize CPU
# (medians).  Wall times include time the exporter thread waited for a core,
# which on a busy machine dwarfs the work itself.
# Numbers come from the exporter's own debug line (SlurmctldDebug=debug).
# Run as root.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
builddir=${1:?usage: $0 BUILDDIR [JOBS...]}
shift
sizes=("$@")
((${#sizes[@]})) || sizes=(1000 5000 20000)
snapshots=${SNAPSHOTS:-10}
squeues=${SQUEUES:-5}
plugdir=$(cd "$builddir/plugin/.libs" && pwd) || exit 1
submit=$builddir/bench/submit_held
[ -x "$submit" ] || { echo "$submit not built (make bench/submit_held)" >&2; exit 1; }
# shellcheck source=../tests/slurm/lib/cluster.sh
source "$top/tests/slurm/lib/cluster.sh"

cluster_start --local 2 --cloud 0 --plugin-dir "$plugdir" --name plugbench \
    --conf SlurmctldDebug=debug --conf MaxJobCount=100000 --conf MaxArraySize=100001 || exit 1
python3 "$top/tests/slurm/lib/snapshot_listener.py" "$CLUSTER_DIR/burst.sock" /dev/null "$CLUSTER_DIR/outbox" &
listener=$!
trap 'kill $listener 2>/dev/null; cluster_stop' EXIT
printf 'SocketPath=%s\nExportInterval=1\n' "$CLUSTER_DIR/burst.sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
ctld_log=$CLUSTER_DIR/log/slurmctld.log
ctld_pid=$(cat "$CLUSTER_DIR/run/slurmctld.pid")
ticks=$(getconf CLK_TCK)

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p99() { sort -g | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999); print v[i < 1 ? 1 : i] }'; }
ctld_cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$ctld_pid/stat"; }

# lock_* and ser_* in ms (wall median, p99, CPU median); submit_s (filling
# the queue), squeue_* in s
printf '%6s %8s %8s %8s %8s %8s %8s %8s %8s %11s %10s %6s\n' jobs lock_med lock_p99 lock_cpu \
    ser_med ser_p99 ser_cpu bytes submit_s squeue_wall squeue_cpu ratio
have=0
for n in "${sizes[@]}"; do
    need=$((n - have))
    t0=$EPOCHREALTIME
    if ((need > 0)); then
        "$submit" local "$need" 4 >/dev/null || { echo "submitting $need jobs failed" >&2; exit 1; }
    fi
    submit_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    have=$(squeue -h -r -t PD | wc -l)
    mark=$(($(wc -l <"$ctld_log") + 1))
    wait_for "[ \$(tail -n +$mark '$ctld_log' | grep -c 'snapshot seq .*: $have jobs') -ge $snapshots ]" 300 ||
        { echo "no $snapshots snapshots of $have jobs within 300 s" >&2; exit 1; }
    lines=$(tail -n +"$mark" "$ctld_log" | grep "snapshot seq .*: $have jobs" | head -"$snapshots")
    locks=$(sed -n 's/.*locks held \([0-9.]*\) ms.*/\1/p' <<<"$lines")
    sers=$(sed -n 's/.*bytes in \([0-9.]*\) ms.*/\1/p' <<<"$lines")
    lock_cpu=$(sed -n 's/.*locks held [0-9.]* ms (cpu \([0-9.]*\) ms).*/\1/p' <<<"$lines" | median)
    ser_cpu=$(sed -n 's/.*bytes in [0-9.]* ms (cpu \([0-9.]*\) ms).*/\1/p' <<<"$lines" | median)
    bytes=$(sed -n 's/.*serialized \([0-9]*\) bytes.*/\1/p' <<<"$lines" | median)
    # slurmctld's CPU is counted in clock ticks (10 ms): average over the runs
    sq=""
    c0=$(ctld_cpu_ticks)
    for _ in $(seq "$squeues"); do
        t0=$EPOCHREALTIME
        squeue --json >/dev/null
        sq+="$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')"$'\n'
    done
    sq_cpu=$(awk -v a="$c0" -v b="$(ctld_cpu_ticks)" -v t="$ticks" -v n="$squeues" \
        'BEGIN { printf "%.4f", (b - a) / t / n }')
    lock_med=$(median <<<"$locks")
    ser_med=$(median <<<"$sers")
    ratio=$(awk -v s="$sq_cpu" -v l="$lock_cpu" -v z="$ser_cpu" 'BEGIN { printf "%.0f", s * 1000 / (l + z) }')
    printf '%6d %8s %8s %8s %8s %8s %8s %8s %8s %11s %10s %6s\n' "$have" "$lock_med" "$(p99 <<<"$locks")" \
        "$lock_cpu" "$ser_med" "$(p99 <<<"$sers")" "$ser_cpu" "$bytes" "$submit_s" "$(median <<<"$sq")" \
        "$sq_cpu" "$ratio"
done
