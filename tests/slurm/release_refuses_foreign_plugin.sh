#!/bin/bash
# job_submit/burst built for another Slurm release than the cluster's is
# refused by Slurm's own plugin loader, cleanly and with its version named:
#  - `scontrol reconfigure` that adds it: the running slurmctld stays up and
#    answers, the log names the plugin's release, the plugin never connects;
#  - a slurmctld started with it in slurm.conf exits (Slurm makes a
#    job_submit plugin that does not load fatal) with that message, not a crash.
# What happens to submissions after the refused reconfigure differs by
# release and is printed, not asserted (doc/slurm-versions.md).
# The cluster's release is lib/cluster.sh's (BURST_SLURM_PREFIX); the foreign
# plugin's directory is BURST_FOREIGN_PLUGIN_DIR (run by run-release.sh, which
# builds both).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
foreign=${BURST_FOREIGN_PLUGIN_DIR:?the directory of a job_submit_burst.so built for another Slurm release}
if [ ! -e "$foreign/job_submit_burst.so" ]; then
    tap_fail "a foreign job_submit_burst.so in $foreign"
    exit 1
fi
cluster_start --local 1 --cloud 0 --plugin-dir "$foreign" --name foreign || exit 1
ctld_log=$CLUSTER_DIR/log/slurmctld.log
cluster_release=$(scontrol --version | awk '{ print $2 }')
# the Slurm release the plugin was built for, which its hello message carries (YY.MM.N)
plugin_release=$(strings "$foreign/job_submit_burst.so" | grep -m1 -xE '[0-9]{2}\.[0-9]{2}\.[0-9]+' || true)
[ -n "$plugin_release" ] && [ "$plugin_release" != "$cluster_release" ] ||
    { tap_fail "the plugin in $foreign is built for another release than $cluster_release" "${plugin_release:-none found}"; exit 1; }
tap_note "cluster: Slurm $cluster_release; plugin of $foreign"

echo "SocketPath=$CLUSTER_DIR/burst.sock" >"$CLUSTER_DIR/burst.conf"
python3 "$here/lib/snapshot_listener.py" "$CLUSTER_DIR/burst.sock" "$CLUSTER_DIR/listener.jsonl" "$CLUSTER_DIR/outbox" &
listener=$!
wait_for "[ -S '$CLUSTER_DIR/burst.sock' ]" 20 || tap_fail "listener started"
pid_before=$(cat "$CLUSTER_DIR/run/slurmctld.pid")
echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
scontrol reconfigure >/dev/null 2>&1
# the refusal is logged by the process that loads the plugin: the running one
# (22.05) or the one 24.11's reconfigure execs
wait_for "grep -q 'Incompatible Slurm plugin .*job_submit_burst.so' '$ctld_log'" 15
tap_like "the log names the plugin and its release" "$(grep -m1 'Incompatible Slurm plugin' "$ctld_log")" \
    "Incompatible Slurm plugin .*job_submit_burst\.so version \(${plugin_release//./\\.}\)"
sleep 2
tap_check "slurmctld still answers after the refused reconfigure" scontrol ping
tap_is "the same slurmctld runs" "$(cat "$CLUSTER_DIR/run/slurmctld.pid")" "$pid_before"
tap_is "the plugin never connected" "$(grep -c '"type":"hello"' "$CLUSTER_DIR/listener.jsonl" 2>/dev/null)" 0
if out=$(sbatch --parsable -o /dev/null --wrap true 2>&1); then
    tap_note "Slurm $cluster_release after the refused reconfigure: submissions accepted (job $out)"
else
    tap_note "Slurm $cluster_release after the refused reconfigure: submissions refused ($out)"
fi

scontrol shutdown >/dev/null 2>&1
wait_for "! scontrol ping >/dev/null 2>&1 && [ -z \"\$(_cluster_pid '$CLUSTER_DIR/run/slurmctld.pid' slurmctld)\" ]" 20 ||
    tap_fail "slurmctld shut down"
: >"$ctld_log"
# -D: in the foreground, so that its exit status is this shell's to see
timeout 30 slurmctld -D -f "$SLURM_CONF" >>"$ctld_log" 2>&1
status=$?
if [ "$status" -ne 0 ] && [ "$status" -lt 124 ]; then
    tap_ok "a slurmctld started with it exits, not killed by a signal (status $status)"
else
    tap_fail "a slurmctld started with it exits, not killed by a signal" "exit status $status (124: still running after 30 s)"
fi
tap_like "and says why" "$(grep -E 'fatal' "$ctld_log" | head -1)" "failed to initialize job_submit plugin"
tap_like "naming the plugin's release" "$(grep -m1 'Incompatible Slurm plugin' "$ctld_log")" "version \(${plugin_release//./\\.}\)"
kill "$listener" 2>/dev/null
wait "$listener" 2>/dev/null
tap_finish
