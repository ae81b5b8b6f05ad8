#!/bin/bash
# The main job, end to end, on one fresh Debian 12 machine (run as root from a
# clone of slurm-burst):
#   1. install the dependencies (scripts/install-deps.sh),
#   2. build slurm-burst in this clone (autoreconf -fi, ./configure, make),
#   3. start a private Slurm cluster (tests/slurm/lib/cluster.sh): 2 ordinary
#      nodes, 2 CLOUD nodes, slurmdbd with fair-share accounts, the
#      job_submit/burst plugin exporting to burstd, and ResumeProgram /
#      SuspendProgram / ResumeFailProgram = `burstctl resume|suspend|resume-fail`,
#   4. run burstd with the "local" provider (an instance is a slurmd started
#      on this machine after a 2 s boot delay) and the "forecast" policy, the
#      one a site should start with (doc/policies.md),
#   5. fill the ordinary nodes for five minutes, submit one job that may burst
#      and one tagged burst:never, show `burstctl explain` for both and the
#      why: word users see in AdminComment, and narrate with timestamps:
#      burstd's decision and its reason, the CLOUD node resumed and launched,
#      the job running and done there, the node retired after SuspendTime
#      idle; then `burstctl status`,
#   6. tear everything down (KEEP_CLUSTER=1 keeps the cluster's directory).
#
#   scripts/demo.sh [--skip-deps] [--skip-build]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
skip_deps=0 skip_build=0
for arg in "$@"; do
    case "$arg" in
    --skip-deps) skip_deps=1 ;;
    --skip-build) skip_build=1 ;;
    *) echo "usage: $0 [--skip-deps] [--skip-build]" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" = 0 ] || { echo "demo: run as root: it installs packages and starts munged, slurmctld, slurmd" >&2; exit 2; }

demo_t0=$EPOCHREALTIME
say() {
    printf '%s  +%7.2fs  %s\n' "$(date +%T)" "$(awk -v a="$demo_t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" "$*"
}

install_deps() {
    say "installing dependencies (scripts/install-deps.sh)"
    "$top/scripts/install-deps.sh" >/tmp/slurm-burst-demo-deps.log 2>&1 ||
        { tail -n 30 /tmp/slurm-burst-demo-deps.log; echo "demo: install-deps failed (log: /tmp/slurm-burst-demo-deps.log)" >&2; exit 1; }
}

build() {
    say "building slurm-burst in $top (autoreconf, configure, make)"
    (
        cd "$top"
        autoreconf -fi && ./configure -q && make -j"$(nproc)"
    ) >/tmp/slurm-burst-demo-build.log 2>&1 ||
        { tail -n 40 /tmp/slurm-burst-demo-build.log; echo "demo: build failed (log: /tmp/slurm-burst-demo-build.log)" >&2; exit 1; }
    say "built (log: /tmp/slurm-burst-demo-build.log)"
}

start_cluster() {
    say "starting a private Slurm cluster (munged, MariaDB, slurmdbd, slurmctld, slurmd)"
    export BURST_BUILDDIR=${BURST_BUILDDIR:-$top} # an out-of-tree build with --skip-build
    # shellcheck source=../tests/slurm/lib/cluster.sh
    source "$top/tests/slurm/lib/cluster.sh"
    # shellcheck source=../tests/slurm/lib/burstd.sh
    source "$top/tests/slurm/lib/burstd.sh"
    work=$(mktemp -d /tmp/slurm-burst-demo.XXXXXX)
    burstd_programs "$work"
    cluster_start --dbd --local 2 --cloud 2 --cpus 2 --name demo --plugin-dir "$BURSTD_PLUGIN_DIR" \
        --resume-program "$work/resume" --suspend-program "$work/suspend" --resume-fail-program "$work/resume-fail"
    trap 'burstd_cleanup; cluster_stop' EXIT
    say "cluster up: SLURM_CONF=$SLURM_CONF"
    sinfo | sed 's/^/            /'
    say "fair-share accounts:"
    sshare -P -o Account,User,RawShares,NormShares | sed 's/^/            /'
}

start_burstd() {
    burstd_write_conf forecast 2
    say "burstd.conf ($work/burstd.conf):"
    sed 's/^/            /' "$work/burstd.conf"
    burstd_start || { tail -n 20 "$work/burstd.log"; echo "demo: burstd did not start" >&2; exit 1; }
    burstd_enable_plugin >/dev/null
    wait_for "grep -q 'plugin hello' '$work/burstd.log'" 15 ||
        { echo "demo: the job_submit/burst plugin did not connect to burstd" >&2; exit 1; }
    say "burstd running (log $work/burstd.log); the plugin in slurmctld is exporting to it"
}

