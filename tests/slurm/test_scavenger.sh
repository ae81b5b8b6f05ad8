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
tap_finish
