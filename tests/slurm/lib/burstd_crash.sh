# burstd killed with SIGKILL at random moments while Slurm resumes and
# suspends CLOUD nodes through it, for any provider (source after
# lib/burstd.sh, once burstd_bring_up has run with the cluster's "cloud"
# node group on the provider under test).  The tests:
# tests/slurm/test_burstd_crash.sh (provider "local"),
# tests/openstack/test_openstack_crash.sh (a real Nova).
#
#   burstd_crash_test ROUNDS
#
# Needs CRASH_INSTANCES: a command printing "NODE PROVIDER_ID" for every
# instance the provider holds for this burstd (listed the provider's way,
# by its tags or state; not terminated); it exits non-zero when it cannot
# list.
#
# First a warm-up power-up measures how long a node takes from POWER_UP to
# up in Slurm: the settle waits (3 x that, at least 40 s) follow from it.
# Each round's kill window follows the provider's recent launch calls (the
# ledger's requested_at -> launched_at), so a slow cloud gets the same test
# as a fast one.
#
# Each round changes the power state of one or two CLOUD nodes from outside
# (POWER_UP / POWER_DOWN_FORCE), waits until burstd has taken Slurm's
# request and kills it a random moment later, mostly between the ledger's
# intent and the provider's answer (counted from the ledger just after the
# kill, and asserted: at least half the kills); every other round a short
# job goes to the cloud partition while burstd is down.  After every restart and reconcile,
# once Slurm has settled:
#   - every live instance backs exactly one node, and that node is up or
#     powering up (nothing runs for a powered-down node);
#   - the ledger holds at most one open record per node (no double launch),
#     no node has two instances and no node has two slurmds;
#   - no node is stuck POWERING_UP or POWERING_DOWN (for more than the
#     consistency wait after things settled; Slurm's own SuspendTime keeps
#     powering idle nodes down);
#   - every node Slurm shows up has its instance, and every instance has an
#     open ledger record.
# At the end every job has COMPLETED (forced power-downs requeue them), and
# once every node is powered down the provider lists no instance and the
# ledger holds no open record: nothing leaked.

# Debian's interpreter: a pyenv shim first in PATH costs seconds per start
# on a loaded machine, and these checks run a few times a second.
CRASH_PY=/usr/bin/python3

_crash_ledger() {
    echo "$BURSTD_DIR/state/ledger.sqlite"
}

_crash_settled() { # no node in transition, no provider work in flight
    sinfo -h -N -p cloud -o '%N %T' | grep -Eq 'POWERING_UP|POWERING_DOWN|#|%' && return 1
    [ "$(burstd_status_json 2>/dev/null | "$CRASH_PY" -c 'import json,sys; s=json.load(sys.stdin); print(s.get("status", s).get("provider_work_in_flight", -1))' 2>/dev/null)" = 0 ]
}

# Prints one line per violated invariant.
_crash_violations() {
    local listed
    listed=$(mktemp)
    if ! "$CRASH_INSTANCES" >"$listed" 2>&1; then
        echo "listing the provider's instances failed: $(tr '\n' ' ' <"$listed")"
        rm -f "$listed"
        return
    fi
    "$CRASH_PY" - "$(_crash_ledger)" "$listed" <<'PY'
import os, sqlite3, subprocess, sys
ledger, listed = sys.argv[1], sys.argv[2]
db = sqlite3.connect(ledger, timeout=5)
open_records = {}
for node, state in db.execute("SELECT node, state FROM instances WHERE state NOT IN ('terminated','failed')"):
    open_records.setdefault(node, []).append(state)
for node, states in open_records.items():
    if len(states) > 1:
        print(f"{node}: {len(states)} open ledger records {states} (double launch)")
live = {}
for line in open(listed):
    words = line.split()
    if len(words) >= 2:
        live.setdefault(words[0], []).append(words[1])
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
    rm -f "$listed"
}

# Ledger records of this round (updated since SINCE) whose provider call was
# in flight: intent written, no answer yet.
_crash_in_flight() { # SINCE
    sqlite3 "$(_crash_ledger)" \
        "SELECT count(*) FROM instances WHERE state IN ('requested','terminating') AND updated_at >= $1" 2>/dev/null || echo 0
}

