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
pc() { # CREDENTIALS_FILE COMMAND ARGS...: several nodes are one batch (BatchSize=100)
    "$check" --credentials "$1" --image "$OS_IMAGE_ID" --network none --batch-size 100 "${@:2}" 2>&1
}
server_id() { # OUTPUT NODE: the id of a "NODE launched ID ADDRESS" line
    awk -v n="$2" '$1 == n && $2 == "launched" { print $3 }' <<<"$1"
}
listed() { # the "NODE ID STATE" lines of our servers, sorted
    pc "$OS_APPCRED_FILE" list "$cluster" "$owner" | sort
}

# Launch: password credentials; two nodes are one batch (one POST, min_count 1,
# max_count 2), their servers mapped back by the index Nova names them with.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c1:tok-c1 c2:tok-c2)
c1=$(server_id "$out" c1)
c2=$(server_id "$out" c2)
if [ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ]; then
    tap_ok "a batch launch creates one server per node"
else
    tap_fail "a batch launch creates one server per node" "$out"
fi
names=$("$OS_PY" "$OS_LIB/os_setup.py" names "$OS_DIR/state" "burst-cluster=$cluster" 2>&1 | awk '{ print $1, $2 }')
batch_name=$(awk -v id="$c1" '$1 == id { sub(/-1$/, "", $2); print $2 }' <<<"$names")
tap_is "... Nova named them NAME-1 and NAME-2, in request order" \
    "$(awk -v a="$c1" -v b="$c2" '$1 == a { x = $2 } $1 == b { y = $2 } END { print x, y }' <<<"$names")" \
    "$batch_name-1 $batch_name-2"

# Idempotency: the same tokens adopt the servers instead of creating more.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c1:tok-c1 c2:tok-c2)
tap_is "a repeated batch launch with the same tokens adopts its servers" \
    "$(server_id "$out" c1) $(server_id "$out" c2)" "$c1 $c2"

# List by tag, with an application credential; the fake driver makes them ACTIVE.
if wait_for "[ \"\$(listed | awk '{ print \$1, \$2, \$3 }' | tr '\n' ' ')\" = 'c1 $c1 ACTIVE c2 $c2 ACTIVE ' ]" 90; then
    tap_ok "list by tag (application credential) shows both servers ACTIVE, each as its node (burst-nodes)"
else
    tap_fail "list by tag (application credential) shows both servers ACTIVE, each as its node (burst-nodes)" "$(listed)"
fi
tap_is "another burstd's tags list nothing" "$(pc "$OS_APPCRED_FILE" list "$cluster" other$$)" ""

# Quota: 3 instances allowed.  One job's two nodes (min_count 2) get a real
# 403 for both and nothing is created; as a plain batch Nova cuts it to the
# one that fits.
out=$(pc "$OS_PASSWORD_FILE" --all-or-nothing yes launch "$cluster" "$owner" "$OS_FLAVOR" j1:tok-j1 j2:tok-j2)
tap_like "one job's nodes over the quota are refused together (min_count)" "$(sort <<<"$out" | tr '\n' ' ')" \
    '^j1 error quota nova POST /servers: HTTP 403: Quota exceeded for instances: Requested 2,.* j2 error quota nova POST /servers: HTTP 403'
tap_is "... and Nova created none of them" "$(listed | wc -l)" 2
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" c3:tok-c3 c4:tok-c4)
c3=$(server_id "$out" c3)
[ -n "$c3" ] || tap_fail "c3 fits the quota" "$out"
tap_like "a batch cut short by the quota is a quota error for the node left over" \
    "$(grep '^c4 ' <<<"$out")" '^c4 error quota nova POST /servers \(c\[3-4\] as burst-[0-9a-f]+\): no server for c4 '
pc "$OS_PASSWORD_FILE" terminate "$c3" >/dev/null
wait_for "! listed | grep -q '^c3 '" 60 || tap_fail "c3 is gone after terminate" "$(listed)"

