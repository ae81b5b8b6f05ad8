#!/bin/sh
# Interactive readiness in burstsim (issue 27, items 5 and 6): what
# Interactive= holds buy interactive jobs and cost batch work and the cloud.
# On each shipped SWF trace, at its trace_table.sh site (local cores, a group
# of 8-core nodes at 0.40 per node-hour, 120 s boot), a share SHARE (default
# 0.1) of the jobs shaped like a session (burstsim(1) --interactive-jobs) is
# made interactive and the local pool keeps 0, 2, 4 or 8 cores held for them
# (--interactive), under never and under forecast at λ LAMBDA (default 0.1).
#
# Prints per trace, reserve and policy: the interactive jobs' time to start
# (median and p95, s), the batch jobs' mean wait (h), the core-hours the
# holds kept, the cloud cost and J at λ.
#
# usage: [SHARE=F] [LAMBDA=X] [RESERVES='0 2 4 8'] bench/interactive_reserve.sh [BURSTSIM]
#        > bench/results/interactive_reserve.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf
SHARE=${SHARE:-0.1}
LAMBDA=${LAMBDA:-0.1}
RESERVES=${RESERVES:-0 2 4 8}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

printf '%-11s %7s %-22s %6s %9s %9s %10s %9s %10s %10s\n' trace reserve policy jobs start_med start_p95 \
    batch_wait held_ch cost J
row() {
    name=$1 file=$2 cores=$3
    max=$((cores / 8)); [ "$max" -lt 20 ] && max=20
    for reserve in $RESERVES; do
        "$BURSTSIM" --trace "$file" --local-cores "$cores" --group "aws,cpus=8,price=0.40,boot=120,max=$max" \
            --compare never,forecast --lambda "$LAMBDA" --interactive-jobs "$SHARE" --interactive "$reserve" \
            >"$scratch/out" 2>"$scratch/err"
        awk -v trace="$name" -v reserve="$reserve" '
            /^policy / { for (i = 1; i <= NF; i++) { if ($i == "cost") cc = i; if ($i ~ /^J@/) jc = i }
                         table = 1; next }
            table && NF == 0 { table = 0 }
            table { cost[$1] = $cc; J[$1] = $jc; order[++n] = $1 }
            /: interactive jobs / {
                label = $1; sub(/:$/, "", label)
                line[label] = $0
            }
            END {
                for (k = 1; k <= n; k++) {
                    l = order[k]; s = line[l]
                    match(s, /interactive jobs [0-9]+/); jobs = substr(s, RSTART + 17, RLENGTH - 17)
                    match(s, /median [0-9]+ s/); med = substr(s, RSTART + 7, RLENGTH - 9)
                    match(s, /p95 [0-9]+ s/); p95 = substr(s, RSTART + 4, RLENGTH - 6)
                    match(s, /wait mean [0-9.]+h/); bw = substr(s, RSTART + 10, RLENGTH - 11)
                    match(s, /kept [0-9.]+ core-hours/); held = substr(s, RSTART + 5, RLENGTH - 16)
                    printf "%-11s %7d %-22s %6d %9d %9d %10.2f %9.1f %10.2f %10.2f\n", trace, reserve, l, jobs, med,
                           p95, bw, held, cost[l], J[l]
                }
            }' "$scratch/out"
    done
}

row KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
row HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
row NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
row lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
