#!/bin/sh
# A high-throughput site's cloud partition MaxTime (issue 27, item 7): the
# htc workload of bench/htc_waste.sh, seeds 1..SEEDS, always bursting, with
# the cloud partitions' MaxTime at each of MAX_TIMES seconds (0: none), on
# two clouds: 8-core nodes only, and 8-core nodes beside 2-core nodes of
# the same price per core.  A job whose time limit is longer than the
# MaxTime stays local: burstd routes and hires for none (Slurm would not
# start it there).  Prints, per cloud, seed and MaxTime, the waste
# core-hours and J at each λ.
#
# usage: [SEEDS=N] [MAX_TIMES="S ..."] bench/htc_max_time.sh [BURSTSIM] > bench/results/htc_max_time.txt
set -eu

BURSTSIM=${1:-./burstsim}
SEEDS=${SEEDS:-5}
MAX_TIMES=${MAX_TIMES:-"0 43200 50400 57600 72000"}
LAMBDAS=0.025,0.05,0.1,0.25
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

printf '%-12s %4s %8s %9s %9s %9s %9s %9s\n' cloud seed max_time waste_ch J@0.025 J@0.05 J@0.1 J@0.25
for cloud in wide narrow; do
    seed=1
    while [ "$seed" -le "$SEEDS" ]; do
        for max_time in $MAX_TIMES; do
            groups="--group aws,cpus=8,price=0.40,boot=120,max=60,max_time=$max_time"
            [ "$cloud" = narrow ] && groups="$groups --group small,cpus=2,price=0.10,boot=120,max=240,max_time=$max_time"
            # shellcheck disable=SC2086 # one word per --group and spec
            if ! "$BURSTSIM" --workload htc --seed "$seed" --local-cores 300 $groups --policy always \
                --lambda "$LAMBDAS" >"$scratch/out" 2>"$scratch/err"; then
                cat "$scratch/err" >&2
                exit 1
            fi
            awk -v cloud="$cloud" -v seed="$seed" -v mt="$max_time" '
                    /^policy / { for (i = 1; i <= NF; i++) if ($i == "waste_ch") col = i }
                    /^always / { printf "%-12s %4d %8d %9.1f %9.2f %9.2f %9.2f %9.2f\n", cloud, seed, mt, $col,
                                        $(NF - 3), $(NF - 2), $(NF - 1), $NF }' "$scratch/out"
        done
        seed=$((seed + 1))
    done
done
