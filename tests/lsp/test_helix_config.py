"""The README's Helix configuration starts the server as Helix would: its `[language-server.pytea-ci]`
table is read from README.md, the `command` and `args` are run as they stand (the installed
`pytea-ci` script), `config` goes as `initializationOptions` and answers `workspace/configuration`
(Helix does both), and the server publishes a finding for an opened buggy buffer, then shuts down.

Helix itself cannot be installed on this machine (no Debian 12 package, no PyPI/npm package; building
it needs crates.io), so this drives the server with a minimal JSON-RPC client over stdio instead."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent.parent
BUGGY = "import torch\nimport torch.nn as nn\n\nfc = nn.Linear(320, 50)\ny = fc(torch.randn(8, 500))\n"


def helix_config() -> dict[str, Any]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*Helix\*\*.*?```toml\n(.*?)```", readme, re.S)
    assert block is not None, "README.md has no Helix languages.toml block"
    return tomllib.loads(block.group(1))


class Client:
    """JSON-RPC over the server's stdin/stdout, framed with Content-Length as LSP wants."""

    def __init__(self, cmd: list[str], cwd: Path, config: dict[str, Any]) -> None:
        self.config = config
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            self.inbox.put(json.loads(out.read(length)))

    def send(self, payload: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)["result"]

    def wait(self, wanted: Any, timeout: float = 60.0) -> dict[str, Any]:
        while True:
            msg = self.inbox.get(timeout=timeout)
            if "method" in msg and "id" in msg:  # a request of the server's: answer as Helix does
                result = [self.config.get(i.get("section", ""), None) for i in msg["params"]["items"]] \
                    if msg["method"] == "workspace/configuration" else None
                self.send({"id": msg["id"], "result": result})
            elif wanted(msg):
                return msg


def test_the_readme_helix_snippet_starts_the_server(tmp_path: Path) -> None:
    doc = helix_config()
    server = doc["language-server"]["pytea-ci"]
    assert "pytea-ci" in next(lang for lang in doc["language"] if lang["name"] == "python")["language-servers"]
    exe = Path(sys.executable).parent / server["command"]  # on PATH where pytea-ci is installed
    assert exe.exists(), f"{exe} is not installed"
    (tmp_path / "main.py").write_text(BUGGY)
    client = Client([str(exe), *server["args"]], tmp_path, server.get("config", {}))
    try:
        init = client.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(),
                                             "capabilities": {"workspace": {"configuration": True}},
                                             "initializationOptions": server.get("config")})
        assert init["capabilities"].get("hoverProvider")
        client.send({"method": "initialized", "params": {}})
        uri = (tmp_path / "main.py").as_uri()
        client.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": BUGGY}}})
        diags = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri and m["params"]["diagnostics"])["params"]["diagnostics"]
        assert [(d["code"], d["range"]["start"]["line"]) for d in diags] == [("PT001", 4)]
        assert client.request("shutdown", None) is None
        client.send({"method": "exit"})
        assert client.proc.wait(timeout=30) == 0
    finally:
        if client.proc.poll() is None:
            client.proc.kill()
