#!/usr/bin/env bash
# Runs the pytea-ci extension inside a real VS Code: code-server (VS Code OSS built as a server, from npm)
# with the .vsix installed, its workbench opened in headless Chromium (Debian's) driven by playwright-core
# (npm; no browser download). e2e/drive.js opens a buggy train.py, reads the finding from the Problems view,
# hovers a tensor, checks that the server's proven fix is the first action of the quick-fix menu, applies it
# (from the menu, then by Auto Fix, which takes only a preferred fix; the finding goes, undone each time),
# applies the ignore quick fix and undoes it, types the fix into the unsaved buffer and checks that the
# finding goes away; the server's JSON-RPC traffic (copied by a wrapper named as pytea-ci.executable) must
# show initialize from code-server, the diagnostics published for the file and the fix offered as preferred. Prints a transcript and OK; exit 1 on a failure, 3 when a
# needed tool is missing (the line says which).
#
#   PYTEA_CI=.ci-venv/bin/pytea-ci bash editors/vscode/run-in-vscode.sh
#
# Needs: Node 20 (22/24 untested) with its headers, npm, Debian's chromium, ripgrep, build-essential and
# libkrb5-dev (code-server's native modules are compiled here: their prebuilt downloads are unreachable).
#   apt-get install chromium ripgrep build-essential libkrb5-dev
# code-server and playwright-core are installed once into $PYTEA_VSCODE_CACHE (default ~/.cache/pytea-ci-vscode,
# ~350 MB, ~3 min); a run with that cache takes ~30 s plus the .vsix build. Environment: PYTEA_CI (the
# server command, default pytea-ci), PYTEA_VSIX (skip the build, use this .vsix), PYTEA_VSCODE_WORKDIR (keep
# the run's files there: logs, screenshots), CHROMIUM, CODE_SERVER_VERSION.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PYTEA_CI=${PYTEA_CI:-pytea-ci}
CACHE=${PYTEA_VSCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pytea-ci-vscode}
PW_VERSION=1.65.2

missing() { echo "run-in-vscode: missing tool: $*" >&2; exit 3; }

command -v node >/dev/null || missing "node (Node 20)"
command -v npm >/dev/null || missing "npm"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
case $NODE_MAJOR in  # the last code-server release whose engines match this Node
  20) CS_DEFAULT=4.100.3 ;; 22) CS_DEFAULT=4.117.0 ;; 24) CS_DEFAULT=4.139.1 ;;
  *) missing "Node 20, 22 or 24 (found $(node --version))" ;;
esac
CS_VERSION=${CODE_SERVER_VERSION:-$CS_DEFAULT}
NODE_DIR=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
[ -f "$NODE_DIR/include/node/node.h" ] || missing "Node's C headers in $NODE_DIR/include/node (node-gyp cannot download them)"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$CHROMIUM" ] && [ -x "$CHROMIUM" ] || missing "chromium (apt-get install chromium)"
command -v rg >/dev/null || missing "rg (apt-get install ripgrep): VS Code's search binary, whose download is unreachable"
command -v make >/dev/null && command -v g++ >/dev/null || missing "make and g++ (apt-get install build-essential)"
[ -f /usr/include/gssapi/gssapi.h ] || missing "gssapi headers (apt-get install libkrb5-dev) for code-server's kerberos module"
read -r -a SERVER_CMD <<<"$PYTEA_CI"
command -v "${SERVER_CMD[0]}" >/dev/null || missing "the pytea-ci command '${SERVER_CMD[0]}' (set PYTEA_CI)"

# --- code-server, installed without its postinstall (which downloads ripgrep from GitHub) -------------
CS_DIR=$CACHE/code-server-$CS_VERSION
install_code_server() {
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR" && cd "$CS_DIR"
  export npm_config_nodedir=$NODE_DIR npm_config_yes=true npm_config_audit=false npm_config_fund=false
  npm install --ignore-scripts "code-server@$CS_VERSION"
  npm rebuild argon2
  cd node_modules/code-server/lib/vscode
  npm install --omit=dev --ignore-scripts
  mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  npm rebuild  # the native modules (node-pty, spdlog, watcher, kerberos...) against this Node
  # the rest of code-server's postinstall.sh
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sfn code-linux.sh code-server)
  (cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
  cd extensions && npm install --omit=dev
}
if [ ! -f "$CS_DIR/.installed" ]; then
  echo "setup: installing code-server $CS_VERSION into $CS_DIR (once)"
  mkdir -p "$CACHE"
  if ! (install_code_server) >"$CACHE/install-code-server-$CS_VERSION.log" 2>&1; then
    tail -20 "$CACHE/install-code-server-$CS_VERSION.log"; echo "FAIL: code-server install"; exit 1
  fi
  touch "$CS_DIR/.installed"
