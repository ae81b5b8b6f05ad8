#!/bin/bash
# Bursts at scale against the stateful test cloud (cloud_tls_server.py, GCE
# over HTTPS), driven by burstd's own InstanceManager (provider-conf-check
# resume/suspend, burstd's 4 workers, a ledger and no Slurm):
#  - 1,000 nodes resumed in a handful of calls; every node has one instance,
#    and the ledger, the provider and what Slurm was told agree;
#  - a bulkInsert throttled mid-burst is retried and the burst completes;
#  - one job's nodes are all or nothing: one node without capacity leaves no
#    instance of the job and hands every node back to Slurm;
#  - kill -9 while a 1,000-node bulkInsert is in flight, then the same resume
#    again: what the first created is adopted, nothing is launched twice and
#    nothing leaks;
#  - 1,000 nodes suspended with one listing: every instance gone, every
#    record terminated (GCE deletes one instance per call).
# Prints TAP-style lines.  Usage: test_scale_burst.sh [BUILDDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/providers/provider-conf-check
. "$here/lib/test_ca.sh"
. "$here/lib/cloud_server.sh"
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; [ -z "${2:-}" ] || sed 's/^/#   /' <<<"$2" | head -20; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got:      $2
expected: $3"; fi; }
if [ ! -x "$check" ]; then not_ok "provider-conf-check is built" "missing $check"; exit 1; fi

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
umask 077
make_test_ca "$work" || { not_ok "a test CA is generated" "$(cat "$work/openssl.log")"; exit 1; }
# Answers at once, and the same cloud answering each call after 1.5 s (for the kill -9).
start_cloud_server "$work" fast --gce-page-size 500
rc=$?
pids+=("$CLOUD_PID")
((rc == 0)) || { not_ok "the test cloud starts"; exit 1; }
fast=$CLOUD_GCP
start_cloud_server "$work" slow --gce-page-size 500 --latency 1.5 --wire "$work/slow.wire"
rc=$?
pids+=("$CLOUD_PID")
((rc == 0)) || { not_ok "the slow test cloud starts"; exit 1; }
slow=$CLOUD_GCP
cat >"$work/burstd.conf" <<EOF
ClusterName=hpc1
StateDir=$work/state
Provider=gcp $fast OperationWait=60 PollInterval=0.1
NodeGroup=big Provider=gcp Nodes=g-[1-1000] Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 PricePerHour=0.1
NodeGroup=busy Provider=gcp Nodes=once-t1,t-[2-50] Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 PricePerHour=0.1
NodeGroup=job Provider=gcp Nodes=j-[1-19],capacity-j20,solo-1 Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 PricePerHour=0.1
Provider=gcp-slow $slow OperationWait=60 PollInterval=0.1
NodeGroup=crash Provider=gcp-slow Nodes=k-[1-1000] Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 PricePerHour=0.1
EOF
names() { local p=$1 n=$2 i; for ((i = 1; i <= n; i++)); do printf '%s-%d ' "$p" "$i"; done; }
calls() { cat "$work/$1.log" 2>/dev/null | wc -l; }
# PROVIDER LEDGER COMMAND NODE...: burstd's InstanceManager on them; output in $work/out, log in $work/err
manager() {
    local p=$1 ledger=$2 command=$3
    shift 3
    "$check" -f "$work/burstd.conf" -p "$p" -w 4 "$command" "$work/$ledger.sqlite" "$@" >"$work/out" 2>"$work/err"
}
# "NODE ID" of every instance the provider lists whose node starts with PREFIX, sorted
# ("listing failed: ..." when it does, which no expected value matches)
listed() {
    local out
    out=$("$check" -f "$work/burstd.conf" -p "$1" list hpc1 hpc1) || { echo "listing failed: $out"; return; }
    awk -v p="$2" 'index($1, p) == 1 { print $1, $2 }' <<<"$out" | sort
}
# "NODE ID" of every ledger record in STATE in the last output, sorted
recorded() { awk -v s="$1" '$4 == s { print $1, $5 }' "$work/out" | sort; }

