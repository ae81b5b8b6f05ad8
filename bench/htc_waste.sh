#!/bin/sh
# A high-throughput site (issue 27, item 7): burstsim's htc workload (man
# burstsim(1), WORKLOADS: mostly one-core jobs of hours from 20 users, in a
# daily cycle; 7 days, about 14,000 jobs) on 300 local cores, which queue
# at the daily peaks (2.0 h mean wait without bursting), and a group of up
# to 60 8-core nodes (0.40 per node-hour, 120 s boot).  Every hiring policy
# at λ = 0.025, 0.05, 0.1, 0.25 per waiting core-hour, the best fixed delay
# in hindsight and the clairvoyant reference.
#
# Prints, per policy and λ: J, J over the reference's (J/clv), the waste
# core-hours (cloud cores booting, idle, or free on busy nodes) and the
# waste over the reference's at that λ (waste/clv).  burstsim's whole
# output goes to OUT (default /dev/null).
#
# CLOUD_GROUPS replaces the cloud: burstsim --group specs, space-separated (the
# "after" of bench/results/htc_waste.txt gives narrow jobs narrow nodes:
# CLOUD_GROUPS="aws,cpus=8,price=0.40,boot=120,max=60 small,cpus=2,price=0.10,boot=120,max=240").
#
# usage: [SEED=N] [OUT=FILE] [CLOUD_GROUPS=...] bench/htc_waste.sh [BURSTSIM] > bench/results/htc_waste.txt
set -eu

BURSTSIM=${1:-./burstsim}
SEED=${SEED:-1}
OUT=${OUT:-/dev/null}
CLOUD_GROUPS=${CLOUD_GROUPS:-aws,cpus=8,price=0.40,boot=120,max=60}
group_args=""
for g in $CLOUD_GROUPS; do group_args="$group_args --group $g"; done
LAMBDAS=0.025,0.05,0.1,0.25
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# shellcheck disable=SC2086 # one word per --group and spec
"$BURSTSIM" --workload htc --seed "$SEED" --local-cores 300 $group_args \
    --compare never,always,threshold,boot-window,predictive,forecast,pfa \
    --param pfa:budget=24 --param pfa:scope=account --tune-delay --clairvoyant \
    --lambda "$LAMBDAS" --lambda-gates >"$scratch/out" 2>"$scratch/err"
cp "$scratch/out" "$OUT"
echo "# $(head -n 1 "$scratch/err")"
awk '
    # The first table: waste_ch per row label.
    /^policy / { for (i = 1; i <= NF; i++) if ($i == "waste_ch") col = i; table = 1; next }
    table && NF == 0 { table = 0 }
    table { waste[$1] = $col }
    /^ratios / { ratios = 1; next }
    ratios && NF == 0 { ratios = 0 }
    ratios && $1 != "J-bound" {
        label = $1; lambda = $2 + 0
        base = label; sub(/\(.*/, "", base)
        # never and always have one row in the first table for every λ.
        w = (label in waste) ? waste[label] : waste[base]
        if (base == "clairvoyant") clv[lambda] = w
        n++; row[n] = label; lam[n] = lambda; J[n] = $3; ratio[n] = $4; wst[n] = w
    }
    END {
        printf "%-34s %7s %10s %7s %10s %9s\n", "policy", "lambda", "J", "J/clv", "waste_ch", "waste/clv"
        for (i = 1; i <= n; i++)
            printf "%-34s %7.3f %10.2f %7.3f %10.1f %9.2f\n", row[i], lam[i], J[i], ratio[i], wst[i],
                   (clv[lam[i]] > 0 ? wst[i] / clv[lam[i]] : 0)
    }
' "$scratch/out"
