#!/bin/bash
# Snapshot cost inside slurmctld at growing queue sizes, next to the cost of
# one `squeue --json` (what a plugin-less poller would pay per look).
#
#   bench/plugin_snapshot.sh BUILDDIR [JOBS...]      (default: 1000 5000 20000)
#
# Starts a private cluster (tests/slurm/lib/cluster.sh) with job_submit/burst
# and a stand-in listener, fills the queue with held jobs, and for each size
# prints the median over three snapshots of the time the exporter held
# slurmctld's read locks, the time it took to serialize, the snapshot's size,
# and the median wall time of three `squeue --json`.  Numbers come from the
# exporter's own debug line (SlurmctldDebug=debug).  Run as root.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
builddir=${1:?usage: $0 BUILDDIR [JOBS...]}
shift
sizes=("$@")
((${#sizes[@]})) || sizes=(1000 5000 20000)
plugdir=$(cd "$builddir/plugin/.libs" && pwd) || exit 1
# shellcheck source=../tests/slurm/lib/cluster.sh
source "$top/tests/slurm/lib/cluster.sh"

cluster_start --local 2 --cloud 0 --plugin-dir "$plugdir" --name plugbench \
    --conf SlurmctldDebug=debug --conf MaxJobCount=100000 --conf MaxArraySize=100001 || exit 1
python3 "$top/tests/slurm/lib/snapshot_listener.py" "$CLUSTER_DIR/burst.sock" /dev/null "$CLUSTER_DIR/outbox" &
listener=$!
trap 'kill $listener 2>/dev/null; cluster_stop' EXIT
printf 'SocketPath=%s\nExportInterval=2\n' "$CLUSTER_DIR/burst.sock" >"$CLUSTER_DIR/burst.conf"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
ctld_log=$CLUSTER_DIR/log/slurmctld.log

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%8s %12s %14s %12s %16s\n' jobs lock_ms serialize_ms bytes squeue_json_s
have=0
for n in "${sizes[@]}"; do
    need=$((n - have))
    ((need > 0)) && seq "$need" | xargs -P 4 -n 50 sh -c \
        'for _ in "$@"; do sbatch -Q --hold -p local -J bench --wrap true; done' sh
    have=$(squeue -h -r -t PD | wc -l)
    # three snapshots taken after the queue reached its size
    mark=$(wc -l <"$ctld_log")
    wait_for "[ \$(tail -n +$mark '$ctld_log' | grep -c 'snapshot seq .*: $have jobs') -ge 3 ]" 120 ||
        { echo "no snapshots of $have jobs within 120 s" >&2; exit 1; }
    lines=$(tail -n +"$mark" "$ctld_log" | grep "snapshot seq .*: $have jobs" | head -3)
    lock=$(sed -n 's/.*locks held \([0-9.]*\) ms.*/\1/p' <<<"$lines" | median)
    ser=$(sed -n 's/.*bytes in \([0-9.]*\) ms.*/\1/p' <<<"$lines" | median)
    bytes=$(sed -n 's/.*serialized \([0-9]*\) bytes.*/\1/p' <<<"$lines" | median)
    sq=$(for _ in 1 2 3; do
        t0=$EPOCHREALTIME
        squeue --json >/dev/null
        awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
    done | median)
    printf '%8d %12s %14s %12s %16s\n' "$have" "$lock" "$ser" "$bytes" "$sq"
done
