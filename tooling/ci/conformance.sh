#!/bin/sh
# Installs the official MCP conformance suite with Node 22 beside the project (the project stays
# on Node 20), for apps/cli/test/conformance.test.ts. Usage: tooling/ci/conformance.sh [DIR]
# (default $CONFORMANCE_DIR, else /tmp/toolplane-conformance).
set -eu
DIR="${1:-${CONFORMANCE_DIR:-/tmp/toolplane-conformance}}"
mkdir -p "$DIR"
if [ ! -x "$DIR/node_modules/.bin/conformance" ] || [ ! -x "$DIR/node_modules/.bin/node" ]; then
  npm i --prefix "$DIR" --no-audit --no-fund node@22 @modelcontextprotocol/conformance@0.1.16
fi
echo "conformance suite in $DIR"
