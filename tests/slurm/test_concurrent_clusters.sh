#!/bin/bash
# Two test clusters on this machine at the same time (as two engineers' tests,
# or two CI jobs, run them): own ports, own munged and key, own slurmctld.
# Each runs its own jobs, a CLOUD node resumed in one leaves the other alone,
# and a munge credential of one is worthless to the other.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"

sync_dir=$(mktemp -d "${BURST_SCRATCH:-/tmp}/concurrent.XXXXXX")
# Cluster B lives in a subshell (one cluster per shell); it reports its
# SLURM_CONF and stays up until this shell says "done" (bounded).
(
    cluster_start --local 1 --cloud 1 --name twin_b >"$sync_dir/b.out" 2>&1 || exit 1
    echo "$SLURM_CONF" >"$sync_dir/b.conf"
    wait_for "[ -e '$sync_dir/done' ]" 240 || true
) &
b_pid=$!
cleanup() {
    local rc=$?
    touch "$sync_dir/done"
    wait "$b_pid" 2>/dev/null || true
    sed 's/^/# B: /' "$sync_dir/b.out" 2>/dev/null || true
    rm -rf "$sync_dir"
    cluster_stop "$rc"
}

cluster_start --local 1 --cloud 1 --name twin_a
trap cleanup EXIT
a_conf=$SLURM_CONF
if wait_for "[ -s '$sync_dir/b.conf' ]" 120; then
    tap_ok "two clusters are up at the same time"
else
    tap_fail "cluster B started within 120 s" "$(cat "$sync_dir/b.out" 2>&1)"
    exit 1
fi
b_conf=$(cat "$sync_dir/b.conf")
b() { SLURM_CONF=$b_conf "$@"; }

a_port=$(scontrol show config | awk '$1 == "SlurmctldPort" { print $3 }')
b_port=$(b scontrol show config | awk '$1 == "SlurmctldPort" { print $3 }')
if [ -n "$a_port" ] && [ -n "$b_port" ] && [ "$a_port" != "$b_port" ]; then
    tap_ok "A and B listen on different slurmctld ports ($a_port, $b_port)"
else
    tap_fail "A and B listen on different slurmctld ports" "A: '$a_port' B: '$b_port'"
fi
tap_is "A's slurmctld is cluster twin_a" "$(scontrol show config | awk '$1 == "ClusterName" { print $3 }')" twin_a
tap_is "B's slurmctld is cluster twin_b" "$(b scontrol show config | awk '$1 == "ClusterName" { print $3 }')" twin_b
a_sock=$(dirname "$a_conf")/munge/munge.socket
b_sock=$(dirname "$b_conf")/munge/munge.socket
if munge -n -S "$a_sock" | unmunge -S "$b_sock" >/dev/null 2>&1; then
    tap_fail "B's munged rejects a credential made by A's"
else
    tap_ok "B's munged rejects a credential made by A's"
fi

# B bursts while A runs a local job
b_job=$(b sbatch --parsable -p cloud -N1 -n1 -o "$(dirname "$b_conf")/job-%j.out" --wrap 'echo node=$SLURMD_NODENAME')
a_job=$(sbatch --parsable -p local -N1 -n1 -o "$CLUSTER_DIR/job-%j.out" --wrap 'echo node=$SLURMD_NODENAME')
if wait_job_done "$a_job" 30; then
    tap_is "A's local job completed on n1" "$(job_field "$a_job" JobState) $(job_field "$a_job" NodeList)" "COMPLETED n1"
else
    tap_fail "A's local job finished within 30 s"
fi
if SLURM_CONF=$b_conf wait_job_done "$b_job" 60; then
    tap_is "B's cloud job completed on c1" "$(SLURM_CONF=$b_conf job_field "$b_job" JobState) $(SLURM_CONF=$b_conf job_field "$b_job" NodeList)" "COMPLETED c1"
else
    b_log=$(dirname "$b_conf")/log
    tap_fail "B's cloud job finished within 60 s" "$(b scontrol show job -o "$b_job" 2>&1)" \
        "--- B's power.log:" "$(cat "$b_log/power.log" 2>&1)" \
        "--- B's slurmd-c1.log:" "$(tail -n 30 "$b_log/slurmd-c1.log" 2>&1)" \
        "--- B's slurmctld.log, c1 and power save:" "$(grep -E 'c1|power|resume|Resume' "$b_log/slurmctld.log" 2>&1 | tail -n 30)"
fi
tap_is "A's CLOUD node c1 stayed powered down" "$(node_state c1)" IDLE+CLOUD+POWERED_DOWN
tap_like "B's c1 is up (powered on for B's job)" "$(SLURM_CONF=$b_conf node_state c1)" '^IDLE\+CLOUD$'
tap_finish
