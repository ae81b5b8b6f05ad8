#!/bin/bash
# One decision cycle for burstd and burstsim, checked on a real cluster's
# snapshots: the plugin's messages are recorded on their way to burstd
# (lib/snapshot_recorder.py) while a chain of two policies bursts work to
# CLOUD nodes, then the recording is replayed through burstd's PolicyCycle
# and through burstsim's snapshot replay (tests/parity/cycle-parity-check):
# both must take the same actions, in the same order, with the same reasons.
# BURST_KEEP_RECORDING=DIR copies the recording and burstd.conf there (how
# tests/data/parity was made).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
check=$BURST_BUILDDIR/tests/parity/cycle-parity-check
[ -x "$check" ] || { tap_fail "$check is built (make check builds it)"; exit 1; }
burstd_test_cluster parity --local 2 --cloud 3 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

burstd_write_conf boot-window 2 "Policy=always"
burstd_start || { tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"; exit 1; }
python3 "$here/lib/snapshot_recorder.py" "$work/plugin.sock" "$work/snapshot.sock" "$work/recording.ndjson" &
recorder=$!
BURSTD_ON_EXIT="kill $recorder 2>/dev/null"
wait_for "[ -S '$work/plugin.sock' ]" 10 || tap_fail "the recorder listens"
cat >"$CLUSTER_DIR/burst.conf" <<CONF
SocketPath=$work/plugin.sock
ExportInterval=1
CONF
sed -i '/^JobSubmitPlugins=/d' "$SLURM_CONF"
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || { tap_fail "the plugin reached burstd through the recorder"; exit 1; }
tap_ok "the plugin reaches burstd through the recorder"

# Two waves of work the full local nodes cannot start: narrow and wide
# jobs, with time limits the policies learn runtimes against.
burstd_fill_local n1 n2
jobs=()
for spec in "1 6" "2 8" "1 5" "2 10"; do
    set -- $spec
    jobs+=("$(sbatch --parsable -p local -n"$1" -t 2 -o /dev/null --wrap "sleep $2")")
done
sleep 12
for spec in "2 6" "1 4" "2 5"; do
    set -- $spec
    jobs+=("$(sbatch --parsable -p local -n"$1" -t 2 -o /dev/null --wrap "sleep $2")")
done
ids=$(IFS=,; echo "${jobs[*]}")
if wait_for "[ -z \"\$(squeue -h -j $ids 2>/dev/null)\" ]" 120; then
    tap_ok "the ${#jobs[@]} jobs ran and ended"
else
    tap_fail "the ${#jobs[@]} jobs ran and ended" "$(squeue -j "$ids")"
fi
scancel "${FILLERS[@]}"
sleep 5
burstd_stop
kill "$recorder" 2>/dev/null
wait "$recorder" 2>/dev/null
tap_like "snapshots were recorded" "$(grep -c '"type":"snapshot"' "$work/recording.ndjson")" '^[1-9][0-9]*$'
tap_like "jobs ended on CLOUD nodes" "$(grep '"type":"job_end"' "$work/recording.ndjson" | grep -c '"node_list":\["c')" \
    '^[1-9][0-9]*$'
if [ -n "${BURST_KEEP_RECORDING:-}" ]; then
    mkdir -p "$BURST_KEEP_RECORDING"
    cp "$work/recording.ndjson" "$work/burstd.conf" "$BURST_KEEP_RECORDING/"
fi
"$check" "$work/recording.ndjson" "$work/burstd.conf"
