"""Candidate repairs before the failing line: the statements that ran just before it in its own function
and in the function of each call on its path (the trace), nearest first, then the methods those lines
called on `self`. The finding is often reported
one step after the mistake (`torch.cat([a, b], dim=0)` feeds the layer that fails; `(m == 0).t()` is the
mask the next call rejects); its path says where to look, and the proof decides.

- a dim literal (`dim=0`, `x.mean(2)`, `torch.chunk(h, 2, dim=0)`) replaced by another small dim;
- `keepdim=True` dropped (a `[N, 1]` where `[N]` was meant);
- a layout call undone (`x.t()`, `x.transpose(0, 1)`, `x.permute(1, 2, 0)` -> `x`) or a permutation
  inverted (`permute(1, 2, 0)` -> `permute(2, 0, 1)`);
- the argument of a call on the path given a batch dim (`model(x[0])` -> `model(x[0].unsqueeze(0))`);
- `batch_first=True` added to an RNN, attention or padding call of the path's files that lacks it, or
  an RNN's `bidirectional=True` turned off;
- a layer-building loop that never carries its width: `in_ch = out` added after the layer whose first
  argument names the width the finding's provenance says was a literal (`in_channels = 3`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from pytea_ci.diagnostics import Diagnostic, Edit, Span
from pytea_ci.fixes.source import Candidate, Sources, call_at, callee, constant_value, group, span_of, wrap

_LINES_BACK = 12  # how far above a line of the path its statements are read
_LAYOUT = ("t", "transpose", "permute", "swapaxes", "movedim")
DimOf = Callable[[ast.AST], "ast.expr | None"]
_BATCH_FIRST = ("RNN", "LSTM", "GRU", "MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
                "Transformer", "pad_sequence", "pack_padded_sequence", "pad_packed_sequence")


def before(d: Diagnostic, src: Sources, dim_of: DimOf) -> Iterator[Candidate]:
    """Dim literals, then `keepdim=True`, then layout calls, on the lines of the path just before the
    finding (its own line excluded: `candidates.py` reads that one), nearest first."""
    nodes = _before_nodes(d, src)
    for path, n in nodes:
        arg = dim_of(n)
        now = constant_value(arg) if arg is not None else None
        if arg is not None and now is not None:
            for other in (1, 0, -1, 2):
                if other != now:
                    yield Candidate(f"dim {now} -> {other}", Edit(span_of(path, arg), str(other)), True)
    for path, n in nodes:
        if isinstance(n, ast.keyword) and n.arg == "keepdim" and isinstance(n.value, ast.Constant) \
                and n.value.value is True:
            yield Candidate("keepdim=True -> False", Edit(span_of(path, n.value), "False"), True)
    for path, n in nodes:
        if isinstance(n, ast.Call) and callee(n) in _LAYOUT and isinstance(n.func, ast.Attribute):
            yield Candidate(f"{ast.unparse(n)} -> {ast.unparse(n.func.value)}",
                            Edit(span_of(path, n), ast.unparse(n.func.value)), False)
            order = [constant_value(a) for a in n.args]
            inverse = ", ".join(str(order.index(i)) for i in range(len(order))) if callee(n) == "permute" \
                and sorted(order) == list(range(len(order))) else None  # type: ignore[type-var]
            if inverse is not None and inverse != ", ".join(map(str, order)):  # (1, 0) is its own inverse
                yield Candidate(f"permute({', '.join(map(str, order))}) -> permute({inverse})",
                                Edit(span_of(path, n), f"{group(n.func.value)}.permute({inverse})"), False)


def _before_nodes(d: Diagnostic, src: Sources) -> list[tuple[str, ast.AST]]:
    """The nodes on the lines above each place of the path, within its function, nearest line first; then
    the bodies of the project's methods those lines call on `self` (`self.encode(x)` ran just before)."""
    out: list[tuple[str, ast.AST]] = []
    called: list[tuple[str, ast.AST]] = []
    places = [d.span, *(f.span for f in reversed(d.trace[:-1]))]
    for span in places:
        tree = src.tree(span.path)
        fn = _function_at(tree, span.line) if tree is not None else None
        scope: ast.AST | None = fn if fn is not None else tree  # module-level code: the module
        if scope is None or tree is None:
            continue
        lines = range(span.line - 1, max(getattr(scope, "lineno", 1), span.line - _LINES_BACK) - 1, -1)
        nodes = [n for n in ast.walk(scope) if getattr(n, "lineno", None) in lines]
        nodes.sort(key=lambda n: (-n.lineno, n.col_offset))  # type: ignore[attr-defined]
        out.extend((span.path, n) for n in nodes if (span.path, n) not in out)
        for n in nodes:
            method = _self_method(tree, n, span.line)
            if method is not None:
                body = sorted((x for x in ast.walk(method) if hasattr(x, "lineno") or isinstance(x, ast.keyword)),
                              key=lambda x: -getattr(x, "lineno", 0))
                called.extend((span.path, x) for x in body)
    return out + [c for c in called if c not in out]


def _self_method(tree: ast.Module, n: ast.AST, line: int) -> ast.FunctionDef | None:
    """The method of the class around `line` that `n` calls as `self.name(...)`."""
    if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
            and n.func.value.id == "self"):
        return None
    for c in ast.walk(tree):
        if isinstance(c, ast.ClassDef) and c.lineno <= line <= (c.end_lineno or 0):
            return next((f for f in c.body if isinstance(f, ast.FunctionDef) and f.name == n.func.attr), None)
    return None


