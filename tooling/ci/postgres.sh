#!/usr/bin/env bash
# Makes PostgreSQL available to @toolplane/server's tests: installs Debian's `postgresql` when
# its binaries are missing and checks that an unprivileged user can run them (initdb refuses
# root). It starts no cluster and exports nothing: the tests start their own throwaway cluster
# on a free loopback port in a temporary directory and stop it when they end. Idempotent.
set -euo pipefail

say() { echo "postgres: $*"; }

find_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}

if ! bin="$(find_bin)"; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no PostgreSQL under /usr/lib/postgresql and no apt-get to install it" >&2
    exit 1
  fi
  say "installing Debian's postgresql"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null
  bin="$(find_bin)" || { say "postgresql installed but no initdb found" >&2; exit 1; }
else
  say "found $bin"
fi

# As root, the tests run the binaries as the `postgres` user (Debian's package creates it).
if [ "$(id -u)" = "0" ]; then
  id postgres >/dev/null 2>&1 || { say "no postgres user to run initdb as" >&2; exit 1; }
  command -v runuser >/dev/null 2>&1 || { say "runuser is missing (util-linux)" >&2; exit 1; }
  runuser -u postgres -- "$bin/initdb" --version >/dev/null
fi
say "ready: $("$bin/postgres" --version)"
