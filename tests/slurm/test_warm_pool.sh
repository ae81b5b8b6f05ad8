#!/bin/bash
# The warm pool on a real cluster (Policy=warm, PlaceholderQOS=): after a job
# ran in the cloud through two ticks of the forecast, burstd holds its node
# warm with a placeholder job once the job ends, so Slurm does not power it
# down at SuspendTime; a real job that bursts then starts on that node
# within seconds, without a boot, and the placeholder is gone (burstd
# cancels it before the route: 22.05 would power up another node rather than
# preempt it).  A restart of burstd neither loses nor duplicates the
# placeholder; when the forecast drops, burstd cancels it and powers the
# node down.  No policy ever routes or hires for a placeholder.
# Cluster: one local node, CLOUD nodes c1 and c2 (2 CPUs), slurmdbd, a QOS
# "placeholder" that QOS "normal" preempts (PreemptType=preempt/qos,
# PreemptMode=CANCEL), forecaster last-value with 20 s ticks.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
tick=20
burstd_test_cluster warmpool --dbd --local 1 --cloud 2 --cpus 2 \
    --conf PreemptType=preempt/qos --conf PreemptMode=CANCEL || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
if sacctmgr -i add qos placeholder Priority=0 >/dev/null && sacctmgr -i modify qos normal set Preempt=placeholder >/dev/null &&
    sacctmgr -i modify user root set qos+=placeholder >/dev/null; then
    tap_ok "QOS placeholder set up, preempted by normal"
else
    tap_fail "QOS placeholder set up"
    exit 1
fi
warm_lines=("PlaceholderQOS=placeholder" "Policy=warm forecaster=last-value tick=$tick")
burstd_bring_up always "$boot_delay" "${warm_lines[@]}" || exit 1
tap_ok "burstd started with Policy=always then Policy=warm"

placeholders() { squeue -h -q placeholder -n burst-placeholder -o '%i %T %N' 2>/dev/null; }
placeholder_count() { placeholders | grep -c .; }
powered_log() { cat "$work/power.log" 2>/dev/null; }

# Demand: a job that can only start in the cloud, running across two tick boundaries.
burstd_fill_local n1
first=$(sbatch --parsable -p local -n2 -o /dev/null --wrap "sleep $((2 * tick + 5))")
if wait_for "[ \"\$(job_field $first JobState)\" = RUNNING ]" 30; then
    warm_node=$(job_field "$first" NodeList)
    tap_like "job $first bursts to a CLOUD node" "$warm_node" '^c[12]$'
else
    tap_fail "job $first started in the cloud" "$(grep decision "$work/burstd.log" | tail -3)"
    exit 1
fi
tap_is "no placeholder while real work holds the node" "$(placeholder_count)" 0
wait_job_done "$first" $((3 * tick)) >/dev/null || tap_fail "job $first ended"

# The last closed tick counted one node: a placeholder holds it warm.
if wait_for "placeholders | grep -q RUNNING" 15; then
    read -r held _ held_on <<<"$(placeholders | grep RUNNING | head -1)"
    tap_is "a placeholder (job $held) holds the node the job left" "$held_on" "$warm_node"
else
    tap_fail "a placeholder runs once the job ended" "$(placeholders; grep -E 'decision|placeholder' "$work/burstd.log" | tail -5)"
    exit 1
fi
tap_is "one placeholder, not more" "$(placeholder_count)" 1
tap_like "the decision is logged with the forecast" "$(grep "keep 1 node(s) of cloud on: submit 1 placeholder" "$work/burstd.log" | tail -1)" \
    "last-value forecasts 1 node\\(s\\) of demand one boot"
# burstd sees it running at its next snapshot.
warm_status() {
    burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get("status", s); w=s["warm"]["cloud"]; print(w["keep"], w["placeholders_running"])'
}
wait_for "[ \"\$(warm_status)\" = '1 1' ]" 10
tap_is "burstctl status shows the pool: keep, placeholders running" "$(warm_status)" "1 1"
tap_like "burstctl status says it in words" "$("$BURSTCTL_BIN" --socket "$work/control.sock" status)" \
    "warm pool: keep 1 node\\(s\\) on .*1 placeholder\\(s\\) holding nodes"
