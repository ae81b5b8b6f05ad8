#!/bin/bash
# The pfa policy inside burstd on a real cluster: a per-interval budget that
# pays for exactly one CLOUD node (2 nodes at 0.10/h, budget 0.10 per hour),
# two jobs that cannot start locally and a third that depends on the first.
# pfa hires one node and routes one job into it; the other independent job
# stays local-only (no budgeted cores for it), the dependent job is not
# routed while its parent runs (the plugin's dependency field and Slurm's
# Dependency reason), and the second node is never resumed.  When the first
# job ends, the waiting jobs run, one after the other, on the same node.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
boot_delay=2
for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so"; do
    [ -e "$f" ] || { tap_fail "$f is built (run make first)"; exit 1; }
done

work=$(mktemp -d /tmp/burstd-pfa.XXXXXX)
burstd_programs "$work"
cluster_start --local 1 --cloud 2 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name burstpfa \
    --resume-program "$work/resume" --suspend-program "$work/suspend" \
    --resume-fail-program "$work/resume-fail" || exit 1
on_exit() {
    local rc=$?
    burstd_cleanup
    [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ] && rm -rf "$work" || echo "# burstd files kept in $work"
    cluster_stop "$rc"
}
trap on_exit EXIT
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

burstd_write_conf "pfa budget=0.10 interval=3600" "$boot_delay"
tap_check "burstd --check-config accepts Policy=pfa with its budget" "$BURSTD_BIN" --check-config -f "$work/burstd.conf"
if burstd_start; then
    tap_ok "burstd started"
else
    tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"
    exit 1
fi
burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || tap_fail "the plugin connected to burstd"
wait_for "burstd_status_json | grep -q '\"seq\"'" 10 || tap_fail "burstd received a snapshot"

filler=$(sbatch --parsable -p local -n2 -w n1 -o /dev/null --wrap 'sleep 300')
wait_for "[ \"\$(squeue -h -t R -p local | wc -l)\" = 1 ]" 15 || tap_fail "the local node filled"
first=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'sleep 6')
child=$(sbatch --parsable -p local -n2 --dependency="afterok:$first" -o /dev/null --wrap 'hostname')
other=$(sbatch --parsable -p local -n2 -o /dev/null --wrap 'sleep 1')

if wait_for "job_field $first Partition | grep -q cloud" 20; then
    tap_ok "pfa routed job $first into the node the budget pays for"
else
    tap_fail "pfa routed job $first" "$(grep decision "$work/burstd.log" | tail -3)"
    exit 1
fi
tap_like "it hired one node for it" "$(grep 'decision: hire' "$work/burstd.log" | head -1)" "hire 1 .*pfa profile"
wait_for "[ \"\$(squeue -h -j $first -o %T)\" = RUNNING ]" 30 || tap_fail "job $first started on the cloud node"
tap_is "the dependent job $child waits on its dependency" "$(squeue -h -j "$child" -o %r)" Dependency
tap_is "and is not routed while its parent runs" "$(job_field "$child" Partition)" local
tap_is "job $other gets no cores beyond the budget" "$(job_field "$other" Partition)" local

for j in "$child" "$other"; do
    if wait_job_done "$j" 90; then
        tap_like "job $j then ran on the budgeted node" "$(job_field "$j" NodeList)" '^c1$'
    else
        tap_fail "job $j completed" "$(squeue -h -j "$j" -o '%T %r %P') $(grep decision "$work/burstd.log" | tail -3)"
    fi
done
tap_is "only one node was ever resumed" "$(awk '$2 == "resume" { print $3 }' "$work/power.log" | sort -u | tr '\n' ' ')" "c1 "
scancel "$filler"
tap_finish
