#!/bin/bash
# Installs every build and test dependency of slurm-burst on Debian 12 and prepares
# a configured Slurm source tree matching the installed slurm-wlm, for the plugin's
# internal headers (config.h, src/slurmctld/*.h).  Also installs the AWS SDK for
# JavaScript pinned by tests/providers/aws-sdk-oracle/package-lock.json (npm ci,
# from the npm registry).  Idempotent: a second run only verifies, and needs no
# network.  The OpenStack test's own packages (about 730 MB) are not installed
# here: tests/openstack installs them on first use.  Run as root.
#
#   scripts/install-deps.sh [SLURM_SRC_ROOT]     (default /var/cache/slurm-burst/slurm-src)
#
# Prints the configured source directory on its last line ("slurm-source: DIR").
set -euo pipefail

src_root=${1:-/var/cache/slurm-burst/slurm-src}
export DEBIAN_FRONTEND=noninteractive

packages=(
  # build
  build-essential autoconf autoconf-archive automake libtool pkg-config dpkg-dev
  libcurl4-openssl-dev libjansson-dev libssl-dev libsqlite3-dev libboost-dev
  libxml2-dev libcpputest-dev
  # Slurm: daemons for the test cluster, headers and libslurm for the plugin and actuator
  slurmctld slurmd slurm-client slurmdbd munge libmunge-dev libslurm-dev
  slurm-wlm-basic-plugins slurm-wlm-basic-plugins-dev mariadb-server
  # test tooling: the scripts use GNU awk, the HTTPS stand-in servers
  # (tests/providers/*.py) python3-cryptography and openssl for their test CA,
  # the AWS SDK oracle node and npm (below)
  iproute2 procps perl bc python3 python3-cryptography sqlite3 curl gawk openssl ca-certificates
  # the Debian packages (tests/package)
  debhelper lintian
)
# Debian's nodejs and npm, unless a node with its npm is installed already
# (NodeSource's nodejs bundles npm and conflicts with Debian's npm package).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# The package installs enable and (where systemd runs) start the system's own
# munge/slurm/mariadb services; tests run private instances, so nothing here
# relies on or touches those.

# shellcheck source=../tests/providers/lib/aws_sdk_oracle.sh
source "$(dirname "$0")/../tests/providers/lib/aws_sdk_oracle.sh"
if ! aws_sdk_oracle_install; then
  tail -n 20 /tmp/slurm-burst-npm.log >&2
  echo "install-deps: npm ci in $AWS_SDK_ORACLE_DIR failed (log: /tmp/slurm-burst-npm.log)" >&2
  exit 1
fi

slurm_version=$(dpkg-query -W -f='${Version}' slurmctld)
src_dir=$src_root/$slurm_version
if [ -f "$src_dir/.configured" ]; then
  echo "slurm-source: $src_dir"
  exit 0
fi

# deb-src entries derived from the apt sources that provide slurmctld (never a
# hard-coded host): those stanzas/lines are copied with only their type changed,
# so their Signed-By and other options stay consistent.
srclist=/etc/apt/sources.list.d/slurm-burst-src.sources
if [ ! -s "$srclist" ]; then
  uris=$(apt-cache policy slurmctld | awk '$1 ~ /^[0-9]+$/ && $2 ~ /:\/\// && $NF == "Packages" { print $2 }' | sort -u)
  [ -n "$uris" ] || { echo "install-deps: cannot tell which apt source provides slurmctld (apt-cache policy slurmctld)" >&2; exit 1; }
  {
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] && [ "$f" != "$srclist" ] || continue
      awk -v uris="$uris" 'BEGIN { RS = ""; n = split(uris, u, "\n"); for (i = 1; i <= n; i++) { sub(/\/$/, "", u[i]); want[u[i]] = 1 } }
        /(^|\n)Types:[^\n]*\<deb\>/ {
          if (!match($0, /(^|\n)URIs:[^\n]*/)) next
          line = substr($0, RSTART, RLENGTH); sub(/^\n?URIs:[ \t]*/, "", line)
          hit = 0; m = split(line, l, /[ \t]+/); for (i = 1; i <= m; i++) { x = l[i]; sub(/\/$/, "", x); if (x in want) hit = 1 }
          if (!hit) next
          gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print $0 "\n" }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] || continue
      awk -v uris="$uris" 'BEGIN { n = split(uris, u, "\n"); for (i = 1; i <= n; i++) { sub(/\/$/, "", u[i]); want[u[i]] = 1 } }
        $1 == "deb" { uri = ($2 ~ /^\[/) ? "" : $2
                      if (uri == "") for (i = 2; i <= NF; i++) if ($i ~ /\]$/) { uri = $(i + 1); break }
                      sub(/\/$/, "", uri)
                      if (uri in want) { sub(/^deb/, "deb-src"); print } }' "$f" > "$f.burst-src.tmp"
      if [ -s "$f.burst-src.tmp" ]; then
        # one-line entries go to their own .list so the two formats never mix
        mv "$f.burst-src.tmp" /etc/apt/sources.list.d/slurm-burst-src-$(basename "$f" .list).list
      else rm -f "$f.burst-src.tmp"; fi
    done
  } > "$srclist.tmp"
  mv "$srclist.tmp" "$srclist"
  apt-get update -q >/dev/null
fi

work=$(mkdir -p "$src_root" && mktemp -d "$src_root/.download.XXXXXX")
chmod 0755 "$work"   # apt drops privileges to _apt for the download
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -qq --download-only "slurm-wlm=$slurm_version" >/dev/null)
rm -rf "$src_dir"
# apt verified the .dsc and tarballs against the signed Sources index; dpkg-source
# only warns that no Debian keyring is installed to re-check the .dsc signature.
dpkg-source -x "$work"/slurm-wlm_*.dsc "$src_dir" >/dev/null 2>&1

# Debian's flags (debian/rules); only config.h and slurm/slurm_version.h are
# needed, so configure runs without creating Makefiles.
(
  cd "$src_dir"
  ./configure --no-create --no-recursion --prefix=/usr --sysconfdir=/etc/slurm \
    --libdir=/usr/lib/x86_64-linux-gnu --localstatedir=/var --runstatedir=/run \
    --disable-debug --enable-multiple-slurmd --without-rpath --with-munge \
    SUCMD=/bin/su SLEEP_CMD=/bin/sleep >configure.log 2>&1
  ./config.status config.h slurm/slurm_version.h >>configure.log 2>&1
) || { echo "install-deps: configuring the Slurm source failed, see $src_dir/configure.log" >&2; exit 1; }
touch "$src_dir/.configured"
echo "slurm-source: $src_dir"
