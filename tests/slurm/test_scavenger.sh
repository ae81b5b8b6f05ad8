#!/bin/bash
# Scavenger work on a real cluster (ScavengerQOS=): jobs of that QOS are never
# demand and never cost money.  One asking for the cloud partition only gets
# no instance: burstd holds it, and a CLOUD node Slurm resumed for it first
# is refused (handed back, the job requeued).  One asking for
# local,cloud while the local node is busy loses the cloud partition and
# waits.  Once the local node is free it runs there, a real job preempts it
# (requeue) and it finishes later.  (Submitted without --hold, Slurm may
# schedule such a job onto a CLOUD node before burstd's next cycle; the
# resume guard refuses that node too.)  No policy routes a scavenger job.
# A job with the cloud partition alone then waits held.
# Then, with ScavengeWarmNodes=yes and a warm pool (Policy=warm): a waiting
# scavenger job takes a placeholder's warm node (pinned there, the
# placeholder cancelled, no node resumed), is requeued when a real job needs
# the node, takes it again once the placeholder is back, keeps it across a
# burstd restart, is requeued when the forecast drops (and the node powered
# down), and finishes on the local node.
# Cluster: one local node, CLOUD nodes c1 and c2 (2 CPUs), slurmdbd, a QOS
# "scavenger" that QOS "normal" preempts (PreemptType=preempt/qos,
# PreemptMode=REQUEUE).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
# cred_expire 15: the preempted scavenger may start again 16 s after its
# requeue, not Slurm's default 121; sched_interval 5: then the main scheduler
# starts it within 5 s, not 60 (a BeginTime that passes changes no state, so
# backfill, which runs only after changes, does not look).
burstd_test_cluster scavenge --dbd --local 1 --cloud 2 --cpus 2 --cred-expire 15 \
    --conf PreemptType=preempt/qos --conf PreemptMode=REQUEUE --conf SchedulerParameters=sched_interval=5 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
if sacctmgr -i add qos scavenger Priority=0 >/dev/null && sacctmgr -i modify qos normal set Preempt=scavenger >/dev/null &&
    sacctmgr -i modify user root set qos+=scavenger >/dev/null; then
    tap_ok "QOS scavenger set up, preempted by normal"
else
    tap_fail "QOS scavenger set up"
    exit 1
fi
burstd_bring_up always "$boot_delay" "ScavengerQOS=scavenger" || exit 1
tap_ok "burstd started with Policy=always and ScavengerQOS=scavenger"
launches() { grep -c 'launched c[0-9]* as' "$work/burstd.log"; }

filler=$(sbatch --parsable -p local -n2 -w n1 -o /dev/null --wrap 'sleep 300')
wait_for "[ \"\$(job_field $filler JobState)\" = RUNNING ]" 15 || tap_fail "local node filled"

# Cloud only: burstd holds it, and if Slurm resumed a node for it before
# burstd's next cycle (timing decides), burstd launched nothing for that node.
cloud_only=$(sbatch --parsable -p cloud -q scavenger -n2 -o /dev/null --wrap 'sleep 5')
if wait_for "[ \"\$(job_field $cloud_only Reason)\" = JobHeldAdmin ]" 20; then
    tap_ok "scavenger job $cloud_only waits held: it has no partition of local nodes"
else
    tap_fail "scavenger job $cloud_only waits held" "$(scontrol show job "$cloud_only" | grep -E 'JobState|Reason'; tail -5 "$work/burstd.log")"
fi
tap_like "its reason says why" "$(scontrol show job "$cloud_only" | grep -o 'why:[^ ]*')" '^why:scavenger-job-only-for-cloud-nodes$'
sleep 3
resumes=$(grep -c ' resume ' "$work/power.log" 2>/dev/null || true)
refusals=$(grep -c 'no instance launched: resumed only for scavenger jobs' "$work/burstd.log")
echo "# Slurm resumed $resumes node(s) for it before it was held; burstd refused $refusals"
tap_is "every node Slurm resumed for it was refused" "$refusals" "${resumes:-0}"
tap_is "no instance was launched for it" "$(launches)" 0
tap_is "the ledger has no open instance" "$(burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get("status", s); print(len(s["instances"]))')" 0
scancel "$cloud_only"

# Local or cloud: it loses the cloud partition and waits for the local node.
# Submitted held: Slurm would otherwise schedule it onto a CLOUD node before
# burstd's next cycle, and that node would be refused as above (no money
# either, but the job then waits in Cleaning for the refused node).
# The run a real job preempts holds n1 a while; the rerun after the requeue
# (SLURM_RESTART_COUNT 1) ends at once.
either=$(sbatch --parsable --hold -p local,cloud -q scavenger -n2 -o /dev/null \
    --wrap 'sleep $((${SLURM_RESTART_COUNT:-0} ? 1 : 20))')
