# Sourced by tests/providers/test_scale_burst.sh and bench/resume_burst.sh.
#
#   start_cloud_server DIR NAME [SERVER-ARGS...]
#
# Starts tests/providers/cloud_tls_server.py (GCE, Azure and Nova over HTTPS
# on loopback) with the test CA in DIR (make_test_ca DIR first) and the
# SERVER-ARGS, logging to DIR/NAME.log, and writes the credentials it accepts:
# DIR/NAME-gcp-key.json, DIR/NAME-azure.cred, DIR/NAME-openstack.cred.  Sets
# CLOUD_ORIGIN (https://127.0.0.1:PORT), CLOUD_PID (set even when it fails:
# stop it), and CLOUD_GCP,
# CLOUD_OPENSTACK and CLOUD_AZURE: the keys of a burstd.conf Provider= line
# for each cloud of that server ("Provider=NAME $CLOUD_GCP MoreKeys=...").
# Returns non-zero, with the server's errors on stderr, when it does not start.
_cloud_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

start_cloud_server() {
    local dir=$1 name=$2
    shift 2
    local az_tenant=77777777-7777-7777-7777-777777777777 az_client=11111111-2222-3333-4444-555555555555
    local az_secret='az-Secret~value.1' az_sub=99999999-9999-9999-9999-999999999999 os_password='os-Secret-pass'
    _cloud_sa_key() { # PEM-FILE TOKEN-URI
        python3 -c 'import json,sys; print(json.dumps({"type": "service_account", "project_id": "p",
            "private_key_id": "kid-test-1", "private_key": open(sys.argv[1]).read(),
            "client_email": "burstd@p.iam.gserviceaccount.com", "client_id": "1", "token_uri": sys.argv[2]}))' "$1" "$2"
    }
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/$name-sa.pem" 2>/dev/null || return 1
    _cloud_sa_key "$dir/$name-sa.pem" https://unknown/token >"$dir/$name-server-key.json"
    python3 "$_cloud_here/../cloud_tls_server.py" --cert "$dir/server.pem" --key "$dir/server.key" \
        --fixtures "$_cloud_here/../../data/provider-fixtures" --port-file "$dir/$name.port" --log "$dir/$name.log" \
        --gcp-key "$dir/$name-server-key.json" --azure-tenant $az_tenant --azure-client $az_client \
        --azure-secret "$az_secret" --azure-subscription $az_sub --os-user burstd --os-password "$os_password" \
        --os-project hpc "$@" 2>"$dir/$name.err" &
    CLOUD_PID=$!
    local _
    for _ in $(seq 100); do [ -s "$dir/$name.port" ] && break; sleep 0.1; done
    if [ ! -s "$dir/$name.port" ]; then
        cat "$dir/$name.err" >&2
        return 1
    fi
    CLOUD_ORIGIN=https://127.0.0.1:$(cat "$dir/$name.port")
    _cloud_sa_key "$dir/$name-sa.pem" "$CLOUD_ORIGIN/token" >"$dir/$name-gcp-key.json"
    printf 'TenantId=%s\nClientId=%s\nClientSecret=%s\n' $az_tenant $az_client "$az_secret" >"$dir/$name-azure.cred"
    printf 'AuthUrl=%s/v3\nUsername=burstd\nUserDomainName=Default\nPassword=%s\nProjectName=hpc\nProjectDomainName=Default\n' \
        "$CLOUD_ORIGIN" "$os_password" >"$dir/$name-openstack.cred"
    local subnet=/subscriptions/$az_sub/resourceGroups/hpc/providers/Microsoft.Network/virtualNetworks/v/subnets/burst
    CLOUD_GCP="Type=gcp CredentialsFile=$dir/$name-gcp-key.json Project=p Zones=us-central1-a \
Template=global/instanceTemplates/burst Endpoint=$CLOUD_ORIGIN CaFile=$dir/ca.pem"
    CLOUD_OPENSTACK="Type=openstack CredentialsFile=$dir/$name-openstack.cred Region=RegionOne \
Image=0b1e2e6e-62b1-4b36-8d73-1f2bd3c1c5a2 CaFile=$dir/ca.pem"
    CLOUD_AZURE="Type=azure CredentialsFile=$dir/$name-azure.cred Subscription=$az_sub ResourceGroup=hpc \
Location=eastus Image=Canonical:ubuntu:22_04-lts:latest Subnet=$subnet VmSize=Standard_D4s_v5 \
SshPublicKey=\"ssh-ed25519 AAAAC3Nza burstd\" Endpoint=$CLOUD_ORIGIN LoginEndpoint=$CLOUD_ORIGIN CaFile=$dir/ca.pem"
}
