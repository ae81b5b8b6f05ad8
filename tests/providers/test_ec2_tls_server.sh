#!/bin/bash
# Provider "aws" over real HTTPS: ec2-provider-check (Ec2Provider, Ec2Client,
# the libcurl transport with TLS verification on) against ec2_tls_server.py,
# which trusts nothing burstd computed: it re-verifies every SigV4 signature
# with the test key.  A throwaway CA and server certificate are made here.
# Prints TAP-style lines.  Usage: test_ec2_tls_server.sh [BUILDDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/providers/ec2-provider-check
fixtures=$here/../data/provider-fixtures/ec2
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; [ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2"; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got:      $2
expected: $3"; fi; }
if [ ! -x "$check" ]; then not_ok "ec2-provider-check is built" "missing $check"; exit 1; fi
if [ ! -f "$fixtures/run_instances.xml" ]; then not_ok "EC2 fixtures are present" "missing $fixtures"; exit 1; fi

work=$(mktemp -d)
server_pid=
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# A CA that exists only for this run, and a server certificate for 127.0.0.1.
if ! (cd "$work" &&
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj "/CN=slurm-burst test CA" &&
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" &&
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' >ext.cnf &&
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 \
        -extfile ext.cnf) >"$work/openssl.log" 2>&1; then
    not_ok "a test CA and server certificate are generated" "$(cat "$work/openssl.log")"; exit 1
fi
key_id=AKIDEXAMPLE
secret=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY
python3 "$here/ec2_tls_server.py" --cert "$work/server.pem" --key "$work/server.key" --fixtures "$fixtures" \
    --port-file "$work/port" --log "$work/requests.log" --access-key "$key_id" --secret "$secret" \
    --region us-east-1 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
if [ ! -s "$work/port" ]; then not_ok "the HTTPS test server starts" "$(cat "$work/server.err")"; exit 1; fi
endpoint=https://127.0.0.1:$(cat "$work/port")

pc() { AWS_ACCESS_KEY_ID=$key_id AWS_SECRET_ACCESS_KEY=${SECRET:-$secret} AWS_SESSION_TOKEN= \
    "$check" --endpoint "$endpoint" --region us-east-1 --ca-file "$work/ca.pem" "$@" 2>&1; }

out=$(pc launch hpc1 burstd-7 c5.large cloud-1:tok-1)
is "launch over HTTPS: RunInstances answered from the recorded fixture" "$out" "cloud-1 launched i-2ba64342 "
out=$(pc launch hpc1 burstd-7 c5.large capacity-1:t1 limit-1:t2 throttle-1:t3 cloud-2:t4)
is "launch errors are classified per node (500 capacity, 400 limit, 503 throttle) and a later node still launches" \
    "$(cut -d' ' -f1-3 <<<"$out")" "capacity-1 error capacity
limit-1 error quota
throttle-1 error throttled
cloud-2 launched i-2ba64342"
grep -q "^capacity-1 error capacity EC2 RunInstances: HTTP 500 InsufficientInstanceCapacity: We currently do not have sufficient c5.large capacity" <<<"$out" &&
    ok "the capacity error names the HTTP status, EC2 code and message" ||
    not_ok "the capacity error names the HTTP status, EC2 code and message" "$out"

out=$(pc --subnet subnet-a --subnet subnet-b --fallback-type c5a.large launch hpc1 burstd-7 x1.short f-1:ft1 f-2:ft2)
is "CreateFleet over HTTPS falls back from a type without capacity and hands the instances to the nodes" "$out" \
    "f-1 launched i-f0000001 
f-2 launched i-f0000002 "
is "... as CreateFleet x1.short, then CreateFleet c5a.large: no call per node" \
    "$(tail -n 2 "$work/requests.log" | tr '\n' ' ')" "CreateFleet verified CreateFleet verified "

out=$(pc --subnet subnet-a --subnet subnet-b launch hpc1 burstd-7 x1.half h-1:ht1 h-2:ht2 h-3:ht3 h-4:ht4)
is "one CreateFleet for four nodes that delivers two: the first two nodes get them, the rest the capacity error" \
    "$(cut -d' ' -f1-3 <<<"$out")" "h-1 launched i-f0000001
h-2 launched i-f0000002
h-3 error capacity
h-4 error capacity"
out=$(pc --subnet subnet-a --subnet subnet-b --all-or-nothing launch hpc1 burstd-7 x1.half j-1:jt1 j-2:jt2 j-3:jt3)
is "one job's nodes ask for a minimum of all of them: short of it, EC2 launches none" \
    "$(cut -d' ' -f1-3 <<<"$out")" "j-1 error capacity
j-2 error capacity
j-3 error capacity"
is "... in one CreateFleet the server accepted (MinTargetCapacity with SingleInstanceType/AZ)" \
    "$(tail -n 1 "$work/requests.log")" "CreateFleet verified"
out=$(pc --subnet subnet-a --subnet subnet-b --all-or-nothing launch hpc1 burstd-7 c5.large k-1:kt1 k-2:kt2)
is "... and with capacity for all of them, all are launched" "$out" "k-1 launched i-f0000001 
k-2 launched i-f0000002 "

out=$(pc list hpc1 burstd-7)
is "list follows NextToken across two pages of DescribeInstances" "$(awk '{ print $2, $3 }' <<<"$out" | tr '\n' ' ')" \
    "i-4382922a stopped i-8474834a stopped i-4382922a stopped i-8474834a stopped "

out=$(pc terminate i-0aaa i-0bbb)
is "terminate over HTTPS" "$out" "i-0aaa terminated
i-0bbb terminated"

bad=$(grep -vc ' verified$' "$work/requests.log")
is "the server verified the SigV4 signature of every request ($(wc -l <"$work/requests.log") requests)" "$bad" 0

out=$(SECRET=wrong-secret pc list hpc1 burstd-7)
is "a request signed with the wrong secret gets EC2's 401 AuthFailure, classified auth" \
    "$(cut -d' ' -f1-2 <<<"$out")" "error auth"
tail -n 1 "$work/requests.log" | grep -q 'rejected: signature mismatch' &&
    ok "... because the server found the signature wrong" || not_ok "... because the server found the signature wrong" \
    "$(tail -n 1 "$work/requests.log")"

out=$(AWS_ACCESS_KEY_ID=$key_id AWS_SECRET_ACCESS_KEY=$secret "$check" --endpoint "$endpoint" --region us-east-1 \
    list hpc1 burstd-7 2>&1)
if grep -q '^error transient .*\(certificate\|SSL\)' <<<"$out"; then
    ok "without the test CA the server's certificate is refused (TLS verification is on)"
else
    not_ok "without the test CA the server's certificate is refused (TLS verification is on)" "$out"
fi

# The same endpoint through burstd's own path: a Type=aws section built by the
# provider factory, HTTPS through the libcurl multi loop.
conf_check=$builddir/tests/providers/provider-conf-check
cat >"$work/burstd.conf" <<CONF
ClusterName=hpc1
StateDir=$work/state
Provider=aws Type=aws Region=us-east-1 Endpoint=$endpoint CaFile=$work/ca.pem LaunchTemplateId=lt-0123456789abcdef0
CONF
fc() { AWS_ACCESS_KEY_ID=$key_id AWS_SECRET_ACCESS_KEY=$secret AWS_SESSION_TOKEN= \
    "$conf_check" -f "$work/burstd.conf" -p aws "$@" 2>&1; }
before=$(wc -l <"$work/requests.log")
is "a factory-built Type=aws provider launches and classifies per node over HTTPS" \
    "$(fc launch hpc1 burstd-7 c5.large cloud-9:tok-9 capacity-9:tok-10 | cut -d' ' -f1-3)" "cloud-9 launched i-2ba64342
capacity-9 error capacity"
is "... and lists across pages" "$(fc list hpc1 burstd-7 | awk '{ print $2 }' | tr '\n' ' ')" \
    "i-4382922a i-8474834a i-4382922a i-8474834a "
is "... every one of its requests verified by the server" \
    "$(tail -n +$((before + 1)) "$work/requests.log" | grep -vc ' verified$')" 0