# -- 1,000 nodes ---------------------------------------------------------------
before=$(calls fast)
manager gcp big resume $(names g 1000)
made=$(($(calls fast) - before))
[ "$made" -le 10 ] && ok "1000 nodes resumed in $made calls (at most 1% of the nodes)" ||
    not_ok "1000 nodes resumed in at most 10 calls" "$(tail -n "$made" "$work/fast.log" | sort | uniq -c | sort -rn | head)"
is "... every node's ledger record is launching with an instance" "$(recorded launching | wc -l)" 1000
is "... the provider lists exactly those instances, one per node (ledger = provider)" \
    "$(listed gcp g- | md5sum)" "$(recorded launching | md5sum)"
is "... and Slurm was told every node's address" "$(grep -c '^slurm address g-' "$work/out")" 1000

# -- throttled mid-burst -------------------------------------------------------
before=$(grep -c 'bulkInsert' "$work/fast.log")
manager gcp busy resume once-t1 $(names t 50 | cut -d' ' -f2-)
is "a bulkInsert throttled mid-burst (403 userRateLimitExceeded) is retried: all 50 nodes launched" \
    "$(recorded launching | wc -l)" 50
is "... in two bulkInserts: the refused one and its retry" "$(($(grep -c 'bulkInsert' "$work/fast.log") - before))" 2

# -- all or nothing --------------------------------------------------------------
job_nodes="$(names j 19 | tr ' ' ',')capacity-j20"
manager gcp job resume "17=$job_nodes" $(names j 19) capacity-j20 solo-1
is "one job's 20 nodes, one without capacity: none of them has an instance" "$(listed gcp j- ; listed gcp capacity-j)" ""
is "... their records failed" "$(awk '$4 == "failed"' "$work/out" | wc -l)" 20
is "... every node went back to Slurm for the job" "$(grep -c '^slurm hand-back .* 17$' "$work/out")" 20
is "... and the node of no job in the same resume launched" "$(recorded launching)" \
    "solo-1 projects/p/zones/us-central1-a/instances/solo-1"

# -- kill -9 during a batch ------------------------------------------------------
"$check" -f "$work/burstd.conf" -p gcp-slow -w 4 resume "$work/crash.sqlite" $(names k 1000) >/dev/null 2>&1 &
victim=$!
for _ in $(seq 1200); do grep -q 'bulkInsert' "$work/slow.wire" 2>/dev/null && break; sleep 0.05; done
kill -9 "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
grep -q 'bulkInsert' "$work/slow.wire" && ok "burstd killed -9 with a 1000-node bulkInsert in flight" ||
    not_ok "the bulkInsert reached the cloud before the kill"
for _ in $(seq 100); do grep -q 'bulkInsert verified' "$work/slow.log" && break; sleep 0.1; done
is "... the cloud created the 1000 instances all the same" "$(listed gcp-slow k- | wc -l)" 1000
manager gcp-slow crash resume $(names k 1000)
is "the same resume again adopts them: every record launching" "$(recorded launching | wc -l)" 1000
is "... with no second bulkInsert (no double launch)" "$(grep -c 'bulkInsert' "$work/slow.wire")" 1
is "... and ledger = provider, one instance per node (no leak)" \
    "$(listed gcp-slow k- | md5sum)" "$(recorded launching | md5sum)"

# -- 1,000 nodes suspended -------------------------------------------------------
before=$(grep -c 'GET .*/instances verified' "$work/fast.log")
manager gcp big suspend $(names g 1000)
is "1000 nodes suspended with one listing (the cloud's 1051 instances: three pages of 500)" \
    "$(($(grep -c 'GET .*/instances verified' "$work/fast.log") - before))" 3
is "... every instance gone" "$(listed gcp g- | wc -l)" 0
is "... every record terminated" "$(recorded terminated | wc -l)" 1000
