# A real single-machine Slurm cluster for integration tests: private munged,
# slurmctld, one slurmd per node (each on its own Port), optionally a private
# MariaDB + slurmdbd with fair-share accounts.  Source it from a test (bash,
# as root); several clusters can run on one machine at the same time, because
# every cluster has its own scratch directory, its own munge key and socket,
# and its own TCP ports.  Nothing touches /etc/slurm, /run/munge or the
# system's MariaDB.
#
#   source tests/slurm/lib/cluster.sh
#   cluster_start [--local N] [--cloud N] [--cpus N] [--cloud-cpus N] [--cloud-gres G] [--mem MB]
#                 [--dbd] [--resume-program P] [--suspend-program P]
#                 [--resume-fail-program P] [--job-submit-plugins LIST]
#                 [--plugin-dir DIR] [--conf 'Key=Value' ...] [--name NAME]
#                 [--cred-expire S]
#
#     --local N      ordinary nodes n[1-N], partition "local" (Default=YES); default 2
#     --cloud N      State=CLOUD Feature=cloud nodes c[1-N], partition "cloud"; default 2
#     --cpus N       CPUs of every node (SlurmdParameters=config_overrides lets a
#                    node claim more than the host has); default 2
#     --cloud-cpus N CPUs of the CLOUD nodes only; default --cpus
#     --cloud-gres G Gres=G on the CLOUD nodes (slurm.conf's syntax, e.g.
#                    gpu:a100:2), and GresTypes naming its gres; none by default
#     --mem MB       RealMemory of every node; default 1000
#     --dbd          private MariaDB + slurmdbd + associations (see below);
#                    without it: accounting_storage/none, no associations
#     --resume-program P, --suspend-program P, --resume-fail-program P
#                    power-saving programs; default the harness's own
#                    lib/resume_program.sh (starts `slurmd -b -N NODE` for each
#                    node), lib/suspend_program.sh and lib/resume_fail_program.sh
#                    (stop that slurmd by its pid file).  slurmctld runs them
#                    with SLURM_CONF as their only environment variable.
#     --job-submit-plugins LIST   JobSubmitPlugins=LIST
#     --plugin-dir DIR            DIR's *.so are copied to CLUSTER_DIR/plugins, and
#                                 PluginDir=CLUSTER_DIR/plugins:/usr/lib/x86_64-linux-gnu/slurm-wlm:
#                                 commands run by any user (sbatch as nobody) read
#                                 PluginDir, and a build tree may be in a home
#                                 directory only root can enter
#     --conf 'Key=Value'          replaces the generated Key= line (or appends
#                                 it; NodeName/PartitionName/NodeSet lines are
#                                 always appended); repeatable
#     --name NAME    ClusterName (lowercase letters, digits, _); default "burst"
#     --cred-expire S  AuthInfo's cred_expire (at least 5): also how long a
#                    batch job requeued from a failed or forced-down node
#                    waits before it may start again; Slurm's default 120
#
#   Power saving: SuspendTime=10 SuspendTimeout=3 ResumeTimeout=30, no rate
#   limits, SuspendExcNodes = the ordinary nodes, power_save_interval=1, and a
#   PrologSlurmctld (conf/prolog_slurmctld_wait_nodes) that waits for the job's nodes,
#   which makes 22.05 launch a batch job as soon as its CLOUD node is up
#   instead of up to 30 s later.  CLUSTER_PROLOG_PROGRAM names another copy
#   of it (an installed one).
#
#   With --dbd the accounts are (root may submit as either with -A):
#     alpha  Fairshare=30  users root (default account alpha), nobody
#     beta   Fairshare=10  users root, daemon
#
#   It exports SLURM_CONF, CLUSTER_DIR (scratch dir under ${BURST_SCRATCH:-/tmp}:
#   slurm.conf, slurmdbd.conf (0600), log/ (slurmctld.log, slurmd-NODE.log,
#   slurmdbd.log, power.log = every resume/suspend/prolog event), run/ (pid
#   files), state/, spool/, munge/, mysql/, plugins/), CLUSTER_NAME,
#   CLUSTER_PLUGIN_DIR (the copy of --plugin-dir's plugins, or empty),
#   CLUSTER_LOCAL_NODES / CLUSTER_CLOUD_NODES (hostlists, e.g. n[1-2]) and
#   CLUSTER_ACCOUNTS ("alpha beta" with --dbd) and CLUSTER_START_SECONDS, and
#   leaves the caller in CLUSTER_DIR so job output files land there.
#   Ports are claimed in /tmp/slurm-burst-ports (lib/ports.sh); --dbd copies a
#   pristine MariaDB data dir cached in ${BURST_SCRATCH:-/tmp}/slurm-burst-mariadb-VERSION.
#   It returns once every ordinary node is idle (bounded by CLUSTER_START_TIMEOUT, default 90 s; on timeout
#   it prints the tail of slurmctld.log), prints how long the start took, and
#   installs an EXIT trap (and INT/TERM traps that exit) calling cluster_stop.
#   A test that needs its own EXIT trap must call cluster_stop from it.
#
#   cluster_stop [STATUS]
#     cancels the cluster's jobs, then stops, by PID only, what cluster_start
#     and the default ResumeProgram started: slurmctld, every slurmd (resumed
#     CLOUD ones too), slurmdbd, mariadbd, munged.  SIGTERM, then SIGKILL after
#     CLUSTER_STOP_TIMEOUT (default 15 s).  Idempotent.  Removes CLUSTER_DIR
#     unless KEEP_CLUSTER=1, STATUS is non-zero or a tap_fail was reported; then
#     it prints where the logs are.
#
#   submit_sleep USER ACCOUNT CPUS SECONDS
#     submits `sleep SECONDS` with CPUS tasks to ACCOUNT as USER (runuser, so
#     the job is USER's; output discarded) and appends its id to
#     SUBMITTED_JOBS, or reports a tap_fail with sbatch's answer.
#
# Slurm release: Debian's (/usr/sbin, /usr/bin, PluginDir
# /usr/lib/x86_64-linux-gnu/slurm-wlm) unless BURST_SLURM_PREFIX names a Slurm
# installed under its own prefix (scripts/build-slurm.sh): then its sbin and
# bin come first in PATH, for this shell and for the power programs and the
# PrologSlurmctld, and its PluginDir is PREFIX/lib/slurm.
#
# Test helpers, also available after sourcing: lib/tap.sh (tap_ok, tap_fail,
# tap_check, tap_is, tap_like, tap_note, tap_finish) and lib/wait.sh (now,
# elapsed, wait_for, node_state, wait_node_state, wait_job_done, job_field);
# see their headers.

