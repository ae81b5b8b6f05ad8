#!/bin/sh
# The real-trace table of issue 6, item 6: every SWF trace × policies
# (never, always, threshold, boot-window, predictive, forecast, pfa, best
# fixed delay in hindsight, clairvoyant reference) × λ = 0.5, 1, 2, 5 × the cloud
# core-hour price, with the ratios to the clairvoyant reference, the lower
# bound on cloud core-hours at each run's achieved waits, and the lower
# bound on J of every schedule.
#
# usage: [ONLY="NAME..."] [CLOUD_SCALE=N] bench/trace_table.sh [BURSTSIM [TRACE_DIR [OUT_DIR]]]
#   defaults: ./burstsim, the source tree's tests/data/traces/swf, bench/results
#   ONLY: replay just these traces (e.g. "NASA-iPSC lublin-256"); the
#   summary still covers every OUT_DIR/<trace>.txt.
#   CLOUD_SCALE: the cloud's cores at most, in local cores (default 1).
# Writes OUT_DIR/<trace>.txt (burstsim's full output) and prints, per trace
# and λ, J of every policy, the best research policy and the three aims:
#   A1: J_best ≤ 0.85 × min(J_never, J_always)
#   A2: J_best ≤ 0.90 × J_best-fixed-delay
#   A3: J_best ≤ 1.25 × J_clairvoyant
# (research policies: threshold, boot-window, predictive, forecast, pfa), and
# the same two ratios for the clairvoyant reference (c/base, c/dly): where
# the reference itself misses 0.85 or 0.90, no burst set it tried meets
# that aim either.  Last, the lower bound on J of every schedule (burstsim's
# J-bound, sim/reference/objective_bound.hpp): b/bnd is the best policy's distance
# from the optimum at most, and where lb/base is above 0.85 no schedule at
# all meets A1.
# Every research policy gets each λ: predictive and forecast optimize for
# it, threshold, boot-window and pfa use it as their scale-up cost gate
# (burstsim --lambda-gates).
# pfa's budget: the whole group's price per hour (max nodes × 0.40 per
# 3600-s interval) for each account with work (scope=account), so its hard
# cap never binds below the group's size, the only bound the other policies
# have; pfa still sizes the cloud by its throughput profile and token demand.
# (Its default, 100 per hour split equally across the accounts with work,
# would cut accounts' shares below the group on traces with many accounts.)
#
# The cloud: one group of 8-core nodes at 0.40 per node-hour (0.05 per
# core-hour), 120 s boot, per-second billing with a 60 s minimum, at most
# max(20, CLOUD_SCALE × local cores / 8) nodes: by default a quota as large
# as the site itself.  λ = 0.025, 0.05, 0.1, 0.25 per waiting core-hour.
#
# Local cluster size: the trace header's MaxProcs, except where the trace's
# machine is never congested at that size, which makes every policy equal
# to never (nothing to gain by bursting): there the site is smaller.
#   KTH-SP2    100 = MaxProcs (mean wait without bursting 2.7 h)
#   HPC2N      240 = MaxProcs (1.0 h)
#   NASA-iPSC   64 = MaxProcs / 2: at 128 no job ever waits (the iPSC/860
#                    ran at 47% load); the 420 jobs of 128 cores cannot be
#                    replayed on 64 and are left out (burstsim counts them)
#   LCG       1500 of MaxProcs 24,515: the trace is 170 grid sites summed;
#                    its 170,862 one-core jobs keep 1,504 cores busy on
#                    average, so 1,500 cores queue at peaks (7.8 h mean wait)
#   lublin-256 256 = MaxNodes (no MaxProcs in the header; overloaded: 27 h)
# The whole of every trace is replayed.
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
OUT=${3:-bench/results}
LAMBDAS=0.025,0.05,0.1,0.25
POLICIES=never,always,threshold,boot-window,predictive,forecast,pfa
mkdir -p "$OUT"

# name file local_cores why
run() {
    name=$1 file=$2 cores=$3
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    max=$((${CLOUD_SCALE:-1} * cores / 8)); [ "$max" -lt 20 ] && max=20
    start=$(date +%s)
    "$BURSTSIM" --trace "$file" --local-cores "$cores" --group "aws,cpus=8,price=0.40,boot=120,max=$max" \
        --compare "$POLICIES" --param "pfa:budget=$(awk "BEGIN { print $max * 0.40 }")" --param pfa:scope=account \
        --tune-delay --clairvoyant --lambda "$LAMBDAS" --lambda-gates >"$OUT/$name.txt" 2>"$OUT/$name.err"
    echo "$name: $cores local cores, $(($(date +%s) - start)) s wall" >&2
}

# LCG takes as long as the rest together: one core for it, one for the rest.
run LCG "$TRACES/LCG-2005-1.first-part.swf" 1500 &
run KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
run HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
run NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
run lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
wait

# The summary: one line per trace and λ from the ratios section.
for f in "$OUT"/*.txt; do
    awk -v trace="$(basename "$f" .txt)" '
        /^ratios/ { on = 1; next }
        on && NF == 0 { on = 0; next }
        on && NF >= 8 {
            label = $1; l = $2; j = $3
            sub(/\(lambda=.*$/, "", label); sub(/\[.*$/, "", label)
            if (label ~ /^best-delay/) label = "delay"
            J[l, label] = j; lam[l] = 1
        }
        END {
            n = split("never always threshold boot-window predictive forecast pfa delay clairvoyant J-bound", P, " ")
            for (l in lam) {
                best = ""; bj = 0
                nr = split("threshold boot-window predictive forecast pfa", R, " ")
                for (k = 1; k <= nr; k++)
                    if ((l, R[k]) in J && (best == "" || J[l, R[k]] + 0 < bj)) { best = R[k]; bj = J[l, R[k]] + 0 }
                base = J[l, "never"] + 0 < J[l, "always"] + 0 ? J[l, "never"] + 0 : J[l, "always"] + 0
                line = sprintf("%-11s %6s", trace, l)
                for (k = 1; k <= n; k++)
                    line = line (((l, P[k]) in J) ? sprintf(" %10.1f", J[l, P[k]]) : sprintf(" %10s", "-"))
                a1 = bj <= 0.85 * base ? "yes" : "no"
                a2 = bj <= 0.90 * J[l, "delay"] ? "yes" : "no"
                a3 = bj <= 1.25 * J[l, "clairvoyant"] ? "yes" : "no"
                c = J[l, "clairvoyant"] + 0
                lb = J[l, "J-bound"] + 0
                line = line sprintf("  %-11s %5.3f %5.3f %5.3f %-3s %-3s %-3s %5.3f %5.3f %5s %7s", best, bj / base,
                                    bj / J[l, "delay"], bj / c, a1, a2, a3, c / base, c / J[l, "delay"],
                                    lb > 0 ? sprintf("%.2f", bj / lb) : "-", lb > 0 ? sprintf("%.3f", lb / base) : "-")
                print line
            }
        }' "$f" | sort -k2,2n
done | {
    printf '%-11s %6s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s  %-11s %5s %5s %5s %-3s %-3s %-3s %5s %5s %5s %7s\n' \
        trace lambda never always threshold boot-win predictive forecast pfa best-delay clairvoy J-bound best \
        b/base b/dly b/clv A1 A2 A3 c/base c/dly b/bnd lb/base
    cat
}
