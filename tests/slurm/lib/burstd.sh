# burstd in a test cluster (source after lib/cluster.sh).
#
#   burstd_programs DIR     writes DIR/{resume,suspend,resume-fail}: the
#                           ResumeProgram & co. wrappers that run
#                           `burstctl --socket DIR/control.sock <cmd> HOSTLIST`
#                           (call BEFORE cluster_start; pass them with
#                           --resume-program etc.)
#   burstd_enable_plugin    burst.conf next to slurm.conf (SocketPath=DIR/snapshot.sock,
#                           ExportInterval=1), JobSubmitPlugins=burst, reconfigure
#   burstd_write_conf POLICY BOOT_DELAY [extra lines...]
#                           DIR/burstd.conf: provider "box" (Type=local unless
#                           BURSTD_PROVIDER says otherwise), node group "cloud" =
#                           the cluster's CLOUD nodes, CycleInterval=1;
#                           BURSTD_PROVIDER replaces the Provider line's keys
#                           after the name (default "Type=local BootDelay=BOOT_DELAY",
#                           e.g. "Type=openstack CredentialsFile=... Image=..."),
#                           BURSTD_PROVIDER_EXTRA adds keys to it (e.g.
#                           "LaunchLatency=1"), BURSTD_GROUP_EXTRA to the
#                           NodeGroup line (e.g. "InstanceTypes=burst.small")
#   burstd_start / burstd_stop / burstd_kill9
#                           runs burstd in the background (log: DIR/burstd.log,
#                           appended across restarts); burstd_start waits for the
#                           control socket
#   burstd_status_json      `burstctl status --json`
#   burstd_instance_slurmds the pids of every instance process the local provider
#                           started that still runs: each `slurmd -D -b -N NODE -f
#                           $SLURM_CONF`, and each instance still in its BootDelay
#                           (a fork of burstd that has not exec'd slurmd yet, found
#                           through the provider's instance records)
#   burstd_cleanup          stops burstd and every instance process (call from the EXIT
#                           trap before cluster_stop)
#
# For tests, the usual set-up in two calls:
#   burstd_test_cluster NAME [cluster_start options...]
#                           checks that burstd, burstctl and the plugin are built,
#                           makes the work dir (BURSTD_DIR=/tmp/burstd-NAME.XXXXXX),
#                           writes the power programs, starts the cluster with them
#                           and the plugin's dir (ClusterName NAME), and traps EXIT:
#                           $BURSTD_ON_EXIT (if set), burstd_cleanup, the work dir
#                           removed unless something failed, cluster_stop
#   burstd_bring_up POLICY BOOT_DELAY [extra lines...]
#                           burstd_write_conf, burstd_start, burstd_enable_plugin,
#                           and waits for the plugin's hello; a failure is reported
#                           with tap_fail and returns 1
#
# Runs the programs of BURST_BUILDDIR (burstd/burstd, burstd/tools/burstctl/burstctl,
# plugin/.libs) unless BURSTD_BIN, BURSTCTL_BIN and BURSTD_PLUGIN_DIR name
# others, e.g. the installed /usr/sbin/burstd, /usr/sbin/burstctl and Slurm's
# plugin directory (tests/package/test_package_install.sh).  A plugin
# directory that is Slurm's own is slurmctld's only PluginDir.

BURSTD_BIN=${BURSTD_BIN:-${BURST_BUILDDIR:?run through run-all.sh BUILDDIR}/burstd/burstd}
BURSTCTL_BIN=${BURSTCTL_BIN:-$BURST_BUILDDIR/burstd/tools/burstctl/burstctl}
BURSTD_PLUGIN_DIR=${BURSTD_PLUGIN_DIR:-$BURST_BUILDDIR/plugin/.libs}
BURSTD_DIR=""
BURSTD_PID=""