def _function_at(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    inner = None
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= line <= (n.end_lineno or 0):
            if inner is None or n.lineno > inner.lineno:
                inner = n
    return inner


def callers(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """The argument of each call on the path given the batch dim it lacks (`model(tokens[0])`, one sample
    handed to a model that expects a batch), innermost call first."""
    for f in reversed(d.trace[:-1]):
        tree = src.tree(f.span.path)
        call = call_at(tree, f.span) if tree is not None else None
        for a in call.args if call is not None and len(call.args) == 1 else ():
            if isinstance(a, (ast.Name, ast.Subscript, ast.Attribute)):
                yield wrap(f.span.path, a, ".unsqueeze(0)")
                yield wrap(f.span.path, a, "[:, :, None, None]")  # a vector where a map was meant


def batch_first(d: Diagnostic, src: Sources, files: list[str]) -> Iterator[Candidate]:
    """`batch_first=True` on each call of the path's files that takes it and does not set it; an RNN's
    `bidirectional=True` turned off (its hidden state has two directions where one was expected)."""
    for path in files:
        tree = src.tree(path)
        for n in ast.walk(tree) if tree is not None else ():
            flag = next((k.value for k in n.keywords if k.arg == "bidirectional"), None) \
                if isinstance(n, ast.Call) and callee(n) in _BATCH_FIRST[:3] else None
            if isinstance(flag, ast.Constant) and flag.value is True:
                yield Candidate("bidirectional=True -> False", Edit(span_of(path, flag), "False"), True)
            if tree is not None and isinstance(n, ast.Call) and callee(n) in _BATCH_FIRST and n.end_lineno is not None \
                    and _from_torch(n.func, tree) and not any(k.arg in ("batch_first", None) for k in n.keywords):
                at = (n.end_col_offset or 1) - 1  # before the closing parenthesis
                sep = ", " if n.args or n.keywords else ""
                yield Candidate(f"{callee(n)}(..., batch_first=True)",
                                Edit(Span(path, n.end_lineno, at, n.end_lineno, at), f"{sep}batch_first=True"), False)


def _from_torch(func: ast.expr, tree: ast.Module) -> bool:
    """Whether a callee is torch's: its first name (`nn` of `nn.GRU`, `pad_sequence`) bound by an import
    from torch in its file."""
    root = func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    for n in ast.walk(tree):
        if isinstance(n, ast.Import) and any((a.asname or a.name.split(".")[0]) == root.id and a.name.startswith(
                "torch") for a in n.names):
            return True
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("torch") and any(
                (a.asname or a.name) == root.id for a in n.names):
            return True
    return False


def carried_width(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """A width that starts as a literal (`in_ch = 3`, or a parameter's default `in_channels=3` copied to
    `in_ch`), named by the finding's provenance, that a loop passes as the first argument of each layer it
    builds and never updates: `in_ch = <out>` after the statement that builds the layer, `<out>` being the
    layer's second argument."""
    for r in d.related:
        tree = src.tree(r.span.path) if r.value is not None else None
        for start, name in _widths(tree, r.span) if tree is not None else ():
            loops = [n for n in ast.walk(tree) if isinstance(n, ast.For) and n.lineno > start]  # type: ignore[arg-type]
            for loop in loops:
                if any(isinstance(x, ast.Name) and x.id == name and isinstance(x.ctx, ast.Store)
                       for x in ast.walk(loop)):
                    continue
                for stmt in (n for n in ast.walk(loop) if isinstance(n, ast.stmt)):
                    layer = _layer_of(stmt, name)
                    if layer is not None and stmt.end_lineno is not None:
                        yield _after(r.span.path, stmt, f"{name} = {ast.unparse(layer.args[1])}", src)


def _widths(tree: ast.Module, at: Span) -> list[tuple[int, str]]:
    """(line, name) of the names a literal at `at` starts: `name = 3` on its line, or the parameter whose
    default it is and the names assigned from that parameter in its function (`in_ch = in_channels`)."""
    out: list[tuple[int, str]] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and n.lineno == at.line and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name) and constant_value(n.value) is not None:
            out.append((n.lineno, n.targets[0].id))
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [*n.args.posonlyargs, *n.args.args][-len(n.args.defaults):] if n.args.defaults else []
            pairs = [*zip(params, n.args.defaults), *zip(n.args.kwonlyargs, n.args.kw_defaults)]
            for p, default in pairs:
                if default is not None and (default.lineno, default.col_offset) == (at.line, at.col):
                    out.extend((a.lineno, a.targets[0].id) for a in ast.walk(n) if isinstance(a, ast.Assign)
                               and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
                               and isinstance(a.value, ast.Name) and a.value.id == p.arg)
    return out


def _after(path: str, stmt: ast.stmt, line: str, src: Sources) -> Candidate:
    """A new line, indented as `stmt`, right after it."""
    assert stmt.end_lineno is not None
    end = len((src.text(path) or "").encode("utf-8").splitlines()[stmt.end_lineno - 1].rstrip())
    return Candidate(f"{line} after the layer", Edit(Span(path, stmt.end_lineno, end, stmt.end_lineno, end),
                                                    f"\n{' ' * stmt.col_offset}{line}"), False)


def _layer_of(stmt: ast.stmt, name: str) -> ast.Call | None:
    """The layer a simple statement builds with `name` as its first argument and a second argument."""
    if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef, ast.ClassDef, ast.Try)):
        return None
    for n in ast.walk(stmt):
        if isinstance(n, ast.Call) and len(n.args) >= 2 and isinstance(n.args[0], ast.Name) \
                and n.args[0].id == name and not isinstance(n.args[1], ast.Starred):
            return n
    return None
