#!/usr/bin/env bash
# Build and install Citus against the system's PostgreSQL when it is missing (make citus).
#
# The scale tests (make test-scale) and the Citus benchmark (make bench-citus) start a coordinator
# and two workers as private clusters; they need citus.so in the system PostgreSQL's library
# directory. This builds it from a Citus source tarball (CITUS_TARBALL, by default the one next
# to the repository) and installs the Debian packages the build needs when run as root.
#
# In production, install Citus from Citus's own packages (docs/scaling.md), not with this script.
set -euo pipefail

CITUS_VERSION="${CITUS_VERSION:-12.1.12}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# The tarball: CITUS_TARBALL, else the vendored one in a shared/vendor folder beside the checkout
# or beside the folder that holds it (a clone made inside a folder of clones).
if [ -z "${CITUS_TARBALL:-}" ]; then
    CITUS_TARBALL="$REPO/../shared/vendor/citus-$CITUS_VERSION.tar.gz"
    for candidate in "$REPO/../shared/vendor" "$REPO/../../shared/vendor"; do
        if [ -f "$candidate/citus-$CITUS_VERSION.tar.gz" ]; then
            CITUS_TARBALL="$candidate/citus-$CITUS_VERSION.tar.gz"
            break
        fi
    done
fi

# The system's PostgreSQL: the newest server installed (the one the tests' private clusters run).
PG_MAJOR="${PG_MAJOR:-$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -n 1 | cut -d/ -f5)}"
PG_MAJOR="${PG_MAJOR:-15}"
BUILD_DEPS="postgresql-server-dev-$PG_MAJOR libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libselinux1-dev libxslt1-dev libpam0g-dev make gcc"
missing_deps() {
    local pkg
    for pkg in $BUILD_DEPS; do
        dpkg -s "$pkg" >/dev/null 2>&1 || printf '%s\n' "$pkg"
    done
}

# --missing-build-deps: print the Debian packages a build would install first (none when Citus is
# installed or there is no tarball to build), so that one apt-get run installs them with the
# packages the other tests need (make packages).
if [ "${1:-}" = "--missing-build-deps" ]; then
    [ -f "/usr/lib/postgresql/$PG_MAJOR/lib/citus.so" ] || [ ! -f "$CITUS_TARBALL" ] || missing_deps
    exit 0
fi

if [ -f "/usr/lib/postgresql/$PG_MAJOR/lib/citus.so" ]; then
    echo "Citus is installed for PostgreSQL $PG_MAJOR (/usr/lib/postgresql/$PG_MAJOR/lib/citus.so)"
    exit 0
fi

if [ ! -f "$CITUS_TARBALL" ]; then
    cat >&2 <<MSG
Citus is not installed and its source tarball is not at
  $CITUS_TARBALL
Install Citus $CITUS_VERSION from Citus's own packages (https://docs.citusdata.com/en/stable/installation/),
or point CITUS_TARBALL at a Citus source tarball (git archive of a v12.1 tag) and run make citus again.
MSG
    # make test-scale goes on without it (CITUS_OPTIONAL=1): the Citus tests then skip, saying why.
    [ "${CITUS_OPTIONAL:-0}" = 1 ] && exit 0
    exit 1
fi

missing="$(missing_deps | tr '\n' ' ')"
missing="${missing% }"
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
    else
        echo "Building Citus needs: $missing -- sudo apt-get install -y $missing" >&2
        exit 1
    fi
fi
PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config"

BUILD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/citus-build.XXXXXX")"
trap 'rm -rf "$BUILD_DIR"' EXIT
tar -xzf "$CITUS_TARBALL" -C "$BUILD_DIR"
SRC="$(find "$BUILD_DIR" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
[ -n "$SRC" ] || SRC="$BUILD_DIR"
[ -f "$SRC/configure" ] || SRC="$BUILD_DIR"
cd "$SRC"
echo "Building Citus $CITUS_VERSION against $("$PG_CONFIG" --version) in $SRC"
./configure --quiet PG_CONFIG="$PG_CONFIG"
# The same machine code with less compile work, which a fresh machine's CI spends beside the backend
# suite: no debug information (COPT=-g0 after PostgreSQL's -g) and no LLVM bitcode for the JIT to
# inline Citus's own functions (with_llvm=no; PostgreSQL's JIT still compiles queries): 108 -> 59
# CPU seconds here. Citus's own packages (production, docs/scaling.md) are not built this way.
LIGHT_BUILD=(COPT=-g0 with_llvm=no)
make -s -j"${CITUS_BUILD_JOBS:-$(nproc)}" "${LIGHT_BUILD[@]}"
if [ "$(id -u)" = 0 ]; then make -s install "${LIGHT_BUILD[@]}"; else sudo make -s install "${LIGHT_BUILD[@]}"; fi
echo "Citus installed: $("$PG_CONFIG" --pkglibdir)/citus.so"
