#!/bin/bash
# burstd end to end on a real cluster: the job_submit/burst plugin exports to
# burstd, the "always" policy makes a job that cannot start locally
# cloud-eligible, Slurm resumes a CLOUD node through `burstctl resume`, the
# local provider starts its slurmd (after a boot delay, like a cloud
# instance), the job completes there, Slurm suspends the idle node through
# `burstctl suspend` and the instance is terminated and closed in the ledger.
# A job tagged burst:never stays local.  Prints the time from the job
# becoming cloud-eligible to RUNNING, minus the boot delay.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so"; do
    [ -e "$f" ] || { tap_fail "$f is built (run make first)"; exit 1; }
done

work=$(mktemp -d /tmp/burstd-burst.XXXXXX)
burstd_programs "$work"
cluster_start --local 2 --cloud 2 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name burste2e \
    --resume-program "$work/resume" --suspend-program "$work/suspend" \
    --resume-fail-program "$work/resume-fail" || exit 1
on_exit() {
    local rc=$?
    burstd_cleanup
    [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ] && rm -rf "$work" || echo "# burstd files kept in $work"
    cluster_stop "$rc"
}
trap on_exit EXIT
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

burstd_write_conf always "$boot_delay"
tap_check "burstd --check-config accepts the configuration" "$BURSTD_BIN" --check-config -f "$work/burstd.conf"
if burstd_start; then
    tap_ok "burstd started"
else
    tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
burstd_enable_plugin
if wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15; then
    tap_ok "the plugin connected to burstd"
else
    tap_fail "the plugin connected to burstd" "$(tail -5 "$CLUSTER_DIR/log/slurmctld.log")"
fi
wait_for "burstd_status_json | grep -q '\"seq\"'" 10 || tap_fail "burstd received a snapshot"

# Fill both local nodes, then queue work that only the cloud can start now.
filler1=$(sbatch --parsable -p local -n2 -w n1 -o /dev/null --wrap 'sleep 300')
filler2=$(sbatch --parsable -p local -n2 -w n2 -o /dev/null --wrap 'sleep 300')
wait_for "[ \"\$(squeue -h -t R -p local | wc -l)\" = 2 ]" 15 || tap_fail "local nodes filled"
never=$(sbatch --parsable -p local -n2 --comment burst:never -o /dev/null --wrap 'hostname')
job=$(sbatch --parsable -p local -n2 -o "$work/job.out" --wrap 'hostname; sleep 1')
t_submit=$(now)

if wait_for "job_field $job Partition | grep -q cloud" 20; then
    t_eligible=$(now)
    tap_ok "burstd made job $job cloud-eligible $(elapsed "$t_submit") s after submission"
else
    tap_fail "burstd made job $job cloud-eligible" "$(grep decision "$work/burstd.log" | tail -3)"
    exit 1
fi
# Once Slurm allocates it a cloud node (now often within a second), it shows
# only the partition it runs in.
tap_like "its partition list is local,cloud (cloud once allocated)" "$(job_field "$job" Partition)" '^(local,cloud|cloud)$'

tap_like "the decision is logged with its reason" "$(grep "decision: route job $job" "$work/burstd.log")" \
    "cannot start on local nodes now"

running=0
deadline=$((SECONDS + 60))
while [ $SECONDS -lt $deadline ]; do
    state=$(squeue -h -j "$job" -o %T 2>/dev/null)
    if [ "$state" = RUNNING ] || [ "$state" = COMPLETING ] || [ -z "$state" ]; then
        running=1
        break
    fi
    sleep 0.05
