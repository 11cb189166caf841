#!/usr/bin/env bash
# Compile the extension and package it as editors/vscode/pytea-ci.vsix (not published).
# Needs Node 20 and the npm registry: bash editors/vscode/build.sh
set -euo pipefail
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
npm run compile
npm run package
ls -l pytea-ci.vsix
