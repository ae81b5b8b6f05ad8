#!/bin/sh
# burstsim --forecast-eval on every shipped SWF trace (issue 27, item 2):
# each forecaster's MSE and PMSE on each node group's bucket counts, one
# measured boot time ahead, against the static-maximum and last-value
# baselines.  The site of bench/trace_table.sh (same local cores per trace),
# but two cloud groups so that jobs split over buckets: 8-core nodes
# booting in 120 s and 32-core nodes booting in 300 s, each as large as
# the site.  The always policy: every job that cannot start locally bursts
# at once, so the counts are the cloud work a site bursting reactively
# would have had.
#
# usage: [ONLY="NAME..."] bench/forecast_eval.sh [BURSTSIM [TRACE_DIR]] > bench/results/forecast_eval.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
FORECASTERS="--forecaster ewma --forecaster holt-winters --forecaster holt-winters,seasons=daily
  --forecaster quantile,quantile=0.5 --forecaster quantile --forecaster quantile,quantile=0.99"

# name file local_cores
run() {
    name=$1 file=$2 cores=$3
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    small=$((cores / 8)); [ "$small" -lt 20 ] && small=20
    large=$((cores / 32)); [ "$large" -lt 5 ] && large=5
    echo "== $name: burstsim --trace $(basename "$file") --local-cores $cores" \
        "--group 'small,cpus=8,price=0.40,boot=120,max=$small'" \
        "--group 'large,cpus=32,price=1.60,boot=300,max=$large' --policy always --forecast-eval" $FORECASTERS
    start=$(date +%s)
    # shellcheck disable=SC2086
    "$BURSTSIM" --trace "$file" --local-cores "$cores" \
        --group "small,cpus=8,price=0.40,boot=120,max=$small" \
        --group "large,cpus=32,price=1.60,boot=300,max=$large" \
        --policy always --forecast-eval $FORECASTERS 2>/dev/null
    echo "($(($(date +%s) - start)) s wall)"
    echo
}

run KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
run HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
run NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
run lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
run LCG "$TRACES/LCG-2005-1.first-part.swf" 1500