done
t_running=$(now)
if [ $running = 1 ]; then
    total=$(awk -v a="$t_eligible" -v b="$t_running" 'BEGIN { printf "%.2f", b - a }')
    overhead=$(awk -v t="$total" -v d="$boot_delay" 'BEGIN { printf "%.2f", t - d }')
    tap_ok "job $job RUNNING $total s after becoming cloud-eligible"
    echo "# burst overhead: eligible->RUNNING $total s - boot delay $boot_delay s = $overhead s"
    # burstd's own share: Slurm's resume call -> instance launched (from the logs).
    resume_at=$(awk '$2 == "resume" { print $1; exit }' "$work/power.log")
    tap_note "ResumeProgram called $(awk -v a="$t_eligible" -v b="$resume_at" 'BEGIN { printf "%.2f", b - a }') s after eligibility (Slurm's scheduling and power_save passes)"
    ms() { sed -n "s/^\[[0-9-]*T\([0-9:.]*\)\] .*$1.*/\1/p" "$work/burstd.log" | head -1 |
        awk -F: '{ printf "%.3f", $1 * 3600 + $2 * 60 + $3 }'; }
    tap_note "burstd: resume request -> instance launched in $(awk -v a="$(ms 'resume c[0-9]* (from')" -v b="$(ms 'launched c[0-9]* as')" 'BEGIN { printf "%.3f", b - a }') s"
else
    tap_fail "job $job started on a cloud node" "state: $(squeue -h -j "$job" -o %T) $(tail -5 "$work/burstd.log")"
fi
if wait_job_done "$job" 60; then
    tap_is "job $job completed" "$(job_field "$job" JobState)" COMPLETED
    node=$(job_field "$job" NodeList)
    tap_like "it ran on a CLOUD node" "$node" '^c[12]$'
else
    tap_fail "job $job completed within 60 s"
    node=c1
fi
tap_like "launch logged with a provider id" "$(grep "launched $node as" "$work/burstd.log")" "local-$node-"
if wait_for "burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get(\"status\", s); sys.exit(0 if any(i[\"state\"]==\"running\" and i[\"node\"]==\"$node\" for i in s[\"instances\"]) else 1)' 2>/dev/null || grep -q 'retired $node' '$work/burstd.log'" 10; then
    tap_ok "the ledger saw $node running"
else
    tap_fail "the ledger saw $node running" "$(burstd_status_json)"
fi

# Idle for SuspendTime (10 s): Slurm powers it down through burstctl suspend.
if wait_node_state "$node" 'POWERED_DOWN' 45 && wait_for "grep -q 'retired $node' '$work/burstd.log'" 10; then
    tap_ok "$node powered down after SuspendTime and burstd retired it"
else
    tap_fail "$node powered down and retired" "$(tail -5 "$work/burstd.log")"
fi
if wait_for "[ -z \"\$(pgrep -f -- 'slurmd -D -b -N $node -f $SLURM_CONF')\" ]" 15; then
    tap_ok "no slurmd runs for $node any more"
else
    tap_fail "no slurmd runs for $node any more"
fi
ledger=$(sqlite3 "$work/state/ledger.sqlite" "SELECT node || ' ' || state FROM instances ORDER BY id" 2>&1)
tap_like "the ledger says $node's instance is terminated" "$ledger" "$node terminated"
tap_is "no instance is open in the ledger" \
    "$(burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(len(s.get("status", s)["instances"]))')" 0

# The burst:never job waits for the local nodes however long it takes.
tap_is "the burst:never job was never made cloud-eligible" "$(job_field "$never" Partition)" local
tap_is "it is still pending" "$(squeue -h -j "$never" -o %T)" PENDING
scancel "$filler1" "$filler2"
if wait_job_done "$never" 30; then
    tap_like "it then ran locally" "$(job_field "$never" NodeList)" '^n[12]$'
else
    tap_fail "the burst:never job ran once local nodes freed"
fi
# The status reflects the latest snapshot (ExportInterval=1): let it catch up.
wait_for "'$BURSTCTL_BIN' --socket '$work/control.sock' status | grep -q 'powered_down: c\[1-2\]'" 10
status=$("$BURSTCTL_BIN" --socket "$work/control.sock" status)
tap_like "burstctl status lists the decision with its reason" "$status" "route job $job to group cloud.*cannot start"
tap_like "burstctl status shows the node group's nodes by state" "$status" "powered_down: c\[1-2\]"
echo "$status" | sed 's/^/# /'
tap_finish