if wait_for "[ \"\$(job_field $either Partition)\" = local ]" 20; then
    tap_ok "scavenger job $either was kept off the cloud (partition local)"
else
    tap_fail "scavenger job $either was kept off the cloud" "$(job_field "$either" Partition; grep "$either" "$work/burstd.log" | tail -3)"
fi
scontrol release "$either"
sleep 3
tap_is "still no instance launched" "$(launches)" 0
tap_is "no policy routed a scavenger job" "$(grep -cE "route job ($cloud_only|$either) " "$work/burstd.log")" 0

# The local node frees up: the scavenger runs there until real work comes.
scancel "$filler"
if wait_for "[ \"\$(job_field $either JobState)\" = RUNNING ]" 30; then
    tap_is "scavenger job $either runs on the local node" "$(job_field "$either" NodeList)" n1
else
    tap_fail "scavenger job $either started locally" "$(scontrol show job "$either" | grep -E 'JobState|Priority|BeginTime|Partition'; sinfo -N)"
fi
real=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'sleep 3')
if wait_for "[ \"\$(job_field $real JobState)\" = RUNNING ]" 30; then
    tap_is "a real job preempts it and runs on n1" "$(job_field "$real" NodeList)" n1
else
    tap_fail "the real job $real started" "$(squeue)"
fi
tap_like "the scavenger was requeued, not killed" "$(job_field "$either" JobState)" '^(PENDING|REQUEUED|COMPLETING)$'
tap_like "sacct shows it preempted" "$(sacct -n -D -j "$either" -o State%20 | xargs)" 'PREEMPTED|REQUEUED'
wait_job_done "$real" 30 >/dev/null
# A requeued batch job may start no earlier than its BeginTime (Slurm holds it a little).
if wait_job_done "$either" 60; then
    tap_is "the scavenger job finished later" "$(sacct -n -X -j "$either" -o State%20 | xargs)" COMPLETED
else
    tap_fail "the scavenger job finished later" "$(scontrol show job "$either" | grep -E 'JobState|BeginTime|Reason')"
fi
tap_is "no instance was ever launched" "$(launches)" 0

# A scavenger on a CLOUD node that is up: Slurm starts one released onto it
# before burstd's next cycle can hold it (released again once burstd has:
# burstd holds a waiting job once).  Beside real work the node is up for
# that work; alone on it, the scavenger would keep it up, so with no warm
# pool wanting the node burstd requeues it, and the node idles and powers
# down at SuspendTime.
real=$(sbatch --parsable -p cloud -n1 -o /dev/null --wrap 'sleep 25')
if wait_for "[ \"\$(job_field $real JobState)\" = RUNNING ]" 60; then
    tap_ok "a real job runs on cloud node $(job_field "$real" NodeList)"
else
    tap_fail "a real job runs on a cloud node" "$(squeue; tail -5 "$work/burstd.log")"
fi
node=$(job_field "$real" NodeList)
up_scavenger=$(sbatch --parsable --hold -p cloud -w "$node" -q scavenger -n1 -o /dev/null --wrap 'sleep 300')
for _ in 1 2 3; do
    scontrol release "$up_scavenger" 2>/dev/null
    wait_for "[ \"\$(job_field $up_scavenger JobState)\" = RUNNING ]" 4 && break
done
if [ "$(job_field "$up_scavenger" JobState)" = RUNNING ]; then
    tap_ok "scavenger job $up_scavenger runs beside it on $node"
else
    tap_fail "scavenger job $up_scavenger runs beside the real job" "$(scontrol show job "$up_scavenger" | grep -E 'JobState|Reason')"
fi
sleep 3
tap_is "beside real work it is left alone" "$(grep -c "requeue scavenger job(s) $up_scavenger" "$work/burstd.log")" 0
wait_job_done "$real" 40 >/dev/null
tap_is "the real job beside it completed" "$(sacct -n -X -j "$real" -o State%20 | xargs)" COMPLETED
if wait_for "grep -q 'requeue scavenger job(s) $up_scavenger' '$work/burstd.log'" 15; then
    tap_ok "alone on $node it is requeued"
else
    tap_fail "alone on $node it is requeued" "$(scontrol show job "$up_scavenger" | grep -E 'JobState|Reason'; tail -5 "$work/burstd.log")"
fi
if wait_for "scontrol show node $node | grep -qE 'State=[A-Z+]*POWER(ING_DOWN|ED_DOWN)'" 40; then
    tap_ok "$node idles and powers down"