burstd_programs() {
    BURSTD_DIR=$1
    mkdir -p "$BURSTD_DIR"
    local cmd
    for cmd in resume suspend resume-fail; do
        cat >"$BURSTD_DIR/$cmd" <<SH
#!/bin/sh
# Slurm runs this with SLURM_CONF as its only environment variable.
echo "\$(date +%s.%N) $cmd \$1" >>"$BURSTD_DIR/power.log"
exec "$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" $cmd "\$1" >>"$BURSTD_DIR/power.log" 2>&1
SH
        chmod 755 "$BURSTD_DIR/$cmd"
    done
}

# burst.conf for the plugin, with BURST_CONF_EXTRA's lines, and JobSubmitPlugins=burst.
burstd_enable_plugin() {
    cat >"$CLUSTER_DIR/burst.conf" <<CONF
SocketPath=$BURSTD_DIR/snapshot.sock
ExportInterval=1
${BURST_CONF_EXTRA:-}
CONF
    sed -i '/^JobSubmitPlugins=/d' "$SLURM_CONF"
    echo "JobSubmitPlugins=burst" >>"$SLURM_CONF"
    scontrol reconfigure
}

burstd_write_conf() { # POLICY BOOT_DELAY [extra lines...]
    local policy=$1 delay=$2
    shift 2
    {
        echo "ClusterName=$CLUSTER_NAME"
        echo "SocketPath=$BURSTD_DIR/snapshot.sock"
        echo "ControlSocket=$BURSTD_DIR/control.sock"
        echo "StateDir=$BURSTD_DIR/state"
        echo "SlurmConf=$SLURM_CONF"
        echo "SlurmUser=root"
        echo "LogLevel=verbose"
        echo "CycleInterval=1"
        echo "Provider=box ${BURSTD_PROVIDER:-Type=local BootDelay=$delay${BURST_SLURM_PREFIX:+ SlurmdPath=$BURST_SLURM_PREFIX/sbin/slurmd}} ${BURSTD_PROVIDER_EXTRA:-}"
        echo "NodeGroup=cloud Provider=box Nodes=$CLUSTER_CLOUD_NODES Partition=cloud Cpus=2 MemoryMB=1000 PricePerHour=0.10 BootTime=$delay ${BURSTD_GROUP_EXTRA:-}"
        echo "Policy=$policy"
        local line
        for line in "$@"; do echo "$line"; done
    } >"$BURSTD_DIR/burstd.conf"
}

burstd_start() {
    rm -f "$BURSTD_DIR/control.sock"
    "$BURSTD_BIN" -f "$BURSTD_DIR/burstd.conf" >>"$BURSTD_DIR/burstd.log" 2>&1 &
    BURSTD_PID=$!
    wait_for "[ -S '$BURSTD_DIR/control.sock' ] && '$BURSTCTL_BIN' --socket '$BURSTD_DIR/control.sock' status >/dev/null 2>&1" 10
}

burstd_stop() {
    [ -n "$BURSTD_PID" ] || return 0
    kill "$BURSTD_PID" 2>/dev/null
    wait "$BURSTD_PID" 2>/dev/null
    BURSTD_PID=""
}

burstd_kill9() {
    [ -n "$BURSTD_PID" ] || return 0
    kill -9 "$BURSTD_PID" 2>/dev/null
    wait "$BURSTD_PID" 2>/dev/null
    BURSTD_PID=""
}

# Holds both CPUs of each local node named with a sleeping job and waits
# until they all run; their ids are left in FILLERS.
burstd_fill_local() { # NODE...
    FILLERS=()
    local n
    for n in "$@"; do
        FILLERS+=("$(sbatch --parsable -p local -n2 -w "$n" -o /dev/null --wrap 'sleep 300')")
    done
    wait_for "[ \"\$(squeue -h -t R -j $(IFS=,; echo "${FILLERS[*]}") | wc -l)\" = $# ]" 15 ||
        tap_fail "local nodes $* filled"
}

burstd_status_json() {
    "$BURSTCTL_BIN" --socket "$BURSTD_DIR/control.sock" status --json
}

