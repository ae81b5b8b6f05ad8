#!/bin/bash
# The test cluster's default SuspendProgram: "terminating the instance" of a
# CLOUD node means stopping the slurmd that resume_program.sh started, found
# by its pid file only.  Also serves as ResumeFailProgram (resume_fail_program.sh).
#   suspend_program.sh HOSTLIST
set -euo pipefail
: "${SLURM_CONF:?suspend_program: SLURM_CONF is not set (slurmctld sets it)}"
# Slurm's commands: the cluster's own release first (cluster.sh's slurm-path)
slurm_path=$(cat "$(dirname "$SLURM_CONF")/slurm-path" 2>/dev/null || true)
export PATH=${slurm_path:+$slurm_path:}/usr/sbin:/usr/bin:/sbin:/bin
[ $# = 1 ] || { echo "usage: $0 HOSTLIST" >&2; exit 2; }
dir=$(dirname "$SLURM_CONF")
log=$dir/log/power.log
what=${POWER_EVENT:-suspend}

pids=()
for node in $(scontrol show hostnames "$1"); do
    pidfile=$dir/run/slurmd-$node.pid
    pid=$(cat "$pidfile" 2>/dev/null || true)
    echo "$(date +%T.%N) $what $node pid=${pid:-none}" >>"$log"
    if [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; then
        pids+=("$pid")
    fi
done
# Bounded: a slurmd that ignores SIGTERM for 5 s is killed.
for _ in $(seq 50); do
    alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    ((${#alive[@]})) || exit 0
    pids=("${alive[@]}")
    sleep 0.1
done
for pid in "${pids[@]}"; do
    echo "$(date +%T.%N) $what: slurmd pid $pid ignored SIGTERM, sending SIGKILL" >>"$log"
    kill -KILL "$pid" 2>/dev/null || true
done
