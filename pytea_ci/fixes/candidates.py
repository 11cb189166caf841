"""Candidate repairs of one finding, derived from its data, most specific first; `prove.py` keeps the first
that re-analysis proves. Nothing here decides whether a candidate is right.

- a size literal named by the finding's provenance (`Related.value` at `Related.span`, e.g. `in_features =
  500` at `nn.Linear(500, 50)`) replaced by the size it was compared with (`320`): a literal-only edit;
  likewise, later, a computed size (`n_num + emb_dim` -> `22`, not literal-only) and the `default=` of the
  command-line option a size came from;
- a batch-size literal in `view`/`reshape` (`x.view(64, -1)`) replaced by `x.size(0)`;
- at the call the finding is reported on: a class-index target `[N, 1]` squeezed (`.squeeze(1)`), a
  missing `.long()`/`.float()` on a dtype finding, a missing `.to(device)` on a device finding;
- a finding only the short last batch triggers: `drop_last=True` on the DataLoader;
- then the operands' repairs (`operands.py`) and those on the path before the finding (`nearby.py`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from pytea_ci.diagnostics import Diagnostic, Edit, Related, Span
from pytea_ci.diagnostics.rules import DEVICE_MISMATCH, DTYPE_MISMATCH
from pytea_ci.fixes.nearby import batch_first, before, callers, carried_width
from pytea_ci.fixes.operands import at_operands, index_offset, sizes
from pytea_ci.fixes.source import (Candidate, Sources, call_at, callee, constant_value, parents, span_of, starting_at,
                                   wrap)

MAX_CANDIDATES = 24  # re-analyses per finding: each costs one run of its entry point
# functions and methods whose dim is positional, and where: `torch.cat(xs, 1)`, `x.sum(1)`
_DIM_AT = {"cat": 1, "stack": 1, "concat": 1, "softmax": 0, "log_softmax": 0, "sum": 0, "mean": 0, "argmax": 0,
           "squeeze": 0, "unsqueeze": 0, "flatten": 0, "max": 0, "min": 0, "norm": 1, "size": 0, "index_add_": 0}
# a layer's input with a dim too many, too few, or in the other order (missing flatten, channel dim,
# batch dim, a batch_first/channels-first mix-up)
_LAYOUTS = (".flatten(1)", ".unsqueeze(1)", ".unsqueeze(0)", ".transpose(1, 2)", "[:, :, None, None]",
            ".permute(0, 3, 1, 2)")  # the last: channels-last images where channels-first were meant
_TENSOR_LIKE = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.BinOp)
_OPTION = "default of command-line argument"  # how the provenance of an option's default reads
_COMPUTED = (ast.BinOp, ast.Name, ast.Attribute, ast.Subscript, ast.Call)  # an int computed from other values
_LOSSES = ("loss", "criterion", "cross_entropy", "nll_loss", "nll")


# a constructor parameter a check names -> its position in the constructor's arguments
_PARAMS = {"indexed size": 0, "in_features": 0, "in_channels": 0, "num_features": 0, "normalized_shape": 0, "input_size": 0,
           "embed_dim": 0, "num_embeddings": 0, "num_channels": 1}


def candidates(d: Diagnostic, src: Sources) -> list[Candidate]:
    """At most MAX_CANDIDATES, in this order: the finding's own dims, literals and constructor, its call's
    operands, batch-size views, products, the short last batch; then the operation's operands, computed
    sizes and command-line defaults; then the path before it."""
    out: list[Candidate] = []
    for c in [*_dim_arguments(d, src), *_from_provenance(d, src), *_constructor(d, src), *_at_call(d, src),
              *_batch_views(d, src), *_matmul(d, src), *_drop_last(d, src), *at_operands(d, src),
              *index_offset(d, src), *_from_provenance(d, src, "computed"), *_from_provenance(d, src, "option"),
              *carried_width(d, src), *callers(d, src), *batch_first(d, src, _path_files(d, related=True)),
              *before(d, src, _dim_of)]:
        if c not in out:
            out.append(c)
        if len(out) == MAX_CANDIDATES:
            break
    return out


def _from_provenance(d: Diagnostic, src: Sources, kind: str = "literal") -> Iterator[Candidate]:
    """Each origin of `kind` a size came from (a "literal", a "computed" expression, the default of a
    command-line "option"), replaced by each other concrete size the check compared; the operation's own
    parameter (named last: `in_features` after `input features`) first."""
    values = [v for _, v in sizes(d)] + [r.value for r in d.related if r.value is not None]
    for r in reversed([r for r in d.related if r.value is not None]):
        found = _origin(r, src, _path_files(d))
        if found is None or found[2] != kind:
            continue
        path, node, _ = found
        for other in dict.fromkeys(v for v in values if v != r.value and v > 0):
            yield Candidate(f"{r.label} {ast.unparse(node)} -> {other}" if kind == "computed" else
                            f"{r.label} {r.value} -> {other}", Edit(span_of(path, node), str(other)), kind != "computed")
        tree = src.tree(path)
        batch = _batch_view(tree, node, path) if tree is not None else None
        if batch is not None:
            yield batch


def _origin(r: Related, src: Sources, files: list[str]) -> tuple[str, ast.expr, str] | None:
    """Where the size `r` names was written: (path, expression, kind) — the literal at its span, the
    `default=` of the command-line option it names, or the expression computed at its span (a whole
    expression of names and arithmetic, `len(...)` or `int(...)`)."""
    tree = src.tree(r.span.path)
    if tree is None:
        return None
    node = _literal(tree, r)
    if node is not None:
        return r.span.path, node, "literal"
    option = re.search(_OPTION + r" (--?[\w-]+)", r.message)
    if option is not None:
        found = _default_of(option.group(1), r.value, src, files)
        return (found[0], found[1], "option") if found is not None else None
    exprs = starting_at(tree, r.span.line, r.span.col)
    if exprs and isinstance(exprs[0], _COMPUTED) and not (isinstance(exprs[0], ast.Call) and callee(exprs[0]) not in (
            "len", "int")):
        return r.span.path, exprs[0], "computed"
    return None


def _default_of(option: str, value: int | None, src: Sources, files: list[str]) -> tuple[str, ast.expr] | None:
    for path in files:
        tree = src.tree(path)
        for n in ast.walk(tree) if tree is not None else ():
            if isinstance(n, ast.Call) and callee(n) == "add_argument" and any(
                    isinstance(a, ast.Constant) and a.value == option for a in n.args):
                default = next((k.value for k in n.keywords if k.arg == "default"), None)
                if default is not None and constant_value(default) == value:
                    return path, default
    return None


def _constructor(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """The module called at the finding (`self.fc2(h)`), found where the files of its path assign it
    (`self.fc2 = nn.Linear(hidden, 10)`): the argument of the parameter the check names, replaced by the size
    it was compared with. Literal-only (safe) when that argument was a literal expression."""
    tree = src.tree(d.span.path)
    call = call_at(tree, d.span) if tree is not None else None
    name = _called_name(call.func) if call is not None else None
    if name is None:
        return
    params = [(label, v) for label, v in sizes(d) if label in _PARAMS]
    for path in _path_files(d):
        for ctor in _assigned_calls(src.tree(path), name):
            for label, value in params:
                arg = next((k.value for k in ctor.keywords if k.arg == label), None)
                if arg is None and len(ctor.args) > _PARAMS[label]:
                    arg = ctor.args[_PARAMS[label]]
                if arg is None or isinstance(arg, (ast.Starred, ast.Call)):  # a Call: a container's layer
                    continue
                literal = constant_value(arg) is not None
                for other in dict.fromkeys(v for lab, v in sizes(d) if lab != label and v != value and v > 0):
                    yield Candidate(f"{label} {ast.unparse(arg)} -> {other}", Edit(span_of(path, arg), str(other)),
                                    literal)


def _dim_arguments(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """A `dim` argument written as a literal on the finding's line (`torch.cat((a, b), dim=0)`, `x.softmax(1)`,
    `x.size(0)`, `x.shape[0]`), replaced by each other small dim: a literal-only edit."""
    tree = src.tree(d.span.path)
    for n in ast.walk(tree) if tree is not None else ():
        if getattr(n, "lineno", None) != d.span.line:
            continue
        arg = _dim_of(n)
        now = constant_value(arg) if arg is not None else None
        if arg is None or now is None:
            continue
        for other in (1, 0, -1, 2):  # the batch-first layouts most programs use first
            if other != now:
                yield Candidate(f"dim {now} -> {other}", Edit(span_of(d.span.path, arg), str(other)), True)


def _dim_of(n: ast.AST) -> ast.expr | None:
    """The literal dim of a call (`dim=1`, `x.size(0)`, `torch.cat(xs, 0)`) or of `x.shape[0]`."""
    if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and n.value.attr == "shape":
        return n.slice if constant_value(n.slice) is not None else None
    if not isinstance(n, ast.Call):
        return None
    arg = next((k.value for k in n.keywords if k.arg == "dim"), None)
    if arg is None and callee(n) in _DIM_AT and len(n.args) > _DIM_AT[callee(n)]:
        arg = n.args[_DIM_AT[callee(n)]]
    return arg


def _called_name(func: ast.expr) -> str | None:
    """`self.fc2` -> "self.fc2", `fc` -> "fc"; None for anything else."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else None


