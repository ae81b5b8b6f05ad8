#!/bin/sh
# The warm pool's trade-off on every shipped SWF trace (issue 27, item 6):
# idle cost the pool adds against the waiting it saves.  Each trace's site
# is bench/trace_table.sh's (same local cores, one group of 8-core nodes at
# 0.40 per node-hour, 120 s boot, as large as the site); each base policy
# (always, and forecast at λ) runs alone and with Policy=warm after it, once
# per forecaster, at each λ of the trace table (LAMBDAS, default 0.025
# 0.05 0.1 0.25 per waiting core-hour).  Columns: the run's cost, waiting core-hours, J = cost + λ ×
# waiting core-hours, the median and p95 wait of the jobs that ran in the
# cloud (s; boots included), idle core-hours of cloud nodes; then against
# the same base without the pool: the cost it added, the waiting cost it
# saved (λ × core-hours), ΔJ (negative: the pool pays) and λ*, the price of
# a waiting core-hour above which it would pay (cost added / core-hours
# saved; "never" where it saved none).
# Last, per trace and λ, the lowest J without the pool (always or forecast)
# and with it (any base and forecaster), and how many of the pool's chains
# lower their base's J: where none does, the pool cannot change that cell of
# bench/trace_table.sh's aims either.
# Also writes OUT_DIR/warm_pool.svg: waiting cost saved against cost added,
# one point per trace × λ × base × forecaster; above the diagonal the pool pays.
#
# usage: [ONLY="NAME..."] [LAMBDAS="L..."] bench/warm_pool.sh [BURSTSIM [TRACE_DIR [OUT_DIR]]] > bench/results/warm_pool.txt
set -eu

BURSTSIM=${1:-./burstsim}
TRACES=${2:-$(cd "$(dirname "$0")/.." && pwd)/tests/data/traces/swf}
OUT=${3:-bench/results}
LAMBDAS=${LAMBDAS:-0.025 0.05 0.1 0.25}
FORECASTERS="last-value ewma holt-winters quantile quantile,quantile=0.99"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
points="$work/points"
summary="$work/summary"
: >"$points"
: >"$summary"

# chain... -> burstd.conf lines
conf() {
    echo "ClusterName=bench PlaceholderQOS=placeholder"
    for policy in "$@"; do echo "Policy=$policy"; done
}

# name file cores label policy-lines... : prints one row, and "cost waiting_ch" to $work/row
replay() {
    name=$1 file=$2 cores=$3 label=$4
    shift 4
    max=$((cores / 8)); [ "$max" -lt 20 ] && max=20
    conf "$@" >"$work/burstd.conf"
    "$BURSTSIM" --trace "$file" --local-cores "$cores" --group "aws,cpus=8,price=0.40,boot=120,max=$max" \
        --config "$work/burstd.conf" --lambda "$LAMBDA" 2>/dev/null >"$work/out"
    awk -v label="$label" -v lambda="$LAMBDA" '
        /^policy / { header = 1; next }
        header == 1 && NF > 10 { cost = $4; header = 2 }
        /^lambda .* waiting core-hours/ { split($0, a, "waiting core-hours "); split(a[2], b, ";"); waiting = b[1] }
        /^jobs that ran in the cloud/ { median = $(NF - 4); p95 = $(NF - 1) }
        /^waste core-hours/ { for (i = 1; i <= NF; i++) if ($i == "idle") { idle = $(i + 1); sub(/,/, "", idle) } }
        END {
            printf "  %-36s %10.2f %10.1f %10.2f %7d %7d %10.1f", label, cost, waiting, cost + lambda * waiting, median, p95, idle
            print cost, waiting > "/dev/stderr"
        }' "$work/out" 2>"$work/row"
}

# name file cores
run() {
    name=$1 file=$2 cores=$3
    case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
    for LAMBDA in $LAMBDAS; do
        run_at_lambda "$name" "$file" "$cores"
    done
}

