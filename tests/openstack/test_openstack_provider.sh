#!/bin/bash
# The OpenStack provider against a real Keystone + Nova (fake virt driver) on
# this machine (lib/openstack.sh): launch, idempotent re-launch, list by tag,
# terminate and see the servers gone, a real quota 403 and a real "No valid
# host" ERROR, both classified; bad and badly protected credentials.
# Prints TAP-style "ok - ..." lines.  Usage: test_openstack_provider.sh [BUILDDIR]
# (alone it starts its own cloud; tests/openstack/run-all.sh shares one).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/openstack.sh
source "$here/lib/openstack.sh"
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/openstack/openstack-provider-check
if [ ! -x "$check" ]; then
    tap_fail "openstack-provider-check is built" "missing $check (run make in $builddir)"
    exit 1
fi

t0=$SECONDS
openstack_install || { tap_fail "OpenStack packages are installed"; exit 1; }
ram_before=$(free -m | awk '/^Mem:/ { print $3 }')
OS_INSTANCE_QUOTA=3
openstack_start || { tap_fail "a real OpenStack comes up"; exit 1; }
if [ "${OS_SHARED:-}" != 1 ]; then # run-all.sh reports the shared cloud's start
    tap_ok "a real OpenStack comes up (${OS_START_SECONDS} s)"
    tap_note "RAM used by the OpenStack services: $(($(free -m | awk '/^Mem:/ { print $3 }') - ram_before)) MB"
fi
tests_t0=$SECONDS

cluster=burst$$
owner=site$$
pc() { # CREDENTIALS_FILE COMMAND ARGS...
    "$check" --credentials "$1" --image "$OS_IMAGE_ID" --network none "${@:2}" 2>&1
}
server_id() { # OUTPUT NODE: the id of a "NODE launched ID ADDRESS" line
    awk -v n="$2" '$1 == n && $2 == "launched" { print $3 }' <<<"$1"
}
listed() { # the "NODE ID STATE" lines of our servers, sorted
    pc "$OS_APPCRED_FILE" list "$cluster" "$owner" | sort
}

# Launch: password credentials, one request per node, tags and metadata set.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c1:tok-c1 c2:tok-c2)
c1=$(server_id "$out" c1)
c2=$(server_id "$out" c2)
if [ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ]; then
    tap_ok "launch creates one server per node"
else
    tap_fail "launch creates one server per node" "$out"
fi

# Idempotency: the same token adopts the server instead of creating a second.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c1:tok-c1)
tap_is "a repeated launch with the same token adopts the existing server" "$(server_id "$out" c1)" "$c1"

# List by tag, with an application credential; the fake driver makes them ACTIVE.
if wait_for "[ \"\$(listed | awk '{ print \$1, \$2, \$3 }' | tr '\n' ' ')\" = 'c1 $c1 ACTIVE c2 $c2 ACTIVE ' ]" 90; then
    tap_ok "list by tag (application credential) shows both servers ACTIVE"
else
    tap_fail "list by tag (application credential) shows both servers ACTIVE" "$(listed)"
fi
tap_is "another burstd's tags list nothing" "$(pc "$OS_APPCRED_FILE" list "$cluster" other$$)" ""

# Quota: 3 instances allowed; c3 fits, c4 is refused with a real 403.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c3:tok-c3 c4:tok-c4)
c3=$(server_id "$out" c3)
[ -n "$c3" ] || tap_fail "c3 fits the quota" "$out"
tap_like "a launch over the instance quota is classified as quota" \
    "$(grep '^c4 ' <<<"$out")" '^c4 error quota nova POST /servers: HTTP 403: Quota exceeded for instances'
pc "$OS_PASSWORD_FILE" terminate "$c3" >/dev/null
wait_for "! listed | grep -q '^c3 '" 60 || tap_fail "c3 is gone after terminate" "$(listed)"

