#!/bin/bash
# pfa's budget split across accounts (split=shares) on a real Fair Tree
# association tree in slurmdbd:
#   root ─ alpha 30, beta 10 (lib/cluster.sh's), user root 1
#        ├ physics 50 ─ theory 1 (user root), exp 3
#        ├ chem 50 (user root)
#        └ lab Fairshare=parent (users root, bin: 1 each)
# Root's level: 30 + 10 + 1 + 50 + 50 + lab's users 1 + 1 = 143.  Of the
# machine theory holds 50/143 × 1/4, chem 50/143 and lab 2/143, so a budget
# of 100 splits 19.38 / 77.52 / 3.10 among the three accounts with jobs.
# Slurm's NormShares (Fair Tree: relative to the level) would weigh theory
# as 1/4 of root (41.69 / 58.31 / 0.00) and gives lab 0.  A job of chem's
# fills the local node and one job of each account waits behind it (or runs
# on a cloud node pfa hires; held jobs would be no work to pfa): the split
# is all this checks, from burstd's status notes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
burstd_test_cluster pfasplit --dbd --local 1 --cloud 2 --cpus 2 \
    --conf AccountingStorageEnforce=associations || exit 1
tap_ok "cluster with slurmdbd started in $CLUSTER_START_SECONDS s"

add() { sacctmgr -i "$@" Description=test Organization=burst 2>&1; }
if out=$(add add account physics,chem Fairshare=50) &&
    out=$(add add account theory parent=physics Fairshare=1) &&
    out=$(add add account exp parent=physics Fairshare=3) &&
    out=$(add add account lab Fairshare=1) &&
    out=$(sacctmgr -i modify account lab set Fairshare=parent 2>&1) &&
    out=$(sacctmgr -i add user root account=theory,chem,lab 2>&1) &&
    out=$(sacctmgr -i add user bin account=lab 2>&1); then
    tap_ok "accounts physics (theory, exp), chem and lab (Fairshare=parent) with their users"
else
    tap_fail "sacctmgr builds the association tree" "$out"
fi
wait_for "sshare -a -P -n -o Account,User,RawShares | grep -q '^ *lab|bin|'" 20 &&
    wait_for "sshare -P -n -A lab -o Account,User,RawShares | grep -q '^ *lab||parent$'" 20 ||
    tap_fail "slurmctld sees the new associations within 20 s" "$(sshare -a -P)"
tap_is "Slurm's NormShares: theory's relative to physics' level, lab's 0" \
    "$(sshare -P -n -A theory,lab -o Account,User,NormShares | awk -F'|' '$2 == "" { gsub(/ /, "", $1); print $1 "=" $3 }' | sort | tr '\n' ' ')" \
    "lab=0.000000 theory=0.250000 "

burstd_bring_up "pfa budget=100 interval=3600 split=shares" 2 || exit 1
tap_ok "burstd started and the plugin connected"
filler=$(sbatch --parsable -p local -n2 -A chem -o /dev/null --wrap 'sleep 300')
wait_for "[ \"\$(squeue -h -t R -j $filler | wc -l)\" = 1 ]" 15 || tap_fail "chem's job fills the local node"
for account in theory chem lab; do
    sbatch --parsable -p local -n1 -A "$account" -o /dev/null --wrap 'sleep 300' >/dev/null ||
        tap_fail "a job of $account submitted"
done

budgets() { # "account=budget ..." from the newest decision that saw all three
    burstd_status_json | python3 -c '
import json, re, sys
notes = json.load(sys.stdin).get("notes", [])
got = {}
for n in notes:
    m = re.search(r"pfa: account (\S+) budget (\S+)", n)
    if m:
        got[m.group(1)] = m.group(2)
print(" ".join(f"{a}={got[a]}" for a in sorted(got)))'
}
if wait_for "budgets | grep -q 'theory='" 20 && wait_for "[ \"\$(budgets | wc -w)\" = 3 ]" 10; then
    tap_is "budget 100 splits by each account's share of the machine" "$(budgets)" \
        "chem=77.52 lab=3.10 theory=19.38"
else
    tap_fail "pfa noted a budget for theory, chem and lab within 30 s" "$(burstd_status_json)"
fi
scancel -u root
tap_finish
