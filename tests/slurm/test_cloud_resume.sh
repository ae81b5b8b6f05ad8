#!/bin/bash
# A job that only the cloud can run makes Slurm resume a CLOUD node through the
# ResumeProgram; the job runs there and completes; after SuspendTime idle the
# node is powered down again and its slurmd is gone.  Runs with slurmdbd, so it
# also checks the fair-share accounts and that root can charge either of them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"

test_t0=$(now)
cluster_start --dbd --local 1 --cloud 2 --cpus 2 --name cloudresume
tap_ok "cluster with slurmdbd started in $CLUSTER_START_SECONDS s"

# --- fair-share: the two accounts and their different raw shares
shares=$(sshare -P -a -o Account,User,RawShares)
tap_is "sshare lists account alpha with RawShares 30" \
    "$(awk -F'|' '$1 ~ /^ *alpha$/ && $2 == "" { print $3 }' <<<"$shares")" 30
tap_is "sshare lists account beta with RawShares 10" \
    "$(awk -F'|' '$1 ~ /^ *beta$/ && $2 == "" { print $3 }' <<<"$shares")" 10

# --- a job that fits the ordinary node runs there, charged to alpha
local_job=$(sbatch --parsable -A alpha -p local -N1 -n1 -o "$CLUSTER_DIR/job-%j.out" --wrap 'echo node=$SLURMD_NODENAME')
if wait_job_done "$local_job" 30; then
    tap_is "local job $local_job completed" "$(job_field "$local_job" JobState)" COMPLETED
    tap_is "local job ran on n1" "$(job_field "$local_job" NodeList)" n1
else
    tap_fail "local job $local_job completed within 30 s"
fi

# --- the cloud job: pending until Slurm resumes a CLOUD node for it
submit_t=$(now)
job=$(sbatch --parsable -A beta -p cloud -N1 -n2 -o "$CLUSTER_DIR/job-%j.out" \
    --wrap 'echo node=$SLURMD_NODENAME; sleep 2')
tap_like "cloud job submitted" "$job" '^[0-9]+$'

if wait_for "[ \"\$(job_field $job JobState)\" = RUNNING ]" 60; then
    running_s=$(elapsed "$submit_t")
    tap_ok "cloud job $job is RUNNING $running_s s after submission"
else
    tap_fail "cloud job $job RUNNING within 60 s" \
        "job: $(scontrol show job -o "$job" 2>&1)" "power.log: $(cat "$CLUSTER_DIR/log/power.log" 2>&1)"
fi
node=$(job_field "$job" NodeList || true)
node=${node:-none}
tap_like "cloud job was given a CLOUD node" "$node" '^c[12]$'
tap_like "ResumeProgram was called for $node" "$(cat "$CLUSTER_DIR/log/power.log" 2>/dev/null)" "resume $node"
slurmd_pid=$(cat "$CLUSTER_DIR/run/slurmd-$node.pid" 2>/dev/null || echo none)
tap_like "$node's slurmd is running (pid $slurmd_pid)" "$( [ -d "/proc/$slurmd_pid" ] && cat "/proc/$slurmd_pid/comm")" '^slurmd$'

if wait_job_done "$job" 60; then
    done_t=$(now)
    tap_ok "cloud job left the queue $(elapsed "$submit_t") s after submission"
else
    done_t=$(now)
    tap_fail "cloud job left the queue within 60 s"
fi
tap_is "scontrol: JobState COMPLETED" "$(job_field "$job" JobState)" COMPLETED
tap_is "scontrol: ExitCode 0:0" "$(job_field "$job" ExitCode)" 0:0
tap_is "job output names the node it ran on" "$(cat "$CLUSTER_DIR/job-$job.out" 2>&1)" "node=$node"
# slurmctld hands the job's end to slurmdbd asynchronously
if wait_for "[ \"\$(sacct -n -P -X -j $job -o State)\" = COMPLETED ]" 20; then
    tap_ok "sacct: State COMPLETED"
else
    tap_fail "sacct: State COMPLETED within 20 s" "sacct: $(sacct -n -P -X -j "$job" -o State,ExitCode,NodeList,Account 2>&1)"
fi
tap_is "sacct: ExitCode, NodeList and Account" "$(sacct -n -P -X -j "$job" -o ExitCode,NodeList,Account)" "0:0|$node|beta"

# --- idle -> powered down after SuspendTime (10 s) + SuspendTimeout (3 s)
if wait_node_state "$node" '^IDLE\+CLOUD\+POWERED_DOWN$' 40; then
    tap_ok "$node is IDLE+CLOUD+POWERED_DOWN $(elapsed "$done_t") s after the job ended"
else
    tap_fail "$node powered down within 40 s of the job's end" "node: $(scontrol show node -o "$node" 2>&1)"
fi
if ! [[ $slurmd_pid =~ ^[0-9]+$ ]]; then
    tap_fail "$node's slurmd is gone" "its pid was never known"
elif wait_for "! [ -d /proc/$slurmd_pid ] || [ \"\$(awk '{ print \$3 }' /proc/$slurmd_pid/stat)\" = Z ]" 10; then
    tap_ok "$node's slurmd (pid $slurmd_pid) is gone"
else
    tap_fail "$node's slurmd (pid $slurmd_pid) stopped by the SuspendProgram"
fi
tap_like "SuspendProgram was called for $node" "$(cat "$CLUSTER_DIR/log/power.log")" "suspend $node"
other=$([ "$node" = c1 ] && echo c2 || echo c1)
tap_is "the other CLOUD node $other was never resumed" "$(node_state "$other")" IDLE+CLOUD+POWERED_DOWN

tap_note "timings: cluster start ${CLUSTER_START_SECONDS} s, submit->running ${running_s:-n/a} s, test $(elapsed "$test_t0") s"
tap_finish
