#!/bin/bash
# The test cluster's PrologSlurmctld (cluster.sh wraps it with SLURM_CONF set).
# slurm-wlm 22.05 launches a batch job on a node that has just powered up only
# at its next 30 s periodic check; when a PrologSlurmctld exists, the launch
# happens as soon as it ends instead.  So: wait until none of the job's nodes is
# still powering up / powered down / powering down, bounded by ResumeTimeout,
# and always succeed (a failing PrologSlurmctld would requeue the job).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
: "${SLURM_CONF:?prolog_slurmctld: SLURM_CONF is not set}"
log=$(dirname "$SLURM_CONF")/log/power.log
echo "$(date +%T.%N) prolog_slurmctld job=${SLURM_JOB_ID:-?} nodes=${SLURM_JOB_NODELIST:-?}" >>"$log"
ready() {
    # sinfo %T suffixes: '#' powering up, '~' powered down, '%' powering down, '!' power down pending
    local states
    states=$(sinfo -h -N -n "$SLURM_JOB_NODELIST" -o %T 2>/dev/null) && [[ $states != *[#~%!]* ]]
}
# Nodes that are already up (e.g. launched while the job was still pending)
# need no `scontrol show config` first: the job starts without that delay.
if ! ready; then
    limit=$(scontrol show config 2>/dev/null | awk '$1 == "ResumeTimeout" { print $3 + 0 }')
    deadline=$((SECONDS + ${limit:-60} + 5))
    until ready; do
        if ((SECONDS >= deadline)); then
            echo "$(date +%T.%N) prolog_slurmctld job=${SLURM_JOB_ID:-?} gave up waiting after ${limit:-60}s" >>"$log"
            exit 0
        fi
        sleep 0.1 # one sinfo RPC per poll; the job waits at most this long after its nodes answer
    done
fi
echo "$(date +%T.%N) prolog_slurmctld job=${SLURM_JOB_ID:-?} nodes ready" >>"$log"
exit 0
