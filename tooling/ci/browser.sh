#!/usr/bin/env bash
# Makes Chromium available to @toolplane/server's console test: installs Debian's `chromium`
# when /usr/bin/chromium is missing and checks that it runs headless. It starts no browser: the
# test launches its own through playwright-core and closes it when it ends. Idempotent.
set -euo pipefail

say() { echo "browser: $*"; }

CHROMIUM=/usr/bin/chromium

if [ ! -x "$CHROMIUM" ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no $CHROMIUM and no apt-get to install it" >&2
    exit 1
  fi
  say "installing Debian's chromium"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  [ -x "$CHROMIUM" ] || { say "chromium installed but $CHROMIUM is missing" >&2; exit 1; }
else
  say "found $CHROMIUM"
fi

# As root Chromium needs --no-sandbox (the test passes it too).
version="$("$CHROMIUM" --headless --no-sandbox --version 2>/dev/null)" \
  || { say "$CHROMIUM does not start" >&2; exit 1; }
say "ready: $version"
