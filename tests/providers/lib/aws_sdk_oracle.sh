# shellcheck shell=bash
# Sourced by tests/providers/test_aws_sdk_oracle.sh and scripts/install-deps.sh.
# aws_sdk_oracle_install installs the AWS SDK for JavaScript that
# aws-sdk-oracle/ pins in its package-lock.json (npm ci into
# aws-sdk-oracle/node_modules), unless the lock file it last installed is the
# current one: then it does nothing and needs no network.  npm's output goes
# to /tmp/slurm-burst-npm.log.  Returns non-zero if node or npm is missing or
# npm ci failed.
AWS_SDK_ORACLE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../aws-sdk-oracle" && pwd)

aws_sdk_oracle_install() {
    local dir=$AWS_SDK_ORACLE_DIR
    # The stamp is the lock file npm ci last installed, so a changed lock reinstalls.
    local stamp=$dir/node_modules/.slurm-burst-installed-lock
    command -v node >/dev/null && command -v npm >/dev/null || return 1
    cmp -s "$dir/package-lock.json" "$stamp" && return 0
    (cd "$dir" && npm ci --no-audit --no-fund >/tmp/slurm-burst-npm.log 2>&1 && cp package-lock.json "$stamp")
}
