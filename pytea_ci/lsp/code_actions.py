"""textDocument/codeAction: for each pytea-ci finding in the range, its proven fix as the preferred quick fix
(`lsp/fixes.py`), "ignore RULE on this line" (appends
`# pytea: ignore[RULE]` to the line, or adds the rule to an ignore comment already there) and "open the
documentation of RULE"; anywhere in an analyzed file, "explain the analysis of this file"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types as T

from pytea_ci.lsp.commands import EXPLAIN, OPEN_RULE_DOC

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer

_COMMENT = re.compile(r"#\s*pytea:\s*ignore(\[(?P<codes>[A-Za-z0-9_,\s-]*)\])?")


def ignore_edit(line_text: str, line: int, rule: str) -> T.TextEdit | None:
    """The edit that suppresses `rule` on this line; None when it is suppressed already."""
    m = _COMMENT.search(line_text)
    end16 = len(line_text.encode("utf-16-le")) // 2
    if m is None:
        body = line_text.rstrip()
        start = len(body.encode("utf-16-le")) // 2
        return T.TextEdit(T.Range(T.Position(line, start), T.Position(line, end16)),
                          f"  # pytea: ignore[{rule}]")
    codes = m.group("codes")
    if codes is None or rule.upper() in {c.strip().upper() for c in codes.split(",")}:
        return None
    new = f"# pytea: ignore[{', '.join([*(c.strip() for c in codes.split(',') if c.strip()), rule])}]"
    start, end = (len(line_text[:i].encode("utf-16-le")) // 2 for i in m.span())
    return T.TextEdit(T.Range(T.Position(line, start), T.Position(line, end)), new)


def register(server: PyteaServer) -> None:
    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix, T.CodeActionKind.Source]))
    def code_action(ls: PyteaServer, params: T.CodeActionParams) -> list[T.CodeAction]:
        from pytea_ci.lsp.session import path_of

        path = path_of(params.text_document.uri)
        if path is None:
            return []
        lines = ls.lines(path)
        from pytea_ci.lsp.fixes import fix_actions

        out = fix_actions(ls, path, [d for d in params.context.diagnostics if d.source == "pytea-ci"])
        for d in params.context.diagnostics:
            if d.source != "pytea-ci" or not isinstance(d.code, str) or d.range.start.line >= len(lines):
                continue
            line = d.range.start.line
            edit = ignore_edit(lines[line], line, d.code)
            if edit is not None:
                out.append(T.CodeAction(title=f"Ignore {d.code} on this line (# pytea: ignore[{d.code}])",
                                        kind=T.CodeActionKind.QuickFix, diagnostics=[d],
                                        edit=T.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
            if d.code_description is not None:
                out.append(T.CodeAction(title=f"Open the documentation of {d.code}", kind=T.CodeActionKind.QuickFix,
                                        diagnostics=[d], command=T.Command(title=f"Open {d.code} documentation", command=OPEN_RULE_DOC,
                                                                           arguments=[d.code_description.href])))
        if path in ls.session.analyses:
            out.append(T.CodeAction(title="pytea-ci: explain the analysis of this file (what was checked)",
                                    kind=T.CodeActionKind.Source,
                                    command=T.Command(title="Explain", command=EXPLAIN, arguments=[params.text_document.uri])))
        return out
