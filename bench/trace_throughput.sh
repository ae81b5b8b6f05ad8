#!/bin/sh
# burstsim's throughput per hiring policy on every shipped trace (issue 29:
# >= 20k jobs/s per policy on every shipped trace).
#
# Each trace is replayed whole at the local size bench/trace_table.sh gives
# it, with one 8-core group of max(20, cores/8) nodes at 0.40 per node-hour
# booting in 120 s, every policy at its defaults (pfa with trace_table's
# budget and scope).  Throughput is jobs replayed per CPU second of burstsim
# (user + system), the best of REPS runs (default 5): this machine's speed
# varies by up to 1.5x from one minute to the next.  /usr/bin/time counts in
# hundredths of a second, so a row of a small trace is good to ~10%.
#
# usage: [REPS=N] bench/trace_throughput.sh [BURSTSIM [TRACE_DIR]] > bench/results/trace_throughput.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
REPS=${REPS:-5}
POLICIES="never always threshold boot-window predictive fixed-delay pfa forecast"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# name file local_cores: one line per policy.
run() {
    name=$1 file=$2 cores=$3
    max=$((cores / 8))
    [ "$max" -lt 20 ] && max=20
    for policy in $POLICIES; do
        set -- --trace "$file" --local-cores "$cores" --group "aws,cpus=8,price=0.40,boot=120,max=$max" --policy "$policy"
        [ "$policy" = pfa ] && set -- "$@" --param "pfa:budget=$(awk "BEGIN { print $max * 0.40 }")" --param pfa:scope=account
        best=
        rep=0
        while [ "$rep" -lt "$REPS" ]; do
            /usr/bin/time -f '%U %S' -o "$scratch/time" "$BURSTSIM" "$@" >"$scratch/out" 2>"$scratch/err"
            cpu=$(awk '{ print $1 + $2 }' "$scratch/time")
            best=$(awk -v a="$best" -v b="$cpu" 'BEGIN { print (a == "" || b < a) ? b : a }')
            rep=$((rep + 1))
        done
        jobs=$(sed -n 's/^.*: \([0-9]*\) jobs from.*/\1/p' "$scratch/err" | head -n 1)
        decisions=$(sed -n 's/^.*decisions \([0-9]*\),.*/\1/p' "$scratch/out")
        awk -v name="$name" -v policy="$policy" -v jobs="$jobs" -v cpu="$best" -v decisions="$decisions" 'BEGIN {
            printf "%-10s %-12s %8d %10d %8.2f %10.0f\n", name, policy, jobs, decisions, cpu, (cpu > 0 ? jobs / cpu : 0)
        }'
    done
}

printf "%-10s %-12s %8s %10s %8s %10s\n" trace policy jobs decisions cpu_s jobs/cpu_s
run KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
run HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
run NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
run lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
run LCG "$TRACES/LCG-2005-1.first-part.swf" 1500