# narrate JOB: prints every change of the job's state and of the CLOUD nodes'
# states, and every ResumeProgram/SuspendProgram event, until the job is over
# and every CLOUD node is powered down again (bounded: 180 s)
narrate() {
    local job=$1 deadline=$((SECONDS + 180)) last_job="" last_nodes="" seen_log=0
    local line st reason node nodes n state all_down i
    local -a events
    while ((SECONDS < deadline)); do
        line=$(scontrol show job -o "$job" 2>/dev/null || true)
        st=$(sed -nE 's/.* JobState=([^ ]+).*/\1/p' <<<"$line")
        reason=$(sed -nE 's/.* Reason=([^ ]+).*/\1/p' <<<"$line")
        node=$(sed -nE 's/.* NodeList=([^ ]+).*/\1/p' <<<"$line")
        [ "$reason" = None ] || st+=" (reason: $reason)"
        [ -z "$node" ] || [ "$node" = "(null)" ] || st+=" on $node"
        if [ "$st" != "$last_job" ]; then
            say "job $job: $st"
            last_job=$st
        fi
        nodes="" all_down=1
        for n in $(scontrol show hostnames "$CLUSTER_CLOUD_NODES"); do
            state=$(node_state "$n" || echo unknown)
            nodes+="$n=$state "
            [ "$state" = IDLE+CLOUD+POWERED_DOWN ] || all_down=0
        done
        if [ "$nodes" != "$last_nodes" ]; then
            say "cloud nodes: $nodes"
            last_nodes=$nodes
        fi
        if [ -f "$work/power.log" ]; then
            mapfile -t events <"$work/power.log"
            for ((i = seen_log; i < ${#events[@]}; i++)); do say "power.log: ${events[i]}"; done
            seen_log=${#events[@]}
        fi
        if [[ $last_job =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) ]] && ((all_down)); then
            return 0
        fi
        sleep 0.25
    done
    echo "demo: the job or the CLOUD nodes did not settle within 180 s" >&2
    return 1
}

cloud_burst() {
    local job never f1 f2
    f1=$(sbatch --parsable -A alpha -p local -n2 -w n1 -t 5 -o /dev/null --wrap 'sleep 300')
    f2=$(sbatch --parsable -A alpha -p local -n2 -w n2 -t 5 -o /dev/null --wrap 'sleep 300')
    say "filled both ordinary nodes with jobs $f1 and $f2 (time limit 5 minutes)"
    never=$(sbatch --parsable -A beta -p local -n2 --comment burst:never -o /dev/null --wrap 'true')
    say "submitted job $never tagged burst:never: it must wait for the ordinary nodes"
    job=$(sbatch --parsable -A beta -p local -n2 -o "$CLUSTER_DIR/demo-%j.out" \
        --wrap 'echo "hello from $SLURMD_NODENAME"; sleep 3')
    say "submitted job $job to partition local; no ordinary node has room"
    wait_for "scontrol show job -o $job | grep -q -e 'Partition=[^ ]*cloud' -e 'JobState=RUNNING'" 15 || true
    say "burstctl explain $job:"
    "$BURSTCTL_BIN" --socket "$work/control.sock" explain "$job" | sed 's/^/            /'
    say "burstctl explain $never:"
    "$BURSTCTL_BIN" --socket "$work/control.sock" explain "$never" | sed 's/^/            /'
    say "what users see (scontrol show job): job $job $(scontrol show job -o "$job" | perl -ne 'print $1 if /(AdminComment=.*?) +[A-Z][\w\/:]*=/')"
    narrate "$job"
    say "job $job output: $(cat "$CLUSTER_DIR/demo-$job.out")"
    say "accounting: $(sacct -n -P -X -j "$job" -o JobID,State,ExitCode,NodeList,Partition,Account,Elapsed)"
    say "job $never (burst:never): $(squeue -h -j "$never" -o '%T partition=%P' 2>/dev/null || echo gone)"
    say "what burstd did (decisions, launches, retirements):"
    grep -E 'decision:|launched |retired |reconcile: [a-z-]+ ' "$work/burstd.log" | sed 's/^/            /'
    say "burstctl status:"
    "$BURSTCTL_BIN" --socket "$work/control.sock" status | sed 's/^/            /'
    scancel "$f1" "$f2" "$never"
    [ "$(scontrol show job -o "$job" | sed -nE 's/.* JobState=([^ ]+).*/\1/p')" = COMPLETED ]
}

((skip_deps)) || install_deps
((skip_build)) || build
start_cluster
start_burstd
cloud_burst
say "tearing down"
burstd_cleanup
cluster_stop
trap - EXIT
say "done"