CLUSTER_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tap.sh
source "$CLUSTER_LIB/tap.sh"
# shellcheck source=wait.sh
source "$CLUSTER_LIB/wait.sh"
# shellcheck source=ports.sh
source "$CLUSTER_LIB/ports.sh"

CLUSTER_SLURM_PLUGIN_DIR=/usr/lib/x86_64-linux-gnu/slurm-wlm
CLUSTER_SLURM_PATH=""
if [ -n "${BURST_SLURM_PREFIX:-}" ]; then
    if [ ! -x "$BURST_SLURM_PREFIX/sbin/slurmctld" ] || [ ! -d "$BURST_SLURM_PREFIX/lib/slurm" ]; then
        echo "cluster.sh: BURST_SLURM_PREFIX=$BURST_SLURM_PREFIX is not a Slurm installation (no sbin/slurmctld or lib/slurm; scripts/build-slurm.sh makes one)" >&2
        return 2
    fi
    CLUSTER_SLURM_PATH=$BURST_SLURM_PREFIX/sbin:$BURST_SLURM_PREFIX/bin
    CLUSTER_SLURM_PLUGIN_DIR=$BURST_SLURM_PREFIX/lib/slurm
    export PATH=$CLUSTER_SLURM_PATH:$PATH
fi

_cluster_err() {
    echo "cluster_start: $*" >&2
}

# _cluster_tail FILE: the end of a log, for error messages
_cluster_tail() {
    [ -s "$1" ] || return 0
    echo "--- last lines of $1:" >&2
    tail -n 25 "$1" >&2
    echo "---" >&2
}

_cluster_uint() { # OPTION VALUE
    [[ $2 =~ ^[0-9]+$ ]] || { _cluster_err "$1 expects a non-negative integer, got '$2'"; return 1; }
}

_cluster_program() { # OPTION PATH
    if ! [ -f "$2" ] || ! [ -x "$2" ]; then
        _cluster_err "$1: '$2' is not an executable file"
        return 1
    fi
}

