#!/bin/bash
# Builds a Slurm release that Debian 12 does not package (24.11, Debian 13's)
# from Debian's upstream source tarball into a private prefix, for a one-host
# test cluster and for building slurm-burst's plugins against it.  Only the
# upstream tarball is used (Debian's own patches and packaging are not), and no
# binary package of the newer Debian release is ever installed: the apt entry
# this adds is deb-src only.  Idempotent: once built (a stamp file in the
# prefix), a second run only prints the paths and needs no network.  Run as root.
#
#   scripts/build-slurm.sh [SERIES]                        (default 24.11)
#
# Environment:
#   SLURM_PREFIX    install prefix (default /opt/slurm-SERIES); slurm.conf etc.
#                   are looked for in PREFIX/etc
#   SLURM_SRC_ROOT  where the source tree is unpacked and built, kept configured
#                   for --with-slurm-source= (default /var/cache/slurm-burst/slurm-src)
#   SLURM_SUITE     Debian suite whose source to use (default: by SERIES)
#   JOBS            parallel make jobs (default: the number of CPUs)
#   SLURM_BUILD_ALL=1  build and install the whole tree instead of the subset
#                   a test cluster needs (see "what is built" below)
#
# Prints the prefix and the configured source directory on its last two lines
# ("slurm-prefix: DIR", "slurm-source: DIR").
set -euo pipefail

series=${1:-24.11}
case $series in
  24.11) default_suite=trixie ;;
  *) echo "build-slurm: no Debian suite known for Slurm $series (set SLURM_SUITE)" >&2
     [ -n "${SLURM_SUITE:-}" ] || exit 1 ;;
esac
suite=${SLURM_SUITE:-$default_suite}
prefix=${SLURM_PREFIX:-/opt/slurm-$series}
src_root=${SLURM_SRC_ROOT:-/var/cache/slurm-burst/slurm-src}
jobs=${JOBS:-$(nproc)}
export DEBIAN_FRONTEND=noninteractive

die() { echo "build-slurm: $*" >&2; exit 1; }

# One build at a time per prefix (a second caller waits, then finds the stamp).
mkdir -p "$src_root" "$(dirname "$prefix")"
exec 9>"$src_root/.build-slurm-$series.lock"
flock 9

# What is built: libslurm/libslurmfull, the daemons (slurmctld, which brings
# slurmscriptd; slurmd with slurmstepd; slurmdbd), the headers, the client
# commands the tests use and the plugin types a one-host test cluster loads
# (24.11's slurmctld exits when it finds no mpi plugin at all, whatever
# MpiDefault says).  Left out: sackd, sbcast, scrontab, strigger, scrun,
# slurmrestd, sview, the docs and these plugin types, none of which such a
# cluster configures (their "none" variants are built in): acct_gather_*,
# burst_buffer, certmgr, cli_filter, data_parser (only the clients'
# --json/--yaml), job_container, jobcomp, mcs, node_features, site_factor,
# switch.  SLURM_BUILD_ALL=1 builds everything instead.  A prefix built with
# another list is completed (make is incremental).
plugin_types=(accounting_storage auth cgroup cred gpu gres hash jobacct_gather job_submit
  mpi preempt prep priority proctrack sched select serializer task tls topology)
commands=(sacct sacctmgr salloc sattach sbatch scancel scontrol sdiag sinfo sprio squeue
  sreport srun sshare sstat)
parts="plugins: ${plugin_types[*]}; commands: ${commands[*]}"
[ "${SLURM_BUILD_ALL:-0}" != 1 ] || parts=all

stamp=$prefix/.slurm-burst-built
if [ -f "$stamp" ] && [ "$(sed -n 's/^parts=//p' "$stamp")" != "$parts" ]; then
  echo "build-slurm: $prefix was built with other parts than these: completing it"
elif [ -f "$stamp" ]; then
  src_dir=$(sed -n 's/^source=//p' "$stamp")
  if [ -f "$src_dir/config.h" ] && [ -f "$src_dir/src/slurmctld/slurmctld.h" ]; then
    echo "build-slurm: Slurm $(sed -n 's/^version=//p' "$stamp") already built ($stamp)"
    echo "slurm-prefix: $prefix"
    echo "slurm-source: $src_dir"
    exit 0
  fi
  echo "build-slurm: $stamp names source $src_dir, which is gone: rebuilding"
fi

