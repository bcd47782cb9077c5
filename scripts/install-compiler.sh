#!/usr/bin/env bash
# Installs the C++ compiler that builds cardroom's compiled rules core (native/, C++20) when it is
# missing: Debian's g++. CMake, Ninja and nanobind come from PyPI with the build itself. Idempotent and
# quiet. Without a compiler the package still installs (pure Python), so this only warns when it cannot
# install one; `make test` then fails on the missing core (CARDROOM_REQUIRE_NATIVE). Debian/Ubuntu
# (apt-get), as root or with sudo.
set -euo pipefail

command -v g++ >/dev/null 2>&1 && exit 0

warn() {
    echo "install-compiler.sh: $1; cardroom installs without its compiled core (apt-get install g++)" >&2
    exit 0
}

command -v apt-get >/dev/null 2>&1 || warn "no apt-get here"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || warn "not root and no sudo"
    sudo=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null || warn "apt-get update failed"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends g++ >/dev/null || warn "apt-get install g++ failed"
