#!/bin/bash
# An account's spend survives burstd being killed: a job of account bio runs
# on a cloud node under Budget=bio and ends; burstd is killed with SIGKILL
# and started again with no job running.  Its first cycle must carry on
# from the spend the ledger kept for bio, not split the day so far over the
# jobs running then (none), which left bio's line unspent.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
burstd_test_cluster burstrestart --local 1 --cloud 2 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
burstd_bring_up always "$boot_delay" "Budget=bio Amount=5 Interval=day" || exit 1
tap_ok "burstd started and the plugin connected"
wait_for "burstd_status_json | grep -q '\"seq\"'" 10 || tap_fail "burstd received a snapshot"

# What the status counts as spent by bio in the interval (the budget cap's figure).
bio_spent() {
    burstd_status_json | python3 -c '
import json, sys
s = json.load(sys.stdin)
s = s.get("status", s)
spent = s.get("spend", {}).get("accounts", {}).get("bio")
print("none" if spent is None else "%.6f" % spent)'
}

burstd_fill_local n1
job=$(sbatch --parsable -A bio -p local -n2 -t 1 -o /dev/null --wrap 'sleep 4')
if wait_for "job_field $job Partition | grep -q cloud" 20; then
    tap_ok "bio's job was made cloud-eligible within its budget"
else
    tap_fail "bio's job was made cloud-eligible" "$(grep -E 'decision|budget' "$work/burstd.log" | tail -3)"
    exit 1
fi
if wait_job_done "$job" 60; then
    tap_like "it ran on a cloud node" "$(job_field "$job" NodeList)" 'c[12]'
else
    tap_fail "bio's job ran"
fi
# A cycle after its end books its run to it.
sleep 3
before=$(bio_spent)
tap_like "bio's run is booked to bio" "$before" '^0\.0*[1-9]'

burstd_kill9
burstd_start || tap_fail "burstd started again" "$(tail -5 "$work/burstd.log")"
wait_for "[ \$(grep -c 'plugin hello' '$work/burstd.log') -ge 2 ]" 15 || tap_fail "the plugin reconnected"
wait_for "burstd_status_json | grep -q '\"seq\"'" 10 || tap_fail "burstd received a snapshot after the restart"
sleep 2
after=$(bio_spent)
echo "# bio spent: $before before the kill, $after after the restart"
if python3 -c 'import sys; sys.exit(not (sys.argv[2] != "none" and float(sys.argv[2]) >= float(sys.argv[1]) - 1e-6))' \
    "$before" "$after"; then
    tap_ok "after the restart bio's spend is what the ledger kept"
else
    tap_fail "after the restart bio's spend is what the ledger kept" "before $before, after $after"
fi
tap_is "the ledger keeps bio's booking" \
    "$(sqlite3 "$work/state/ledger.sqlite" "SELECT count(*) FROM spend_accounts WHERE account = 'bio'" 2>&1)" 1
scancel "${FILLERS[@]}"
tap_finish
