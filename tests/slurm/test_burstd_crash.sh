#!/bin/bash
# burstd killed with SIGKILL at random moments while Slurm resumes and
# suspends CLOUD nodes through it (POWER_UP / POWER_DOWN_FORCE from outside),
# restarted each time.  After every restart and reconcile, once Slurm has
# settled:
#   - every live local-provider instance backs exactly one node, and that
#     node is up or powering up (nothing runs for a powered-down node);
#   - the ledger holds at most one open record per node (no double launch)
#     and no node has two slurmds;
#   - no node is stuck POWERING_UP or POWERING_DOWN (for more than 15 s after
#     things settled; Slurm's own SuspendTime keeps powering idle nodes down);
#   - every node Slurm shows up has its instance.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/cluster.sh
source "$here/lib/cluster.sh"
# shellcheck source=lib/burstd.sh
source "$here/lib/burstd.sh"
rounds=${BURSTD_CRASH_ROUNDS:-20}
for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so"; do
    [ -e "$f" ] || { tap_fail "$f is built (run make first)"; exit 1; }
done

work=$(mktemp -d /tmp/burstd-crash.XXXXXX)
burstd_programs "$work"
cluster_start --local 1 --cloud 4 --cpus 2 --plugin-dir "$BURSTD_PLUGIN_DIR" --name burstcrash \
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
# "never": the cycle hires nothing, so every launch here is one Slurm asked for.
burstd_write_conf never 0
burstd_start || { tap_fail "burstd started" "$(tail -5 "$work/burstd.log")"; exit 1; }
burstd_enable_plugin
wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 || tap_fail "the plugin connected to burstd"
nodes=($(scontrol show hostnames "$CLUSTER_CLOUD_NODES"))

settled() { # no node in transition, no provider work in flight
    sinfo -h -N -p cloud -o '%N %T' | grep -Eq 'POWERING_UP|POWERING_DOWN|#|%' && return 1
    [ "$(burstd_status_json 2>/dev/null | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s.get("status", s).get("provider_work_in_flight", -1))' 2>/dev/null)" = 0 ]
}

# Prints one line per violated invariant.
violations() {
    python3 - "$work/state/ledger.sqlite" "$work/state/local-box" <<'PY'
import json, os, sqlite3, subprocess, sys, glob
ledger, state_dir = sys.argv[1], sys.argv[2]
db = sqlite3.connect(ledger, timeout=5)
open_records = {}
for node, state in db.execute("SELECT node, state FROM instances WHERE state NOT IN ('terminated','failed')"):
    open_records.setdefault(node, []).append(state)
for node, states in open_records.items():
    if len(states) > 1:
        print(f"{node}: {len(states)} open ledger records {states} (double launch)")
live = {}
for f in glob.glob(os.path.join(state_dir, "*.json")):
    rec = json.load(open(f))
    try:
        os.kill(int(rec["pid"]), 0)
    except (OSError, ValueError):
        continue
    live.setdefault(rec["node"], []).append(rec["provider_id"])
conf = os.environ["SLURM_CONF"]
procs = subprocess.run(["pgrep", "-af", "--", f"slurmd -D -b -N .* -f {conf}"], capture_output=True, text=True).stdout
slurmds = {}
for line in procs.splitlines():
    words = line.split()
    slurmds[words[words.index("-N") + 1]] = slurmds.get(words[words.index("-N") + 1], 0) + 1
out = subprocess.run(["sinfo", "-h", "-N", "-p", "cloud", "-o", "%N %T"], capture_output=True, text=True).stdout
states = dict(l.split() for l in out.splitlines())
for node, ids in live.items():
    if len(ids) > 1:
        print(f"{node}: {len(ids)} live instances {ids}")
for node, n in slurmds.items():
    if n > 1:
        print(f"{node}: {n} slurmds")
for node, state in states.items():
    up = not any(w in state for w in ("POWERED_DOWN", "POWERING_DOWN", "~", "%"))
    if "POWERING_UP" in state or "#" in state or "POWERING_DOWN" in state or "%" in state:
        print(f"{node}: stuck in {state}")
    if node in live and not up:
        print(f"{node}: instance {live[node]} runs while the node is {state}")
    if up and node not in live:
        print(f"{node}: Slurm shows it {state} but no instance backs it")
    if node in live and node not in open_records:
        print(f"{node}: instance {live[node]} has no open ledger record")
PY
}

launches=0 retires=0 t0=$SECONDS
for ((round = 1; round <= rounds; round++)); do
    # Start one or two power changes, then kill burstd while they are handled.
    for node in $(printf '%s\n' "${nodes[@]}" | shuf -n $((RANDOM % 2 + 1))); do
        if [[ $(node_state "$node") == *POWERED_DOWN* ]]; then
            scontrol update NodeName="$node" State=POWER_UP && launches=$((launches + 1))
        else
            scontrol update NodeName="$node" State=POWER_DOWN_FORCE && retires=$((retires + 1))
        fi
    done
    sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", (r % 1500) / 1000 }')"
    burstd_kill9
    burstd_start || { tap_fail "round $round: burstd restarted" "$(tail -5 "$work/burstd.log")"; break; }
    if ! wait_for settled 40; then
        tap_fail "round $round: Slurm and burstd settled within 40 s" "$(sinfo -h -N -p cloud -o '%N %T' | tr '\n' ' ')"
        continue
    fi
    # Slurm's own power saving keeps moving idle nodes (SuspendTime=10 s):
    # a finding counts only if it persists.
    if wait_for '[ -z "$(violations)" ]' 15; then
        tap_ok "round $round: consistent after kill -9 and restart ($(sinfo -h -N -p cloud -o '%N:%T' | tr '\n' ' '))"
    else
        tap_fail "round $round: consistent after kill -9 and restart" "$(violations)"
    fi
done
tap_note "$rounds rounds, $launches power-ups and $retires forced power-downs in $((SECONDS - t0)) s"
tap_note "$(grep -c 'reconcile: [a-z-]* ' "$work/burstd.log") reconcile repairs, $(grep -c 'launching them' "$work/burstd.log") interrupted resumes relaunched"
tap_finish
