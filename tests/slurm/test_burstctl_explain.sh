#!/bin/bash
# "Why isn't my job bursting?" on a real cluster, asked two ways: burstctl
# explain JOBID (the numbers) and the why: word burstd keeps in each pending
# job's AdminComment (what a user sees in scontrol/squeue without burstctl).
# Four jobs behind full local nodes, under forecast with λ = 0.01 per waiting
# core-hour and a budget line for account beta that no cloud node fits in:
#   soon   2 cores, n2's filler ends within a minute: waiting is cheaper
#   burst  4 cores, both local nodes busy for an hour: it bursts
#   held   4 cores, as long a wait, but account beta's budget: stays local
#   never  tagged burst:never: runs on local nodes only
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
burstd_test_cluster explain --dbd --local 2 --cloud 4 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
burstd_bring_up "forecast lambda=0.01" 2 "Budget=beta Amount=0.0001 Interval=day" || exit 1
burstd_started=$(date +%s)
tap_ok "burstd started and the plugin connected"

explain() { "$BURSTCTL_BIN" --socket "$work/control.sock" explain "$@" 2>&1; }
# What a user sees without burstctl: scontrol show job's AdminComment (22.05's
# squeue has no AdminComment field); it ends where the next Key= begins.
admin_comment() { scontrol show job -o "$1" | perl -ne 'print $1 if /AdminComment=(.*?) +[A-Z][\w\/:]*=/'; }
why() { admin_comment "$1" | grep -o 'why:[^ ]*'; }

fill_long=$(sbatch --parsable -A alpha -p local -n2 -w n1 -t 60 -o /dev/null --wrap 'sleep 3600')
fill_short=$(sbatch --parsable -A alpha -p local -n2 -w n2 -t 1 -o /dev/null --wrap 'sleep 3600')
wait_for "[ \"\$(squeue -h -t R -j $fill_long,$fill_short | wc -l)\" = 2 ]" 15 || tap_fail "local nodes filled"
soon=$(sbatch --parsable -A alpha -p local -n2 -t 1 -o /dev/null --wrap 'sleep 5')
burst=$(sbatch --parsable -A alpha -p local -n4 -t 2 -o /dev/null --wrap 'sleep 5')
held=$(sbatch --parsable -A beta -p local -n4 -t 2 -o /dev/null --wrap 'sleep 5')
never=$(sbatch --parsable -A alpha -p local -n2 -t 1 --comment burst:never -o /dev/null --wrap 'sleep 5')
echo "# fillers $fill_long (n1, an hour) $fill_short (n2, a minute); soon=$soon burst=$burst held=$held never=$never"

if wait_for "job_field $burst Partition | grep -q cloud" 20; then
    tap_ok "the 4-core job was routed to the cloud"
else
    tap_fail "the 4-core job was routed to the cloud" "$(grep -E 'decision|forecast' "$work/burstd.log" | tail -5)"
fi
wait_for "[ -n \"\$(why $held)\" ] && [ -n \"\$(why $soon)\" ]" 15

tap_like "explain: the bursting job was routed, waits for or runs on its cloud nodes" "$(explain "$burst")" \
    "(route job $burst to group cloud|may run in cloud node group cloud|running on c.* \\(cloud node group cloud\\))"
tap_is "its AdminComment says where it may start" "$(why "$burst")" "why:cloud:cloud"

text=$(explain "$held")
tap_like "explain: the job held by the budget says so, naming its account" "$text" "budget of account beta"
json=$(explain "$held" --json)
tap_like "... with the forecast's price of the cloud" "$json" '"cloud_cost": [0-9.e-]+'
tap_like "... and of the wait (null: no local start foreseen)" "$json" '"waiting_cost": ([0-9.e-]+|null)'
tap_is "its AdminComment says the budget held it" "$(why "$held")" "why:budget"
tap_is "it stayed in its own partition" "$(job_field "$held" Partition)" local

tap_like "explain: the burst:never job is local by the user's choice" "$(explain "$never")" "tagged --burst=never"
tap_is "it has no why: word (burst:never says it all)" "$(why "$never")" ""

text=$(explain "$soon")
tap_like "explain: the job that would start soon is kept local, with its expected start" "$text" \
    "forecast: .*expected local start in"
tap_like "its AdminComment says waiting is cheaper (or that it starts now)" "$(why "$soon")" \
    "^why:local:(cheaper|starts-now)$"
tap_is "it was not routed" "$(job_field "$soon" Partition)" local

tap_like "explain of an unknown job names it" "$(explain 999999)" "job 999999 is not in burstd's last snapshot"

# The channel's safety: an administrator replacing AdminComment keeps the
# plugin's words and burstd's; a why:-only update (burstd's) replaces the
# why: word alone; users cannot set one.
scontrol update JobId="$held" AdminComment="site:checked"
tap_like "an administrator's AdminComment keeps the burst:, category: and why: words" "$(admin_comment "$held")" \
    "^burst:allow category:[0-9a-f]{16} why:budget site:checked$"
scontrol update JobId="$never" AdminComment="site:checked"
scontrol update JobId="$never" AdminComment="why:probe"
tap_like "a why:-only update replaces that word and keeps the others" "$(admin_comment "$never")" \
    "^burst:never category:[0-9a-f]{16} why:probe site:checked$"
scontrol update JobId="$never" AdminComment="why:"
tap_like "an empty why: removes it" "$(admin_comment "$never")" "^burst:never category:[0-9a-f]{16} site:checked$"
scontrol update JobId="$held" AdminComment="why:probe"
if wait_for "[ \"\$(why $held)\" = why:budget ]" 10; then
    tap_ok "burstd puts its word back when someone else changed it"
else
    tap_fail "burstd puts its word back when someone else changed it" "$(admin_comment "$held")"
fi
user_why=$(sbatch --parsable -A alpha -p local -n1 -t 1 -H --comment "why:me" -o /dev/null --wrap true)
tap_is "a user's --comment why: word is theirs, not a reason" "$(why "$user_why")" ""
scancel "$user_why"

# What a word costs slurmctld: one job update RPC, sent only on a change.
t0=$EPOCHREALTIME
for _ in $(seq 50); do scontrol update JobId="$never" AdminComment="why:" >/dev/null; done
echo "# one AdminComment update through scontrol: $(awk -v a="$t0" -v b="$EPOCHREALTIME" \
    'BEGIN { printf "%.1f", (b - a) * 1000 / 50 }') ms, process start included"
echo "# slurmctld's side (sdiag, every job update of this run): $(sdiag | grep -m1 'REQUEST_UPDATE_JOB')"
updates=$(grep -c "AdminComment why:" "$work/burstd.log")
echo "# burstd sent $updates why: updates while running $(( $(date +%s) - ${burstd_started:-0} )) s at CycleInterval=1"
tap_like "burstd sent a word per change (4 to 10 here), not one per job and cycle" "$updates" '^([4-9]|10)$'

scancel "$fill_long" "$fill_short" "$soon" "$burst" "$held" "$never"
tap_finish
