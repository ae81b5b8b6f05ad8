#!/bin/bash
# Instances that launch but never become Slurm nodes, on a real cluster: the
# local provider's "image" is /bin/false, so every instance dies at boot.
# With BootFailures=1 the first one puts the group in protected mode: no more
# launches, visible in burstctl status (text and --json) and the log; the
# job is handed back (requeued, its BeginTime lifted), taken off the cloud
# partition and stays pending instead of failing; no node is left DOWN; the
# group's nodes are drained with the breaker state as reason, so a cloud-only
# job gets no node resumed (no churn); the first job runs locally once the
# local node frees.  burstctl reset-group ends it and undrains burstd's
# drains, not an administrator's.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so"; do
    [ -e "$f" ] || { tap_fail "$f is built (run make first)"; exit 1; }
done

work=$(mktemp -d /tmp/burstd-protected.XXXXXX)
burstd_programs "$work"
cluster_start --local 1 --cloud 2 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name protmode \
    --resume-program "$work/resume" --suspend-program "$work/suspend" \
    --resume-fail-program "$work/resume-fail" --conf ResumeTimeout=15 || exit 1
on_exit() {
    local rc=$?
    burstd_cleanup
    [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ] && rm -rf "$work" || echo "# burstd files kept in $work"
    cluster_stop "$rc"
}
trap on_exit EXIT
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

burstd_write_conf always 1
sed -i -e 's|^Provider=box Type=local|& SlurmdPath=/bin/false|' \
    -e 's|^NodeGroup=cloud .*|& BootFailures=1 CoolDown=10m|' "$work/burstd.conf"
tap_check "burstd --check-config accepts BootFailures and CoolDown" "$BURSTD_BIN" --check-config -f "$work/burstd.conf"
if burstd_start; then
    tap_ok "burstd started"
else
    tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || tap_fail "the plugin connected to burstd"

filler=$(sbatch --parsable -p local -n2 -w n1 -o /dev/null --wrap 'sleep 600')
wait_for "[ \"\$(squeue -h -t R -j $filler | wc -l)\" = 1 ]" 15 || tap_fail "the local node is filled"
job=$(sbatch --parsable -p local -n2 -o "$work/job.out" --wrap 'echo "ran on $SLURMD_NODENAME"')

if wait_for "grep -q 'launched c[12] as' '$work/burstd.log'" 40; then
    tap_ok "burstd launched an instance for job $job"
else
    tap_fail "burstd launched an instance" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
t_launch=$(now)
if wait_for "grep -q 'node group cloud: hiring -> protected' '$work/burstd.log'" 45; then
    tap_ok "the group entered protected mode $(elapsed "$t_launch") s after the launch"
else
    tap_fail "the group entered protected mode" "$(grep -E 'reconcile|resume-fail|node group' "$work/burstd.log" | tail -5)"
fi
status=$("$BURSTCTL_BIN" --socket "$work/control.sock" status)
tap_like "burstctl status shows it with the reason" "$status" "launches: protected \(boot: .*\), next probe in [0-9]+ s"
tap_is "burstctl status --json has it" "$(burstd_status_json | python3 -c 'import json,sys
s=json.load(sys.stdin); s=s.get("status", s); h=s["group_health"]["cloud"]; print(h["mode"], h["cause"], h["state"])')" \
    "protected boot open"

if wait_for "[ \"\$(job_field $job Partition)\" = local ]" 20; then
    tap_ok "job $job was taken off the cloud partition"
else
    tap_fail "job $job was taken off the cloud partition" "partitions $(job_field "$job" Partition)"
fi
tap_is "job $job is pending, not failed" "$(job_field "$job" JobState)" PENDING
# Reconcile repeats a resume Slurm still waits for with the same token: that
# starts nothing new; a new instance would come with a new token.
launches=$(grep 'launched c[12] as' "$work/burstd.log" | grep -vc 'existing token')
tap_is "no new instance after the first boot failure" "$launches" 1
for n in c1 c2; do
    if wait_node_state "$n" 'POWERED_DOWN' 40; then
        tap_ok "$n is powered down ($(node_state "$n"))"
    else
        tap_fail "$n is powered down" "state: $(node_state "$n")"
    fi
done
tap_is "no CLOUD node is DOWN" "$(sinfo -h -N -p cloud -t down -o %N)" ""

# While the group may not launch its powered-down nodes are drained, so a job
# that can only run there stays pending instead of having a node resumed,
# refused and handed back every round.
drain_reasons() { sinfo -h -R -N -o '%N|%E' | sort; }
if wait_for "[ \"\$(drain_reasons | grep -c '|burstd: node group cloud protected (boot)')\" = 2 ]" 10; then
    tap_ok "sinfo -R shows c1 and c2 drained by burstd with the breaker state"
else
    tap_fail "sinfo -R shows c1 and c2 drained by burstd with the breaker state" "$(drain_reasons)"
fi
resumes() { grep -cE 'resume c[12]: |launched c[12] as' "$work/burstd.log"; }
resumes_before=$(resumes)
cloud_job=$(sbatch --parsable -p cloud -n2 -o /dev/null --wrap true)
sleep 20
tap_is "no resume for cloud-only job $cloud_job in 20 s (was one per round)" "$(( $(resumes) - resumes_before ))" 0
tap_is "job $cloud_job waits" "$(job_field "$cloud_job" JobState)" PENDING
tap_is "c1 and c2 stayed powered down" "$(node_state c1 | grep -c POWERED_DOWN) $(node_state c2 | grep -c POWERED_DOWN)" "1 1"
scancel "$cloud_job"
# An administrator's drain over burstd's is the administrator's to clear.
scontrol update NodeName=c2 State=DRAIN Reason="admin: disk swap"

# BeginTime lifted: the job starts as soon as the local node frees, not 20 min later.
scancel "$filler"
if wait_job_done "$job" 30; then
    tap_is "job $job then completed" "$(job_field "$job" JobState)" COMPLETED
    tap_like "on the local node" "$(cat "$work/job.out")" "ran on n1"
else
    tap_fail "job $job ran once the local node freed" "$(scontrol show job "$job" | grep -E 'JobState|BeginTime|Restarts')"
fi

tap_like "burstctl reset-group ends protected mode" \
    "$("$BURSTCTL_BIN" --socket "$work/control.sock" reset-group cloud)" "node group cloud: protected -> hiring"
tap_like "the status says hiring again" "$("$BURSTCTL_BIN" --socket "$work/control.sock" status)" "launches: hiring"
if wait_for "[ -z \"\$(drain_reasons | grep '^c1|')\" ]" 10; then
    tap_ok "c1, drained by burstd, is undrained once the group hires"
else
    tap_fail "c1, drained by burstd, is undrained once the group hires" "$(drain_reasons)"
fi
tap_is "c2 keeps the administrator's drain" "$(drain_reasons | grep '^c2|')" "c2|admin: disk swap"
scontrol update NodeName=c2 State=UNDRAIN
tap_like "reset-group refuses an unknown group" \
    "$("$BURSTCTL_BIN" --socket "$work/control.sock" reset-group nosuch 2>&1)" "no NodeGroup=nosuch"
tap_is "no instance process is left" "$(burstd_instance_slurmds)" ""
tap_is "no instance is open in the ledger" \
    "$(sqlite3 "$work/state/ledger.sqlite" "SELECT count(*) FROM instances WHERE state NOT IN ('terminated','failed')")" 0
tap_finish