def _assigned_calls(tree: ast.Module | None, name: str) -> Iterator[ast.Call]:
    for n in ast.walk(tree) if tree is not None else ():
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Call):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(_called_name(t) == name for t in targets):
                yield n.value


def _literal(tree: ast.Module, r: Related) -> ast.expr | None:
    for node in starting_at(tree, r.span.line, r.span.col):
        if constant_value(node) == r.value:
            return node
    return None


def _batch_view(tree: ast.Module, node: ast.expr, path: str) -> Candidate | None:
    """`x.view(64, -1)` -> `x.view(x.size(0), -1)`: the literal is the first size of a view/reshape."""
    call = parents(tree).get(node)
    if not (isinstance(call, ast.Call) and callee(call) in ("view", "reshape") and call.args
            and call.args[0] is node and isinstance(call.func, ast.Attribute)):
        return None
    recv = ast.unparse(call.func.value)
    return Candidate(f"{ast.unparse(node)} -> {recv}.size(0)", Edit(span_of(path, node), f"{recv}.size(0)"), False)


def _batch_views(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """A batch size written as a literal in a `view`/`reshape` of the files the finding's path runs through
    (the finding is often reported at the next layer, so the literal is in no provenance)."""
    for path in _path_files(d):
        tree = src.tree(path)
        for n in ast.walk(tree) if tree is not None else ():
            if isinstance(n, ast.Call) and n.args and _batch_like(n.args[0]):
                c = _batch_view(tree, n.args[0], path) if tree is not None else None
                if c is not None:
                    yield c


def _matmul(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """A product on the finding's line (`a @ b`, `torch.mm(a, b)`, `torch.bmm`, `torch.matmul`) with its
    operands swapped, or one of them transposed in its last two dims."""
    tree = src.tree(d.span.path)
    for n in ast.walk(tree) if tree is not None else ():
        if getattr(n, "lineno", None) != d.span.line:
            continue
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult):
            a, b = _group(ast.unparse(n.left)), _group(ast.unparse(n.right))
            forms = [f"{b} @ {a}", f"{a} @ {b}.transpose(-2, -1)", f"{a}.transpose(-2, -1) @ {b}"]
        elif isinstance(n, ast.Call) and callee(n) in ("mm", "bmm", "matmul") and len(n.args) == 2 \
                and isinstance(n.func, ast.Attribute) and ast.unparse(n.func.value) == "torch":
            f, a, b = ast.unparse(n.func), ast.unparse(n.args[0]), ast.unparse(n.args[1])
            forms = [f"{f}({b}, {a})", f"{f}({a}, {_group(b)}.transpose(-2, -1))",
                     f"{f}({_group(a)}.transpose(-2, -1), {b})"]
        else:
            continue
        for form in forms:
            yield Candidate(f"{ast.unparse(n)} -> {form}", Edit(span_of(d.span.path, n), form), False)


def _batch_like(arg: ast.expr) -> bool:
    """A first size that may be a batch size written down: a literal other than -1, or a name or
    attribute that says batch (`args.batch_size`)."""
    if isinstance(arg, (ast.Name, ast.Attribute)):
        return "batch" in ast.unparse(arg).lower()
    return constant_value(arg) not in (None, -1)


def _path_files(d: Diagnostic, related: bool = False) -> list[str]:
    """The files of the finding's path, its own first; with `related`, the files its provenance names too."""
    more = [r.span.path for r in d.related] if related else []
    return list(dict.fromkeys([d.span.path, *(f.span.path for f in reversed(d.trace)), *more]))


def _at_call(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    tree = src.tree(d.span.path)
    call = call_at(tree, d.span) if tree is not None else None
    if call is None:
        return
    args = [a for a in call.args if isinstance(a, _TENSOR_LIKE)]  # a tuple or a literal has no tensor methods
    if d.rule == DTYPE_MISMATCH.id:
        for a in args:
            for method in ("long", "float"):
                yield wrap(d.span.path, a, f".{method}()")
    elif d.rule == DEVICE_MISMATCH.id and "device" in (src.text(d.span.path) or ""):
        for a in args:
            yield wrap(d.span.path, a, ".to(device)")
    elif any(k in callee(call).lower() for k in _LOSSES) and len(call.args) >= 2 \
            and all(isinstance(a, _TENSOR_LIKE) for a in call.args[:2]):
        yield from _loss_operands(d.span.path, call.args[0], call.args[1])
    elif callee(call) == "stack" and isinstance(call.func, ast.Attribute) and ast.unparse(call.func.value) == "torch":
        yield Candidate("torch.stack -> torch.cat", Edit(span_of(d.span.path, call.func), "torch.cat"), False)
    elif len(args) == 1 and d.rule != DTYPE_MISMATCH.id:  # a layer's input in the wrong rank or layout
        for suffix in _LAYOUTS:
            yield wrap(d.span.path, args[0], suffix)


def _loss_operands(path: str, output: ast.expr, target: ast.expr) -> Iterator[Candidate]:
    """A loss whose target and output disagree in layout: a class-index target `[N, 1]` squeezed, a
    probability target shaped as the output, an output flattened to `[N, C]` or `[N]`."""
    out, tgt = ast.unparse(output), ast.unparse(target)
    yield wrap(path, target, ".squeeze(1)")
    yield wrap(path, output, ".squeeze(1)")
    yield wrap(path, target, f".view_as({out})")
    yield wrap(path, output, f".view({_group(tgt)}.shape)")
    yield wrap(path, output, f".view(-1, {_group(out)}.size(-1))")
    yield wrap(path, target, ".view(-1)")
    yield wrap(path, output, ".view(-1)")
    yield wrap(path, output, ".transpose(1, 2)")  # class scores [N, T, C] for targets [N, T]
    if isinstance(output, ast.Subscript) and isinstance(target, (ast.Name, ast.Attribute)):  # rows picked from one
        yield wrap(path, target, f"[{ast.unparse(output.slice)}]")


def _group(text: str) -> str:
    return text if text.isidentifier() or text.replace(".", "").isidentifier() else f"({text})"


def _drop_last(d: Diagnostic, src: Sources) -> Iterator[Candidate]:
    """`drop_last=True` on the DataLoader whose short last batch the finding's provenance names (the size's
    origin is the loader's call)."""
    for r in d.related:
        tree = src.tree(r.span.path) if "last batch" in r.message else None
        for n in starting_at(tree, r.span.line, r.span.col) if tree is not None else ():
            if isinstance(n, ast.Call) and callee(n) == "DataLoader" and n.end_lineno is not None \
                    and not any(k.arg in ("drop_last", None) for k in n.keywords):
                at = (n.end_col_offset or 1) - 1  # before the closing parenthesis
                end = Span(r.span.path, n.end_lineno, at, n.end_lineno, at)
                yield Candidate("drop_last=True", Edit(end, ", drop_last=True"), False)
