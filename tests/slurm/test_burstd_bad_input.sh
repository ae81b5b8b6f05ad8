#!/bin/bash
# burstd facing bad input, at the integration level (a real burstd binary, a
# real cluster's slurm.conf): malformed, wrong-version, garbage and oversized
# messages on the snapshot socket; garbage, oversized and unknown requests on
# the control socket; a configuration with factory-level errors at start-up
# (--check-config) and on SIGHUP.  Each gets a clear error and burstd keeps
# serving.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
work=$(mktemp -d /tmp/burstd-bad.XXXXXX)
burstd_programs "$work"
cluster_start --local 1 --cloud 1 --cpus 2 --name burstbad --resume-program "$work/resume" \
    --suspend-program "$work/suspend" --resume-fail-program "$work/resume-fail" || exit 1
on_exit() {
    local rc=$?
    burstd_cleanup
    [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ] && rm -rf "$work" || echo "# burstd files kept in $work"
    cluster_stop "$rc"
}
trap on_exit EXIT
log=$work/burstd.log
counter() { burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); s=s.get("status", s); print(s["ingest"][sys.argv[1]])' "$1"; }
serving() { "$BURSTCTL_BIN" --socket "$work/control.sock" status >/dev/null 2>&1; }
cat >"$work/send.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
data = sys.stdin.buffer.read()
try:
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(3)
    print(s.recv(65536).decode(errors="replace"))
except OSError as e:
    print(f"connection ended: {e}")
PY
send() { python3 "$work/send.py" "$1"; } # SOCKET: stdin as raw bytes; prints the reply

# --- configuration errors the factories find, named by file:line
burstd_write_conf always 0
sed -i 's/^Provider=box Type=local /Provider=box Type=local BootDelai=1 /' "$work/burstd.conf"
echo "Policy=sometimes" >>"$work/burstd.conf"
out=$("$BURSTD_BIN" --check-config -f "$work/burstd.conf" 2>&1)
tap_like "--check-config names a misspelled provider key with file:line" "$out" \
    "burstd.conf:9: Provider=box: unknown key BootDelai= for Type=local \(did you mean BootDelay\?\)"
tap_like "--check-config names an unknown policy with file:line and the known ones" "$out" \
    "burstd.conf:1[0-9]: Policy=sometimes: .*always"
sed -i 's/^Provider=box Type=local/Provider=box Type=ibm/' "$work/burstd.conf"
tap_like "an unknown provider type lists the known ones with file:line" "$("$BURSTD_BIN" --check-config -f "$work/burstd.conf" 2>&1)" \
    'burstd.conf:9: Provider=box: Type: expected one of local, aws, gcp, azure, openstack, got "ibm"'

burstd_write_conf always 0
burstd_start || { tap_fail "burstd started" "$(tail -5 "$log")"; exit 1; }
tap_ok "burstd started"

# --- snapshot socket
send "$work/snapshot.sock" <<<'{"v":1,"type":"snapshot"' >/dev/null
send "$work/snapshot.sock" <<<'{"v":99,"type":"hello","cluster":"burstbad","seq":1,"time":1}' >/dev/null
{ head -c 3000 /dev/urandom | tr -d '\n'; echo; } | send "$work/snapshot.sock" >/dev/null
send "$work/snapshot.sock" <<<'{"v":1,"type":"snapshot","cluster":"burstbad","seq":2,"time":1,"jobs":"many"}' >/dev/null
wait_for "[ \"\$(counter bad_messages)\" -ge 4 ]" 5
tap_is "four bad snapshot messages counted" "$(counter bad_messages)" 4
tap_like "a truncated message is rejected with a reason" "$(grep 'rejected message' "$log")" "JSON"
tap_like "an unknown protocol version is rejected by name" "$(grep 'rejected message' "$log")" "\"v\".*99|version.*99"
tap_like "a wrong field type is rejected with its path" "$(grep 'rejected message' "$log")" "jobs"
python3 -c 'import sys; sys.stdout.write("{" + "x" * (65 << 20) + "\n")' | send "$work/snapshot.sock" >/dev/null
wait_for "[ \"\$(counter oversized)\" -ge 1 ]" 10
tap_is "an oversized snapshot message is counted" "$(counter oversized)" 1
serving && tap_ok "burstd still serves after bad snapshots" || tap_fail "burstd still serves after bad snapshots"

# --- control socket
tap_like "control: garbage is refused with a reason" "$(printf 'hello there\n' | send "$work/control.sock")" \
    '"ok":false.*invalid JSON'
tap_like "control: an unknown command is refused by name" \
    "$(printf '{"cmd":"reboot"}\n' | send "$work/control.sock")" 'expected one of status, resume'
tap_like "control: a node of no group is refused" \
    "$(printf '{"cmd":"resume","nodes":"n1"}\n' | send "$work/control.sock")" 'n1 belong to no NodeGroup'
out=$(python3 -c 'import sys; sys.stdout.write("{\"cmd\":\"" + "x" * (2 << 20) + "\"}\n")' | send "$work/control.sock")
tap_like "control: an oversized request is refused" "$out" 'ok":false|connection ended'
serving && tap_ok "burstd still serves after bad control requests" || tap_fail "burstd still serves after bad control requests"

# --- SIGHUP with errors keeps the running configuration
echo "Policy=sometimes" >>"$work/burstd.conf"
kill -HUP "$BURSTD_PID"
wait_for "grep -q 'keeping the running one' '$log'" 5
tap_like "a reload with an unknown policy is refused with file:line" "$(grep 'Policy=sometimes' "$log")" "burstd.conf:[0-9]+"
tap_is "it counts as a refused reload" \
    "$(burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s.get("status", s)["failed_reloads"])')" 1
serving && tap_ok "burstd still serves after a refused reload" || tap_fail "burstd still serves after a refused reload"

# --- a valid reload applies the policy chain but holds node group changes
# back: the instance manager launches with the groups read at start-up
sed -i -e '/^Policy=sometimes/d' -e 's/^\(NodeGroup=cloud .*\)PricePerHour=0.10/\1PricePerHour=0.25/' \
    -e 's/^\(NodeGroup=cloud .*\)$/\1 CoolDown=7/' "$work/burstd.conf"
kill -HUP "$BURSTD_PID"
wait_for "grep -q 'reloaded .*burstd.conf' '$log'" 5
tap_like "a node group change waits for a restart, naming the key" "$(grep 'reload: NodeGroup' "$log")" \
    'NodeGroup=cloud: the change of PricePerHour takes effect after a restart'
tap_is "the valid reload counts as one" \
    "$(burstd_status_json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s.get("status", s)["reloads"])')" 1
kill -0 "$BURSTD_PID" && tap_ok "burstd is still running" || tap_fail "burstd is still running"
tap_finish