# name file cores, at $LAMBDA
run_at_lambda() {
    name=$1 file=$2 cores=$3
    echo "== $name: $cores local cores, λ $LAMBDA"
    printf "  %-36s %10s %10s %10s %7s %7s %10s %10s %10s %10s %8s\n" chain cost wait_ch J burst_med burst_p95 idle_ch \
        +cost saved ΔJ λ*
    start=$(date +%s)
    for base in always "forecast lambda=$LAMBDA"; do
        base_name=${base%% *}
        replay "$name" "$file" "$cores" "$base_name" "$base"
        echo
        read -r base_cost base_wait <"$work/row"
        awk -v c="$base_cost" -v w="$base_wait" -v l="$LAMBDA" -v cell="$name $LAMBDA" \
            'BEGIN { printf "%s\tbase\t%.17g\n", cell, c + l * w }' >>"$summary"
        for f in $FORECASTERS; do
            replay "$name" "$file" "$cores" "$base_name+warm $f" "$base" "warm forecaster=$f"
            read -r cost wait <"$work/row"
            awk -v c="$cost" -v w="$wait" -v bc="$base_cost" -v bw="$base_wait" -v l="$LAMBDA" \
                'BEGIN { printf " %10.2f %10.2f %10.2f", c - bc, l * (bw - w), (c + l * w) - (bc + l * bw)
                         if (bw > w) printf " %8.2f\n", (c - bc) / (bw - w); else printf " %8s\n", "never" }'
            awk -v c="$cost" -v w="$wait" -v bc="$base_cost" -v bw="$base_wait" -v l="$LAMBDA" \
                -v label="$name λ$LAMBDA $base_name $f" 'BEGIN { printf "%s\t%.4f\t%.4f\n", label, c - bc, l * (bw - w) }' >>"$points"
            awk -v c="$cost" -v w="$wait" -v bc="$base_cost" -v bw="$base_wait" -v l="$LAMBDA" -v cell="$name $LAMBDA" \
                'BEGIN { printf "%s\tpool\t%.17g\t%d\n", cell, c + l * w, (c + l * w) < (bc + l * bw) }' >>"$summary"
        done
    done
    echo "($(($(date +%s) - start)) s wall)"
    echo
}

run KTH-SP2 "$TRACES/KTH-SP2-1996-2.1-cln.swf" 100
run HPC2N "$TRACES/HPC2N-2002-2.2-cln.alea-subset3170.swf" 240
run NASA-iPSC "$TRACES/NASA-iPSC-1993-3.1-cln.swf" 64
run lublin-256 "$TRACES/synthetic/lublin_256.swf" 256
run LCG "$TRACES/LCG-2005-1.first-part.swf" 1500

echo "== per trace and λ: lowest J without the pool and with it"
printf "  %-11s %6s %12s %12s %s\n" trace λ J_no_pool J_pool "chains that lower their base's J"
awk -F'\t' '
    { split($1, k, " "); cell = $1; if (!(cell in seen)) { seen[cell] = 1; order[++n] = cell } }
    $2 == "base" && (!(cell in base) || $3 + 0 < base[cell]) { base[cell] = $3 + 0 }
    $2 == "pool" { if (!(cell in pool) || $3 + 0 < pool[cell]) pool[cell] = $3 + 0; chains[cell]++; lower[cell] += $4 }
    END {
        for (i = 1; i <= n; i++) {
            c = order[i]; split(c, k, " ")
            printf "  %-11s %6s %12.2f %12.2f %d of %d\n", k[1], k[2], base[c], pool[c], lower[c], chains[c]
        }
    }' "$summary"
echo

python3 - "$points" "$OUT/warm_pool.svg" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
pts = [(r[0], float(r[1]), float(r[2])) for r in rows]
if not pts:
    sys.exit(0)
w, h, m = 760, 560, 70
lo = min(0.0, min(min(x, y) for _, x, y in pts))
hi = max(max(max(x, y) for _, x, y in pts), 1e-9)
sx = lambda v: m + (v - lo) / (hi - lo) * (w - 2 * m)
sy = lambda v: h - m - (v - lo) / (hi - lo) * (h - 2 * m)
colours = {}
palette = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
       f'<rect width="{w}" height="{h}" fill="white"/>',
       f'<text x="{w/2}" y="20" text-anchor="middle" font-size="14">Warm pool: waiting cost saved vs. cost added (each λ of bench/warm_pool.sh)</text>',
       f'<line x1="{sx(lo)}" y1="{sy(lo)}" x2="{sx(hi)}" y2="{sy(hi)}" stroke="#999" stroke-dasharray="4 4"/>',
       f'<text x="{sx(hi) - 4}" y="{sy(hi) + 14}" text-anchor="end" fill="#666">pays above this line</text>',
       f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
       f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
       f'<text x="{w/2}" y="{h - 25}" text-anchor="middle">cost added by the pool</text>',
       f'<text x="18" y="{h/2}" text-anchor="middle" transform="rotate(-90 18 {h/2})">waiting cost saved (λ × core-hours)</text>']
for tick in range(6):
    v = lo + (hi - lo) * tick / 5
    out.append(f'<text x="{sx(v)}" y="{h - m + 15}" text-anchor="middle">{v:.0f}</text>')
    out.append(f'<text x="{m - 6}" y="{sy(v) + 4}" text-anchor="end">{v:.0f}</text>')
for label, x, y in pts:
    trace = label.split()[0]
    colour = colours.setdefault(trace, palette[len(colours) % len(palette)])
    out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4" fill="{colour}"><title>{label}: +{x:.2f} cost, {y:.2f} saved</title></circle>')
for i, (trace, colour) in enumerate(colours.items()):
    out.append(f'<circle cx="{w - m - 110}" cy="{m + 14 * i}" r="4" fill="{colour}"/><text x="{w - m - 100}" y="{m + 14 * i + 4}">{trace}</text>')
out.append("</svg>")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
echo "plot: $OUT/warm_pool.svg"