# _cluster_alive PID: a running process (zombies count as gone)
_cluster_alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# _cluster_pid FILE NAME: the pid recorded in FILE if that process is still
# the program NAME we started (a stale pid file may name a recycled pid).
# NAME is compared with /proc/PID/comm: Debian's /usr/sbin/slurmd is a link
# to slurmd-wlm, but the process calls itself slurmd.
_cluster_pid() {
    local pid comm
    pid=$(cat "$1" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [ "$comm" = "$2" ] && _cluster_alive "$pid" || return 1
    echo "$pid"
}

# _cluster_terminate PID...: SIGTERM, wait, SIGKILL what is left
_cluster_terminate() {
    local pids=("$@") left pid i
    ((${#pids[@]})) || return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for i in $(seq $((${CLUSTER_STOP_TIMEOUT:-15} * 10))); do
        left=()
        for pid in "${pids[@]}"; do _cluster_alive "$pid" && left+=("$pid"); done
        ((${#left[@]})) || return 0
        pids=("${left[@]}")
        sleep 0.1
    done
    echo "cluster_stop: killing pids ${pids[*]}: still running ${CLUSTER_STOP_TIMEOUT:-15} s after SIGTERM" >&2
    kill -KILL "${pids[@]}" 2>/dev/null || true
    for i in $(seq 50); do
        left=()
        for pid in "${pids[@]}"; do _cluster_alive "$pid" && left+=("$pid"); done
        ((${#left[@]})) || return 0
        pids=("${left[@]}")
        sleep 0.1
    done
    echo "cluster_stop: pids ${pids[*]} survived SIGKILL" >&2
    return 1
}

# _cluster_scan: fills _CLUSTER_PROCS[NAME]="pid pid..." with every running
# slurmctld, slurmd, mariadbd and munged whose command line names a path in
# this cluster's directory.  It finds what a pid file cannot: a slurmd that a
# ResumeProgram started just as slurmctld stopped, a mariadbd that failed
# before writing its pid file.
_cluster_scan() {
    local d pid comm
    local -a argv
    declare -gA _CLUSTER_PROCS=()
    for d in /proc/[0-9]*; do
        pid=${d#/proc/}
        { read -r comm <"$d/comm"; } 2>/dev/null || continue
        case "$comm" in slurmctld | slurmd | mariadbd | munged) ;; *) continue ;; esac
        { mapfile -d '' argv <"$d/cmdline"; } 2>/dev/null || continue
        [[ "${argv[*]}" == *"$CLUSTER_DIR/"* ]] || continue
        _cluster_alive "$pid" || continue
        _CLUSTER_PROCS[$comm]+=" $pid"
    done
}

# _cluster_pids NAME [PIDFILE...]: pids of NAME from the pid files and the last scan
_cluster_pids() {
    local name=$1 f pid
    declare -A seen=()
    shift
    for f in "$@"; do
        pid=$(_cluster_pid "$f" "$name") && seen[$pid]=1
    done
    for pid in ${_CLUSTER_PROCS[$name]:-}; do seen[$pid]=1; done
    echo "${!seen[@]}"
}

_cluster_munge_start() {
    local m=$CLUSTER_DIR/munge
    install -d -m 0755 "$m"
    (umask 077 && head -c 1024 /dev/urandom >"$m/munge.key")
    chmod 0400 "$m/munge.key"
    if ! munged --socket="$m/munge.socket" --key-file="$m/munge.key" --pid-file="$m/munged.pid" \
        --seed-file="$m/munged.seed" --log-file="$CLUSTER_DIR/log/munged.log" 2>>"$CLUSTER_DIR/log/munged.log"; then
        _cluster_err "munged did not start"
        _cluster_tail "$CLUSTER_DIR/log/munged.log"
        return 1
    fi
    if ! munge -n -S "$m/munge.socket" | unmunge -S "$m/munge.socket" >/dev/null 2>&1; then
        _cluster_err "private munged at $m/munge.socket does not answer"
        _cluster_tail "$CLUSTER_DIR/log/munged.log"
        return 1
    fi
}

# _cluster_mariadb_template: prints a pristine MariaDB data directory, made
# once per machine and MariaDB version by mariadb-install-db (1.5-2 s) and
# copied by every cluster (0.1 s).  Made under a temporary name and renamed,
# so concurrent clusters never see half a template.
_cluster_mariadb_template() {
    local version template tmp
    version=$(mariadbd --no-defaults --version 2>/dev/null | awk '{ print $3 }')
    [ -n "$version" ] || { _cluster_err "cannot tell the MariaDB version (mariadbd --version)"; return 1; }
    template=${BURST_SCRATCH:-/tmp}/slurm-burst-mariadb-$version
    if [ ! -f "$template/.complete" ]; then
        tmp=$(mktemp -d "$template.XXXXXX") || return 1
        chown mysql:mysql "$tmp"
        if ! mariadb-install-db --no-defaults --user=mysql --datadir="$tmp" \
            --auth-root-authentication-method=socket --skip-test-db \
            --innodb-log-file-size=8M >"$CLUSTER_DIR/log/mariadb-install.log" 2>&1; then
            rm -rf "$tmp"
            _cluster_err "mariadb-install-db failed"
            _cluster_tail "$CLUSTER_DIR/log/mariadb-install.log"
            return 1
        fi
        touch "$tmp/.complete"
        # another cluster may have won the race: then keep its template
        mv -T "$tmp" "$template" 2>/dev/null || rm -rf "$tmp"
    fi
    echo "$template"
}

_cluster_mariadb_start() { # PORT PASSWORD
    local port=$1 pass=$2 db=$CLUSTER_DIR/mysql template
    template=$(_cluster_mariadb_template) || return 1
    install -d -o mysql -g mysql -m 0750 "$db"
    if ! cp -a "$template" "$db/data"; then
        _cluster_err "cannot copy the MariaDB template $template"
        return 1
    fi
    rm -f "$db/data/.complete"
    # setsid -f: mariadbd does not daemonize itself; it gets its own session
    # and is found again through its pid file.
    setsid -f mariadbd --no-defaults --user=mysql --datadir="$db/data" \
        --port="$port" --bind-address=127.0.0.1 --skip-name-resolve \
        --socket="$db/mysqld.sock" --pid-file="$db/mariadbd.pid" --log-error="$db/mariadbd.err" \
        --innodb-buffer-pool-size=32M --innodb-log-file-size=8M </dev/null >/dev/null 2>&1
    if ! wait_for "mariadb --no-defaults -S '$db/mysqld.sock' -u root -e 'select 1'" 30; then
        _cluster_err "private MariaDB on port $port did not answer within 30 s"
        _cluster_tail "$db/mariadbd.err"
        return 1
    fi
    mariadb --no-defaults -S "$db/mysqld.sock" -u root <<SQL
CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY '$pass';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';
SQL
}

_cluster_slurmdbd_start() { # DBD_PORT MARIADB_PORT PASSWORD PLUGIN_DIR
    (
        umask 077
        cat >"$CLUSTER_DIR/slurmdbd.conf" <<EOF
# slurmdbd of test cluster $CLUSTER_NAME (generated by tests/slurm/lib/cluster.sh)
AuthType=auth/munge
AuthInfo=socket=$CLUSTER_DIR/munge/munge.socket
DbdHost=localhost
DbdPort=$1
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$2
StorageUser=slurm
StoragePass=$3
StorageLoc=slurm_acct_db
PluginDir=$4
LogFile=$CLUSTER_DIR/log/slurmdbd.log
PidFile=$CLUSTER_DIR/run/slurmdbd.pid
DebugLevel=info
EOF
    )
    # slurmdbd reads the slurmdbd.conf next to $SLURM_CONF
    if ! slurmdbd; then
        _cluster_err "slurmdbd did not start"
        _cluster_tail "$CLUSTER_DIR/log/slurmdbd.log"
        return 1
    fi
    if ! wait_for "sacctmgr -n show cluster" 30; then
        _cluster_err "slurmdbd on port $1 did not answer within 30 s"
        _cluster_tail "$CLUSTER_DIR/log/slurmdbd.log"
        return 1
    fi
}

_cluster_accounts() {
    local out
    # one `sacctmgr load` is one slurmdbd transaction: seconds faster than a
    # sacctmgr call per account and user
    cat >"$CLUSTER_DIR/associations.cfg" <<EOF
Cluster - '$CLUSTER_NAME'
Parent - 'root'
User - 'root':DefaultAccount='alpha':AdminLevel='Administrator'
Account - 'alpha':Description='test':Organization='burst':Fairshare=30
Account - 'beta':Description='test':Organization='burst':Fairshare=10
Parent - 'alpha'
User - 'root':DefaultAccount='alpha'
User - 'nobody':DefaultAccount='alpha'
Parent - 'beta'
User - 'root':DefaultAccount='alpha'
User - 'daemon':DefaultAccount='beta'
EOF
    if ! out=$(sacctmgr -i load file="$CLUSTER_DIR/associations.cfg" 2>&1); then
        _cluster_err "loading the accounts ($CLUSTER_DIR/associations.cfg) with sacctmgr failed:"
        echo "$out" >&2
        return 1
    fi
}

# _cluster_conf_set FILE KEY=VALUE: replace the KEY= line or append one
_cluster_conf_set() {
    local file=$1 kv=$2 key=${2%%=*}
    case "${key,,}" in
    nodename | partitionname | nodeset | downnodes | include) echo "$kv" >>"$file" ;;
    *)
        awk -v key="${key,,}" -v kv="$kv" '
            BEGIN { done = 0 }
            { k = tolower($0); sub(/=.*/, "", k) }
            k == key { if (!done) print kv; done = 1; next }
            { print }
            END { if (!done) print kv }' "$file" >"$file.tmp" && mv "$file.tmp" "$file"
        ;;
    esac
}

_cluster_write_slurm_conf() { # uses cluster_start's locals
    local host i
    host=$(hostname -s)
    {
        cat <<EOF
# Test cluster $CLUSTER_NAME (generated by tests/slurm/lib/cluster.sh)
ClusterName=$CLUSTER_NAME
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$CLUSTER_DIR/munge/munge.socket${cred_expire:+,cred_expire=$cred_expire}
PluginDir=$plugin_path
StateSaveLocation=$CLUSTER_DIR/state
SlurmdSpoolDir=$CLUSTER_DIR/spool/%n
SlurmctldPidFile=$CLUSTER_DIR/run/slurmctld.pid
SlurmdPidFile=$CLUSTER_DIR/run/slurmd-%n.pid
SlurmctldLogFile=$CLUSTER_DIR/log/slurmctld.log
SlurmdLogFile=$CLUSTER_DIR/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityWeightAge=100
PriorityDecayHalfLife=0-0:10
PriorityCalcPeriod=1
# one host plays every node: each node may claim more CPUs than the host has
SlurmdParameters=config_overrides
EOF
        if ((dbd)); then
            cat <<EOF
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$dbd_port
# connections to slurmdbd authenticate with this, not with AuthInfo
AccountingStoragePass=socket=$CLUSTER_DIR/munge/munge.socket
AccountingStorageEnforce=associations
EOF
        else
            echo "AccountingStorageType=accounting_storage/none"
        fi
        [ -z "$job_submit" ] || echo "JobSubmitPlugins=$job_submit"
        cat <<EOF
# power saving: CLOUD nodes are "instances" started by the ResumeProgram
ResumeProgram=$resume
SuspendProgram=$suspend
ResumeFailProgram=$resume_fail
SuspendTime=10
SuspendTimeout=3
ResumeTimeout=30
ResumeRate=0
SuspendRate=0
SlurmctldParameters=idle_on_node_suspend,power_save_interval=1,power_save_min_interval=0
PrivateData=cloud
TreeWidth=65533
PrologSlurmctld=$CLUSTER_DIR/prolog_slurmctld
EOF
        ((local_n == 0)) || echo "SuspendExcNodes=$CLUSTER_LOCAL_NODES"
        for ((i = 1; i <= local_n; i++)); do
            echo "NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=${slurmd_ports[i - 1]} CPUs=$cpus RealMemory=$mem State=UNKNOWN"
        done
        for ((i = 1; i <= cloud_n; i++)); do
            echo "NodeName=c$i NodeHostname=$host NodeAddr=127.0.0.1 Port=${slurmd_ports[local_n + i - 1]} CPUs=$cloud_cpus RealMemory=$mem State=CLOUD Feature=cloud${cloud_gres:+ Gres=$cloud_gres}"
        done
        [ -z "$cloud_gres" ] || echo "GresTypes=$(tr ',' '\n' <<<"$cloud_gres" | cut -d: -f1 | sort -u | paste -sd,)"
        ((local_n == 0)) || echo "PartitionName=local Nodes=$CLUSTER_LOCAL_NODES Default=YES MaxTime=INFINITE State=UP"
        if ((cloud_n)); then
            echo "PartitionName=cloud Nodes=$CLUSTER_CLOUD_NODES Default=$( ((local_n)) && echo NO || echo YES) MaxTime=INFINITE State=UP"
        fi
    } >"$SLURM_CONF"
    for i in "${extra_conf[@]}"; do
        _cluster_conf_set "$SLURM_CONF" "$i"
    done
    # slurmctld gives a PrologSlurmctld no SLURM_CONF: this wrapper adds it
    # (a site's own slurm.conf is at the default path), and the log file
    cat >"$CLUSTER_DIR/prolog_slurmctld" <<EOF
#!/bin/sh
SLURM_CONF='$SLURM_CONF' BURST_PROLOG_LOG='$CLUSTER_DIR/log/power.log' BURST_SLURM_BINDIR='$CLUSTER_SLURM_PATH' exec '${CLUSTER_PROLOG_PROGRAM:-$CLUSTER_LIB/../../../conf/prolog_slurmctld_wait_nodes}'
EOF
    chmod 0755 "$CLUSTER_DIR/prolog_slurmctld"
}

_cluster_local_idle() {
    local n
    n=$(sinfo -h -N -p local -t idle -o %N 2>/dev/null | sort -u | wc -l)
    [ "$n" = "$1" ]
}

_cluster_exit_trap() {
    local rc=$?
    cluster_stop "$rc"
}

cluster_start() {
    local local_n=2 cloud_n=2 cpus=2 cloud_cpus="" cloud_gres="" mem=1000 dbd=0 name=burst cred_expire=""
    local resume=$CLUSTER_LIB/resume_program.sh suspend=$CLUSTER_LIB/suspend_program.sh
    local resume_fail=$CLUSTER_LIB/resume_fail_program.sh job_submit="" plugin_path=$CLUSTER_SLURM_PLUGIN_DIR
    local plugin_src=""
    local -a extra_conf=()
    while (($#)); do
        case "$1" in
        --local | --cloud | --cpus | --cloud-cpus | --cloud-gres | --mem | --resume-program | --suspend-program | \
            --resume-fail-program | --job-submit-plugins | --plugin-dir | --conf | --name | --cred-expire)
            (($# >= 2)) || { _cluster_err "$1 needs a value"; return 2; }
            ;;
        esac
        case "$1" in
        --local) _cluster_uint "$1" "$2" || return 2; local_n=$2 ;;
        --cloud) _cluster_uint "$1" "$2" || return 2; cloud_n=$2 ;;
        --cpus) _cluster_uint "$1" "$2" || return 2; cpus=$2 ;;
        --cloud-cpus) _cluster_uint "$1" "$2" || return 2; cloud_cpus=$2 ;;
        --cloud-gres) cloud_gres=$2 ;;
        --mem) _cluster_uint "$1" "$2" || return 2; mem=$2 ;;
        --cred-expire)
            _cluster_uint "$1" "$2" || return 2
            (($2 >= 5)) || { _cluster_err "--cred-expire: Slurm ignores values below 5, got '$2'"; return 2; }
            cred_expire=$2
            ;;
        --dbd) dbd=1; shift; continue ;;
        --resume-program) _cluster_program "$1" "$2" || return 2; resume=$2 ;;
        --suspend-program) _cluster_program "$1" "$2" || return 2; suspend=$2 ;;
        --resume-fail-program) _cluster_program "$1" "$2" || return 2; resume_fail=$2 ;;
        --job-submit-plugins) job_submit=$2 ;;
        --plugin-dir)
            [ -d "$2" ] || { _cluster_err "--plugin-dir: '$2' is not a directory"; return 2; }
            plugin_src=$(cd "$2" && pwd)
            ;;
        --conf)
            [[ $2 =~ ^[A-Za-z][A-Za-z0-9]*=. ]] || { _cluster_err "--conf expects Key=Value, got '$2'"; return 2; }
            extra_conf+=("$2")
            ;;
        --name)
            [[ $2 =~ ^[a-z][a-z0-9_]{0,29}$ ]] || { _cluster_err "--name: '$2' is not a cluster name (lowercase letter, then lowercase letters, digits or _; at most 30)"; return 2; }
            name=$2
            ;;
        *) _cluster_err "unknown option '$1' (see the header of $CLUSTER_LIB/cluster.sh)"; return 2 ;;
        esac
        shift 2
    done
    cloud_cpus=${cloud_cpus:-$cpus}
    ((cpus >= 1 && cloud_cpus >= 1 && mem >= 1)) || { _cluster_err "--cpus, --cloud-cpus and --mem must be at least 1"; return 2; }
    ((local_n + cloud_n >= 1)) || { _cluster_err "a cluster needs at least one node (--local/--cloud)"; return 2; }
    [ "$(id -u)" = 0 ] || { _cluster_err "must run as root (it starts munged, slurmctld, slurmd)"; return 2; }
    if [ -n "${CLUSTER_DIR:-}" ] && [ -d "$CLUSTER_DIR" ]; then
        _cluster_err "a cluster is already running in this shell ($CLUSTER_DIR); cluster_stop it first"
        return 2
    fi

    local t0=$EPOCHREALTIME scratch=${BURST_SCRATCH:-/tmp}
    mkdir -p "$scratch" || { _cluster_err "cannot create scratch dir $scratch"; return 1; }
    CLUSTER_DIR=$(mktemp -d "$scratch/slurm-$name.XXXXXX") || { _cluster_err "cannot create a directory in $scratch"; return 1; }
    chmod 0755 "$CLUSTER_DIR"
    CLUSTER_NAME=$name
    SLURM_CONF=$CLUSTER_DIR/slurm.conf
    CLUSTER_LOCAL_NODES="" CLUSTER_CLOUD_NODES="" CLUSTER_ACCOUNTS=""
    ((local_n == 0)) || CLUSTER_LOCAL_NODES=$( ((local_n == 1)) && echo n1 || echo "n[1-$local_n]")
    ((cloud_n == 0)) || CLUSTER_CLOUD_NODES=$( ((cloud_n == 1)) && echo c1 || echo "c[1-$cloud_n]")
    ((dbd == 0)) || CLUSTER_ACCOUNTS="alpha beta"
    export CLUSTER_DIR CLUSTER_NAME SLURM_CONF CLUSTER_LOCAL_NODES CLUSTER_CLOUD_NODES CLUSTER_ACCOUNTS
    _CLUSTER_OWNER=$BASHPID
    trap _cluster_exit_trap EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$CLUSTER_DIR"/{log,run,state,spool}
    # the power programs run with SLURM_CONF only: this tells them where Slurm's commands are
    echo "$CLUSTER_SLURM_PATH" >"$CLUSTER_DIR/slurm-path"
    CLUSTER_PLUGIN_DIR=""
    if [ -n "$plugin_src" ]; then
        CLUSTER_PLUGIN_DIR=$CLUSTER_DIR/plugins
        if ! install -d -m 0755 "$CLUSTER_PLUGIN_DIR" || ! install -m 0644 "$plugin_src"/*.so "$CLUSTER_PLUGIN_DIR/"; then
            _cluster_err "cannot copy the plugins of $plugin_src to $CLUSTER_PLUGIN_DIR"
            cluster_stop 1
            return 1
        fi
        plugin_path=$CLUSTER_PLUGIN_DIR:$CLUSTER_SLURM_PLUGIN_DIR
    fi
    export CLUSTER_PLUGIN_DIR

    local nports=$((1 + local_n + cloud_n + 2 * dbd)) ports
    ports=$(ports_claim "$_CLUSTER_OWNER" "${CLUSTER_DIR##*/}" "$nports") || { cluster_stop 1; return 1; }
    local -a all_ports slurmd_ports
    mapfile -t all_ports <<<"$ports"
    local ctld_port=${all_ports[0]} dbd_port="" db_port=""
    slurmd_ports=("${all_ports[@]:1:local_n + cloud_n}")
    if ((dbd)); then
        dbd_port=${all_ports[1 + local_n + cloud_n]}
        db_port=${all_ports[2 + local_n + cloud_n]}
    fi

    _cluster_munge_start || { cluster_stop 1; return 1; }
    _cluster_write_slurm_conf
    if ((dbd)); then
        local pass
        pass=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
        if ! _cluster_mariadb_start "$db_port" "$pass" ||
            ! _cluster_slurmdbd_start "$dbd_port" "$db_port" "$pass" "$plugin_path" ||
            ! _cluster_accounts; then
            cluster_stop 1
            return 1
        fi
    fi

    if ! slurmctld -f "$SLURM_CONF" 2>>"$CLUSTER_DIR/log/slurmctld.log"; then
        _cluster_err "slurmctld did not start"
        _cluster_tail "$CLUSTER_DIR/log/slurmctld.log"
        cluster_stop 1
        return 1
    fi
    local i
    for ((i = 1; i <= local_n; i++)); do
        if ! slurmd -N "n$i" -f "$SLURM_CONF" 2>>"$CLUSTER_DIR/log/slurmd-n$i.log"; then
            _cluster_err "slurmd for node n$i did not start"
            _cluster_tail "$CLUSTER_DIR/log/slurmd-n$i.log"
            cluster_stop 1
            return 1
        fi
    done
    local limit=${CLUSTER_START_TIMEOUT:-90}
    if ((local_n)); then
        if ! wait_for "_cluster_local_idle $local_n" "$limit"; then
            _cluster_err "the ordinary nodes $CLUSTER_LOCAL_NODES were not all idle within $limit s:"
            sinfo -N 2>&1 | sed 's/^/  /' >&2
            _cluster_tail "$CLUSTER_DIR/log/slurmctld.log"
            cluster_stop 1
            return 1
        fi
    elif ! wait_for "scontrol ping | grep -q UP" "$limit"; then
        _cluster_err "slurmctld did not answer within $limit s"
        _cluster_tail "$CLUSTER_DIR/log/slurmctld.log"
        cluster_stop 1
        return 1
    fi
    CLUSTER_START_SECONDS=$(elapsed "$t0")
    echo "# cluster $CLUSTER_NAME up in $CLUSTER_START_SECONDS s: local=${CLUSTER_LOCAL_NODES:-none} cloud=${CLUSTER_CLOUD_NODES:-none} dbd=$( ((dbd)) && echo yes || echo no) slurmctld port $ctld_port, dir $CLUSTER_DIR"
    # Jobs write slurm-%j.out where they were submitted: keep those with the
    # cluster's logs rather than in the caller's directory (often a checkout).
    cd "$CLUSTER_DIR" || return 1
}

