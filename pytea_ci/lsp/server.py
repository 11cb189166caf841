"""The pygls server: capabilities, the worker that runs analyses and publishes their diagnostics, and
`main()` for `pytea-ci lsp` (stdio). Request and notification handlers live one family per module."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from pytea_ci import __version__
from pytea_ci.diagnostics import sources
from pytea_ci.driver import fs
from pytea_ci.lsp import analysis, code_actions, commands, configuration, documents, hover, inlay_hints
from pytea_ci.lsp.analysis import Analysis, Superseded
from pytea_ci.lsp.convert import to_lsp, uri_of
from pytea_ci.lsp.scheduler import Scheduler
from pytea_ci.lsp.session import Session


class PyteaServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pytea-ci", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.session = Session()
        sources.keep_parsed()  # resident: a run after an edit parses only the files that changed
        self.scheduler = Scheduler(self._run)
        self.loop: asyncio.AbstractEventLoop | None = None

    # ----- text ---------------------------------------------------------------------------------------
    def lines(self, path: str) -> list[str]:
        """The lines of a file as the user sees it: the open buffer, else the file on disk."""
        with self.session.lock:
            doc = self.session.documents.get(path)
            if doc is not None:
                return doc.text.split("\n")
        try:
            return fs.read(path).decode("utf-8", errors="replace").split("\n")
        except OSError:
            return []

    # ----- analysis -----------------------------------------------------------------------------------
    def schedule(self, path: str, debounce: bool) -> None:
        delay = self.session.settings.debounce_ms / 1000 if debounce else 0.0
        self.scheduler.request(path, delay)

    def _run(self, path: str, superseded: Callable[[], bool]) -> None:
        buffers = self.session.buffers()
        resident = self.session.resident
        try:
            run = analysis.analyze(path, buffers, resident, self.session.settings.args, superseded)
        except Superseded:
            return
        if superseded():
            return
        self.session.store(run)
        self._call(self._publish, run)
        if not documents.is_python(path):  # a data file: no contracts or hints of its own
            self._rerun_readers(run)
            return
        analysis.add_contracts(run, buffers, resident, superseded)
        if not superseded():
            self._call(self.refresh_hints)

    def _rerun_readers(self, run: Analysis) -> None:
        """The entry points that read a changed data file, which have runs of their own (those are
        the freshest view of a file, diagnostics_for): run again, on the data file's buffer."""
        entries = run.result.entries if run.result is not None else []
        with self.session.lock:
            own = set(self.session.analyses)
        for path in sorted({os.path.join(run.root, e.entry) for e in entries} & own):
            self.schedule(path, debounce=False)

    def _call(self, fn: Any, *args: Any) -> None:
        """Run `fn` on the event loop (pygls writes to the client from there)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)
        else:
            fn(*args)

    def _publish(self, run: Analysis) -> None:
        for message in run.messages:
            self.window_log_message(T.LogMessageParams(T.MessageType.Warning, message))
        before = self.session.published.get(run.target, set())
        files = set(run.diagnostics) | before
        self.session.published[run.target] = set(run.diagnostics)
        for path in sorted(files, key=lambda p: (p == run.target, p)):  # the run's own file last: a client
            # that waits for it has the others already
            diags = self.diagnostics_for(path)
            with self.session.lock:
                doc = self.session.documents.get(path)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=doc.uri if doc is not None else uri_of(path), diagnostics=diags,
                version=run.versions.get(path) if doc is not None else None))  # the text the run saw

    def refresh_hints(self) -> None:
        """Ask the client to fetch inlay hints again (new shapes), where it supports that."""
        caps = self.client_capabilities.workspace
        hints = caps.inlay_hint if caps is not None else None
        if self.session.settings.inlay_hints and hints is not None and hints.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    def reanalyze_open(self) -> None:
        """Every open Python buffer again (the settings changed)."""
        with self.session.lock:
            paths = [p for p, d in self.session.documents.items() if documents.is_python(d.uri)]
        for path in paths:
            self.schedule(path, debounce=False)

    def diagnostics_for(self, path: str) -> list[T.Diagnostic]:
        """A file's findings: from its own run when it has one (the freshest view of it), else from
        the runs of the files that import it."""
        covering = [a for a in self.session.analyses_covering(path) if path in a.diagnostics]
        if covering and covering[0].target == path:
            covering = covering[:1]
        seen: set[tuple] = set()
        out: list[T.Diagnostic] = []
        for run in covering:
            for d in run.diagnostics[path]:
                if d.key() not in seen:
                    seen.add(d.key())
                    out.append(to_lsp(d, run.root, self.lines))
        return out


def build() -> PyteaServer:
    server = PyteaServer()
    for family in (documents, configuration, hover, code_actions, commands, inlay_hints):
        family.register(server)
    return server


def main() -> int:
    server = build()
    server.start_io()
    server.scheduler.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
