#!/bin/bash
# burstd's EC2 requests against the official AWS SDK for JavaScript
# (aws-sdk-oracle/oracle.mjs explains the four checks).  scripts/install-deps.sh
# installs the SDK pinned by package-lock.json (npm ci); this installs it too
# if it is missing or the lock changed.  Prints TAP-style lines.
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
    echo "not ok - node and npm are installed (scripts/install-deps.sh)"
    exit 1
fi
# shellcheck source=lib/aws_sdk_oracle.sh
. "$here/lib/aws_sdk_oracle.sh"
if ! aws_sdk_oracle_install; then
    echo "not ok - npm ci installs the AWS SDK for JavaScript"
    sed 's/^/#   /' /tmp/slurm-burst-npm.log | tail -n 20
    exit 1
fi
echo "# AWS SDK for JavaScript $(cd "$oracle" && node -p 'require("@aws-sdk/client-ec2/package.json").version')"
cd "$oracle" && NODE_NO_WARNINGS=1 node oracle.mjs "$check"