# Build dependencies.  munge, MariaDB (slurmdbd's accounting_storage/mysql) and
# json-c (serializer/json: SLURM_RESUME_FILE and --json output) are the only
# optional libraries used; slurmrestd, cgroup/v2 (dbus), hwloc, PAM, Lua, NVML
# and the like are not built.
packages=(build-essential pkg-config dpkg-dev munge libmunge-dev libmariadb-dev
  libjson-c-dev libreadline-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "build-slurm: installing ${missing[*]}"
  apt-get update -q >/dev/null || die "apt-get update failed"
  apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

# A deb-src entry for $suite, derived from the apt source that provides this
# machine's own Debian release (never a hard-coded host): that deb822 stanza,
# or sources.list line, is copied with its type changed to deb-src and its
# suite to $suite, so Signed-By and other options stay consistent.  deb-src only: no $suite binary is ever a
# candidate for installation.
srclist=/etc/apt/sources.list.d/slurm-burst-$suite-src
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "cannot tell this machine's Debian release (VERSION_CODENAME in /etc/os-release)"
if [ ! -s "$srclist.sources" ] && [ ! -s "$srclist.list" ]; then
  uri=$(apt-cache policy base-files | awk -v c="$codename" \
    '$1 ~ /^[0-9]+$/ && $2 ~ /:\/\// && $3 ~ ("^" c "/") && $NF == "Packages" && !u { u = $2 } END { print u }')
  [ -n "$uri" ] || die "cannot tell which apt source provides Debian $codename (apt-cache policy base-files)"
  uri=${uri%/}
  entry='' format=sources
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && [ -z "$entry" ] || continue
    entry=$(awk -v uri="$uri" -v codename="$codename" -v suite="$suite" 'BEGIN { RS = "" }
      function field(name,   s) { if (!match($0, "(^|\n)" name ":[^\n]*")) return ""
                                  s = substr($0, RSTART, RLENGTH); sub("^\n?" name ":[ \t]*", "", s); return " " s " " }
      /(^|\n)Types:([^\n]*[ \t])?deb([ \t][^\n]*)?(\n|$)/ && !done {
        u = field("URIs"); gsub(/\/ /, " ", u)
        if (index(u, " " uri " ") == 0 || index(field("Suites"), " " codename " ") == 0) next
        gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); gsub(/(^|\n)Suites:[^\n]*/, "\nSuites: " suite)
        gsub(/(^|\n)Components:[^\n]*/, "\nComponents: main"); gsub(/(^|\n)#[^\n]*/, "")
        sub(/^\n/, ""); print; done = 1 }' "$f")
  done
  if [ -z "$entry" ]; then
    # one-line entries go to their own .list so the two formats never mix
    format=list
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -f "$f" ] && [ -z "$entry" ] || continue
      entry=$(awk -v uri="$uri" -v codename="$codename" -v suite="$suite" '
        $1 == "deb" && !done {
          i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
          u = $i; sub(/\/$/, "", u)
          if (u != uri || $(i + 1) != codename) next
          $1 = "deb-src"; $(i + 1) = suite; NF = i + 2; $NF = "main"; print; done = 1 }' "$f")
    done
  fi
  [ -n "$entry" ] || die "found no apt entry for $uri $codename to derive a deb-src entry for $suite from"
  printf '%s\n' "$entry" >"$srclist.$format.tmp"
  mv "$srclist.$format.tmp" "$srclist.$format"
  echo "build-slurm: added $srclist.$format:"
  sed 's/^/  /' "$srclist.$format"
fi
if [ -s "$srclist.sources" ]; then srclist=$srclist.sources; else srclist=$srclist.list; fi
# Refresh only this entry's index (the rest of apt's lists are left alone).
apt-get update -q -o Dir::Etc::sourcelist="$srclist" -o Dir::Etc::sourceparts=- \
  -o APT::Get::List-Cleanup=0 >/dev/null || die "apt-get update of $srclist failed"

# The newest slurm-wlm source of the suite, and its upstream version.
deb_version=$(apt-cache showsrc slurm-wlm | awk -v s="$series" '
  /^Package:/ { p = $2 } /^Version:/ && p == "slurm-wlm" && index($2, s ".") == 1 { print $2 }' |
  sort -V | tail -n1)
[ -n "$deb_version" ] || die "no slurm-wlm $series source in $suite (apt-cache showsrc slurm-wlm, entry $srclist)"
version=${deb_version#*:}; version=${version%-*}
tarball=slurm-wlm_$version.orig.tar.gz
src_dir=$src_root/$version

# Only the upstream tarball is needed: if the Debian revision's own files
# cannot be fetched (mirrors may lack them), the tarball is still taken once
# its SHA-256 matches the signed Sources index.
if [ ! -s "$src_root/$tarball" ]; then
  work=$(mktemp -d "$src_root/.download.XXXXXX")
  chmod 0755 "$work"   # apt drops privileges to _apt for the download
  trap 'rm -rf "$work"' EXIT
  echo "build-slurm: downloading slurm-wlm $deb_version source from $suite"
  (cd "$work" && apt-get source -q --download-only "slurm-wlm=$deb_version" >download.log 2>&1) ||
    { grep -E '^(E|W|Err):' "$work/download.log" | sed 's/^/  /' >&2
      echo "build-slurm: apt-get source slurm-wlm=$deb_version failed (above); taking its $tarball if it came" >&2; }
  [ -s "$work/$tarball" ] || { cat "$work/download.log" >&2; die "apt-get source did not fetch $tarball"; }
  # apt checked it already; check again against the signed index, as it may have failed half-way
  want=$(apt-cache showsrc slurm-wlm | awk -v v="$deb_version" -v t="$tarball" '
    /^Version:/ { ok = ($2 == v) } /^Checksums-Sha256:/ { c = 1; next } /^[^ ]/ { c = 0 }
    ok && c && $3 == t && !w { w = $1 } END { print w }')
  [ -n "$want" ] && [ "$(sha256sum <"$work/$tarball" | cut -d' ' -f1)" = "$want" ] ||
    die "$tarball does not match the SHA-256 in $suite's Sources index (${want:-none found})"
  mv "$work/$tarball" "$src_root/$tarball"
  rm -rf "$work"; trap - EXIT
fi

# Unpack and configure (again, if a previous run stopped half-way).
if [ ! -f "$src_dir/.configured" ]; then
  rm -rf "$src_dir" "$src_dir.tmp"
  mkdir "$src_dir.tmp"
  tar -xzf "$src_root/$tarball" -C "$src_dir.tmp" --strip-components=1 ||
    die "unpacking $src_root/$tarball failed"
  mv "$src_dir.tmp" "$src_dir"
  echo "build-slurm: configuring Slurm $version in $src_dir for $prefix"
  # --enable-multiple-slurmd: several slurmd on one host (NodeName=.. Port=..).
  # Everything a test cluster writes stays under the prefix unless slurm.conf says otherwise.
  (cd "$src_dir" && nice -n 19 ./configure --prefix="$prefix" --sysconfdir="$prefix/etc" \
    --localstatedir="$prefix/var" --runstatedir="$prefix/run" \
    --disable-debug --disable-static --enable-multiple-slurmd --with-munge --with-json \
    --without-hwloc --without-pmix --without-ucx --without-nvml --without-rsmi \
    --without-jwt --without-http-parser --without-yaml --without-lua --without-bpf \
    --disable-slurmrestd --disable-pam --disable-x11 --disable-sview \
    SUCMD=/bin/su SLEEP_CMD=/bin/sleep >configure.log 2>&1) ||
    { tail -n 20 "$src_dir/configure.log" >&2; die "configuring Slurm failed, see $src_dir/configure.log"; }
  # configure only warns when an optional library is missing; these are not optional here.
  for need in HAVE_MYSQL HAVE_JSON; do
    grep -q "^#define $need 1" "$src_dir/config.h" ||
      die "configure did not enable $need (see $src_dir/configure.log)"
  done
  grep -q 'S\["WITH_MUNGE_TRUE"\]=""' "$src_dir/config.status" ||
    die "configure did not find munge (see $src_dir/configure.log)"
  touch "$src_dir/.configured"
fi

build() { # make target, directory under the source tree
  local t0=$SECONDS
  nice -n 19 make -C "$src_dir/$2" -j"$jobs" "$1" >>"$src_dir/build.log" 2>&1 ||
    { tail -n 30 "$src_dir/build.log" >&2; die "make -C $2 $1 failed in $src_dir, see $src_dir/build.log"; }
  echo "build-slurm: make -C ${2#./} $1: $((SECONDS - t0)) s"
}
: >"$src_dir/build.log"
start=$SECONDS
if [ "${SLURM_BUILD_ALL:-0}" = 1 ]; then
  build install .
else
  build install-pkgincludeHEADERS .
  # src/api builds the convenience libraries (common, interfaces, conmgr, ...) itself
  for d in src/api src/database; do build install "$d"; done
  for t in "${plugin_types[@]}"; do build install "src/plugins/$t"; done
  for d in src/slurmctld src/slurmd src/slurmdbd "${commands[@]/#/src/}"; do build install "$d"; done
fi
echo "build-slurm: built and installed in $((SECONDS - start)) s (make -j$jobs, nice 19)"

for f in sbin/slurmctld sbin/slurmd sbin/slurmdbd sbin/slurmstepd bin/scontrol bin/squeue \
         bin/sbatch bin/srun bin/sacct bin/sacctmgr bin/sshare bin/sinfo bin/scancel bin/sdiag; do
  [ -x "$prefix/$f" ] || die "$prefix/$f was not installed (see $src_dir/build.log)"
done
printf 'version=%s\nsource=%s\ndebian=%s %s\nparts=%s\n' "$version" "$src_dir" "$suite" "$deb_version" "$parts" >"$stamp"
echo "slurm-prefix: $prefix"
echo "slurm-source: $src_dir"
