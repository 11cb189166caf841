"""textDocument/inlayHint (opt-in: the `inlayHints` setting): the shape after each tensor-valued
binding (`x = self.conv(x)` shows `: [B, 64, H - 2, W - 2]`), from the newest analyses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types as T

from pytea_ci.lsp.convert import utf16_col

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer


def register(server: PyteaServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintOptions(resolve_provider=False))
    def inlay_hints(ls: PyteaServer, params: T.InlayHintParams) -> list[T.InlayHint]:
        from pytea_ci.lsp.session import path_of

        path = path_of(params.text_document.uri)
        if path is None or not ls.session.settings.inlay_hints:
            return []
        lines = ls.lines(path)
        first, last = params.range.start.line + 1, params.range.end.line + 1
        seen: set[tuple[int, int]] = set()
        out = []
        for run in ls.session.analyses_covering(path):
            for b in run.bindings.get(path, []):
                if not first <= b.line <= last or (b.line, b.col) in seen or b.line > len(lines):
                    continue
                seen.add((b.line, b.col))
                label = ": " + (b.shapes[0] if len(b.shapes) == 1 else " | ".join(b.shapes))
                pos = T.Position(b.line - 1, utf16_col(lines[b.line - 1], b.end_col))
                out.append(T.InlayHint(position=pos, label=label, kind=T.InlayHintKind.Type, padding_left=False))
        return out