# Seconds the provider took to answer the launch of NODE's latest record.
_crash_launch_call() { # NODE
    sqlite3 "$(_crash_ledger)" \
        "SELECT printf('%.2f', launched_at - requested_at) FROM instances WHERE node = '$1' AND launched_at > 0 ORDER BY id DESC LIMIT 1"
}

# The kill window: 1.2 x the median of the last 5 launch calls (at least
# 0.5 s).  It follows the provider as it speeds up or slows down; a launch
# that a kill interrupted (its call spans the restart) is one of five.
_crash_kill_window() {
    sqlite3 "$(_crash_ledger)" \
        "SELECT launched_at - requested_at FROM instances WHERE launched_at > 0 ORDER BY id DESC LIMIT 5" |
        sort -g | awk '{ v[NR] = $1 } END { m = NR ? v[int((NR + 1) / 2)] : 0; printf "%.2f", (m < 0.5 ? 0.5 : m) * 1.2 }'
}

_crash_cloud_up() { # NODE: up in Slurm, not in a power transition
    local s
    s=$(node_state "$1") || return 1
    [[ $s != *POWER* && $s != *DOWN* && $s != *NOT_RESPONDING* ]]
}

burstd_crash_test() { # ROUNDS
    local rounds=$1 work=$BURSTD_DIR
    local -a nodes jobs=()
    mapfile -t nodes < <(scontrol show hostnames "$CLUSTER_CLOUD_NODES")
    local resume_timeout
    resume_timeout=$(scontrol show config | awk '$1 == "ResumeTimeout" { print $3 }')

    # Warm-up: one undisturbed power-up measures the provider.
    local t0 boot call window windows="" settle consistent
    t0=$(now)
    scontrol update NodeName="${nodes[0]}" State=POWER_UP
    if ! wait_for "_crash_cloud_up ${nodes[0]}" "$resume_timeout"; then
        tap_fail "warm-up: ${nodes[0]} comes up within ResumeTimeout=$resume_timeout s" \
            "state $(node_state "${nodes[0]}")" "$(tail -5 "$work/burstd.log")"
        return 1
    fi
    boot=$(elapsed "$t0")
    wait_for "[ -n \"\$(_crash_launch_call ${nodes[0]})\" ]" 10
    call=$(_crash_launch_call "${nodes[0]}")
    [ -n "$call" ] || { tap_fail "warm-up: the ledger recorded the launch of ${nodes[0]}" "$(tail -5 "$work/burstd.log")"; return 1; }
    settle=$(awk -v b="$boot" 'BEGIN { s = 3 * b; printf "%d", s < 40 ? 40 : s }')
    # burstd ends an instance whose node Slurm powered down while burstd was
    # dead (the suspend it lost) only once the launch is ResumeTimeout old
    # (its launch grace): a finding may take that long to be repaired.
    consistent=$(awk -v b="$boot" -v r="$resume_timeout" 'BEGIN { s = b + 10; if (s < r + 10) s = r + 10; printf "%d", s }')
    tap_ok "warm-up: ${nodes[0]} up in $boot s, launch call $call s: settle within $settle s, consistent within $consistent s"

    local launches=0 retires=0 mid_call=0 round requests round_start node n
    t0=$SECONDS
    for ((round = 1; round <= rounds; round++)); do
        # Start one or two power changes, wait until burstd has taken Slurm's
        # request (ResumeProgram runs up to a second later), then kill it at
        # a random moment of the provider call that follows.  Nothing slow
        # between the request and the kill: a local launch takes a second.
        window=$(_crash_kill_window)
        windows+="$window "
        requests=$(grep -c ' (from uid ' "$work/burstd.log") round_start=$(now)
        for node in $(printf '%s\n' "${nodes[@]}" | shuf -n $((RANDOM % 2 + 1))); do
            if [[ $(node_state "$node") == *POWERED_DOWN* ]]; then
                scontrol update NodeName="$node" State=POWER_UP && launches=$((launches + 1))
            else
                scontrol update NodeName="$node" State=POWER_DOWN_FORCE && retires=$((retires + 1))
            fi
        done
        wait_for "[ \"\$(grep -c ' (from uid ' '$work/burstd.log')\" -gt $requests ]" 5
        sleep "$(awk -v r=$RANDOM -v w="$window" 'BEGIN { printf "%.2f", (r % 1000) / 1000 * w }')"
        burstd_kill9
        n=$(_crash_in_flight "$round_start")
        ((n > 0)) && mid_call=$((mid_call + 1))
        # A job while burstd is down: a node Slurm resumes for it waits,
        # in burstctl, for the restart.
        if ((round % 2)); then
            jobs+=("$(sbatch --parsable -p cloud -N 1 -o /dev/null --wrap 'sleep 2')")
        fi
        burstd_start || { tap_fail "round $round: burstd restarted" "$(tail -5 "$work/burstd.log")"; break; }
        if ! wait_for _crash_settled "$settle"; then
            tap_fail "round $round: Slurm and burstd settled within $settle s" "$(sinfo -h -N -p cloud -o '%N %T' | tr '\n' ' ')"
            continue
        fi
        # Slurm's own power saving keeps moving idle nodes (SuspendTime=10 s):
        # a finding counts only if it persists.
        if wait_for '[ -z "$(_crash_violations)" ]' "$consistent"; then
            tap_ok "round $round: consistent after kill -9 and restart ($(sinfo -h -N -p cloud -o '%N:%T' | tr '\n' ' '))"
        else
            tap_fail "round $round: consistent after kill -9 and restart" "$(_crash_violations)"
        fi
    done
    tap_note "kill windows (s): $windows"
    tap_note "$rounds rounds, $launches power-ups, $retires forced power-downs and ${#jobs[@]} jobs in $((SECONDS - t0)) s"
    # A kill during a provider call is the case the ledger exists for: some
    # kills must land there.  How many depends on the machine's load and the
    # cloud's latency (1 to 16 of 20 seen), so only none is a failure.
    if ((mid_call >= 1)); then
        tap_ok "$mid_call of $rounds kills landed between the ledger's intent and the provider's answer"
    else
        tap_fail "a kill landed between intent and answer" "none of $rounds did"
    fi
    tap_note "$(grep -c 'reconcile: [a-z-]* ' "$work/burstd.log") reconcile repairs, $(grep -c 'launching them' "$work/burstd.log") interrupted resumes relaunched"

    # Every job ran to the end, requeued as often as its node was forced down.
    # A requeued job may start again only after the credential expiry (21 s)
    # and often not before the next backfill pass (30 s), then boots a node.
    local job pending=0 states="" job_wait=$((settle + 60))
    for job in "${jobs[@]}"; do
        wait_job_done "$job" "$job_wait" || pending=$((pending + 1))
        states+="$job:$(job_field "$job" JobState) "
    done
    tap_like "every job COMPLETED" "$states" "^([0-9]+:COMPLETED )*$"

    # Everything retired: no instance left at the provider, no open record.
    for node in "${nodes[@]}"; do
        [[ $(node_state "$node") == *POWERED_DOWN* ]] || scontrol update NodeName="$node" State=POWER_DOWN_FORCE
    done
    wait_for "_crash_settled && [ -z \"\$(sinfo -h -N -p cloud -o %T | grep -v '~\$')\" ]" "$settle" ||
        tap_fail "every CLOUD node powered down within $settle s" "$(sinfo -h -N -p cloud -o '%N %T' | tr '\n' ' ')"
    local left
    if ! wait_for "left=\$('$CRASH_INSTANCES' 2>&1) && [ -z \"\$left\" ]" "$consistent"; then
        left=$("$CRASH_INSTANCES" 2>&1)
    fi
    tap_is "no instance left at the provider once every node is powered down" "$left" ""
    tap_is "no open ledger record once every node is powered down" \
        "$(sqlite3 "$(_crash_ledger)" "SELECT node || ' ' || state FROM instances WHERE state NOT IN ('terminated','failed')")" ""
}