fi
CODE_SERVER=$CS_DIR/node_modules/.bin/code-server
PW_DIR=$CACHE/playwright-core-$PW_VERSION
if [ ! -d "$PW_DIR/node_modules/playwright-core" ]; then
  echo "setup: installing playwright-core $PW_VERSION (no browser: Debian's chromium is used)"
  mkdir -p "$PW_DIR" && (cd "$PW_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund \
    "playwright-core@$PW_VERSION" >install.log 2>&1) || { tail -20 "$PW_DIR/install.log"; exit 1; }
fi

# --- the run's folder: a project with the tests' buggy program, settings, a logging server wrapper ----------
WORK=${PYTEA_VSCODE_WORKDIR:-$(mktemp -d)}
WORK=$(mkdir -p "$WORK" && cd "$WORK" && pwd)
mkdir -p "$WORK/proj" "$WORK/log" "$WORK/data/User"
cat >"$WORK/proj/train.py" <<'EOF'
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(h)


x = torch.randn(32, 784)
y = Net()(x)
EOF
cp "$WORK/proj/train.py" "$WORK/train.py.orig"
printf '[tool.pytea-ci]\n' >"$WORK/proj/pyproject.toml"
{
  echo '#!/usr/bin/env bash'
  echo "# pytea-ci.executable of this run: the real server, its JSON-RPC traffic copied to $WORK/log"
  echo "export PYTEA_VSCODE_RUN='$WORK'"
  printf 'tee -a %q | %s "$@" 2>>%q | tee -a %q\n' "$WORK/log/client-to-server.jsonrpc" "$PYTEA_CI" \
    "$WORK/log/server.err" "$WORK/log/server-to-client.jsonrpc"
} >"$WORK/pytea-ci-logged"
chmod +x "$WORK/pytea-ci-logged"
# VS Code in a browser auto-saves after a delay by default: off, so the fix stays in the unsaved buffer
cat >"$WORK/data/User/settings.json" <<EOF
{"pytea-ci.executable": "$WORK/pytea-ci-logged", "pytea-ci.debounceMs": 100,
 "security.workspace.trust.enabled": false, "workbench.startupEditor": "none", "telemetry.telemetryLevel": "off",
 "files.autoSave": "off"}
EOF
if [ -n "${PYTEA_VSIX:-}" ]; then VSIX=$PYTEA_VSIX; else  # the extension, built from this checkout
  bash "$HERE/build.sh" >"$WORK/log/build.log" 2>&1 || { tail -20 "$WORK/log/build.log"; echo "FAIL: build.sh"; exit 1; }
  VSIX=$HERE/pytea-ci.vsix
fi
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' >"$WORK/config.yaml"
CS_ARGS=(--config "$WORK/config.yaml" --user-data-dir "$WORK/data" --extensions-dir "$WORK/ext")
echo "vscode: $("$CODE_SERVER" "${CS_ARGS[@]}" --version | head -1)"
"$CODE_SERVER" "${CS_ARGS[@]}" --install-extension "$VSIX" >"$WORK/log/install-extension.log" 2>&1 \
  || { cat "$WORK/log/install-extension.log"; echo "FAIL: --install-extension"; exit 1; }
echo "vscode: installed $(ls "$WORK/ext" | grep -v extensions.json)"

# --- code-server up, the browser drives it ------------------------------------------------------------
server_pids() {  # the pytea-ci servers this run started (marked in their environment by the wrapper)
  grep -lsz "^PYTEA_VSCODE_RUN=$WORK\$" /proc/[0-9]*/environ | cut -d/ -f3 || true
}
setsid "$CODE_SERVER" "${CS_ARGS[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  >"$WORK/log/code-server.log" 2>&1 &
CS_PID=$!
cleanup() {  # TERM, then KILL after 5 s: one code-server outlived a failed run (its folder deleted at start; cause unconfirmed)
  kill -TERM -- "-$CS_PID" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 -- "-$CS_PID" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$CS_PID" 2>/dev/null || true
}
trap cleanup EXIT
PORT=""
for _ in $(seq 600); do
  PORT=$(sed -n 's|.*HTTP server listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$WORK/log/code-server.log")
  [ -n "$PORT" ] && break
  kill -0 "$CS_PID" 2>/dev/null || break
  sleep 0.1
done
[ -n "$PORT" ] || { cat "$WORK/log/code-server.log"; echo "FAIL: code-server did not start"; exit 1; }
echo "vscode: code-server on 127.0.0.1:$PORT, folder $WORK/proj"
NODE_PATH=$PW_DIR/node_modules node "$HERE/e2e/drive.js" "http://127.0.0.1:$PORT/?folder=$WORK/proj" \
  "$WORK/proj" "$WORK/log" "$CHROMIUM" "$WORK" | grep -v '^OK$' || { echo "(logs: $WORK/log)"; exit 1; }
echo "lsp: processes of the server wrapper running: $(server_pids | wc -l) ($(grep -c . "$WORK/log/server.err" || true) stderr lines)"
cmp -s "$WORK/train.py.orig" "$WORK/proj/train.py" || { echo "FAIL: train.py changed on disk"; exit 1; }
echo "disk: train.py unchanged (the fix lived in the unsaved buffer only)"

# --- teardown: stopping VS Code must end the server ---------------------------------------------------
kill -TERM "$CS_PID"
for _ in $(seq 300); do [ -z "$(server_pids)" ] && break; sleep 0.1; done
LEFT=$(server_pids)
cleanup
[ -z "$LEFT" ] || { echo "FAIL: pytea-ci server still running after code-server stopped: $LEFT"; exit 1; }
echo "teardown: code-server stopped, its pytea-ci server exited"
echo "OK"