# One node alone is its own server, tagged with its node, and adopted by token.
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" s1:tok-s1)
s1=$(server_id "$out" s1)
out=$(pc "$OS_PASSWORD_FILE" launch "$cluster" "$owner" "$OS_FLAVOR" s1:tok-s1)
tap_is "a repeated single launch with the same token adopts the existing server" "$(server_id "$out" s1)" "$s1"
if [ -n "$s1" ] && wait_for "listed | grep -q '^s1 $s1 '" 60; then
    tap_ok "... which lists under its node's name"
else
    tap_fail "... which lists under its node's name" "$(listed)"
fi
pc "$OS_PASSWORD_FILE" terminate "$s1" >/dev/null
wait_for "! listed | grep -q ' $s1 '" 60 || tap_fail "s1 is gone after terminate" "$(listed)"

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
Provider=os Type=openstack CredentialsFile=$OS_APPCRED_FILE Image=$OS_IMAGE_ID Network=none PageSize=1 BatchSize=2
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

# Scale: one launch of OS_SCALE_SERVERS nodes in a project of their own,
# OS_SCALE_BATCH nodes per POST, every server mapped back to its node, all
# of them ACTIVE, then all of them gone.  The fake driver would hold 2,343
# servers of this flavor (its 800,000 MB at 1.5x), but this machine's
# nova-compute brings them up at about 0.25 a second: 24 by default keeps
# the test near a minute and a half.
scale=${OS_SCALE_SERVERS:-24}
scale_batch=${OS_SCALE_BATCH:-10}
if openstack_project osscale "$scale"; then
    sc() {
        "$check" --credentials "$OS_PROJECT_APPCRED_FILE" --image "$OS_IMAGE_ID" --network none \
            --batch-size "$scale_batch" "$@" 2>&1
    }
    t=$SECONDS
    out=$(sc launch "$cluster" "scale$$" "$OS_FLAVOR" $(for i in $(seq "$scale"); do printf 's-%d:tok-s%d ' "$i" "$i"; done))
    launch_s=$((SECONDS - t))
    tap_is "$scale nodes in one launch: every one launched" "$(grep -c '^s-[0-9]* launched ' <<<"$out")" "$scale"
    batches=$("$OS_PY" "$OS_LIB/os_setup.py" names "$OS_DIR/state" "burst-id=scale$$" | awk '{ print $3 }' | sort -u | wc -l)
    posts=$(((scale + scale_batch - 1) / scale_batch))
    tap_is "... in $posts POSTs of up to $scale_batch (distinct batch tags)" "$batches" "$posts"
    ids_launched=$(awk '{ print $1, $3 }' <<<"$out" | sort)
    t=$SECONDS
    if wait_for "[ \"\$(sc list $cluster scale$$ | awk '\$3 == \"ACTIVE\"' | wc -l)\" = $scale ]" 300; then
        tap_ok "... all $scale ACTIVE $((SECONDS - t)) s after the launch returned (the launch took $launch_s s)"
    else
        tap_fail "... all $scale ACTIVE" "$(sc list "$cluster" "scale$$" | awk '{ print $3 }' | sort | uniq -c)"
    fi
    tap_is "... and each lists as the node it was launched for (burst-nodes)" \
        "$(sc list "$cluster" "scale$$" | awk '{ print $1, $2 }' | sort)" "$ids_launched"
    t=$SECONDS
    sc terminate $(awk '{ print $2 }' <<<"$ids_launched") >/dev/null
    if wait_for "[ -z \"\$(sc list $cluster scale$$)\" ]" 300; then
        tap_ok "... and all $scale are gone $((SECONDS - t)) s after terminate"
    else
        tap_fail "... and all $scale are gone" "$(sc list "$cluster" "scale$$" | wc -l) left"
    fi
else
    tap_fail "a project for the scale test"
fi

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
