# A real, private OpenStack for the provider's integration tests: Keystone,
# Nova (fake virt driver: servers go ACTIVE without any VM), Placement, Glance
# and Neutron from Debian's packages, with their own MariaDB and RabbitMQ.
# Source it from a test (bash, as root).  Everything lives in one scratch
# directory and listens on 127.0.0.1 only, on ports claimed through the Slurm
# harness's registry (tests/slurm/lib/ports.sh), so it runs next to the Slurm
# test clusters and their MariaDB instances.  Services are started by hand (no
# systemd) and stopped by their recorded process ids only.
#
#   openstack_install
#       installs the Debian packages it needs when one is missing (idempotent;
#       6 to 15 minutes and 730 MB the first time, depending on the mirror and
#       the load).  Prints how long it took.
#
#   openstack_start
#       brings the cloud up (about 3 minutes on 2 cores, about 1.7 GB RAM) and
#       returns once nova-compute is discovered.  Installs an EXIT trap (and
#       INT/TERM traps that exit) calling openstack_stop.  Exports:
#         OS_DIR              scratch dir: etc/, log/, state/, run/ (pid files), mysql/
#         OS_AUTH_URL         http://127.0.0.1:PORT/v3
#         OS_PASSWORD_FILE    credentials of user "demo" in project "demo" (0600)
#         OS_APPCRED_FILE     an application credential of demo (0600)
#         OS_IMAGE_ID         a public image
#         OS_FLAVOR           "burst.small": the fake driver runs any number
#         OS_NOWHERE_FLAVOR   "burst.nowhere": requires a trait no host has, so
#                             the scheduler answers "No valid host was found"
#         OS_INSTANCE_QUOTA   demo's instance quota (OS_INSTANCE_QUOTA before the
#                             call overrides; default 3): one more is a real 403
#         OS_START_SECONDS
#       The credentials files use the provider's format (see
#       burstd/src/provider/openstack/openstack_credentials.hpp).
#       With OS_SHARED=1 in the environment (tests/openstack/run-all.sh
#       started one cloud for all its tests and exported the variables
#       above), it uses that cloud instead, and openstack_stop leaves it up.
#
#   openstack_project NAME QUOTA
#       a project of the test's own in the (perhaps shared) cloud: user
#       NAME, member of project NAME, instance quota QUOTA, and its
#       application credential in OS_PROJECT_APPCRED_FILE (0600).  Tests that
#       share the cloud then neither see each other's servers nor use up each
#       other's quota.
#
#   openstack_stop [STATUS]
#       stops what openstack_start started (SIGTERM to each process group, then
#       SIGKILL after OS_STOP_TIMEOUT, default 20 s), releases the ports and
#       removes OS_DIR unless KEEP_OPENSTACK=1, STATUS is non-zero or a tap_fail
#       was reported.  Idempotent.

OS_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OS_SLURM_LIB=$(cd "$OS_LIB/../../slurm/lib" && pwd)
# shellcheck source=../../slurm/lib/tap.sh
source "$OS_SLURM_LIB/tap.sh"
# shellcheck source=../../slurm/lib/wait.sh
source "$OS_SLURM_LIB/wait.sh"
# shellcheck source=../../slurm/lib/ports.sh
source "$OS_SLURM_LIB/ports.sh"

OS_PACKAGES=(mariadb-server rabbitmq-server python3-keystone python3-nova python3-placement
    python3-glance python3-neutron python3-pymysql curl)
OS_PY=/usr/bin/python3 # a pyenv shim may shadow python3; the services need Debian's
OS_PORT_NAMES=(mysql rabbit epmd rabbit_dist keystone placement glance nova neutron)

_os_err() { echo "openstack: $*" >&2; }

openstack_install() {
    local missing=() p t0=$SECONDS
    for p in "${OS_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" \
            >/tmp/slurm-burst-openstack-apt.log 2>&1; then
            _os_err "apt-get install ${missing[*]} failed (see /tmp/slurm-burst-openstack-apt.log)"
            tail -n 20 /tmp/slurm-burst-openstack-apt.log >&2
            return 1
        fi
    fi
    echo "# openstack_install: ${#missing[@]} package(s) installed in $((SECONDS - t0)) s"
}

# _os_spawn NAME CMD...: starts CMD in a session of its own (so the whole
# process tree is signalled at stop), output to log/NAME.out, pid in run/NAME.pid.
_os_spawn() {
    local name=$1
    shift
    setsid "$@" </dev/null >"$OS_DIR/log/$name.out" 2>&1 &
    echo $! >"$OS_DIR/run/$name.pid"
}

