#!/bin/bash
# burstd killed with SIGKILL at random moments while Slurm resumes and
# suspends CLOUD nodes through it (POWER_UP / POWER_DOWN_FORCE from outside),
# restarted each time.  The local provider's calls take as long as a cloud
# API's (LaunchLatency/TerminateLatency, the instance appears or stops halfway
# through), and each kill lands a random moment after burstd took the request,
# so most kills fall between the ledger's intent and the provider's answer
# (counted from the ledger just after the kill, and asserted).  After every
# restart and reconcile, once Slurm has settled:
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
burstd_test_cluster burstcrash --local 1 --cloud 4 --cpus 2 || exit 1
work=$BURSTD_DIR
tap_ok "cluster started in $CLUSTER_START_SECONDS s"
# "never": the cycle hires nothing, so every launch here is one Slurm asked for.
latency=1
BURSTD_PROVIDER_EXTRA="LaunchLatency=$latency TerminateLatency=$latency"
burstd_bring_up never 0 || exit 1
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

# Ledger records of this round (updated since SINCE) whose provider call was
# in flight: intent written, no answer yet.
in_flight() { # SINCE
    sqlite3 "$work/state/ledger.sqlite" \
        "SELECT count(*) FROM instances WHERE state IN ('requested','terminating') AND updated_at >= $1" 2>/dev/null || echo 0
}

launches=0 retires=0 mid_call=0 t0=$SECONDS
for ((round = 1; round <= rounds; round++)); do
    # Start one or two power changes, wait until burstd has taken Slurm's
    # request (ResumeProgram runs up to a second later), then kill it at a
    # random moment of the provider call that follows.
    requests=$(grep -c ' (from uid ' "$work/burstd.log") round_start=$(now)
    for node in $(printf '%s\n' "${nodes[@]}" | shuf -n $((RANDOM % 2 + 1))); do
        if [[ $(node_state "$node") == *POWERED_DOWN* ]]; then
            scontrol update NodeName="$node" State=POWER_UP && launches=$((launches + 1))
        else
            scontrol update NodeName="$node" State=POWER_DOWN_FORCE && retires=$((retires + 1))
        fi
    done
    wait_for "[ \"\$(grep -c ' (from uid ' '$work/burstd.log')\" -gt $requests ]" 5
    sleep "$(awk -v r=$RANDOM -v l=$latency 'BEGIN { printf "%.2f", (r % 1000) / 1000 * l * 1.2 }')"
    burstd_kill9
    n=$(in_flight "$round_start")
    ((n > 0)) && mid_call=$((mid_call + 1))
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
# A kill during a provider call is the case the ledger exists for: most kills must land there.
if ((mid_call * 2 >= rounds)); then
    tap_ok "$mid_call of $rounds kills landed between the ledger's intent and the provider's answer"
else
    tap_fail "at least half the kills land between intent and answer" "only $mid_call of $rounds did"
fi
tap_note "$(grep -c 'reconcile: [a-z-]* ' "$work/burstd.log") reconcile repairs, $(grep -c 'launching them' "$work/burstd.log") interrupted resumes relaunched"
tap_finish
