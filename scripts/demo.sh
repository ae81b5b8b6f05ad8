#!/bin/bash
# The main job, end to end, on one fresh Debian 12 machine (run as root from a
# clone of slurm-burst):
#   1. install the dependencies (scripts/install-deps.sh),
#   2. build slurm-burst in this clone (autoreconf -fi, ./configure, make),
#   3. start a private Slurm cluster (tests/slurm/lib/cluster.sh): 2 ordinary
#      nodes, 2 CLOUD nodes whose "instances" are slurmds started by the
#      ResumeProgram, slurmdbd with fair-share accounts,
#   4. submit a job that only the cloud can run and narrate, with timestamps,
#      what happens: pending -> CLOUD node resumed -> job running on it ->
#      completed -> node powered down after SuspendTime idle,
#   5. tear everything down (KEEP_CLUSTER=1 keeps the cluster's directory).
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
    # shellcheck source=../tests/slurm/lib/cluster.sh
    source "$top/tests/slurm/lib/cluster.sh"
    cluster_start --dbd --local 2 --cloud 2 --cpus 2 --name demo
    say "cluster up: SLURM_CONF=$SLURM_CONF"
    sinfo | sed 's/^/            /'
    say "fair-share accounts:"
    sshare -P -o Account,User,RawShares,NormShares | sed 's/^/            /'
}

# The job asks for 2 nodes' worth of CPUs in the cloud partition; the ordinary
# nodes cannot take it, so Slurm has to power up a CLOUD node.
submit_cloud_job() {
    sbatch --parsable -A beta -p cloud -N1 -n2 -o "$CLUSTER_DIR/demo-%j.out" \
        --wrap 'echo "hello from $SLURMD_NODENAME"; sleep 3'
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
        if [ -f "$CLUSTER_DIR/log/power.log" ]; then
            mapfile -t events <"$CLUSTER_DIR/log/power.log"
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
    local job
    job=$(submit_cloud_job)
    say "submitted job $job (needs the cloud partition; every CLOUD node is powered down)"
    narrate "$job"
    say "job $job output: $(cat "$CLUSTER_DIR/demo-$job.out")"
    say "accounting: $(sacct -n -P -X -j "$job" -o JobID,State,ExitCode,NodeList,Account,Elapsed)"
    [ "$(scontrol show job -o "$job" | sed -nE 's/.* JobState=([^ ]+).*/\1/p')" = COMPLETED ]
}

((skip_deps)) || install_deps
((skip_build)) || build
start_cluster
cloud_burst
say "tearing down"
cluster_stop
say "done"