# No valid host: a flavor no host can take goes ERROR; the provider calls it
# capacity and deletes the failed server.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_NOWHERE_FLAVOR" n1:tok-n1)
tap_like "a server the scheduler cannot place is classified as capacity" \
    "$out" '^n1 error capacity server [0-9a-f-]+ \(n1\) went to ERROR: No valid host was found'
if wait_for "! listed | grep -q '^n1 '" 60; then
    tap_ok "the failed server is deleted"
else
    tap_fail "the failed server is deleted" "$(listed)"
fi

# Terminate, see them gone; terminating again is not an error (404 = gone).
out=$(pc "$OS_PASSWORD_FILE" terminate "$c1" "$c2")
tap_is "terminate answers for each id" "$out" "$c1 terminated
$c2 terminated"
if wait_for "[ -z \"\$(listed)\" ]" 90; then
    tap_ok "terminated servers are gone from the list"
else
    tap_fail "terminated servers are gone from the list" "$(listed)"
fi
tap_is "terminating a deleted server again succeeds" "$(pc "$OS_PASSWORD_FILE" terminate "$c1")" "$c1 terminated"

# The same cloud the way burstd builds it: a burstd.conf section through the
# provider factory, HTTP through the libcurl multi handle on an event loop.
conf_check=$builddir/tests/providers/provider-conf-check
cat >"$OS_DIR/burstd.conf" <<EOF
ClusterName=$cluster
StateDir=$OS_DIR/burstd
Provider=os Type=openstack CredentialsFile=$OS_APPCRED_FILE Image=$OS_IMAGE_ID Network=none PageSize=1
EOF
fc() { "$conf_check" -f "$OS_DIR/burstd.conf" -p os "$@" 2>&1; }
out=$(fc launch "$cluster" "$owner" "$OS_FLAVOR" f1:tok-f1 f2:tok-f2)
f1=$(server_id "$out" f1)
f2=$(server_id "$out" f2)
if [ -n "$f1" ] && [ -n "$f2" ]; then
    tap_ok "a provider built from burstd.conf (Type=openstack) launches real servers"
else
    tap_fail "a provider built from burstd.conf (Type=openstack) launches real servers" "$out"
fi
if wait_for "[ \"\$(fc list $cluster $owner | sort | tr '\n' ' ')\" = 'f1 $f1 ACTIVE f2 $f2 ACTIVE ' ]" 90; then
    tap_ok "... lists them ACTIVE one page at a time (PageSize=1)"
else
    tap_fail "... lists them ACTIVE one page at a time (PageSize=1)" "$(fc list "$cluster" "$owner")"
fi
tap_is "... and terminates them" "$(fc terminate "$f1" "$f2")" "$f1 terminated
$f2 terminated"
wait_for "[ -z \"\$(listed)\" ]" 90 || tap_fail "the factory-built provider's servers are gone" "$(listed)"

# Wrong password: an auth error that does not show the password.
bad=$OS_DIR/bad-password.cred
(umask 077 && sed 's/^Password=.*/Password=WrongSecret-4711/' "$OS_PASSWORD_FILE" >"$bad")
out=$(pc "$bad" list "$cluster" "$owner")
tap_like "a wrong password is classified as auth" "$out" "^list error auth keystone authentication of user 'demo'.*HTTP 401"
if grep -q WrongSecret <<<"$out"; then
    tap_fail "the auth error does not contain the password" "$out"
else
    tap_ok "the auth error does not contain the password"
fi

# A credentials file others can read is refused before any request.
chmod 644 "$bad"
out=$(pc "$bad" list "$cluster" "$owner")
status=$?
tap_is "a group/world-readable credentials file is refused (exit 2)" "$status" 2
tap_like "the refusal says why and how to fix it" "$out" "mode 0644 .group/others may access it.; refusing it: chmod 600"

tap_note "provider tests took $((SECONDS - tests_t0)) s; whole test $((SECONDS - t0)) s"
tap_finish
