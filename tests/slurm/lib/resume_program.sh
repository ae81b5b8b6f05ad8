#!/bin/bash
# The test cluster's default ResumeProgram: "launching an instance" for a CLOUD
# node means starting that node's slurmd on this host.
#   resume_program.sh HOSTLIST        (slurmctld passes e.g. c[1-2])
# slurmctld runs it with SLURM_CONF as the only environment variable; the
# cluster's directory is the one holding slurm.conf (see cluster.sh).
#
# Three traps of slurm-wlm 22.05 (seen with Debian 12's 22.05.8):
#  - slurmd must start with -b (report "booted now"), or slurmctld keeps
#    waiting for the node's reboot and marks it DOWN at ResumeTimeout;
#  - slurmctld runs this program with most signals blocked (SIGTERM among
#    them) and a daemon inherits that mask, so the SuspendProgram's SIGTERM
#    would be ignored: the mask is cleared before exec'ing slurmd;
#  - with -b, slurmd's uptime counts the kernel uptime clock's whole-second
#    ticks since its start, and slurmctld takes now - uptime (now from
#    time()) as its boot time.  A slurmd started in the wall-clock second
#    of the boot request can count one tick more than the wall clock has
#    moved when it registers, and then "booted" a second before the
#    request: slurmctld waits for a boot that never comes and marks the
#    node DOWN at ResumeTimeout (seen in CI).  The request comes before
#    this program runs, so slurmd starts in a later second, 20 ms in, as
#    time() is a coarse clock that can lag by a timer tick.
set -euo pipefail
: "${SLURM_CONF:?resume_program: SLURM_CONF is not set (slurmctld sets it)}"
# Slurm's commands: the cluster's own release first (cluster.sh's slurm-path)
slurm_path=$(cat "$(dirname "$SLURM_CONF")/slurm-path" 2>/dev/null || true)
export PATH=${slurm_path:+$slurm_path:}/usr/sbin:/usr/bin:/sbin:/bin
[ $# = 1 ] || { echo "usage: $0 HOSTLIST" >&2; exit 2; }
log=$(dirname "$SLURM_CONF")/log/power.log

started=$(date +%s)
while [ "$(date +%s)" = "$started" ]; do sleep 0.05; done
sleep 0.02
pids=()
for node in $(scontrol show hostnames "$1"); do
    echo "$(date +%T.%N) resume $node" >>"$log"
    perl -MPOSIX -e 'sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!"; exec @ARGV or die "exec $ARGV[0]: $!"' \
        slurmd -b -N "$node" -f "$SLURM_CONF" </dev/null >>"$log" 2>&1 &
    pids+=("$!:$node")
done
rc=0
for p in "${pids[@]}"; do
    # slurmd daemonizes: this waits only for its start-up checks.
    if ! wait "${p%%:*}"; then
        echo "$(date +%T.%N) resume ${p#*:} FAILED: slurmd did not start" >>"$log"
        rc=1
    fi
done
exit "$rc"