else
    tap_fail "$node powers down" "$(scontrol show node "$node" | grep -E 'State=')"
fi
if wait_for "[ \"\$(job_field $up_scavenger Reason)\" = JobHeldAdmin ]" 30; then
    tap_ok "the requeued scavenger waits held (it has only the cloud partition)"
else
    tap_fail "the requeued scavenger waits held" "$(scontrol show job "$up_scavenger" | grep -E 'JobState|Reason')"
fi
tap_is "one instance was launched, for the real job" "$(launches)" 1
scancel "$up_scavenger"
tap_is "burstd logged no failed decision" "$(grep -c 'failed:' "$work/burstd.log")" 0

# --- ScavengeWarmNodes=yes: scavenger work on the nodes placeholders hold
tick=20
if sacctmgr -i add qos placeholder Priority=0 >/dev/null &&
    sacctmgr -i modify qos normal set Preempt=scavenger,placeholder >/dev/null &&
    sacctmgr -i modify user root set qos+=placeholder >/dev/null; then
    tap_ok "QOS placeholder set up, preempted by normal"
else
    tap_fail "QOS placeholder set up"
fi
burstd_stop
burstd_bring_up always "$boot_delay" "ScavengerQOS=scavenger" "PlaceholderQOS=placeholder" "ScavengeWarmNodes=yes" \
    "Policy=warm forecaster=last-value tick=$tick" || exit 1
tap_ok "burstd restarted with ScavengeWarmNodes=yes and Policy=warm"
placeholders() { squeue -h -q placeholder -n burst-placeholder -t R -o '%i %N' 2>/dev/null; }
resumes() { grep -c ' resume ' "$work/power.log" 2>/dev/null || true; }
pinned() { grep -c "put scavenger job $1 on warm node $2" "$work/burstd.log"; }
# An early launch is logged again when ResumeProgram asks for its node (existing token): count instances.
instances() { grep -o 'launched c[0-9]* as [^ ]*' "$work/burstd.log" | sort -u | wc -l; }
instances_before=$(instances)

burstd_fill_local n1
first=$(sbatch --parsable -p local -n2 -o /dev/null --wrap "sleep $((2 * tick + 5))")
# Runs 300 s on a warm node (restarts 0 and 1), a second on the local node (restart 2).
scavenger=$(sbatch --parsable --hold -p local,cloud -q scavenger -n1 -o /dev/null \
    --wrap 'sleep $((${SLURM_RESTART_COUNT:-0} >= 2 ? 1 : 300))')
wait_for "[ \"\$(job_field $scavenger Partition)\" = local ]" 20 ||
    tap_fail "scavenger job $scavenger kept off the cloud" "$(job_field "$scavenger" Partition)"
if wait_for "[ \"\$(job_field $first JobState)\" = RUNNING ]" 30; then
    warm=$(job_field "$first" NodeList)
    tap_like "job $first bursts to a CLOUD node" "$warm" '^c[12]$'
else
    tap_fail "job $first started in the cloud" "$(grep decision "$work/burstd.log" | tail -3)"
    exit 1
fi
wait_job_done "$first" $((3 * tick)) >/dev/null || tap_fail "job $first ended"
if wait_for "placeholders | grep -q ." 15; then
    read -r held held_on <<<"$(placeholders | head -1)"
    tap_is "a placeholder (job $held) holds $warm warm" "$held_on" "$warm"
else
    tap_fail "a placeholder holds the node" "$(grep -E 'decision' "$work/burstd.log" | tail -5)"
    exit 1
fi
resumes_before=$(resumes)

# Released, the scavenger job takes the placeholder's place at once.
scontrol release "$scavenger"
if wait_for "[ \"\$(job_field $scavenger JobState)\" = RUNNING ]" 15; then
    tap_is "scavenger job $scavenger runs on warm node $warm" "$(job_field "$scavenger" NodeList)" "$warm"
else
    tap_fail "scavenger job $scavenger runs on the warm node" "$(scontrol show job "$scavenger" | grep -E 'JobState|Reason|Partition|ReqNodeList'; grep decision "$work/burstd.log" | tail -5)"
fi
tap_is "burstd pinned it there (Partition=cloud ReqNodeList=$warm)" "$(job_field "$scavenger" Partition) $(job_field "$scavenger" ReqNodeList)" "cloud $warm"
tap_is "the log says so" "$(pinned "$scavenger" "$warm")" 1
tap_like "the placeholder was cancelled for it" "$(sacct -n -X -j "$held" -o State%20 | xargs)" '^CANCELLED'
pinned_at=$(wc -l <"$work/burstd.log")
tap_is "no node was resumed for it" "$(resumes)" "$resumes_before"
warm_status() {
    burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get("status", s); w=s["warm"]["cloud"]; print(w["keep"], w["placeholders_running"], w["scavengers_running"])'
}
wait_for "[ \"\$(warm_status)\" = '1 0 1' ]" 5
tap_is "burstctl status: keep 1, no placeholder, one scavenger job" "$(warm_status)" "1 0 1"

