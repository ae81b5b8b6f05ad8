#!/bin/bash
# The Slurm actuator (LibslurmActuator through tests/slurm/burst_actuate)
# against a real slurmctld: a pending job's partition list and CPU shape are
# changed, an impossible shape is refused before Slurm sees it, a running job's
# refusal comes back with Slurm's own words, a pending job is placed on one
# node of another partition and released, then put back and held, a running
# job is requeued (one
# submitted --no-requeue refused), CLOUD nodes are powered up and
# force-powered down, and a node's address is set.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
act=${BURST_BUILDDIR:?run through run-all.sh BUILDDIR}/tests/slurm/burst_actuate
[ -x "$act" ] || { tap_fail "burst_actuate is built at $act (make check builds it)"; exit 1; }

# With slurmdbd, as sites run: without it, Slurm 24.11's partition update
# takes a job's association from a lookup that finds none and fails with
# whatever errno was left ("Resource temporarily unavailable", now and then).
cluster_start --dbd --local 1 --cloud 2 --cpus 2 --name actuator
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

# --- a held job stays pending while it is reshaped
job=$(sbatch --parsable --hold -p local -n1 -o /dev/null --wrap 'true')
tap_check "partition list extended to local,cloud" "$act" partitions "$job" local,cloud
tap_is "job $job Partition" "$(job_field "$job" Partition)" "local,cloud"

tap_check "CPU shape set to 1 task x 2 CPUs" "$act" cpus "$job" 1 2 2,2,2
tap_is "job $job NumCPUs" "$(job_field "$job" NumCPUs)" 2
tap_is "job $job NumTasks" "$(job_field "$job" NumTasks)" 1
tap_is "job $job CPUs/Task" "$(job_field "$job" CPUs/Task)" 2
tap_check "CPU shape set to 2 tasks x 1 CPU" "$act" cpus "$job" 2 1 2,2,2
tap_is "job $job NumTasks" "$(job_field "$job" NumTasks)" 2
tap_is "job $job CPUs/Task" "$(job_field "$job" CPUs/Task)" 1

if out=$("$act" cpus "$job" 1 4 2,2 2>&1); then
    tap_fail "a 4-CPU task on 2-CPU nodes is refused" "$out"
else
    tap_like "a 4-CPU task on 2-CPU nodes is refused before Slurm" "$out" 'widest eligible node has 2'
fi
if out=$("$act" cpus "$job" 2 2 2,2,2 2>&1); then
    tap_fail "2 tasks x 2 CPUs for a one-node job on 2-CPU nodes is refused" "$out"
else
    tap_like "2 tasks x 2 CPUs for a one-node job is refused before Slurm" "$out" 'hold only 1'
fi
tap_is "the refused shapes left NumCPUs alone" "$(job_field "$job" NumCPUs)" 2

# --- place: partitions, one node, hold and release in one update; then
# undone.  A BeginTime an hour ahead keeps Slurm from starting (and resuming
# c1 for) the released job.
job=$(sbatch --parsable --hold --begin=now+1hour -p local -n1 -o /dev/null --wrap 'true')
tap_check "held job $job placed on c1 in cloud and released" "$act" place "$job" cloud c1 release
tap_is "job $job Partition" "$(job_field "$job" Partition)" cloud
tap_is "job $job ReqNodeList" "$(job_field "$job" ReqNodeList)" c1
tap_like "job $job no longer held (it waits for its BeginTime)" "$(job_field "$job" Reason)" '^(None|BeginTime)$'
tap_check "job $job back to local on any node, held, StartTime now" "$act" place "$job" local - hold,now
tap_is "job $job Partition" "$(job_field "$job" Partition)" local
tap_is "job $job ReqNodeList cleared" "$(job_field "$job" ReqNodeList)" '(null)'
tap_is "job $job held again" "$(job_field "$job" Reason)" JobHeldAdmin
if out=$("$act" place "$job" cloud nosuchnode release 2>&1); then
    tap_fail "a job placed on an unknown node is refused" "$out"
else
    tap_like "a job placed on an unknown node is refused with Slurm's reason" "$out" '[Ii]nvalid|not available'
fi
tap_is "the refused update changed nothing" "$(job_field "$job" Partition) $(job_field "$job" Reason)" "local JobHeldAdmin"
scancel "$job"

# --- a running job: Slurm's refusal comes back as the error
running=$(sbatch --parsable -p local -n1 -o /dev/null --wrap 'sleep 60')
if wait_for "[ \"\$(job_field $running JobState)\" = RUNNING ]" 30; then
    if out=$("$act" partitions "$running" local,cloud 2>&1); then
        tap_fail "partition change of running job $running is refused" "$out"
    else
        tap_like "partition change of running job is refused with Slurm's reason" "$out" 'no longer pending|pending'
    fi
else
    tap_fail "job $running started within 30 s"
fi

# --- requeue: the job waits again; one submitted --no-requeue is refused
if "$act" requeue "$running" >/dev/null && wait_for "[ \"\$(job_field $running Restarts)\" = 1 ]" 15; then
    tap_like "running job $running requeued" "$(job_field "$running" JobState)" '^(PENDING|REQUEUED|COMPLETING)$'
else
    tap_fail "running job $running requeued" "$(scontrol show job "$running" | grep -E 'JobState|Restarts')"
fi
scancel "$running"
kept=$(sbatch --parsable --no-requeue -p local -n1 -o /dev/null --wrap 'sleep 60')
if wait_for "[ \"\$(job_field $kept JobState)\" = RUNNING ]" 30; then
    if out=$("$act" requeue "$kept" 2>&1); then
        tap_fail "requeue of --no-requeue job $kept is refused" "$out"
    else
        tap_like "requeue of a --no-requeue job is refused with Slurm's reason" "$out" 'presently disabled'
        tap_is "it keeps running" "$(job_field "$kept" JobState)" RUNNING
    fi
else
    tap_fail "job $kept started within 30 s"
fi
scancel "$kept"

# --- power saving driven from outside
if "$act" power up c1 >/dev/null && wait_node_state c1 '^IDLE\+CLOUD$' 30; then
    tap_ok "POWER_UP brought c1 up (ResumeProgram ran, slurmd registered)"
else
    tap_fail "POWER_UP brought c1 up" "state: $(node_state c1)"
fi
if "$act" power down-force c1 >/dev/null && wait_node_state c1 'POWERED_DOWN' 30; then
    tap_ok "POWER_DOWN_FORCE powered c1 down"
else
    tap_fail "POWER_DOWN_FORCE powered c1 down" "state: $(node_state c1)"
fi

tap_check "NodeAddr/NodeHostname of c2 set" "$act" addr c2 localhost "$(hostname)"
tap_like "c2 NodeAddr" "$(scontrol show node -o c2)" 'NodeAddr=localhost '
tap_check "NodeAddr of c2 set back" "$act" addr c2 127.0.0.1

if out=$("$act" power up nosuchnode 2>&1); then
    tap_fail "an unknown node is refused" "$out"
else
    tap_like "an unknown node is refused with Slurm's reason" "$out" 'nosuchnode.*[Ii]nvalid|[Ii]nvalid.*node'
fi

tap_finish
