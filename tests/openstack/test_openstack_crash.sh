#!/bin/bash
# The burstd crash test (tests/slurm/lib/burstd_crash.sh, as
# tests/slurm/test_burstd_crash.sh runs it with the local provider) with
# burstd's Type=openstack provider against a real Keystone + Nova (fake virt
# driver, lib/openstack.sh): burstd killed with SIGKILL at random moments of
# Slurm's power changes, mostly while a Nova call is in flight, restarted
# each time; after each restart the ledger, the servers Nova lists by
# burstd's tags and Slurm's node states agree, and at the end every job
# COMPLETED and no server is left.
#
# A fake-driver server is no machine: lib/fake_guests.py plays its guest,
# booting the node's slurmd once Nova reports the server ACTIVE and stopping
# it when the server goes away.  It also watches Nova for a node with two
# live servers (a double launch) at every poll, between the rounds' checks.
#
# Real Nova takes seconds per call and a server some more to go ACTIVE:
# Slurm gets ResumeTimeout=90, and the kill window and the settle waits
# scale with what the warm-up measures.  Fewer rounds than with the local
# provider (BURSTD_CRASH_ROUNDS, default 6): each costs a real boot.
# Usage: test_openstack_crash.sh [BUILDDIR] (alone it starts its own cloud;
# tests/openstack/run-all.sh shares one).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export BURST_BUILDDIR=${BURST_BUILDDIR:-${1:-$(cd "$here/../.." && pwd)}}
# shellcheck source=lib/openstack.sh
source "$here/lib/openstack.sh"
# shellcheck source=../slurm/lib/cluster.sh
source "$here/../slurm/lib/cluster.sh"
# shellcheck source=../slurm/lib/burstd.sh
source "$here/../slurm/lib/burstd.sh"
# shellcheck source=../slurm/lib/burstd_crash.sh
source "$here/../slurm/lib/burstd_crash.sh"
rounds=${BURSTD_CRASH_ROUNDS:-6}
check=$BURST_BUILDDIR/tests/openstack/openstack-provider-check
[ -x "$check" ] || { tap_fail "openstack-provider-check is built" "missing $check (run make in $BURST_BUILDDIR)"; exit 1; }

openstack_install || { tap_fail "OpenStack packages are installed"; exit 1; }
openstack_start || { tap_fail "a real OpenStack comes up"; exit 1; }
# Its own project: a quota with room for every node, servers no other test sees.
openstack_project oscrash 8 || { tap_fail "a project for the crash test"; exit 1; }

guests_pid=""
guests_stop() {
    [ -n "$guests_pid" ] || return 0
    kill "$guests_pid" 2>/dev/null
    wait "$guests_pid" 2>/dev/null
    guests_pid=""
}
# MinJobAge: the jobs' final states are read at the end, with no accounting;
# --cred-expire: a job requeued from a forced-down node may start again 21 s
# later instead of 121 s.
burstd_test_cluster oscrash --local 1 --cloud 3 --cpus 2 --conf ResumeTimeout=90 --conf MinJobAge=3600 --cred-expire 20 || { openstack_stop 1; exit 1; }
on_exit() {
    local rc=$?
    guests_stop
    (exit "$rc")
    _burstd_on_exit
    openstack_stop "$rc"
}
trap on_exit EXIT
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

# A BurstdId of this run's own: servers an earlier run left in the project
# (it failed, or was killed) are not this burstd's, nor its nodes' guests.
owner=oscrash-$$-$RANDOM
"$OS_PY" "$here/lib/fake_guests.py" --credentials "$OS_PROJECT_APPCRED_FILE" --cluster "$CLUSTER_NAME" \
    --owner "$owner" --slurm-conf "$SLURM_CONF" --interval 2 >"$BURSTD_DIR/guests.log" 2>&1 &
guests_pid=$!

# "never": the cycle hires nothing, so every launch here is one Slurm asked for.
BURSTD_PROVIDER="Type=openstack CredentialsFile=$OS_PROJECT_APPCRED_FILE Image=$OS_IMAGE_ID Network=none BatchSize=3"
BURSTD_GROUP_EXTRA="InstanceTypes=$OS_FLAVOR"
burstd_bring_up never 0 "BurstdId=$owner" || exit 1

# Nova's servers of this burstd, listed by its tags the way the provider does.
nova_servers() {
    "$check" --credentials "$OS_PROJECT_APPCRED_FILE" list "$CLUSTER_NAME" "$owner" | awk '{ print $1, $2 }'
}
CRASH_INSTANCES=nova_servers
burstd_crash_test "$rounds"

guests_stop
tap_is "Nova never held two live servers for one node (checked every 2 s)" \
    "$(grep ' double ' "$BURSTD_DIR/guests.log")" ""
tap_note "guests: $(grep -c ' boot ' "$BURSTD_DIR/guests.log") slurmds booted for ACTIVE servers, $(grep -c ' halt ' "$BURSTD_DIR/guests.log") halted with their server, $(grep -c ' list-error ' "$BURSTD_DIR/guests.log") failed listings"
tap_finish
