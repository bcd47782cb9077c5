#!/usr/bin/env bash
# Installs what the end-to-end browser tests (tests/server/test_browser.py) need: Debian's chromium,
# driven by the Python playwright package (never `playwright install`, which downloads a browser).
# Also, best effort, a CJK font so that the Chinese labels render in the screenshots (the tests do not
# need it). Idempotent and quiet: does nothing when both are present. Debian/Ubuntu (apt-get), as root
# or with sudo.
set -euo pipefail

have_chromium() { [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; }
have_cjk_font() { command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh 2>/dev/null | head -n 1)" ]; }

need_chromium=0
need_font=0
have_chromium || need_chromium=1
have_cjk_font || need_font=1
[ "$need_chromium" -eq 0 ] && [ "$need_font" -eq 0 ] && exit 0

fail() {
    if [ "$need_chromium" -eq 1 ]; then
        echo "install-browser.sh: $1; install Debian's chromium by hand (apt-get install chromium)" >&2
        exit 1
    fi
    exit 0 # only the optional font is missing
}

command -v apt-get >/dev/null 2>&1 || fail "no apt-get here"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "not root and no sudo"
    sudo=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
apt() { "${sudo[@]}" apt-get "$@" >/dev/null; }

if [ "$need_chromium" -eq 1 ]; then
    apt update -qq
    apt install -y -qq --no-install-recommends chromium
fi
if [ "$need_font" -eq 1 ]; then
    { apt install -y -qq --no-install-recommends fonts-wqy-microhei 2>/dev/null \
        || { apt update -qq && apt install -y -qq --no-install-recommends fonts-wqy-microhei; }; } 2>/dev/null \
        || echo "install-browser.sh: no CJK font installed (optional: Chinese labels in screenshots)" >&2
fi
exit 0
