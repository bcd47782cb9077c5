#!/usr/bin/env bash
# Installs PostgreSQL's server programs (initdb, pg_ctl, postgres) from Debian's `postgresql` package
# when they are missing, for the store tests' throwaway cluster (tests/server/postgres.py).
# Idempotent and quiet: does nothing when initdb is on PATH or in /usr/lib/postgresql/*/bin.
set -euo pipefail

found() {
    command -v initdb >/dev/null 2>&1 && return 0
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null
}

if found; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: initdb not found and apt-get is missing; install PostgreSQL's server by hand" >&2
    exit 1
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "install-postgres: initdb not found; run this script as root (or with sudo) to install it" >&2
        exit 1
    fi
    sudo=(sudo)
fi

echo "install-postgres: installing Debian's postgresql package" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "${sudo[@]}" apt-get update -qq \
    && "${sudo[@]}" apt-get install -y -qq --no-install-recommends postgresql; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-postgres: apt-get failed" >&2
    exit 1
fi

if ! found; then
    echo "install-postgres: installed postgresql, but initdb is still not found" >&2
    exit 1
fi
