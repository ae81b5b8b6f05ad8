#!/bin/bash
# Providers "gcp", "azure" and "openstack" on the wire: each is built by the
# provider factory from a burstd.conf (provider-conf-check, the same code path
# as burstd, HTTPS through the libcurl multi loop) and talks over real TLS to
# cloud_tls_server.py, which re-verifies every GCP service-account JWT
# (RS256, with the test key), Azure's client-credentials form, Keystone's
# password body, every bearer token / X-Auth-Token and Nova's microversion
# header, and answers with the recorded fixtures and documented error bodies.
# Every call (launch, list, terminate) and every error kind per provider.
# Prints TAP-style lines.  Usage: test_cloud_tls_server.sh [BUILDDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/providers/provider-conf-check
fixtures=$here/../data/provider-fixtures
. "$here/lib/test_ca.sh"
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; [ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2"; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got:      $2
expected: $3"; fi; }
has() { if grep -q -- "$3" <<<"$2"; then ok "$1"; else not_ok "$1" "no match for: $3
in: $2"; fi; }
if [ ! -x "$check" ]; then not_ok "provider-conf-check is built" "missing $check"; exit 1; fi
if [ ! -d "$fixtures/gce" ]; then not_ok "provider fixtures are present" "missing $fixtures"; exit 1; fi

work=$(mktemp -d)
server_pid=
cleanup() { [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
umask 077
if ! make_test_ca "$work"; then not_ok "a test CA and server certificate are generated" "$(cat "$work/openssl.log")"; exit 1; fi

az_tenant=77777777-7777-7777-7777-777777777777
az_client=11111111-2222-3333-4444-555555555555
az_secret='az-Secret~value.1'
az_sub=99999999-9999-9999-9999-999999999999
os_password='os-Secret-pass'
# A service-account key as Google issues them (token_uri is filled in once the port is known).
sa_key() { # PEM-FILE TOKEN-URI
    python3 -c 'import json,sys; print(json.dumps({"type": "service_account", "project_id": "p",
        "private_key_id": "kid-test-1", "private_key": open(sys.argv[1]).read(),
        "client_email": "burstd@p.iam.gserviceaccount.com", "client_id": "1", "token_uri": sys.argv[2]}))' "$1" "$2"
}
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/sa.pem" 2>/dev/null &&
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/other.pem" 2>/dev/null ||
    { not_ok "test RSA keys are generated"; exit 1; }
sa_key "$work/sa.pem" https://unknown/token >"$work/server-key.json"

python3 "$here/cloud_tls_server.py" --cert "$work/server.pem" --key "$work/server.key" --fixtures "$fixtures" \
    --port-file "$work/port" --log "$work/requests.log" --gcp-key "$work/server-key.json" \
    --azure-tenant $az_tenant --azure-client $az_client --azure-secret "$az_secret" --azure-subscription $az_sub \
    --os-user burstd --os-password "$os_password" --os-project hpc --wire "$work/wire.log" \
    --metadata-port-file "$work/metadata-port" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && [ -s "$work/metadata-port" ] && break; sleep 0.1; done
if [ ! -s "$work/port" ]; then not_ok "the HTTPS test server starts" "$(cat "$work/server.err")"; exit 1; fi
origin=https://127.0.0.1:$(cat "$work/port")
metadata=http://127.0.0.1:$(cat "$work/metadata-port")

sa_key "$work/sa.pem" "$origin/token" >"$work/gcp-key.json"
sa_key "$work/other.pem" "$origin/token" >"$work/gcp-wrong-key.json"
printf 'TenantId=%s\nClientId=%s\nClientSecret=%s\n' $az_tenant $az_client "$az_secret" >"$work/azure.cred"
printf 'TenantId=%s\nClientId=%s\nClientSecret=wrong\n' $az_tenant $az_client >"$work/azure-wrong.cred"
os_cred() { printf 'AuthUrl=%s/v3\nUsername=burstd\nUserDomainName=Default\nPassword=%s\nProjectName=hpc\nProjectDomainName=Default\n' "$origin" "$1"; }
os_cred "$os_password" >"$work/openstack.cred"
os_cred wrong >"$work/openstack-wrong.cred"
subnet=/subscriptions/$az_sub/resourceGroups/hpc/providers/Microsoft.Network/virtualNetworks/v/subnets/burst
gcp_keys="Project=p Zone=us-central1-a Template=global/instanceTemplates/burst MachineType=n2-standard-2 OperationWait=10 PollInterval=0.05"
azure_keys="Subscription=$az_sub ResourceGroup=hpc Location=eastus Image=Canonical:ubuntu:22_04-lts:latest \
    Subnet=$subnet VmSize=Standard_D4s_v5 SshPublicKey=\"ssh-ed25519 AAAAC3Nza burstd\" OperationWait=10 PollInterval=0.05"
cat >"$work/burstd.conf" <<EOF
ClusterName=hpc1
StateDir=$work/state
Provider=gcp Type=gcp CredentialsFile=$work/gcp-key.json $gcp_keys Endpoint=$origin CaFile=$work/ca.pem
Provider=gcp-one Type=gcp CredentialsFile=$work/gcp-key.json $gcp_keys BulkInsert=no Endpoint=$origin CaFile=$work/ca.pem \
    ThrottleRetries=1
Provider=gcp-wrong Type=gcp CredentialsFile=$work/gcp-wrong-key.json $gcp_keys Endpoint=$origin CaFile=$work/ca.pem
Provider=gcp-noca Type=gcp CredentialsFile=$work/gcp-key.json $gcp_keys Endpoint=$origin
Provider=azure Type=azure CredentialsFile=$work/azure.cred $azure_keys Endpoint=$origin LoginEndpoint=$origin \
    CaFile=$work/ca.pem ConnectTimeout=5 RequestTimeout=20 ThrottleMaxWait=5
Provider=azure-wrong Type=azure CredentialsFile=$work/azure-wrong.cred $azure_keys Endpoint=$origin \
    LoginEndpoint=$origin CaFile=$work/ca.pem
Provider=openstack Type=openstack CredentialsFile=$work/openstack.cred Region=RegionOne \
    Image=0b1e2e6e-62b1-4b36-8d73-1f2bd3c1c5a2 PageSize=1 ScheduleWait=5 PollInterval=0.05 CaFile=$work/ca.pem \
    ThrottleMaxWait=5 BatchSize=100
Provider=openstack-wrong Type=openstack CredentialsFile=$work/openstack-wrong.cred Region=RegionOne \
    Image=0b1e2e6e-62b1-4b36-8d73-1f2bd3c1c5a2 CaFile=$work/ca.pem
Provider=gcp-zones Type=gcp CredentialsFile=$work/gcp-key.json Project=p Zones=full-central1-a,us-central1-b \
    Template=global/instanceTemplates/burst BulkInsert=no OperationWait=10 PollInterval=0.05 Endpoint=$origin \
    CaFile=$work/ca.pem
NodeGroup=gz Provider=gcp-zones Nodes=gz-[1-3] Partition=cloud InstanceTypes=n2-standard-2,n2d-standard-2 Cpus=2 \
    PricePerHour=0.1
Provider=azure-zones Type=azure CredentialsFile=$work/azure.cred $azure_keys Zones=1,2 Endpoint=$origin \
    LoginEndpoint=$origin CaFile=$work/ca.pem
NodeGroup=az Provider=azure-zones Nodes=az-[1-2] Partition=cloud InstanceTypes=Standard_D4s_v5 Cpus=2 \
    PricePerHour=0.1
Provider=gcp-batch Type=gcp CredentialsFile=$work/gcp-key.json Project=p Zones=us-central1-b \
    Template=global/instanceTemplates/burst OperationWait=10 PollInterval=0.05 Endpoint=$origin CaFile=$work/ca.pem
NodeGroup=gb Provider=gcp-batch Nodes=gb-[1-5],capacity-gb-1 Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 \
    PricePerHour=0.1
Provider=gcp-md Type=gcp TokenSource=metadata MetadataEndpoint=$metadata Project=p \
    Zones=us-central1-a,us-central1-b Template=global/instanceTemplates/burst OperationWait=10 PollInterval=0.05 \
    Endpoint=$origin CaFile=$work/ca.pem
Provider=gcp-paced Type=gcp CredentialsFile=$work/gcp-key.json $gcp_keys BulkInsert=no Endpoint=$origin \
    CaFile=$work/ca.pem WriteRequestRate=10 WriteRequestBurst=2
EOF
pc() { "$check" -f "$work/burstd.conf" -p "$@" 2>&1; }
kinds() { cut -d' ' -f1-3 <<<"$1"; }
all_out=

# -- GCP --------------------------------------------------------------------
gid=projects/p/zones/us-central1-a/instances
out=$(pc gcp-one launch hpc1 burstd-7 - g-1:tok-1); all_out+=$out
is "gcp: instances.insert through the factory over HTTPS, operation polled, address read" "$out" \
    "g-1 launched $gid/g-1 10.240.0.10"
out=$(pc gcp launch hpc1 burstd-7 - g-2:tok-2 capacity-g3:tok-3); all_out+=$out
is "gcp: bulkInsert (minCount 1) is judged per node: one created, one without capacity" "$(kinds "$out")" \
    "g-2 launched $gid/g-2
capacity-g3 error capacity"
out=$(pc gcp-one launch hpc1 burstd-7 - capacity-1:t1 quota-1:t2 throttle-1:t3 flaky-1:t4 invalid-1:t5); all_out+=$out
is "gcp: every error kind (ZONE_RESOURCE_POOL_EXHAUSTED, QUOTA_EXCEEDED, rateLimitExceeded, 503, 400)" \
    "$(kinds "$out")" "capacity-1 error capacity
quota-1 error quota
throttle-1 error throttled
flaky-1 error transient
invalid-1 error invalid"
has "gcp: the capacity error quotes the operation's error code" "$out" "^capacity-1 .*ZONE_RESOURCE_POOL_EXHAUSTED"
out=$(pc gcp-one launch hpc1 burstd-7 - g-1:tok-1); all_out+=$out
is "gcp: a repeated insert meets 409 alreadyExists and adopts our own instance" "$out" \
    "g-1 launched $gid/g-1 10.240.0.10"
out=$(pc gcp list hpc1 burstd-7); all_out+=$out
is "gcp: list by label filter follows nextPageToken (one instance per page)" "$out" "g-1 $gid/g-1 RUNNING
g-2 $gid/g-2 RUNNING"
out=$(pc gcp list hpc1 someone-else); all_out+=$out
is "gcp: another burstd id's filter finds none of ours" "$out" ""
out=$(pc gcp terminate $gid/g-1 $gid/g-2 $gid/gone-1); all_out+=$out
is "gcp: delete polls each operation; an instance already gone counts as deleted" "$out" "$gid/g-1 terminated
$gid/g-2 terminated
$gid/gone-1 terminated"
is "gcp: nothing is left" "$(pc gcp list hpc1 burstd-7)" ""
: >"$work/wire.log"
out=$(pc gcp-one launch hpc1 burstd-7 - once-g1:tok-once); all_out+=$out
is "gcp: an insert refused with 403 userRateLimitExceeded is sent again after a back-off and succeeds" \
    "$(kinds "$out")" "once-g1 launched $gid/once-g1"
is "... the insert went out twice" "$(grep -c '^POST /compute/v1/projects/p/zones/us-central1-a/instances[? ].*"once-g1"' \
    "$work/wire.log")" 2
is "gcp: the retried instance is terminated" "$(pc gcp-one terminate $gid/once-g1)" "$gid/once-g1 terminated"
# Six inserts against a write bucket of 2 refilled at 10/s: the sixth cannot
# go before 0.4 s, however fast the server answers.
: >"$work/wire.log"
start=$(date +%s.%N)
out=$(pc gcp-paced launch hpc1 burstd-7 - p-1:tp1 p-2:tp2 p-3:tp3 p-4:tp4 p-5:tp5 p-6:tp6); all_out+=$out
took=$(awk -v start="$start" -v end="$(date +%s.%N)" 'BEGIN { printf "%.3f", end - start }')
is "gcp: six launches paced by WriteRequestRate=10 WriteRequestBurst=2 all succeed" \
    "$(cut -d' ' -f2 <<<"$out" | sort -u)" "launched"
is "... and take at least 0.4 s (took $took s)" "$(awk -v t="$took" 'BEGIN { print (t >= 0.4) }')" 1
is "... six inserts on the wire" "$(grep -c '^POST /compute/v1/projects/p/zones/us-central1-a/instances[? ]' \
    "$work/wire.log")" 6
pc gcp-paced terminate $gid/p-1 $gid/p-2 $gid/p-3 $gid/p-4 $gid/p-5 $gid/p-6 >/dev/null
is "gcp: the paced instances are terminated" "$(pc gcp list hpc1 burstd-7)" ""
out=$(pc gcp-wrong list hpc1 burstd-7); all_out+=$out
is "gcp: a JWT signed with another key is refused by the server, classified auth" "$(cut -d' ' -f1-2 <<<"$out")" \
    "error auth"
has "gcp: ... because the server found the RS256 signature wrong" "$(grep '^gcp token rejected' "$work/requests.log")" \
    "RS256 signature does not verify"
out=$(pc gcp-noca list hpc1 burstd-7)
has "gcp: without CaFile= the test server's certificate is refused (TLS verification on)" "$out" \
    "^error transient .*\(certificate\|SSL\)"

# -- GCP zones: capacity in one zone, the next zone tried ---------------------
# Zones named full-* have no capacity on the test server.  burstd's own
# InstanceManager (provider-conf-check resume) drives the provider.
compute_calls() { # what the server saw of the compute API: METHOD PATH machineType
    python3 -c 'import json, sys
for line in open(sys.argv[1]):
    method, target, body = (line.rstrip("\n").split(" ", 2) + [""])[:3]
    path = target.partition("?")[0]
    if not path.startswith("/compute/v1/"):
        continue
    where = path[len("/compute/v1/projects/p/zones/"):]
    if "/operations/" in where:
        where = where.split("/operations/")[0] + "/operations"
    mt = json.loads(body).get("machineType", "") if body.strip() else ""
    print(" ".join(w for w in (method, where, mt) if w))' "$work/wire.log"
}
zid_a=projects/p/zones/full-central1-a/instances
zid_b=projects/p/zones/us-central1-b/instances
: >"$work/wire.log"
out=$("$check" -f "$work/burstd.conf" -p gcp-zones resume "$work/zones.sqlite" gz-1 gz-2 2>"$work/resume.err")
all_out+=$out$(cat "$work/resume.err")
is "gcp zones: a capacity error in the first zone moves the launch to the next zone (ledger: type, zone, state)" \
    "$(grep -v '^slurm ' <<<"$out")" "gz-1 n2-standard-2 full-central1-a failed -
gz-1 n2-standard-2 us-central1-b launching $zid_b/gz-1
gz-2 n2-standard-2 us-central1-b launching $zid_b/gz-2
short n2-standard-2 full-central1-a"
is "gcp zones: Slurm is given each node's address, nothing is handed back" "$(grep '^slurm ' <<<"$out" | cut -d' ' -f1-3)" \
    "slurm address gz-1
slurm address gz-2"
is "gcp zones: on the wire, insert and operation poll in zone A, then in zone B; the second node goes to B at once" \
    "$(compute_calls)" "POST full-central1-a/instances zones/full-central1-a/machineTypes/n2-standard-2
GET full-central1-a/operations
POST us-central1-b/instances zones/us-central1-b/machineTypes/n2-standard-2
GET us-central1-b/operations
GET us-central1-b/instances/gz-1
POST us-central1-b/instances zones/us-central1-b/machineTypes/n2-standard-2
GET us-central1-b/operations
GET us-central1-b/instances/gz-2"
has "gcp zones: the log says which zone was short and which one is tried next" "$(cat "$work/resume.err")" \
    "launch gz-1 as n2-standard-2 in full-central1-a via gcp-zones: capacity: .*ZONE_RESOURCE_POOL_EXHAUSTED.*; trying as n2-standard-2 in us-central1-b"
: >"$work/wire.log"
out=$(pc gcp-zones list hpc1 hpc1); all_out+=$out
is "gcp zones: list covers every configured zone" "$out" "gz-1 $zid_b/gz-1 RUNNING
gz-2 $zid_b/gz-2 RUNNING"
is "gcp zones: ... a zonal instances.list each (one instance per page)" "$(compute_calls)" \
    "GET full-central1-a/instances
GET us-central1-b/instances
GET us-central1-b/instances"
: >"$work/wire.log"
out=$(pc gcp-zones terminate $zid_b/gz-1 $zid_b/gz-2); all_out+=$out
is "gcp zones: both instances deleted" "$out" "$zid_b/gz-1 terminated
$zid_b/gz-2 terminated"
is "gcp zones: delete goes to the zone in the instance's id, and so does its operation; both deletes before any poll" \
    "$(compute_calls | sed 's/gz-[12]$/gz-N/')" \
    "DELETE us-central1-b/instances/gz-N
DELETE us-central1-b/instances/gz-N
GET us-central1-b/operations
GET us-central1-b/operations"

# -- GCP batches: one resume, one bulkInsert; one job's nodes, all or none ----
bulk_min_counts() { # minCount of every bulkInsert the server saw
    python3 -c 'import json, sys
for line in open(sys.argv[1]):
    method, target, body = (line.rstrip("\n").split(" ", 2) + [""])[:3]
    if target.partition("?")[0].endswith("/instances/bulkInsert"):
        doc = json.loads(body)
        print(doc["count"], doc["minCount"])' "$work/wire.log"
}
zid_b=projects/p/zones/us-central1-b/instances
: >"$work/wire.log"
out=$("$check" -f "$work/burstd.conf" -p gcp-batch resume "$work/batch.sqlite" gb-1 gb-2 gb-3 2>"$work/batch.err")
all_out+=$out$(cat "$work/batch.err")
is "gcp batch: a resume of three nodes is one bulkInsert (count, minCount)" "$(bulk_min_counts)" "3 1"
is "gcp batch: ... each node's own instance in the ledger" "$(grep -v '^slurm ' <<<"$out")" \
    "gb-1 n2-standard-2 us-central1-b launching $zid_b/gb-1
gb-2 n2-standard-2 us-central1-b launching $zid_b/gb-2
gb-3 n2-standard-2 us-central1-b launching $zid_b/gb-3"
: >"$work/wire.log"
out=$("$check" -f "$work/burstd.conf" -p gcp-batch resume "$work/batch.sqlite" 7=gb-4,capacity-gb-1 8=gb-5 \
    gb-4 capacity-gb-1 gb-5 2>"$work/batch.err")
all_out+=$out$(cat "$work/batch.err")
is "gcp batch: job 7's two nodes are a bulkInsert of their own with minCount 2 (job 8's one node an insert)" \
    "$(bulk_min_counts)" "2 2"
is "gcp batch: short of job 7's minimum GCE creates neither; job 8's node launches" \
    "$(grep -v '^slurm ' <<<"$out" | cut -d' ' -f1,4)" "gb-4 failed
capacity-gb-1 failed
gb-5 launching"
is "gcp batch: both of job 7's nodes go back to Slurm with the job" "$(grep '^slurm hand-back' <<<"$out" | sort)" \
    "slurm hand-back capacity-gb-1 7
slurm hand-back gb-4 7"
is "gcp batch: no instance of job 7 exists" "$(pc gcp-batch list hpc1 hpc1 | cut -d' ' -f1 | sort | tr '\n' ' ')" \
    "gb-1 gb-2 gb-3 gb-5 "
pc gcp-batch terminate $zid_b/gb-1 $zid_b/gb-2 $zid_b/gb-3 $zid_b/gb-5 >/dev/null

# -- GCP metadata-server token ------------------------------------------------
mcount() { grep -c "^metadata token verified$" "$work/requests.log"; }
before=$(mcount)
out=$(pc gcp-md list hpc1 hpc1); all_out+=$out
is "gcp metadata: a token from the metadata server (Metadata-Flavor: Google) is accepted by the compute API" "$out" ""
is "gcp metadata: one token fetch serves both zonal lists (cached until near expiry)" "$(($(mcount) - before))" 1
curl -s -o /dev/null -X PUT "$metadata/_test/mode/short"
before=$(mcount)
out=$(pc gcp-md list hpc1 hpc1); all_out+=$out
is "gcp metadata: a token about to expire (expires_in 30 s) is fetched again for the next call" "$(($(mcount) - before))" 2
curl -s -o /dev/null -X PUT "$metadata/_test/mode/down"
out=$(pc gcp-md list hpc1 hpc1); all_out+=$out
has "gcp metadata: a metadata server answering 503 is a transient error" "$out" "^error transient .*metadata server token"
curl -s -o /dev/null -X PUT "$metadata/_test/mode/normal"
is "gcp metadata: the test server refuses a request without Metadata-Flavor (so the header is checked)" \
    "$(curl -s -o /dev/null -w '%{http_code}' "$metadata/computeMetadata/v1/instance/service-accounts/default/token")" 403
if grep -q "gcp-token-" <<<"$all_out"; then not_ok "gcp metadata: no access token appears in any output"
else ok "gcp metadata: no access token appears in any output"; fi

# -- Azure ------------------------------------------------------------------
vid=/subscriptions/$az_sub/resourceGroups/hpc/providers/Microsoft.Compute/virtualMachines
out=$(pc azure launch hpc1 burstd-7 - a-1:tok-a1 a-2:tok-a2); all_out+=$out
is "azure: VM PUT with tags and NIC/disk deleteOption, Azure-AsyncOperation polled, NIC address read" \
    "$(awk '{ print $1, $2, $3 }' <<<"$out") $(awk '{ print $4 }' <<<"$out" | sort | tr '\n' ' ')" \
    "a-1 launched $vid/a-1
a-2 launched $vid/a-2 10.0.0.4 10.0.0.5 "
out=$(pc azure launch hpc1 burstd-7 - capacity-a3:t1 quota-a4:t2 throttle-a5:t3 flaky-a6:t4 invalid-a7:t5); all_out+=$out
is "azure: every error kind (AllocationFailed, quota 409, 429, 503, 400)" "$(kinds "$out")" \
    "capacity-a3 error capacity
quota-a4 error quota
throttle-a5 error throttled
flaky-a6 error transient
invalid-a7 error invalid"
has "azure: 429's Retry-After reaches the caller" "$out" "^throttle-a5 .*(retry after 7 s)"
has "azure: the capacity error quotes AllocationFailed" "$out" "^capacity-a3 .*AllocationFailed"
out=$(pc azure launch hpc1 burstd-7 - a-1:tok-a1); all_out+=$out
is "azure: a relaunch finds our own VM by GET and adopts it instead of PUTting over it" "$(kinds "$out")" \
    "a-1 launched $vid/a-1"
out=$(pc azure list hpc1 burstd-7); all_out+=$out
is "azure: list by tag follows nextLink; the VM whose allocation failed was deleted" "$out" \
    "a-1 $vid/a-1 Succeeded
a-2 $vid/a-2 Succeeded"
out=$(pc azure terminate $vid/a-1 $vid/a-2 $vid/gone-a); all_out+=$out
is "azure: delete follows each Azure-AsyncOperation; a VM already gone counts as deleted" "$out" \
    "$vid/a-1 terminated
$vid/a-2 terminated
$vid/gone-a terminated"
is "azure: nothing is left" "$(pc azure list hpc1 burstd-7)" ""
: >"$work/wire.log"
out=$(pc azure launch hpc1 burstd-7 - once-a1:tok-once); all_out+=$out
is "azure: a PUT refused with 429 and Retry-After: 1 is sent again after it and succeeds" "$(kinds "$out")" \
    "once-a1 launched $vid/once-a1"
is "... the PUT went out twice" "$(grep -c "^PUT $vid/once-a1?" "$work/wire.log")" 2
is "azure: the retried VM is terminated" "$(pc azure terminate $vid/once-a1)" "$vid/once-a1 terminated"
# -- Azure zones: the VM whose allocation failed is gone before the next zone --
# Zone "1" has no capacity on the test server, and a deleted VM stays visible
# as Deleting for two polls of its delete operation: the relaunch in zone "2"
# (same VM name) must neither adopt it nor PUT into its delete.
arm_calls() { # what the server saw of ARM: METHOD what [zone]
    python3 -c 'import json, sys
for line in open(sys.argv[1]):
    method, target, body = (line.rstrip("\n").split(" ", 2) + [""])[:3]
    path = target.partition("?")[0]
    if not path.startswith("/subscriptions/"):
        continue
    what = "operation" if "/operations/" in path else "/".join(path.split("/")[-2:])
    zones = json.loads(body).get("zones", []) if body.strip() else []
    print(" ".join([method, what] + zones))' "$work/wire.log"
}
: >"$work/wire.log"
out=$("$check" -f "$work/burstd.conf" -p azure-zones resume "$work/azzones.sqlite" az-1 2>"$work/azresume.err")
all_out+=$out$(cat "$work/azresume.err")
is "azure zones: ZonalAllocationFailed in zone 1 moves the launch to zone 2 (ledger: type, zone, state)" \
    "$(grep -v '^slurm ' <<<"$out")" "az-1 Standard_D4s_v5 1 failed -
az-1 Standard_D4s_v5 2 launching $vid/az-1
short Standard_D4s_v5 1"
is "azure zones: on the wire, PUT fails -> DELETE -> its operation polled to the end -> GET 404 -> zone 2's PUT" \
    "$(arm_calls)" "GET virtualMachines/az-1
PUT virtualMachines/az-1 1
GET operation
GET operation
DELETE virtualMachines/az-1
GET operation
GET operation
GET operation
GET virtualMachines/az-1
GET virtualMachines/az-1
PUT virtualMachines/az-1 2
GET operation
GET operation
GET networkInterfaces/az-1-nic"
has "azure zones: the log says zone 1 was short and zone 2 is tried next" "$(cat "$work/azresume.err")" \
    "launch az-1 as Standard_D4s_v5 in 1 via azure-zones: capacity: .*ZonalAllocationFailed.*; trying as Standard_D4s_v5 in 2"
if grep -q "not confirmed deleted" "$work/azresume.err"; then not_ok "azure zones: the failed VM's delete was confirmed"
else ok "azure zones: the failed VM's delete was confirmed"; fi
is "azure zones: only the zone 2 VM exists, Succeeded" "$(pc azure-zones list hpc1 hpc1)" "az-1 $vid/az-1 Succeeded"
is "azure zones: terminated" "$(pc azure-zones terminate $vid/az-1)" "$vid/az-1 terminated"
is "azure zones: nothing is left" "$(pc azure-zones list hpc1 hpc1)" ""

out=$(pc azure-wrong list hpc1 burstd-7); all_out+=$out
is "azure: a wrong client secret is refused by the token endpoint, classified auth" "$(cut -d' ' -f1-2 <<<"$out")" \
    "error auth"

# -- OpenStack --------------------------------------------------------------
: >"$work/wire.log"
out=$(pc openstack launch hpc1 burstd-7 m1.small o-1:tok-o1 o-2:tok-o2); all_out+=$out
is "openstack: Keystone password token, catalog lookup, Nova POST /servers, scheduling awaited" \
    "$(awk '{ print $1, $2, $4 }' <<<"$out")" "o-1 launched 10.1.0.5
o-2 launched 10.1.0.6"
o1=$(awk '$1 == "o-1" { print $3 }' <<<"$out")
o2=$(awk '$1 == "o-2" { print $3 }' <<<"$out")
post=$(grep '^POST /compute/v2.1/servers ' "$work/wire.log")
is "openstack: two nodes of one flavor are one POST /servers (min_count 1, max_count 2, a batch tag)" \
    "$(wc -l <<<"$post") $(grep -o '"min_count":[0-9]*,"max_count":[0-9]*' <<<"$post") $(grep -co 'burst-batch=' <<<"$post")" \
    '1 "min_count":1,"max_count":2 1'
is "... its servers are NAME-1 and NAME-2 of the burst-nodes hostlist: o-1 and o-2" \
    "$(pc openstack list hpc1 burstd-7 | awk -v a="$o1" -v b="$o2" '$2 == a { x = $1 } $2 == b { y = $1 } END { print x, y }')" \
    "o-1 o-2"
kinds_out=
for node in capacity-o3 quota-o4 throttle-o5 flaky-o6 invalid-o7; do
    out=$(pc openstack launch hpc1 burstd-7 m1.small "$node:t-$node"); all_out+=$out
    kinds_out+=$(kinds "$out")$'\n'
    [ "$node" = capacity-o3 ] && capacity_out=$out
done
is "openstack: every error kind (No valid host, quota 403, 429, 503, 400)" "${kinds_out%$'\n'}" \
    "capacity-o3 error capacity
quota-o4 error quota
throttle-o5 error throttled
flaky-o6 error transient
invalid-o7 error invalid"
has "openstack: the capacity error quotes Nova's fault" "$capacity_out" "^capacity-o3 .*No valid host was found"
out=$(pc openstack launch hpc1 burstd-7 m1.small o-1:tok-o1 o-2:tok-o2); all_out+=$out
is "openstack: a relaunch of the batch adopts its servers by the batch tag, in order, no second POST" \
    "$(awk '{ print $1, $2, $3 }' <<<"$out")" "o-1 launched $o1
o-2 launched $o2"
is "... Nova saw exactly 6 POST /servers" "$(grep -c '^nova POST /servers verified' "$work/requests.log")" 6
out=$(pc openstack launch hpc1 burstd-7 capacity-flavor b-1:tok-b1 b-2:tok-b2 b-3:tok-b3); all_out+=$out
is "openstack: a batch Nova cannot place is capacity for every node" "$(kinds "$out")" "b-1 error capacity
b-2 error capacity
b-3 error capacity"
out=$(pc openstack list hpc1 burstd-7); all_out+=$out
is "openstack: list by tags follows the next links (PageSize=1); the ERROR servers were deleted" \
    "$(sort <<<"$out")" "$(sort <<<"o-1 $o1 ACTIVE
o-2 $o2 ACTIVE")"
out=$(pc openstack terminate "$o1" "$o2" 00000000-0000-4000-8000-000000000000); all_out+=$out
is "openstack: DELETE each server (several at once); one already gone counts as deleted" "$out" "$o1 terminated
$o2 terminated
00000000-0000-4000-8000-000000000000 terminated"
is "openstack: nothing is left" "$(pc openstack list hpc1 burstd-7)" ""
: >"$work/wire.log"
out=$(pc openstack launch hpc1 burstd-7 m1.small once-o1:tok-once); all_out+=$out
is "openstack: a POST /servers refused with 429 and Retry-After: 1 is sent again after it and succeeds" \
    "$(cut -d' ' -f1-2 <<<"$out")" "once-o1 launched"
is "... the POST went out twice" "$(grep -c '^POST /compute/v2.1/servers .*"once-o1"' "$work/wire.log")" 2
once_id=$(awk '$1 == "once-o1" { print $3 }' <<<"$out")
is "openstack: the retried server is terminated" "$(pc openstack terminate "$once_id")" "$once_id terminated"
out=$(pc openstack-wrong list hpc1 burstd-7); all_out+=$out
is "openstack: a wrong password gets Keystone's 401, classified auth" "$(cut -d' ' -f1-2 <<<"$out")" "error auth"

# -- What the server saw -----------------------------------------------------
is "every Nova call carried a Keystone token and microversion compute 2.79" \
    "$(grep '^nova ' "$work/requests.log" | grep -vc ' verified$')" 0
n=$(wc -l <"$work/requests.log")
is "the server verified every request but the deliberately wrong credentials ($n requests)" \
    "$(grep -v ' verified$' "$work/requests.log" | cut -d' ' -f1-4 | sort | uniq -c | awk '{ print $2, $3, $4, $5, $1 }')" \
    "azure token rejected: wrong 1
gcp token rejected: RS256 1
keystone auth rejected: wrong 1
metadata token rejected: no 1"
for api in gcp azure keystone nova; do
    c=$(grep -c "^$api .* verified$" "$work/requests.log")
    if [ "$c" -gt 0 ]; then ok "$api: $c requests verified by the server"; else not_ok "$api: requests verified by the server"; fi
done
if grep -q -e "$az_secret" -e "$os_password" -e "PRIVATE KEY" <<<"$all_out"; then
    not_ok "no secret appears in any provider output or error"
else
    ok "no secret appears in any provider output or error"
fi

# Unprotected credentials are refused before anything is sent.
chmod 644 "$work/azure.cred"
out=$(pc azure list hpc1 burstd-7)
has "a credentials file others may read is refused with the file:line of its section" "$out" \
    "burstd.conf:7: Provider=azure: $work/azure.cred: holds a secret but has mode 0644"
