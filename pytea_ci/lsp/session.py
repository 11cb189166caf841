"""What the server holds between requests: open documents (their newest text and version), settings,
the resident analyzer caches, and the newest analysis of each analyzed file. Guarded by one lock:
the event loop writes documents and reads results, the worker thread does the opposite."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from pygls.uris import to_fs_path

from pytea_ci.driver.resident import Resident
from pytea_ci.lsp.analysis import Analysis


@dataclass
class Document:
    uri: str
    path: str  # absolute file-system path
    text: str
    version: int


@dataclass
class Settings:
    """`pytea-ci.*` settings from the client (initializationOptions or workspace/configuration)."""

    inlay_hints: bool = False
    debounce_ms: int = 250
    args: dict[str, Any] = field(default_factory=dict)  # like --arg NAME=VALUE

    def update(self, raw: Any) -> None:
        if not isinstance(raw, dict):
            return
        if isinstance(raw.get("inlayHints"), bool):
            self.inlay_hints = raw["inlayHints"]
        delay = raw.get("debounceMs")
        if isinstance(delay, int) and not isinstance(delay, bool) and 0 <= delay <= 10_000:
            self.debounce_ms = delay
        if isinstance(raw.get("args"), dict):
            self.args = {str(k): v for k, v in raw["args"].items()}


def path_of(uri: str) -> str | None:
    """The file-system path of a `file:` URI; None for other schemes (untitled buffers, ...)."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return os.path.abspath(path) if path else None


class Session:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.documents: dict[str, Document] = {}  # by absolute path
        self.settings = Settings()
        self.resident = Resident()
        self.analyses: dict[str, Analysis] = {}  # by the absolute path of the file whose run it was
        self.published: dict[str, set[str]] = {}  # run target -> files it published diagnostics on

    def open(self, uri: str, text: str, version: int) -> Document | None:
        path = path_of(uri)
        if path is None:
            return None
        with self.lock:
            doc = self.documents[path] = Document(uri, path, text, version)
        return doc

    def close(self, uri: str) -> str | None:
        path = path_of(uri)
        with self.lock:
            if path is not None:
                self.documents.pop(path, None)
        return path

    def document(self, uri: str) -> Document | None:
        path = path_of(uri)
        with self.lock:
            return self.documents.get(path) if path is not None else None

    def buffers(self) -> dict[str, tuple[bytes, int]]:
        """A snapshot of every open buffer: path -> (UTF-8 text, version)."""
        with self.lock:
            return {p: (d.text.encode("utf-8"), d.version) for p, d in self.documents.items()}

    def store(self, analysis: Analysis) -> None:
        with self.lock:
            self.analyses[analysis.target] = analysis

    def analyses_covering(self, path: str) -> list[Analysis]:
        """The newest analyses that say something about `path` (its own run first)."""
        with self.lock:
            own = self.analyses.get(path)
            rest = [a for t, a in self.analyses.items() if t != path and path in a.files]
        return ([own] if own is not None else []) + rest