sleep 2 # two cycles
tap_is "no other placeholder was asked for while it runs there" \
    "$(tail -n +"$((pinned_at + 1))" "$work/burstd.log" | grep -c 'submit [0-9]* placeholder')" 0
# A real job bursts: the scavenger job is requeued and put back where it waited.
t0=$(now)
real=$(sbatch --parsable -p local -n2 -o /dev/null --wrap "sleep $((tick + 5))")
if wait_for "[ \"\$(squeue -h -j $real -o %T)\" = RUNNING ]" 30; then
    start=$(elapsed "$t0")
    tap_is "real job $real runs on the warm node" "$(job_field "$real" NodeList)" "$warm"
    echo "# real job started $start s after submission on a node a scavenger job held"
else
    tap_fail "real job $real started" "$(squeue; grep decision "$work/burstd.log" | tail -5)"
fi
tap_like "the scavenger job was requeued for it" "$(grep "requeue scavenger job(s) $scavenger for job $real" "$work/burstd.log")" \
    "real work takes warm nodes first"
if wait_for "[ \"\$(job_field $scavenger Partition) \$(job_field $scavenger ReqNodeList)\" = 'local (null)' ]" 15; then
    tap_ok "requeued, it waits where it did before (Partition=local, no ReqNodeList)"
else
    tap_fail "requeued, it is put back" "$(scontrol show job "$scavenger" | grep -E 'JobState|Partition|ReqNodeList')"
fi
tap_is "no node was resumed for the real job" "$(resumes)" "$resumes_before"

# The real job ends: a placeholder holds the node again, and the scavenger job takes its place again.
wait_job_done "$real" $((2 * tick + 10)) >/dev/null || tap_fail "job $real ended"
if wait_for "[ \"\$(pinned $scavenger $warm)\" = 2 ] && [ \"\$(job_field $scavenger JobState)\" = RUNNING ]" 20; then
    tap_ok "scavenger job $scavenger runs on $warm again in a placeholder's place"
else
    tap_fail "scavenger job $scavenger takes the warm node again" "$(scontrol show job "$scavenger" | grep -E 'JobState|Reason|Partition'; placeholders; grep decision "$work/burstd.log" | tail -5)"
fi

# A restart neither loses the pin nor adds a placeholder.
log_before_restart=$(wc -l <"$work/burstd.log")
burstd_stop
burstd_start || tap_fail "burstd restarted"
sleep 3
after_restart() { tail -n +"$((log_before_restart + 1))" "$work/burstd.log"; }
tap_is "after a restart, no placeholder was submitted" "$(after_restart | grep -c 'submit [0-9]* placeholder')" 0
# (The forecast may drop meanwhile: then it was requeued, and put back for that.)
tap_is "after a restart, the pinned job was not put back" \
    "$(after_restart | grep "put scavenger job $scavenger back" | grep -vc 'it was requeued from')" 0

# No demand for a whole tick: the forecast drops and the scavenger job gives
# the node up; burstd powers it down, as a placeholder's.
if wait_for "grep -q 'keep 0 node(s) of cloud on: requeue scavenger job(s) $scavenger, power down $warm' '$work/burstd.log'" $((2 * tick + 10)); then
    tap_ok "the forecast dropped: scavenger job $scavenger was requeued, $warm powered down"
else
    tap_fail "the forecast drop requeued the scavenger job and powered its node down" "$(grep decision "$work/burstd.log" | tail -5)"
fi
if wait_node_state "$warm" POWERED_DOWN 40; then
    tap_ok "$warm powered down"
else
    tap_fail "$warm powered down" "$(sinfo -h -n "$warm" -o %T)"
fi
scancel "${FILLERS[@]}"
if wait_job_done "$scavenger" 40; then
    tap_is "the scavenger job finished on the local node" "$(sacct -n -X -j "$scavenger" -o State%20,NodeList | xargs)" "COMPLETED n1"
else
    tap_fail "the scavenger job finished" "$(scontrol show job "$scavenger" | grep -E 'JobState|Reason|Partition|BeginTime')"
fi
tap_is "one more instance was launched, for the job that burst" "$(instances)" $((instances_before + 1))
tap_is "burstd logged no failed decision" "$(grep -c 'failed:' "$work/burstd.log")" 0
tap_finish
