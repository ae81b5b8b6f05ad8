#!/bin/bash
# The libcurl multi transport as burstd drives it (one io_context thread, a
# pool of worker threads blocking on perform()), over real TLS against
# https_count_server.py, which counts the TCP connections it accepts:
# concurrency, connection reuse, timeouts and certificate verification.
# Prints TAP-style lines.  Usage: test_curl_multi.sh [BUILDDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/providers/http-transport-check
. "$here/lib/test_ca.sh"
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; [ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2"; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got:      $2
expected: $3"; fi; }
if [ ! -x "$check" ]; then not_ok "http-transport-check is built" "missing $check"; exit 1; fi

work=$(mktemp -d)
server_pid=
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/other"
if ! make_test_ca "$work" || ! make_test_ca "$work/other"; then
    not_ok "test CAs and a server certificate are generated" "$(cat "$work/openssl.log" "$work/other/openssl.log")"
    exit 1
fi
python3 "$here/https_count_server.py" --cert "$work/server.pem" --key "$work/server.key" --port-file "$work/port" \
    --log "$work/accepts.log" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
if [ ! -s "$work/port" ]; then not_ok "the HTTPS test server starts" "$(cat "$work/server.err")"; exit 1; fi
origin=https://127.0.0.1:$(cat "$work/port")
accepts() { if [ -f "$work/accepts.log" ]; then wc -l <"$work/accepts.log"; else echo 0; fi; }
run() { : >"$work/accepts.log"; "$check" --origin "$origin" "$@" 2>&1; }
field() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

out=$(run --ca-file "$work/ca.pem" --requests 20 /ok)
is "20 sequential requests from one worker all succeed" "$(grep -c '^status 200$' <<<"$out")" 20
is "... over ONE TCP connection (the server accepted $(accepts))" "$(accepts)/$(field connections "$out")" 1/1

out=$(run --ca-file "$work/ca.pem" --threads 4 --requests 10 /ok)
is "4 workers x 10 requests all succeed" "$(grep -c '^status 200$' <<<"$out")" 40
n=$(accepts)
if [ "$n" -ge 1 ] && [ "$n" -le 4 ]; then ok "... reusing connections across workers: $n accepted for 40 requests"
else not_ok "... reusing connections across workers" "accepted $n connections for 40 requests"; fi

# One after the other they would take 16 s; the bound leaves room for a loaded machine.
out=$(run --ca-file "$work/ca.pem" --threads 8 /delay/2000)
ms=$(field elapsed_ms "$out")
is "8 workers' 2-second requests all succeed" "$(grep -c '^status 200$' <<<"$out")" 8
if [ "${ms:-99999}" -lt 6000 ]; then ok "... concurrently on the one io_context thread (${ms} ms in all)"
else not_ok "... concurrently on the one io_context thread" "took ${ms} ms for 8 x 2 s"; fi

out=$(run --ca-file "$work/ca.pem" --timeout 1 /delay/3000)
ms=$(field elapsed_ms "$out")
if grep -q '^error .*[Tt]imeout' <<<"$out" && [ "${ms:-99999}" -lt 2500 ]; then
    ok "a request the server answers too late is a timeout error after about 1 s (${ms} ms)"
else
    not_ok "a request the server answers too late is a timeout error after about 1 s" "$out"
fi

out=$(run --ca-file "$work/other/ca.pem" /ok)
if grep -q '^error .*\(certificate\|SSL\)' <<<"$out"; then ok "a server certificate from another CA is refused"
else not_ok "a server certificate from another CA is refused" "$out"; fi
out=$(run /ok)
if grep -q '^error .*\(certificate\|SSL\)' <<<"$out"; then ok "without the test CA the system store does not trust the server"
else not_ok "without the test CA the system store does not trust the server" "$out"; fi
