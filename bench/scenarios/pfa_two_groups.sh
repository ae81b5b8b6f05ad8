#!/bin/sh
# PFA reproduction (Ilyushkin et al., issue 6 item 5): a workload of Montage,
# LIGO Inspiral and SIPHT workflows (the paper's three) arriving as a Poisson
# process for two users with equal budgets, on two node groups of different
# price and speed: small costs 1 per 60-s interval, large 5 and runs tasks
# 1.5 times faster (the paper's Workload II); 32 nodes of each, one core per
# node, one task per node.  Budget 60 per user per interval (the paper's
# lowest), 120 for the site; the whole fleet would cost 192.
#
# Rows: pfa with MA and EWMA smoothing, and the plan-free baselines always
# (reactive, cheapest group first) and threshold (utilization target), each
# on the full fleet; then always and threshold on a fleet cut to what the
# budget pays for at every instant (32 small + 17 large = 117 per interval),
# the plan-free way to respect a budget.
#
# Usage: bench/scenarios/pfa_two_groups.sh [BURSTSIM] [SEED]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
burstsim=${1:-$top/burstsim}
seed=${2:-1}
wf=${WORKFLOWS:-$top/tests/data/traces/workflows/dax}

common="--workflow $wf/Montage_25.xml --workflow $wf/Inspiral_30.xml --workflow $wf/Sipht_30.xml
  --workflow-rate ${RATE:-11} --workflow-count ${COUNT:-200} --workflow-accounts u1,u2 --seed $seed
  --local-cores 1 --cycle 60 --suspend-time 120 --budget 120 --budget-interval 60 --lambda 1"
small='small,cpus=1,price=60,boot=30,max=32,min_billed=0'

echo "== full fleet: 32 small + 32 large (192 per interval) =="
# shellcheck disable=SC2086
"$burstsim" $common --group "$small" --group 'large,cpus=1,price=300,boot=30,max=32,min_billed=0,speed=1.5' \
  --compare pfa,always,threshold --param pfa:budget=120 --param pfa:interval=60 --param pfa:split=equal

echo "== pfa with EWMA smoothing (alpha 0.7) =="
# shellcheck disable=SC2086
"$burstsim" $common --group "$small" --group 'large,cpus=1,price=300,boot=30,max=32,min_billed=0,speed=1.5' \
  --policy pfa --param budget=120 --param interval=60 --param split=equal --param smoothing=ewma \
  --param alpha=0.7

echo "== budget-capped fleet: 32 small + 17 large (117 per interval) =="
# shellcheck disable=SC2086
"$burstsim" $common --group "$small" --group 'large,cpus=1,price=300,boot=30,max=17,min_billed=0,speed=1.5' \
  --compare always,threshold
