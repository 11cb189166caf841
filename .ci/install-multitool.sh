#!/usr/bin/env bash
# Install Microsoft's SARIF multitool (the validator GitHub's ingestion rules come with) into .ci/node/
# and print the path of its native binary, for tests/report/test_multitool.py:
#     export PYTEA_SARIF_MULTITOOL="$(.ci/install-multitool.sh)"
# Idempotent and quiet: when the pinned version is already there, it only prints the path. Needs npm.
set -euo pipefail
VERSION=5.7.0
HERE="$(cd "$(dirname "$0")" && pwd)"
PREFIX="$HERE/node"
BIN="$PREFIX/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
INSTALLED="$PREFIX/node_modules/@microsoft/sarif-multitool/package.json"
if [ ! -x "$BIN" ] || ! grep -q "\"version\": *\"$VERSION\"" "$INSTALLED" 2>/dev/null; then
  command -v npm >/dev/null || { echo "install-multitool: npm is not installed" >&2; exit 1; }
  mkdir -p "$PREFIX"
  [ -f "$PREFIX/package.json" ] || printf '{"name": "pytea-ci-ci-tools", "private": true}\n' > "$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
      "@microsoft/sarif-multitool@$VERSION" >/dev/null \
    || { echo "install-multitool: npm install @microsoft/sarif-multitool@$VERSION failed" >&2; exit 1; }
  chmod +x "$BIN"
fi
"$BIN" --version >/dev/null 2>&1 || { echo "install-multitool: $BIN does not run" >&2; exit 1; }
echo "$BIN"