# The OpenStack console entry points, as small scripts in $OS_DIR/bin: the
# Debian python3-* packages ship the modules, while the nova-common etc.
# packages with the real scripts would also install and start system
# services.  A script file (not python3 -c) also gives oslo.log the program
# name for the log file.
declare -A OS_ENTRY_POINTS=(
    [nova-api]=nova.cmd.api [nova-conductor]=nova.cmd.conductor [nova-scheduler]=nova.cmd.scheduler
    [nova-compute]=nova.cmd.compute [nova-manage]=nova.cmd.manage [glance-api]=glance.cmd.api
    [glance-manage]=glance.cmd.manage [neutron-server]=neutron.cmd.eventlet.server
    [neutron-db-manage]=neutron.db.migration.cli
)

# Neutron 21 (Debian 12) reads Port.port_forwardings, a backref that exists
# only once SQLAlchemy has configured every model's mappers; without the
# port-forwarding plugin nothing does that, and every port query (Nova lists
# ports to show or delete a server) fails with AttributeError.  Eventlet's
# monkey patching comes first, as in neutron-server's own entry point: a lock
# created before it is a real one (oslo.db's engine start lock), and two
# concurrent first requests then deadlock the API worker for good (seen as
# Nova API calls hanging once two clients list servers at the same time).
OS_NEUTRON_PRELUDE='import neutron.cmd.eventlet
from neutron.db.migration.models import head
from sqlalchemy import orm
orm.configure_mappers()'

_os_write_entry_points() {
    local name prelude
    mkdir -p "$OS_DIR/bin"
    for name in "${!OS_ENTRY_POINTS[@]}"; do
        prelude=
        [ "$name" = neutron-server ] && prelude=$OS_NEUTRON_PRELUDE
        printf '#!%s\nimport sys\n%s\nfrom %s import main\nsys.exit(main())\n' "$OS_PY" "$prelude" \
            "${OS_ENTRY_POINTS[$name]}" >"$OS_DIR/bin/$name"
        chmod 755 "$OS_DIR/bin/$name"
    done
}

