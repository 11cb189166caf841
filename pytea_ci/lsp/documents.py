"""textDocument/didOpen, didChange, didSave, didClose: keep the session's buffers current and schedule
the file's analysis (at once on open and save; debounced on change, on the buffer text). A data file
the programs read (YAML, JSON) is analyzed on change and save: its buffer stands in for the file, and
the entry points that read it are checked (driver/data_files.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as T

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer


def is_python(uri: str) -> bool:
    return uri.endswith((".py", ".pyi"))


def _data(uri: str) -> bool:
    return uri.endswith((".yaml", ".yml", ".json"))


def register(server: PyteaServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PyteaServer, params: T.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        doc = ls.session.open(item.uri, item.text, item.version)
        if doc is not None and is_python(item.uri):
            ls.schedule(doc.path, debounce=False)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PyteaServer, params: T.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        text = ls.workspace.get_text_document(uri).source  # pygls applied the (incremental) changes
        doc = ls.session.open(uri, text, params.text_document.version)
        if doc is not None and (is_python(uri) or _data(uri)):
            ls.schedule(doc.path, debounce=True)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PyteaServer, params: T.DidSaveTextDocumentParams) -> None:
        doc = ls.session.document(params.text_document.uri)
        if doc is not None and (is_python(doc.uri) or _data(doc.uri)):
            ls.schedule(doc.path, debounce=False)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PyteaServer, params: T.DidCloseTextDocumentParams) -> None:
        ls.session.close(params.text_document.uri)  # its findings stay until the file is analyzed again
