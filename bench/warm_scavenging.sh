#!/bin/sh
# Scavenger work on the warm pool's nodes (ScavengeWarmNodes=yes, issue 27
# items 4 and 6): how much of the time the pool holds cloud nodes idle a
# backlog of scavenger jobs turns into finished work, by the jobs' length.
# Each trace's site is bench/warm_pool.sh's (its local cores, one group of
# 8-core nodes at 0.40 per node-hour, 120 s boot, as large as the site),
# chain always + warm (holt-winters), λ 0.1.  Scavenger jobs take whole
# nodes, never run dry, and start over when requeued; the first starts a
# decision cycle (60 s) after the pool holds the node, each next one two
# cycles after a run ends, as burstd's pins do (burstsim
# --scavenge-warm-nodes S).  Columns: the run length, the core-hours the
# pool held nodes idle, those of runs that finished and of runs a real job
# or a lower forecast cut short, the share of the held time that became
# finished work, and the cloud nodes' idle core-hours (the held time is
# part of it; the rest is mostly idle time before a power-down).  Scavenger work changes neither the
# replay's cost nor its waits: the runs only fill what the pool holds.
#
# usage: [ONLY="NAME..."] bench/warm_scavenging.sh [BURSTSIM [TRACE_DIR]] > bench/results/warm_scavenging.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
RUNS=${RUNS:-60 600 3600 14400}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'ClusterName=bench PlaceholderQOS=placeholder\nPolicy=always\nPolicy=warm forecaster=holt-winters\n' \
    >"$work/burstd.conf"

# name file cores
run() {
    name=$1 file=$2 cores=$3
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    max=$((cores / 8)); [ "$max" -lt 20 ] && max=20
    echo "== $name: $cores local cores"
    printf "  %8s %12s %12s %12s %8s %12s\n" run_s held_ch done_ch cut_ch done% idle_ch
    for run in $RUNS; do
        "$BURSTSIM" --trace "$file" --local-cores "$cores" --group "aws,cpus=8,price=0.40,boot=120,max=$max" \
            --config "$work/burstd.conf" --lambda 0.1 --scavenge-warm-nodes "$run" 2>/dev/null |
            awk -v run="$run" '/^scavenger work on warm nodes/ {
                for (i = 1; i <= NF; i++) {
                    if ($i == "held") held = $(i + 1)
                    if ($i == "done,") done = $(i - 2)
                    if ($i == "cut") lost = $(i - 2)
                    if ($i == "idle") idle = $(i + 1)
                }
                printf "  %8d %12.1f %12.1f %12.1f %7.1f%% %12.1f\n", run, held, done, lost, (held > 0 ? 100 * done / held : 0), idle
            }'
    done
}

run KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
run HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
run NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
run lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
run LCG "$TRACES/LCG-2005-1.first-part.swf" 1500
