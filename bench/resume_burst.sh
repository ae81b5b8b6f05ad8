#!/bin/bash
# A burst of NODES nodes (default 1000) resumed at once, per cloud: the
# provider calls it takes, the time until every launch is answered, and the
# peak request rate the cloud sees.  Prints numbers; asserts nothing.
#
#   bench/resume_burst.sh BUILDDIR [NODES] [LATENCY]
#   (PROVIDERS="aws gcp openstack azure" by default)
#
# Each cloud is the test servers' (tests/providers/ec2_tls_server.py, which
# checks every SigV4 signature, and cloud_tls_server.py for GCE, Nova and
# Azure), over HTTPS on loopback, with every answer delayed by LATENCY seconds
# (default 0.2: a cloud API's own latency).  burstd's InstanceManager does
# the resume, as `burstctl resume` makes it do (tests/providers/
# provider-conf-check resume, with burstd's 4 workers, a fresh ledger and
# Slurm left out): batched by group, type and zone, each instance in the
# ledger before its call, every call through the provider's request budget
# (the cloud's default limits, doc/rate-limits.md).
#
# Then the same nodes are suspended (Slurm powering them down): one listing
# and one terminate call per provider (per worker for one that does not
# batch), each cloud's own terminate API underneath.
#
# Columns: nodes launched (resume: ledger record launching) or ended
# (suspend: terminated), of NODES; API calls the cloud answered (token
# requests included); calls per node in %; seconds from the start of the
# command to every call answered (wall, the command's own start-up
# included); the most requests the cloud saw in any one second.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
builddir=$(cd "${1:?usage: $0 BUILDDIR [NODES] [LATENCY]}" && pwd) || exit 1
nodes=${2:-1000}
latency=${3:-0.2}
check=$builddir/tests/providers/provider-conf-check
[ -x "$check" ] || { echo "$check not built (make tests/providers/provider-conf-check)" >&2; exit 1; }
fixtures=$top/tests/data/provider-fixtures
# shellcheck source=../tests/providers/lib/test_ca.sh
. "$top/tests/providers/lib/test_ca.sh"

work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
umask 077
make_test_ca "$work" || { echo "openssl failed: $(cat "$work/openssl.log")" >&2; exit 1; }
wait_port() { for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done; echo "server did not start: $(cat "$2")" >&2; exit 1; }

key_id=AKIDEXAMPLE
secret=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY
python3 "$top/tests/providers/ec2_tls_server.py" --cert "$work/server.pem" --key "$work/server.key" \
    --fixtures "$fixtures/ec2" --port-file "$work/ec2-port" --log "$work/ec2.log" --access-key "$key_id" \
    --secret "$secret" --region us-east-1 --latency "$latency" --stamps "$work/ec2.stamps" 2>"$work/ec2.err" &
pids+=($!)
wait_port "$work/ec2-port" "$work/ec2.err"

# shellcheck source=../tests/providers/lib/cloud_server.sh
. "$top/tests/providers/lib/cloud_server.sh"
start_cloud_server "$work" cloud --gce-page-size 500 --latency "$latency" --stamps "$work/cloud.stamps"
rc=$?
pids+=("$CLOUD_PID")
((rc == 0)) || exit 1
ec2=https://127.0.0.1:$(cat "$work/ec2-port")
cat >"$work/burstd.conf" <<EOF
ClusterName=hpc1
StateDir=$work/state
Provider=aws Type=aws Region=us-east-1 Endpoint=$ec2 CaFile=$work/ca.pem LaunchTemplateId=lt-0123456789abcdef0 \
    SubnetIds=subnet-a,subnet-b
NodeGroup=aws Provider=aws Nodes=e-[1-$nodes] Partition=cloud InstanceTypes=c5.large Cpus=2 PricePerHour=0.1
Provider=gcp $CLOUD_GCP OperationWait=600 PollInterval=0.5
NodeGroup=gcp Provider=gcp Nodes=g-[1-$nodes] Partition=cloud InstanceTypes=n2-standard-2 Cpus=2 PricePerHour=0.1
Provider=openstack $CLOUD_OPENSTACK PollInterval=0.5 BatchSize=100
NodeGroup=openstack Provider=openstack Nodes=n-[1-$nodes] Partition=cloud InstanceTypes=m1.small Cpus=2 PricePerHour=0.1
Provider=azure $CLOUD_AZURE OperationWait=600 PollInterval=0.5
NodeGroup=azure Provider=azure Nodes=a-[1-$nodes] Partition=cloud InstanceTypes=Standard_D4s_v5 Cpus=2 PricePerHour=0.1
EOF

echo "# $nodes nodes per cloud, every answer after $latency s; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-10s %-7s %8s %7s %8s %9s %8s\n' cloud command nodes calls calls_% seconds peak_rps
prefix() { case $1 in aws) echo e ;; gcp) echo g ;; openstack) echo n ;; azure) echo a ;; esac; }
# CLOUD COMMAND STATE: runs the command on every node, then counts the nodes
# whose ledger record ends in STATE
phase() {
    local p=$1 command=$2 state=$3 stamps=$work/cloud.stamps start seconds done calls peak
    [ "$p" = aws ] && stamps=$work/ec2.stamps
    : >"$stamps"
    start=$EPOCHREALTIME
    AWS_ACCESS_KEY_ID=$key_id AWS_SECRET_ACCESS_KEY=$secret AWS_SESSION_TOKEN= \
        "$check" -f "$work/burstd.conf" -p "$p" -w 4 "$command" "$work/$p.sqlite" "${names[@]}" \
        >"$work/$p.out" 2>"$work/$p.err"
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    done=$(awk -v s="$state" '{ last[$1] = $4 } END { for (n in last) c += last[n] == s; print c + 0 }' "$work/$p.out")
    calls=$(wc -l <"$stamps")
    peak=$(awk '{ n[int($1)]++ } END { for (s in n) if (n[s] > m) m = n[s]; print m + 0 }' "$stamps")
    printf '%-10s %-7s %8s %7s %8s %9s %8s\n' "$p" "$command" "$done" "$calls" \
        "$(awk -v c="$calls" -v n="$nodes" 'BEGIN { printf "%.1f", 100 * c / n }')" "$seconds" "$peak"
    ((done == nodes)) || { echo "#   $p $command: $(grep -v " $state " "$work/$p.out" | head -3)"; tail -3 "$work/$p.err" | sed 's/^/#   /'; }
    echo "#   $p $command calls: $(cut -d' ' -f2- "$stamps" | sed 's/[0-9a-f-]*$//; s/ *$//' | sort | uniq -c | sort -rn | head -5 | awk '{ c = $1; $1 = ""; printf "%s x%s;", $0, c }')"
}
for p in ${PROVIDERS:-aws gcp openstack azure}; do
    names=()
    for i in $(seq "$nodes"); do names+=("$(prefix "$p")-$i"); done
    phase "$p" resume launching
    phase "$p" suspend terminated
done
