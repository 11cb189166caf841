"""workspace/executeCommand: `pytea-ci.openRuleDoc` (the rule's documentation, in the browser) and
`pytea-ci.explain` (the newest run's `check --explain` text for a file: what was checked, where the
analysis lost track), both offered as code actions (code_actions.py)."""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, cast

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer

from pytea_ci.lsp.convert import uri_of

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer

OPEN_RULE_DOC = "pytea-ci.openRuleDoc"
EXPLAIN = "pytea-ci.explain"


def explain_text(ls: PyteaServer, path: str) -> str | None:
    from pytea_ci.report.explain import render

    run = ls.session.analyses.get(path)
    if run is None or run.result is None:
        return None
    return render(run.result, run.root).rstrip() + "\n"


def _show(ls: PyteaServer, path: str, text: str) -> None:
    """In the editor when it can open documents (a file under the temp folder), else as a message."""
    caps = ls.client_capabilities.window
    if caps is not None and caps.show_document is not None and caps.show_document.support:
        folder = os.path.join(tempfile.gettempdir(), "pytea-ci-explain")
        os.makedirs(folder, exist_ok=True)
        out = os.path.join(folder, os.path.basename(path) + ".explain.txt")
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        ls.window_show_document(T.ShowDocumentParams(uri=uri_of(out), take_focus=True))
    else:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Info, text))


def register(server: PyteaServer) -> None:
    @server.command(OPEN_RULE_DOC)
    def open_rule_doc(ls: LanguageServer, href: str) -> None:
        ls.window_show_document(T.ShowDocumentParams(uri=href, external=True))

    @server.command(EXPLAIN)
    def explain(ls: LanguageServer, uri: str) -> str | None:
        from pytea_ci.lsp.session import path_of

        me = cast("PyteaServer", ls)
        path = path_of(uri)
        text = explain_text(me, path) if path is not None else None
        if text is None:
            ls.window_show_message(T.ShowMessageParams(T.MessageType.Info, "pytea-ci: this file was not analyzed yet"))
            return None
        _show(me, path or uri, text)
        return text
