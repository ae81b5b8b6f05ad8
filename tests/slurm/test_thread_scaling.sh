#!/bin/bash
# burstd learns a job category's thread scaling from its runs on a real
# cluster: six runs of one category (same account, name and batch command)
# at 1, 2 and 4 CPUs per task, each taking 2 + 4/t seconds, so E = 6 s
# single-threaded and c = 4/6 scales.  A failed run of the category is not
# learned from.  burstctl status counts the category; explain gives its fit;
# a restart of burstd keeps it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
burstd_test_cluster thrscale --local 2 --cloud 1 --cpus 4 || exit 1
burstd_bring_up never 2 || exit 1
tap_ok "burstd started and the plugin connected"

script='sleep $(( 2 + 4 / SLURM_CPUS_PER_TASK )); exit ${FAIL:-0}'
jobs=()
for c in 1 2 4 1 2 4; do
    jobs+=("$(sbatch --parsable -p local -n1 -c "$c" -J scaler -o /dev/null --wrap "$script")")
done
failed=$(sbatch --parsable -p local -n1 -c 4 -J scaler -o /dev/null --export=ALL,FAIL=1 --wrap "$script")
for j in "${jobs[@]}" "$failed"; do wait_job_done "$j" 60 || tap_fail "job $j ended"; done
status() { "$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" status; }
if wait_for "status | grep -q 'thread scaling: 1 categories learned from completed runs, 1 known'" 10; then
    tap_ok "burstctl status: the category is learned and known"
else
    tap_fail "burstctl status: the category is learned and known" "$(status | grep -i 'thread scaling')"
fi
held=$(sbatch --parsable -p local -n1 -c1 -J scaler -H -o /dev/null --wrap "$script")
wait_for "'$BURSTCTL_BIN' --socket '$BURSTD_DIR/control.sock' explain $held >/dev/null 2>&1" 10
text=$("$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" explain "$held")
tap_like "explain: the category's scalable share is about 4/6 and its single-threaded time about 6 s, from six runs" "$text" \
    "threads: category [0-9a-f]{16}: scalable share 0\.[5-8][0-9] \+- 0\.[0-9]+, [5-8] s single-threaded, from [56]\.[0-9]+ completed runs at 3 thread count\(s\) \(known\)"
json=$("$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" explain "$held" --json)
tap_like "... its failed run is not counted (six runs, not seven)" "$json" '"runs": 5\.9[0-9]*'
scancel "$held"

# A restart carries on from the ledger.
burstd_stop
burstd_start || tap_fail "burstd restarted" "$(tail -5 "$BURSTD_DIR/burstd.log")"
if wait_for "status | grep -q 'thread scaling: 1 categories learned from completed runs, 1 known'" 15; then
    tap_ok "after a restart of burstd the category is still known (the ledger kept it)"
else
    tap_fail "after a restart the category is still known" "$(status | grep -i 'thread scaling')"
fi
tap_finish