# SuspendTime is 10 s: without the placeholder the node would power down.
sleep 13
tap_like "the warm node stays up past SuspendTime" "$(sinfo -h -n "$warm_node" -o %T)" '^(allocated|mixed)$'
tap_is "burstd never routed the placeholder" "$(grep -c "route job $held " "$work/burstd.log")" 0

# A real job bursts: burstd cancels the placeholder first, the job starts on the warm node.
resumes_before=$(powered_log | grep -c ' resume ')
t0=$(now)
second=$(sbatch --parsable -p local -n2 -o /dev/null --wrap "sleep $((tick + 5))")
if wait_for "[ \"\$(squeue -h -j $second -o %T)\" = RUNNING ]" 30; then
    start=$(elapsed "$t0")
    tap_is "job $second runs on the warm node" "$(job_field "$second" NodeList)" "$warm_node"
    if awk -v s="$start" 'BEGIN { exit !(s <= 5) }'; then
        tap_ok "job $second started $start s after submission (at most 5 s: no boot)"
    else
        tap_fail "job $second started within 5 s of submission" "$start s"
    fi
else
    tap_fail "job $second started" "$(squeue -j "$second"; grep decision "$work/burstd.log" | tail -5)"
fi
echo "# warm start: $start s from submission to RUNNING"
tap_is "no node was resumed for it" "$(powered_log | grep -c ' resume ')" "$resumes_before"
tap_like "the placeholder was cancelled for it" "$(grep "cancel placeholder job(s) $held for job $second" "$work/burstd.log")" \
    "real work takes warm nodes first"
tap_like "the placeholder ended cancelled" "$(sacct -n -X -j "$held" -o State%20 | xargs)" '^CANCELLED'
wait_job_done "$second" $((2 * tick + 10)) >/dev/null || tap_fail "job $second ended"

# Held again; burstd restarts: the same placeholder, no second one.
if wait_for "placeholders | grep -q RUNNING" 15; then
    read -r again _ <<<"$(placeholders | grep RUNNING | head -1)"
    tap_ok "a placeholder (job $again) holds the node again"
else
    tap_fail "a placeholder holds the node again" "$(placeholders)"
fi
log_before_restart=$(wc -l <"$work/burstd.log")
burstd_stop
burstd_start || tap_fail "burstd restarted"
sleep 3
# The first tick after the restart may already have closed with no demand
# (ticks are 20 s): then burstd has cancelled exactly the placeholder it left.
after_restart() { tail -n +"$((log_before_restart + 1))" "$work/burstd.log"; }
left=$(placeholders | awk '{ print $1 }' | xargs)
if [ "$left" = "${again:-}" ] ||
    { [ -z "$left" ] && after_restart | grep -q "cancel placeholder job(s) ${again:-x},\\? "; }; then
    tap_ok "after a restart, burstd found the placeholder it left (job ${again:-}) and added none"
else
    tap_fail "after a restart, the same placeholder and no other" "placeholders: $left; $(after_restart | grep decision)"
fi
tap_is "no placeholder submitted after the restart" "$(after_restart | grep -c 'submit [0-9]* placeholder')" 0

# No demand for a whole tick: the forecast drops, the placeholder goes and the node powers down.
if wait_for "[ \"\$(placeholder_count)\" = 0 ]" $((2 * tick + 10)); then
    tap_ok "the forecast dropped: no placeholder left"
else
    tap_fail "the placeholder was released" "$(placeholders)"
fi
tap_like "the release is logged" "$(grep "keep 0 node(s) of cloud on: cancel placeholder job(s) ${again:-x}" "$work/burstd.log")" \
    "power down $warm_node"
if wait_node_state "$warm_node" POWERED_DOWN 30; then
    tap_ok "$warm_node powered down"
else
    tap_fail "$warm_node powered down" "$(sinfo -h -n "$warm_node" -o %T)"
fi
tap_is "burstd logged no failed decision" "$(grep -c 'failed:' "$work/burstd.log")" 0
tap_finish
