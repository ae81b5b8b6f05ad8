#!/bin/bash
# burstd's EC2 requests against the official AWS SDK for JavaScript
# (aws-sdk-oracle/oracle.mjs explains the four checks).  Installs the pinned
# SDK from package-lock.json with npm ci on first use.  Prints TAP-style lines.
# Usage: test_aws_sdk_oracle.sh [BUILDDIR]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
builddir=${1:-${BURST_BUILDDIR:-$(cd "$here/../.." && pwd)}}
check=$builddir/tests/providers/ec2-sign-check
if [ ! -x "$check" ]; then
    echo "not ok - ec2-sign-check is built # missing $check (run make in $builddir)"
    exit 1
fi
oracle=$here/aws-sdk-oracle
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "not ok - node and npm are installed"
    exit 1
fi
# The stamp is the lock file npm ci last installed, so a changed lock reinstalls.
stamp=$oracle/node_modules/.slurm-burst-installed-lock
if ! cmp -s "$oracle/package-lock.json" "$stamp"; then
    if ! (cd "$oracle" && npm ci --no-audit --no-fund >/tmp/slurm-burst-npm.log 2>&1 &&
        cp package-lock.json "$stamp"); then
        echo "not ok - npm ci installs the AWS SDK for JavaScript"
        sed 's/^/#   /' /tmp/slurm-burst-npm.log | tail -n 20
        exit 1
    fi
fi
echo "# AWS SDK for JavaScript $(cd "$oracle" && node -p 'require("@aws-sdk/client-ec2/package.json").version')"
cd "$oracle" && NODE_NO_WARNINGS=1 node oracle.mjs "$check"
