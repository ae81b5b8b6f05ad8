#!/bin/bash
# No instance outlives its test: a test that ends while an instance of the
# local provider is still in its BootDelay (a fork of burstd that execs slurmd
# only when the delay is over) leaves nothing running once its EXIT trap is
# done (lib/burstd.sh's burstd_cleanup, then cluster_stop).  The inner test
# below is the shape of test_burstd_pfa_split.sh, whose finish right after pfa
# hired two nodes once left their slurmds running after the cluster was gone.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/tap.sh
source "$here/lib/tap.sh"
: "${BURST_BUILDDIR:?run through run-all.sh BUILDDIR}"
boot_delay=6
work=$(mktemp -d /tmp/burstd-cleanup-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/inner.sh" <<EOF
#!/bin/bash
set -uo pipefail
source "$here/lib/cluster.sh"
source "$here/lib/burstd.sh"
burstd_test_cluster cleanup --local 1 --cloud 2 --cpus 2 || exit 1
echo "cluster_dir=\$CLUSTER_DIR burstd_dir=\$BURSTD_DIR" >"$work/dirs"
burstd_bring_up always $boot_delay || exit 1
sbatch -p cloud -n1 -o /dev/null --wrap 'sleep 60' >/dev/null
wait_for "grep -q 'launched ' '\$BURSTD_DIR/burstd.log'" 30 || { tap_fail "burstd launched an instance"; exit 1; }
cp "\$BURSTD_DIR"/state/local-*/*.json "$work/" 2>/dev/null
tap_ok "burstd launched an instance; the test ends during its $boot_delay s boot delay"
EOF
bash "$work/inner.sh" 2>&1 | grep -E '^(not )?ok ' || true
t0=$SECONDS
# shellcheck disable=SC1091
cluster_dir="" burstd_dir=""
source "$work/dirs" 2>/dev/null || { tap_fail "the inner test started its cluster"; tap_finish; exit; }
[ -d "$cluster_dir" ] && tap_fail "the inner test removed its cluster's directory" "$cluster_dir"

# What an instance left behind would be doing by now: running slurmd.
while ((SECONDS - t0 < boot_delay + 2)); do sleep 0.5; done
pids=()
for f in "$work"/*.json; do
    [ -f "$f" ] || continue
    pid=$(sed -nE 's/.*"pid": *([0-9]+).*/\1/p' "$f")
    [ -n "$pid" ] && [ -e "/proc/$pid" ] && pids+=("$pid")
done
mapfile -t -O "${#pids[@]}" pids < <(pgrep -f -- "$cluster_dir/|$burstd_dir/")
if ((${#pids[@]} == 0)); then
    tap_ok "no instance, slurmd or burstd of the test runs $boot_delay s after it ended"
else
    tap_fail "no instance, slurmd or burstd of the test runs $boot_delay s after it ended" \
        "$(ps -o pid,lstart,args -p "$(IFS=,; echo "${pids[*]}")")"
    kill -KILL "${pids[@]}" 2>/dev/null
fi
tap_finish