SUBMITTED_JOBS=()
submit_sleep() {
    local id
    if id=$(runuser -u "$1" -- env SLURM_CONF="$SLURM_CONF" \
        sbatch --parsable -A "$2" -n "$3" -o /dev/null --chdir=/ --wrap "sleep $4" 2>&1); then
        SUBMITTED_JOBS+=("$id")
    else
        tap_fail "$1 submits a job to $2" "$id"
    fi
}

cluster_stop() {
    local status=${1:-0}
    [ -n "${CLUSTER_DIR:-}" ] && [ -d "$CLUSTER_DIR" ] || return 0
    local t0=$EPOCHREALTIME pid jobs
    if pid=$(_cluster_pid "$CLUSTER_DIR/run/slurmctld.pid" slurmctld); then
        # Jobs with processes first, so that no slurmstepd or job process
        # outlives its slurmd; pending ones (a bench leaves 50k) die with slurmctld.
        local live=RUNNING,COMPLETING,SUSPENDED,STOPPED
        jobs=$(timeout 10 squeue -h -t "$live" -o %i 2>/dev/null || true)
        if [ -n "$jobs" ]; then
            # shellcheck disable=SC2086
            timeout 10 scancel $jobs 2>/dev/null || true
            wait_for "[ -z \"\$(squeue -h -t $live -o %i)\" ]" 15 ||
                echo "cluster_stop: jobs still running after scancel: $(squeue -h -t "$live" -o '%i %T' | head -20 | tr '\n' ' ')" >&2
        fi
    fi
    _cluster_scan
    # shellcheck disable=SC2046
    _cluster_terminate $(_cluster_pids slurmctld "$CLUSTER_DIR/run/slurmctld.pid")
    _cluster_scan # slurmctld can no longer resume nodes
    # shellcheck disable=SC2046
    _cluster_terminate $(_cluster_pids slurmd "$CLUSTER_DIR"/run/slurmd-*.pid)
    # shellcheck disable=SC2046
    _cluster_terminate $(_cluster_pids slurmdbd "$CLUSTER_DIR/run/slurmdbd.pid")
    # shellcheck disable=SC2046
    _cluster_terminate $(_cluster_pids mariadbd "$CLUSTER_DIR/mysql/mariadbd.pid")
    # shellcheck disable=SC2046
    _cluster_terminate $(_cluster_pids munged "$CLUSTER_DIR/munge/munged.pid")
    ports_release "${_CLUSTER_OWNER:-$BASHPID}" "${CLUSTER_DIR##*/}"
    echo "# cluster $CLUSTER_NAME stopped in $(elapsed "$t0") s"
    if [ "${KEEP_CLUSTER:-0}" = 1 ] || [ "$status" != 0 ] || [ "${TAP_FAILED:-0}" != 0 ]; then
        echo "# cluster $CLUSTER_NAME: kept $CLUSTER_DIR (logs in $CLUSTER_DIR/log$([ -d "$CLUSTER_DIR/mysql" ] && echo ", MariaDB's in mysql/"))" >&2
    else
        rm -rf "$CLUSTER_DIR"
    fi
    unset CLUSTER_DIR
    trap - EXIT INT TERM
}
