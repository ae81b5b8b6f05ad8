#!/bin/sh
# burstsim's throughput with a node group that has no quota (issue 29,
# item 7: cost grows with work, not with quotas).
#
# 1. The first 500 jobs of KTH-SP2 on its 100 local cores, always, with one
#    8-core group at max=545, at max=100000 and without max=: the nodes a
#    replay never powers up should cost nothing, so all three take as long.
# 2. A 4,000-node site: LCG-2005 (170,862 one-core jobs, the largest
#    shipped trace: a grid's job slots) on 4,000 local one-core nodes, one
#    unlimited group of 8-core nodes (0.40 per node-hour, 120 s boot), every
#    hiring policy at its defaults.  Every submission time is divided by
#    SPEEDUP (default 3), so that the site queues (without bursting: 4.3 h
#    mean wait) and always bursts some 28,000 jobs on hundreds of nodes.
# Throughput is jobs replayed per CPU second of burstsim (user + system), so
# that a loaded machine inflates it less; wall seconds beside it.
#
# usage: [SPEEDUP=N] bench/unlimited_group.sh [BURSTSIM [TRACE_DIR]] > bench/results/unlimited_group.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
SPEEDUP=${SPEEDUP:-3}
POLICIES="never always threshold boot-window predictive fixed-delay pfa forecast"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# label, then burstsim's arguments: one line of jobs, CPU and wall seconds,
# jobs per CPU second, instances launched.
measure() {
    label=$1
    shift
    /usr/bin/time -f '%U %S %e' -o "$scratch/time" "$BURSTSIM" "$@" >"$scratch/out" 2>"$scratch/err"
    jobs=$(sed -n 's/^.*: \([0-9]*\) jobs from.*/\1/p' "$scratch/err" | head -n 1)
    instances=$(sed -n 's/^instances launched \([0-9]*\),.*/\1/p' "$scratch/out")
    awk -v label="$label" -v jobs="$jobs" -v instances="$instances" '{
        cpu = $1 + $2
        printf "%-24s %8d %9.2f %9.2f %12.0f %10d\n", label, jobs, cpu, $3, (cpu > 0 ? jobs / cpu : 0), instances
    }' "$scratch/time"
}

header() {
    printf "%-24s %8s %9s %9s %12s %10s\n" "$1" jobs cpu_s wall_s jobs/cpu_s instances
}

kth="$TRACES/KTH-SP2-1996-2.1-cln.swf"
{ grep '^;' "$kth"; grep -v '^;' "$kth" | head -n 500; } >"$scratch/kth500.swf"
echo "== KTH-SP2's first 500 jobs, 100 local cores, always, group aws,cpus=8,price=0.40,boot=120[,max=N]"
header "max"
for max in 545 100000 unlimited; do
    spec="aws,cpus=8,price=0.40,boot=120"
    [ "$max" = unlimited ] || spec="$spec,max=$max"
    measure "$max" --trace "$scratch/kth500.swf" --local-cores 100 --group "$spec" --policy always
done
echo

awk -v speedup="$SPEEDUP" '/^;/ { print; next } { $2 = int($2 / speedup); print }' \
    "$TRACES/LCG-2005-1.first-part.swf" >"$scratch/lcg.swf"
echo "== LCG-2005 at ${SPEEDUP}x its arrival rate on 4,000 local one-core nodes," \
    "group aws,cpus=8,price=0.40,boot=120 (unlimited)"
header "policy"
for policy in $POLICIES; do
    measure "$policy" --trace "$scratch/lcg.swf" --local-cores 4000 --local-node-cores 1 \
        --group "aws,cpus=8,price=0.40,boot=120" --policy "$policy"
done
