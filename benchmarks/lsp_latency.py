#!/usr/bin/env python3
"""The language server's latency and memory, driving `pytea-ci lsp` over stdio with pygls' client:

* edit-to-diagnostics: for each acceptance program (each copied to its own project folder), open it,
  then edit the buffer E times (a changed comment line at the end: the whole file is re-analyzed, the
  findings stay where they are); the time from sending didChange to receiving publishDiagnostics for
  that version, with the server's debounce set to 0 (an editor adds its debounce, 250 ms by default);
* hover: a hover on the name of every assignment `name = ...` of the program (tensor-valued or not;
  the count of answers that showed a shape is printed), round trip;
* memory: the server's resident set (VmRSS) after opening F files, then after each round of 100 edits
  across them (growth without bound would show from round to round);
* for comparison, a cold `pytea-ci check` of examples/mnist and `pytea-ci --version` against
  `python -c pass`, each in a fresh process (medians of R runs).

    python benchmarks/lsp_latency.py [--cases N] [--edits E] [--files F] [--runs R]

Targets (issue 23): edit-to-diagnostics <= 150 ms median; hover <= 50 ms median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import EXAMPLES, bench_env, cases, copy_tree, machine, median, ms, pct, pytea_cmd, run, table

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

shown: list[bool] = []  # per hover: did it show a shape
WORDS = __import__("re").compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=[^=]")


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("lsp-latency", "1")
        self.published: dict[str, asyncio.Queue[tuple[int | None, float, list[T.Diagnostic]]]] = {}
        self.latest: dict[str, list[T.Diagnostic]] = {}  # every file's newest diagnostics

        @self.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: T.PublishDiagnosticsParams) -> None:
            self.latest[params.uri] = list(params.diagnostics)
            self.queue(params.uri).put_nowait((params.version, time.perf_counter(), list(params.diagnostics)))

        @self.feature(T.WINDOW_LOG_MESSAGE)
        def on_log(params: T.LogMessageParams) -> None:
            pass

    def queue(self, uri: str) -> asyncio.Queue[tuple[int | None, float, list[T.Diagnostic]]]:
        return self.published.setdefault(uri, asyncio.Queue())

    async def until(self, uri: str, version: int, timeout: float = 120) -> tuple[float, list[T.Diagnostic]]:
        """When the diagnostics of `uri` at `version` arrived."""
        while True:
            got, at, diags = await asyncio.wait_for(self.queue(uri).get(), timeout)
            if got is not None and got >= version:
                return at, diags


def project(case: str, dest: str) -> str:
    folder = copy_tree(case, os.path.join(dest, os.path.basename(case)))
    with open(os.path.join(folder, "pyproject.toml"), "w") as f:
        f.write("[tool.pytea-ci]\n")
    return os.path.join(folder, "main.py")


def edited(text: str, n: int) -> str:
    return text + f"\n# edit {n}\n"


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def start() -> Client:
    c = Client()
    await c.start_io(*pytea_cmd(), "lsp", env=bench_env())
    await c.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                initialization_options={"pytea-ci": {"debounceMs": 0}}))
    c.initialized(T.InitializedParams())
    return c


async def edit_latency(c: Client, files: list[str], edits: int) -> tuple[list[float], list[float], dict[str, int]]:
    """(edit-to-diagnostics seconds, hover seconds, programs with a finding by kind) over `files`."""
    lat: list[float] = []
    hovers: list[float] = []
    shown.clear()
    with_findings = {"bug": 0, "ok": 0}
    for path in files:
        uri = "file://" + path
        text = open(path).read()
        c.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        await c.until(uri, 1)
        folder = uri.rsplit("/", 1)[0] + "/"  # the program's own project: findings in any of its files
        if any(d.severity in (1, 2) for u, ds in c.latest.items() if u.startswith(folder) for d in ds):
            with_findings["bug" if "_bug_" in folder else "ok"] += 1
        for n in range(edits):
            v = n + 2
            sent = time.perf_counter()
            c.text_document_did_change(T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(version=v, uri=uri), [T.TextDocumentContentChangeWholeDocument(edited(text, n))]))
            at, _ = await c.until(uri, v)
            lat.append(at - sent)
        for i, line in enumerate(text.split("\n")):
            m = WORDS.match(line)
            if m is None:
                continue
            t0 = time.perf_counter()
            got = await c.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                                  T.Position(i, len(m.group(1)))))
            hovers.append(time.perf_counter() - t0)
            shown.append(got is not None and ": [" in str(got.contents))
        c.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri)))
    return lat, hovers, with_findings


async def memory(c: Client, files: list[str], edits: int, rounds: int) -> list[tuple[str, float]]:
    pid = c._server.pid  # type: ignore[union-attr]
    out = [("started", rss_mb(pid))]
    texts = {}
    for path in files:
        uri = "file://" + path
        texts[uri] = open(path).read()
        c.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri=uri, language_id="python", version=1, text=texts[uri])))
        await c.until(uri, 1)
    out.append((f"{len(files)} files open", rss_mb(pid)))
    version = dict.fromkeys(texts, 1)
    for rnd in range(1, rounds + 1):
        for n in range(edits):
            uri = list(texts)[n % len(texts)]
            version[uri] += 1
            c.text_document_did_change(T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(version=version[uri], uri=uri),
                [T.TextDocumentContentChangeWholeDocument(edited(texts[uri], version[uri]))]))
            await c.until(uri, version[uri])
        out.append((f"after {edits * rnd} edits", rss_mb(pid)))
    return out


async def stop(c: Client) -> None:
    await c.shutdown_async(None)
    c.exit(None)
    await asyncio.wait_for(c._server.wait(), 30)  # type: ignore[union-attr]


async def measure(args: argparse.Namespace, tmp: str) -> None:
    every = cases()
    chosen = every[:: max(1, len(every) // args.cases)][: args.cases] if args.cases else every
    files = [project(case, os.path.join(tmp, "a")) for case in chosen]
    c = await start()
    lat, hovers, found = await edit_latency(c, files, args.edits)
    await stop(c)
    bugs = sum("_bug_" in f for f in files)
    print(f"edit-to-diagnostics over {len(files)} acceptance programs x {args.edits} edits (debounce 0); "
          f"a finding (error or warning) on opening: {found['bug']} of {bugs} buggy programs, "
          f"{found['ok']} of {len(files) - bugs} correct ones:")
    print(table(["", "median", "p95", "max", "n"],
                [["edit -> diagnostics", ms(median(lat)), ms(pct(lat, 95)), ms(max(lat)), len(lat)],
                 ["hover", ms(median(hovers)), ms(pct(hovers, 95)), ms(max(hovers)), len(hovers)]]))
    print(f"{sum(shown)} of {len(shown)} hovers showed a shape")
    mem_files = [project(case, os.path.join(tmp, "m")) for case in every[:: max(1, len(every) // args.files)][: args.files]]
    c = await start()
    rows = await memory(c, mem_files, 100, args.rounds)
    await stop(c)
    print("\nserver memory (VmRSS):")
    print(table(["when", "MB"], [[w, f"{mb:.0f}"] for w, mb in rows]))
    print("\n" + cold(args.runs))
    print("\n" + machine())
    ok = median(lat) <= 0.150 and median(hovers) <= 0.050
    print("\ntargets (edit median <= 150 ms, hover median <= 50 ms):", "met" if ok else "MISSED")


def cold(runs: int) -> str:
    mnist = os.path.join(EXAMPLES, "mnist")
    rows = []
    floor = 0.0
    for label, cmd in [("python -c pass", [sys.executable, "-c", "pass"]),
                       ("pytea-ci --version", [*pytea_cmd(), "--version"]),
                       ("pytea-ci check examples/mnist (cold, --no-cache)",
                        [*pytea_cmd(), "check", "--no-cache", "--root", mnist, os.path.join(mnist, "main.py")])]:
        walls = [run(cmd).wall for _ in range(runs)]
        floor = floor or median(walls)  # the first row is the floor
        rows.append([label, ms(median(walls)), f"{median(walls) / floor:.1f}x"])
    return "cold processes (median of %d):\n" % runs + table(["command", "median", "vs python -c pass"], rows)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=0, help="acceptance programs for the latency (0: all)")
    p.add_argument("--edits", type=int, default=3, help="edits per program")
    p.add_argument("--files", type=int, default=20, help="files open for the memory figure")
    p.add_argument("--runs", type=int, default=5, help="runs of each cold command")
    p.add_argument("--rounds", type=int, default=3, help="rounds of 100 edits for the memory figure")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(measure(args, tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
