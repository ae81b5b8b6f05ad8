#!/bin/bash
# Provider "local" with a real slurmd: a CLOUD node powered up from outside
# (ResumeProgram does nothing) comes up only once the provider starts its
# slurmd; the same token never starts a second one; list() finds it from a
# fresh process (what a restarted burstd sees); terminate stops exactly it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
bin=${BURST_BUILDDIR:?run through run-all.sh BUILDDIR}/tests/slurm
for p in burst_local_provider burst_actuate; do
    [ -x "$bin/$p" ] || { tap_fail "$p is built in $bin"; exit 1; }
done

cluster_start --local 1 --cloud 1 --cpus 2 --resume-program /bin/true --suspend-program /bin/true \
    --name localprov
export CLUSTER_NAME
state=$CLUSTER_DIR/local-provider
tap_ok "cluster started in $CLUSTER_START_SECONDS s"

"$bin/burst_actuate" power up c1 >/dev/null
if wait_node_state c1 'POWERING_UP' 15; then
    tap_ok "c1 is powering up with nothing behind it"
else
    tap_fail "c1 is powering up with nothing behind it" "state: $(node_state c1)"
fi

t0=$(now)
id=$("$bin/burst_local_provider" "$state" launch c1 tok-c1 1)
tap_like "launch returned a provider id" "$id" '^local-c1-[0-9a-f]+$'
again=$("$bin/burst_local_provider" "$state" launch c1 tok-c1 1)
tap_is "the same token gives the same instance" "$again" "$id"

if wait_node_state c1 '^IDLE\+CLOUD$' 30; then
    tap_ok "c1 registered $(elapsed "$t0") s after launch (1 s boot delay)"
else
    tap_fail "c1 registered after launch" "state: $(node_state c1)"
fi
slurmds=$(pgrep -f -c -- "slurmd -D -b -N c1 -f $SLURM_CONF" || true)
tap_is "exactly one slurmd runs for c1" "$slurmds" 1
tap_is "a fresh process lists the instance" "$("$bin/burst_local_provider" "$state" list)" "$id c1"

job=$(sbatch --parsable -p cloud -n1 -o /dev/null --wrap 'hostname')
if wait_job_done "$job" 60; then
    tap_is "a cloud job ran on the provider's slurmd" "$(job_field "$job" NodeList)" c1
else
    tap_fail "cloud job $job finished within 60 s"
fi

pid=$(pgrep -f -- "slurmd -D -b -N c1 -f $SLURM_CONF")
tap_check "terminate succeeds" "$bin/burst_local_provider" "$state" terminate "$id"
if wait_for "! kill -0 $pid 2>/dev/null" 15; then
    tap_ok "c1's slurmd (pid $pid) is gone"
else
    tap_fail "c1's slurmd (pid $pid) is gone"
fi
tap_is "nothing is listed after terminate" "$("$bin/burst_local_provider" "$state" list)" ""
"$bin/burst_actuate" power down-force c1 >/dev/null
if wait_node_state c1 'POWERED_DOWN' 30; then
    tap_ok "c1 powered down again"
else
    tap_fail "c1 powered down again" "state: $(node_state c1)"
fi
tap_finish
