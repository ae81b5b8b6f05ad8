#!/bin/bash
# A Budget= line against what the provider bills, on a real cluster: the
# node group is billed by the hour (0.10 an hour), and Budget=* allows 0.15
# a day to capacity no job uses.  A job made cloud-eligible commits its
# node's whole billed hour, less its own share: the second job that only
# the cloud could start now stays local, and still does once the first
# job's node has powered down within its billed hour, whose rest is paid
# for all the same.  (Counting uptime, the cap let both through.)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
burstd_test_cluster burstbudget --local 2 --cloud 2 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
export BURSTD_GROUP_EXTRA="Billing=per-hour"
burstd_bring_up always "$boot_delay" "Budget=* Amount=0.15 Interval=day" || exit 1
tap_ok "burstd started and the plugin connected"
wait_for "burstd_status_json | grep -q '\"seq\"'" 10 || tap_fail "burstd received a snapshot"

burstd_fill_local n1 n2
first=$(sbatch --parsable -p local -n2 -t 1 -o /dev/null --wrap 'hostname')
second=$(sbatch --parsable -p local -n2 -t 1 -o /dev/null --wrap 'hostname')

if wait_for "job_field $first Partition | grep -q cloud" 20; then
    tap_ok "the first job was made cloud-eligible within the budget"
else
    tap_fail "the first job was made cloud-eligible" "$(grep -E 'decision|budget' "$work/burstd.log" | tail -3)"
    exit 1
fi
if wait_job_done "$first" 60; then
    tap_like "it ran on a cloud node" "$(sacct -n -X -j "$first" -o NodeList%20 2>/dev/null || job_field "$first" NodeList)" 'c[12]'
else
    tap_fail "the first job ran"
fi
note="budget of capacity no job uses \(Budget=\*\): 0\.[0-9]+ spent \+ 0\.(1|2)[0-9] committed of 0\.15 per day; job $second "
tap_like "the second job stays local: the first one's billed hour leaves no room" \
    "$(grep "policy always:" "$work/burstd.log" | grep "job $second" | tail -1)" "$note"

# The first job's node idles SuspendTime (10 s) and powers down ten-odd
# seconds into its billed hour: the rest of the hour still counts.
node=$(grep -o "launch c[12]" "$work/burstd.log" | head -1 | cut -d' ' -f2)
if wait_for "grep -q 'retired $node' '$work/burstd.log'" 45; then
    tap_ok "$node powered down within its billed hour and burstd retired it"
else
    tap_fail "$node powered down and was retired" "$(tail -5 "$work/burstd.log")"
fi
sleep 3
tap_is "the second job was still never made cloud-eligible" "$(job_field "$second" Partition)" local
spend=$(burstd_status_json | python3 -c '
import json, sys
s = json.load(sys.stdin)
s = s.get("status", s)
print(" ".join("%s=%.4f" % (b["account"] or "-", b["spent"] + b["committed"]) for b in s.get("budgets", [])))')
tap_like "the powered-down node's billed hour counts as spent and committed" "$spend" '(^| )-=0\.(09|1[0-4])'
echo "# budgets (spent + committed): $spend"

tap_is "one instance was launched, none for the second job" \
    "$(sqlite3 "$work/state/ledger.sqlite" 'SELECT count(*) FROM instances' 2>&1)" 1
scancel "${FILLERS[@]}" "$second"
tap_finish