# An instance of the local provider exists from the moment its record
# (BURSTD_DIR/state/local-*/ID.json: pid, kernel start time) is written, before
# its process is let go.  For BootDelay seconds that process is a fork of
# burstd, with burstd's command line, and only then execs slurmd: a search by
# command line alone misses it, and it starts its slurmd after the cluster is
# gone (a slurmd that cannot register then takes up to two minutes to obey
# SIGTERM, sleeping between registration attempts).
_burstd_recorded_instances() {
    local f rec pid ticks stat
    local -a fields
    [ -n "$BURSTD_DIR" ] || return 0
    for f in "$BURSTD_DIR"/state/local-*/*.json; do
        [ -f "$f" ] || continue
        rec=$(<"$f") || continue
        pid=$(sed -nE 's/.*"pid": *([0-9]+).*/\1/p' <<<"$rec")
        ticks=$(sed -nE 's/.*"start_ticks": *"([0-9]+)".*/\1/p' <<<"$rec")
        [ -n "$pid" ] && [ -n "$ticks" ] || continue
        stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
        read -ra fields <<<"${stat##*) }"
        # fields[0] is stat's field 3 (state), fields[19] field 22 (start time)
        [ "${fields[0]}" != Z ] && [ "${fields[19]}" = "$ticks" ] && echo "$pid"
    done
}

burstd_instance_slurmds() {
    { pgrep -f -- "slurmd -D -b -N .* -f $SLURM_CONF"; _burstd_recorded_instances; } | sort -un
}

burstd_cleanup() {
    burstd_stop
    local pid
    for pid in $(burstd_instance_slurmds); do kill "$pid" 2>/dev/null; done
    wait_for "[ -z \"\$(burstd_instance_slurmds)\" ]" 10 || for pid in $(burstd_instance_slurmds); do kill -9 "$pid" 2>/dev/null; done
}

burstd_test_cluster() { # NAME [cluster_start options...]
    local name=$1 f
    shift
    for f in "$BURSTD_BIN" "$BURSTCTL_BIN" "$BURSTD_PLUGIN_DIR/job_submit_burst.so"; do
        [ -e "$f" ] || { tap_fail "$f is built (run make first)"; return 1; }
    done
    burstd_programs "$(mktemp -d "/tmp/burstd-$name.XXXXXX")"
    local plugin_dir=(--plugin-dir "$BURSTD_PLUGIN_DIR")
    [ "$(readlink -f "$BURSTD_PLUGIN_DIR")" != "$(readlink -f "$CLUSTER_SLURM_PLUGIN_DIR")" ] || plugin_dir=()
    cluster_start "${plugin_dir[@]}" --name "$name" --resume-program "$BURSTD_DIR/resume" \
        --suspend-program "$BURSTD_DIR/suspend" --resume-fail-program "$BURSTD_DIR/resume-fail" "$@" || return 1
    trap _burstd_on_exit EXIT
}

_burstd_on_exit() {
    local rc=$?
    [ -z "${BURSTD_ON_EXIT:-}" ] || eval "$BURSTD_ON_EXIT"
    burstd_cleanup
    if [ "$TAP_FAILED" = 0 ] && [ "$rc" = 0 ]; then
        rm -rf "$BURSTD_DIR"
    else
        echo "# burstd files kept in $BURSTD_DIR"
    fi
    cluster_stop "$rc"
}

burstd_bring_up() { # POLICY BOOT_DELAY [extra lines...]
    burstd_write_conf "$@"
    if ! burstd_start; then
        tap_fail "burstd started" "$(tail -5 "$BURSTD_DIR/burstd.log")"
        return 1
    fi
    burstd_enable_plugin
    if ! wait_for "grep -q 'plugin hello' '$BURSTD_DIR/burstd.log'" 15; then
        tap_fail "the plugin connected to burstd" "$(tail -5 "$CLUSTER_DIR/log/slurmctld.log")"
        return 1
    fi
}