_os_write_configs() {
    local e=$OS_DIR/etc db="mysql+pymysql://os:$OS_DB_PASSWORD@127.0.0.1:${OS_PORT[mysql]}"
    local rabbit="rabbit://burst:$OS_DB_PASSWORD@127.0.0.1:${OS_PORT[rabbit]}/"
    local ks="http://127.0.0.1:${OS_PORT[keystone]}"
    cp "$OS_LIB"/etc/*-paste.ini "$e/"
    _os_authtoken() { # SECTION USER
        cat <<EOF
[$1]
www_authenticate_uri = $ks/
auth_url = $ks/v3
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
region_name = RegionOne
username = $2
password = $OS_SERVICE_PASSWORD
EOF
    }
    cat >"$e/keystone.conf" <<EOF
[DEFAULT]
log_file = $OS_DIR/log/keystone.log
[database]
connection = $db/keystone
[token]
provider = fernet
[fernet_tokens]
key_repository = $OS_DIR/state/keystone/fernet
[fernet_receipts]
key_repository = $OS_DIR/state/keystone/fernet
[credential]
key_repository = $OS_DIR/state/keystone/cred
EOF
    {
        cat <<EOF
[DEFAULT]
log_file = $OS_DIR/log/placement.log
[placement_database]
connection = $db/placement
[api]
auth_strategy = keystone
EOF
        _os_authtoken keystone_authtoken placement
    } >"$e/placement.conf"
    {
        cat <<EOF
[DEFAULT]
bind_host = 127.0.0.1
bind_port = ${OS_PORT[glance]}
workers = 1
log_file = $OS_DIR/log/glance-api.log
enabled_backends = fs:file
[glance_store]
default_backend = fs
[fs]
filesystem_store_datadir = $OS_DIR/state/glance/images/
[os_glance_staging_store]
filesystem_store_datadir = $OS_DIR/state/glance/staging/
[os_glance_tasks_store]
filesystem_store_datadir = $OS_DIR/state/glance/tasks/
[database]
connection = $db/glance
[paste_deploy]
flavor = keystone
config_file = $e/glance-api-paste.ini
[oslo_concurrency]
lock_path = $OS_DIR/state/lock
EOF
        _os_authtoken keystone_authtoken glance
    } >"$e/glance-api.conf"
    {
        cat <<EOF
[DEFAULT]
core_plugin = ml2
service_plugins =
auth_strategy = keystone
transport_url = $rabbit
bind_host = 127.0.0.1
bind_port = ${OS_PORT[neutron]}
api_workers = 1
rpc_workers = 1
rpc_state_report_workers = 0
api_paste_config = $e/neutron-api-paste.ini
state_path = $OS_DIR/state/neutron
log_file = $OS_DIR/log/neutron-server.log
notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
[database]
connection = $db/neutron
[oslo_concurrency]
lock_path = $OS_DIR/state/lock
[ml2]
type_drivers = flat
tenant_network_types =
mechanism_drivers =
extension_drivers =
EOF
        _os_authtoken keystone_authtoken neutron
    } >"$e/neutron.conf"
    {
        cat <<EOF
[DEFAULT]
transport_url = $rabbit
compute_driver = fake.FakeDriver
enabled_apis = osapi_compute
osapi_compute_listen = 127.0.0.1
osapi_compute_listen_port = ${OS_PORT[nova]}
osapi_compute_workers = 1
state_path = $OS_DIR/state/nova
instances_path = $OS_DIR/state/nova/instances
log_dir = $OS_DIR/log
my_ip = 127.0.0.1
host = burst-fakehost
[api]
auth_strategy = keystone
[wsgi]
api_paste_config = $e/nova-api-paste.ini
[api_database]
connection = $db/nova_api
[database]
connection = $db/nova
[glance]
api_servers = http://127.0.0.1:${OS_PORT[glance]}
[oslo_concurrency]
lock_path = $OS_DIR/state/lock
[scheduler]
discover_hosts_in_cells_interval = 5
workers = 1
[conductor]
workers = 1
[oslo_messaging_notifications]
driver = noop
EOF
        _os_authtoken keystone_authtoken nova
        _os_authtoken placement placement
        _os_authtoken neutron neutron
    } >"$e/nova.conf"
    chmod 600 "$e"/*.conf
}

_os_mariadb_start() {
    local db=$OS_DIR/mysql
    install -d -o mysql -g mysql -m 0750 "$db"
    if ! mariadb-install-db --no-defaults --user=mysql --datadir="$db/data" \
        --auth-root-authentication-method=socket --skip-test-db \
        --innodb-log-file-size=8M >"$OS_DIR/log/mariadb-install.log" 2>&1; then
        _os_err "mariadb-install-db failed (see $OS_DIR/log/mariadb-install.log)"
        return 1
    fi
    _os_spawn mariadb mariadbd --no-defaults --user=mysql --datadir="$db/data" \
        --port="${OS_PORT[mysql]}" --bind-address=127.0.0.1 --skip-name-resolve \
        --socket="$db/mysqld.sock" --pid-file="$db/mariadbd.pid" --log-error="$db/mariadbd.err" \
        --max-connections=500 --innodb-buffer-pool-size=64M --innodb-log-file-size=8M
    if ! wait_for "mariadb --no-defaults -S '$db/mysqld.sock' -u root -e 'select 1'" 30; then
        _os_err "private MariaDB on port ${OS_PORT[mysql]} did not answer within 30 s"
        tail -n 20 "$db/mariadbd.err" >&2
        return 1
    fi
    local d sql="CREATE USER 'os'@'127.0.0.1' IDENTIFIED BY '$OS_DB_PASSWORD';"
    for d in keystone glance placement nova_api nova nova_cell0 neutron; do
        sql+="CREATE DATABASE $d; GRANT ALL ON $d.* TO 'os'@'127.0.0.1';"
    done
    mariadb --no-defaults -S "$db/mysqld.sock" -u root -e "$sql"
}

_os_rabbitmq_start() {
    local r=$OS_DIR/rabbitmq
    mkdir -p "$r/mnesia" "$r/log" "$r/home"
    cat >"$r/rabbitmq.conf" <<EOF
listeners.tcp.default = 127.0.0.1:${OS_PORT[rabbit]}
distribution.listener.interface = 127.0.0.1
distribution.listener.port_range.min = ${OS_PORT[rabbit_dist]}
distribution.listener.port_range.max = ${OS_PORT[rabbit_dist]}
loopback_users = none
default_user = burst
default_pass = $OS_DB_PASSWORD
EOF
    echo "[]." >"$r/enabled_plugins.erl"
    # epmd in the foreground, on its own port, so that it is ours to stop
    _os_spawn epmd epmd -port "${OS_PORT[epmd]}" -address 127.0.0.1
    OS_RABBIT_ENV=(HOME="$r/home" ERL_EPMD_PORT="${OS_PORT[epmd]}" ERL_EPMD_ADDRESS=127.0.0.1
        RABBITMQ_NODENAME="burst${OS_PORT[rabbit]}@localhost" RABBITMQ_MNESIA_BASE="$r/mnesia"
        RABBITMQ_LOG_BASE="$r/log" RABBITMQ_CONFIG_FILE="$r/rabbitmq.conf"
        RABBITMQ_ENABLED_PLUGINS_FILE="$r/enabled_plugins.erl" RABBITMQ_PID_FILE="$r/rabbitmq.pid"
        RABBITMQ_CONF_ENV_FILE=/dev/null RABBITMQ_ADVANCED_CONFIG_FILE="$r/advanced.config")
    _os_spawn rabbitmq env "${OS_RABBIT_ENV[@]}" /usr/lib/rabbitmq/bin/rabbitmq-server
}

_os_wait_port() { # NAME PORT TIMEOUT
    if ! wait_for "(exec 3<>/dev/tcp/127.0.0.1/$2) 2>/dev/null" "$3"; then
        _os_err "$1 did not listen on 127.0.0.1:$2 within $3 s (logs in $OS_DIR/log)"
        return 1
    fi
}

_os_write_credentials() {
    local js=$OS_DIR/state/setup.json
    local get="import json,sys; print(json.load(open('$js'))[sys.argv[1]])"
    (
        umask 077
        cat >"$OS_PASSWORD_FILE" <<EOF
# OpenStack credentials of the test cloud's demo user (tests/openstack/lib/openstack.sh)
AuthUrl=$OS_AUTH_URL
AuthType=password
Username=demo
UserDomainName=Default
Password=$OS_DEMO_PASSWORD
ProjectName=demo
ProjectDomainName=Default
EOF
        cat >"$OS_APPCRED_FILE" <<EOF
# Application credential of the test cloud's demo user
AuthUrl=$OS_AUTH_URL
AuthType=application_credential
ApplicationCredentialId=$("$OS_PY" -c "$get" app_credential_id)
ApplicationCredentialSecret=$("$OS_PY" -c "$get" app_credential_secret)
EOF
    )
    OS_IMAGE_ID=$("$OS_PY" -c "$get" image_id)
}

_os_bring_up() {
    local e=$OS_DIR/etc step_t0
    mkdir -p "$OS_DIR"/{etc,log,run,state/keystone,state/glance,state/neutron,state/nova/instances,state/lock}
    _os_write_configs || return 1
    _os_write_entry_points
    _os_mariadb_start || return 1
    _os_rabbitmq_start || return 1

    # Every service's database migrates while Keystone's does: each step is
    # mostly Python start-up time, so they overlap well even on 2 cores.
    step_t0=$SECONDS
    ("$OS_DIR/bin/neutron-db-manage" --config-file "$e/neutron.conf" upgrade heads \
        >"$OS_DIR/log/neutron-db-manage.out" 2>&1) &
    local neutron_db=$!
    {
        placement-manage --config-file "$e/placement.conf" db sync &&
            "$OS_DIR/bin/glance-manage" --config-file "$e/glance-api.conf" db_sync &&
            "$OS_DIR/bin/nova-manage" --config-file "$e/nova.conf" api_db sync &&
            "$OS_DIR/bin/nova-manage" --config-file "$e/nova.conf" cell_v2 map_cell0 \
                --database_connection "mysql+pymysql://os:$OS_DB_PASSWORD@127.0.0.1:${OS_PORT[mysql]}/nova_cell0" &&
            "$OS_DIR/bin/nova-manage" --config-file "$e/nova.conf" cell_v2 create_cell --name=cell1 &&
            "$OS_DIR/bin/nova-manage" --config-file "$e/nova.conf" db sync
    } >"$OS_DIR/log/db-sync.out" 2>&1 &
    local other_db=$!

    local K=(keystone-manage --config-file "$e/keystone.conf")
    { "${K[@]}" fernet_setup --keystone-user root --keystone-group root &&
        "${K[@]}" credential_setup --keystone-user root --keystone-group root; } \
        >"$OS_DIR/log/keystone-keys.out" 2>&1 &
    local keys=$!
    { "${K[@]}" db_sync && wait "$keys" &&
        "${K[@]}" bootstrap --bootstrap-password "$OS_ADMIN_PASSWORD" \
            --bootstrap-admin-url "$OS_AUTH_URL/" --bootstrap-internal-url "$OS_AUTH_URL/" \
            --bootstrap-public-url "$OS_AUTH_URL/" --bootstrap-region-id RegionOne; } \
        >"$OS_DIR/log/keystone-manage.out" 2>&1 || {
        _os_err "keystone-manage failed (see log/keystone-manage.out, log/keystone-keys.out)"
        return 1
    }
    _os_spawn keystone "$OS_PY" "$OS_LIB/wsgi_run.py" keystone "${OS_PORT[keystone]}" "$e/keystone.conf"

    _os_wait_port keystone "${OS_PORT[keystone]}" 60 || return 1
    "$OS_PY" "$OS_LIB/os_setup.py" identity "$OS_DIR/state" || return 1
    wait "$other_db" || { _os_err "database migration failed (see log/db-sync.out)"; return 1; }
    wait "$neutron_db" || { _os_err "neutron-db-manage failed (see log/neutron-db-manage.out)"; return 1; }
    tap_note "openstack: databases, keystone bootstrap and identity setup $((SECONDS - step_t0)) s"

    step_t0=$SECONDS
    _os_wait_port rabbitmq "${OS_PORT[rabbit]}" 60 || return 1
    _os_spawn placement "$OS_PY" "$OS_LIB/wsgi_run.py" placement "${OS_PORT[placement]}" "$e/placement.conf"
    _os_spawn glance-api "$OS_DIR/bin/glance-api" --config-file "$e/glance-api.conf"
    local s
    for s in conductor scheduler compute api; do
        _os_spawn "nova-$s" "$OS_DIR/bin/nova-$s" --config-file "$e/nova.conf"
    done
    _os_spawn neutron-server "$OS_DIR/bin/neutron-server" \
        --config-file "$e/neutron.conf"
    _os_wait_port placement "${OS_PORT[placement]}" 60 &&
        _os_wait_port glance "${OS_PORT[glance]}" 120 &&
        _os_wait_port nova-api "${OS_PORT[nova]}" 180 &&
        _os_wait_port neutron "${OS_PORT[neutron]}" 180 || return 1
    "$OS_PY" "$OS_LIB/os_setup.py" compute "$OS_DIR/state" || return 1
    "$OS_DIR/bin/nova-manage" --config-file "$e/nova.conf" cell_v2 discover_hosts \
        >>"$OS_DIR/log/db-sync.out" 2>&1 || { _os_err "nova-manage cell_v2 discover_hosts failed"; return 1; }
    tap_note "openstack: services up, compute discovered $((SECONDS - step_t0)) s"
    _os_write_credentials
}

_os_adopt_shared() {
    local v
    for v in OS_DIR OS_AUTH_URL OS_PASSWORD_FILE OS_APPCRED_FILE OS_IMAGE_ID OS_FLAVOR OS_NOWHERE_FLAVOR \
        OS_INSTANCE_QUOTA OS_START_SECONDS; do
        [ -n "${!v:-}" ] || { _os_err "OS_SHARED=1 but $v is not set (start it with tests/openstack/run-all.sh)"; return 1; }
    done
    if ! curl -sf -o /dev/null "$OS_AUTH_URL"; then
        _os_err "the shared cloud does not answer at $OS_AUTH_URL"
        return 1
    fi
    tap_note "openstack: using the shared cloud at $OS_AUTH_URL ($OS_DIR), up in $OS_START_SECONDS s"
}

openstack_start() {
    local t0=$SECONDS
    if [ "${OS_SHARED:-}" = 1 ]; then
        _os_adopt_shared
        return
    fi
    OS_DIR=$(mktemp -d "${BURST_SCRATCH:-/tmp}/slurm-burst-openstack.XXXXXX") || return 1
    chmod 755 "$OS_DIR"
    trap 'openstack_stop $?' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    local ports
    ports=$(ports_claim $$ openstack "${#OS_PORT_NAMES[@]}") || return 1
    declare -gA OS_PORT=()
    local i=0 p
    for p in $ports; do
        OS_PORT[${OS_PORT_NAMES[$i]}]=$p
        i=$((i + 1))
    done
    OS_DB_PASSWORD=$(openssl rand -hex 12)
    OS_SERVICE_PASSWORD=$(openssl rand -hex 12)
    OS_ADMIN_PASSWORD=$(openssl rand -hex 12)
    OS_DEMO_PASSWORD=$(openssl rand -hex 12)
    OS_INSTANCE_QUOTA=${OS_INSTANCE_QUOTA:-3}
    OS_AUTH_URL=http://127.0.0.1:${OS_PORT[keystone]}/v3
    OS_PASSWORD_FILE=$OS_DIR/demo-password.cred
    OS_APPCRED_FILE=$OS_DIR/demo-appcred.cred
    OS_FLAVOR=burst.small
    OS_NOWHERE_FLAVOR=burst.nowhere
    mkdir -p "$OS_DIR/state"
    local port_list=""
    for p in "${OS_PORT_NAMES[@]}"; do port_list+="$p=${OS_PORT[$p]} "; done
    (
        umask 077
        OS_PORT_LIST=$port_list OS_ADMIN_PASSWORD=$OS_ADMIN_PASSWORD OS_SERVICE_PASSWORD=$OS_SERVICE_PASSWORD \
            OS_DEMO_PASSWORD=$OS_DEMO_PASSWORD "$OS_PY" -c '
import json, os, sys
e = os.environ
json.dump({"ports": {k: int(v) for k, v in (w.split("=") for w in e["OS_PORT_LIST"].split())},
           "admin_password": e["OS_ADMIN_PASSWORD"], "service_password": e["OS_SERVICE_PASSWORD"],
           "demo_password": e["OS_DEMO_PASSWORD"], "demo_instance_quota": int(sys.argv[2])},
          open(sys.argv[1], "w"))' "$OS_DIR/state/setup.json" "$OS_INSTANCE_QUOTA"
    )
    export OS_DIR OS_AUTH_URL OS_PASSWORD_FILE OS_APPCRED_FILE OS_FLAVOR OS_NOWHERE_FLAVOR OS_INSTANCE_QUOTA
    if ! _os_bring_up; then
        _os_err "bring-up failed after $((SECONDS - t0)) s; logs in $OS_DIR/log"
        OS_KEEP_LOGS=1
        return 1
    fi
    export OS_IMAGE_ID
    OS_START_SECONDS=$((SECONDS - t0))
    export OS_START_SECONDS
    tap_note "openstack: up in $OS_START_SECONDS s at $OS_AUTH_URL ($OS_DIR)"
}

openstack_project() { # NAME QUOTA
    local name=$1 quota=$2 js=$OS_DIR/state/setup.json
    "$OS_PY" "$OS_LIB/os_setup.py" project "$OS_DIR/state" "$name" "$quota" || return 1
    OS_PROJECT_APPCRED_FILE=$OS_DIR/$name-appcred.cred
    (
        umask 077
        "$OS_PY" - "$js" "$name" "$OS_AUTH_URL" >"$OS_PROJECT_APPCRED_FILE" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["projects"][sys.argv[2]]
print("# Application credential of the test cloud's project %s" % sys.argv[2])
print("AuthUrl=%s" % sys.argv[3])
print("AuthType=application_credential")
print("ApplicationCredentialId=%s" % p["app_credential_id"])
print("ApplicationCredentialSecret=%s" % p["app_credential_secret"])
PY
    ) || return 1
    export OS_PROJECT_APPCRED_FILE
}

openstack_stop() {
    local status=${1:-0} f pid deadline
    [ "${OS_SHARED:-}" != 1 ] || return 0
    [ -n "${OS_DIR:-}" ] && [ -d "$OS_DIR/run" ] || return 0
    for f in "$OS_DIR"/run/*.pid; do
        [ -e "$f" ] || continue
        pid=$(<"$f")
        kill -TERM -- "-$pid" 2>/dev/null
    done
    deadline=$((SECONDS + ${OS_STOP_TIMEOUT:-20}))
    for f in "$OS_DIR"/run/*.pid; do
        [ -e "$f" ] || continue
        pid=$(<"$f")
        while kill -0 -- "-$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.25; done
        kill -KILL -- "-$pid" 2>/dev/null
        rm -f "$f"
    done
    ports_release $$ openstack
    if [ "$status" != 0 ] || [ "${TAP_FAILED:-0}" != 0 ] || [ -n "${OS_KEEP_LOGS:-}" ] || [ -n "${KEEP_OPENSTACK:-}" ]; then
        echo "# openstack: kept $OS_DIR (logs in $OS_DIR/log)" >&2
    else
        rm -rf "$OS_DIR"
    fi
    OS_DIR=
}
