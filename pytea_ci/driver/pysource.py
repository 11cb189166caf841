"""What a Python file binds and which command-line options it declares, read from its source without
running it: the one reader of "assigned once in this scope" and of argparse declarations.

`bindings` maps each name bound in a function (or a module body) to its one value, or None when it is
bound otherwise or more than once (not followed); `assigned_once` is the stricter rule for following an
object through a name (any store through the name stops it); `FileFacts` holds a file's top-level bindings, its
imports and its argparse defaults (`cli_defaults`: what the script does when run without arguments),
and the bindings of each of its functions on demand; `option_dest` is the dest argparse computes and
`declarations` every option a file declares, with its `type=`.
Library mode's construction sites (`library/sites.py`) and callers (`library/callers.py`) and the
`--arg` check (`sanity.py`) read files through it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass
class Scope:
    """The names bound in one function (or the module): name -> its one value, or None (bound otherwise,
    or more than once: not followed)."""

    values: dict[str, ast.expr | None]
    body: list[ast.stmt]


def _origin(alias: ast.alias, node: ast.Import | ast.ImportFrom) -> str:
    if isinstance(node, ast.Import):
        return alias.name if alias.asname else alias.name.split(".")[0]
    return "." * node.level + (node.module or "") + "." + alias.name


def _bind(values: dict[str, ast.expr | None], name: str, value: ast.expr | None) -> None:
    values[name] = value if name not in values else None


def bindings(body: list[ast.stmt], params: list[str]) -> dict[str, ast.expr | None]:
    """Every name bound in `body` (not in nested functions or classes, which bind only their own name)."""
    values: dict[str, ast.expr | None] = {p: None for p in params}
    todo: list[ast.AST] = list(body)
    while todo:
        st = todo.pop(0)
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            _bind(values, st.name, None)
            continue
        if isinstance(st, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            _bind(values, st.targets[0].id, st.value)
        elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], (ast.Tuple, ast.List)) \
                and not any(isinstance(e, ast.Starred) for e in st.targets[0].elts):
            for i, e in enumerate(st.targets[0].elts):  # `h, w = SIZE`: SIZE[0], SIZE[1]
                if isinstance(e, ast.Name):
                    _bind(values, e.id, ast.Subscript(st.value, ast.Constant(i), ast.Load()))
                else:
                    todo.append(e)
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
            _bind(values, st.target.id, st.value)
        elif isinstance(st, ast.Name) and not isinstance(st.ctx, ast.Load):
            _bind(values, st.id, None)
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            for a in st.names:
                _bind(values, (a.asname or a.name).split(".")[0], None)
        elif isinstance(st, (ast.Global, ast.Nonlocal)):
            for n in st.names:
                _bind(values, n, None)
        elif isinstance(st, ast.ExceptHandler) and st.name:
            _bind(values, st.name, None)
        if not isinstance(st, ast.Assign) or len(st.targets) != 1 or not isinstance(st.targets[0], (ast.Name, ast.Tuple,
                                                                                                    ast.List)):
            todo += list(ast.iter_child_nodes(st))
        else:
            todo.append(st.value)
    return values


def assigned_once(body: list[ast.stmt]) -> dict[str, ast.expr | None]:
    """name -> its value when one plain `name = value` is the only statement of this scope (not inside
    nested functions or classes) that stores through the name, else None: for following an object (a
    model, an input tensor) rather than a name, so an item or attribute store (`x[0] = ...`), a tuple
    or annotated target, an augmented assignment or a `for` target stops it too, where `bindings`
    follows those. Statements inside `except` handlers are not read."""
    out: dict[str, list[ast.expr]] = {}
    todo = list(body)
    while todo:
        st = todo.pop(0)
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            out.setdefault(st.targets[0].id, []).append(st.value)
        elif isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
            targets = st.targets if isinstance(st, ast.Assign) else [getattr(st, "target", None)]
            for t in targets:
                for n in ast.walk(t) if t is not None else []:
                    if isinstance(n, ast.Name):
                        out.setdefault(n.id, []).append(_STORED)  # not followed
        for field in ("body", "orelse", "finalbody", "handlers"):
            todo += [s for s in getattr(st, field, []) if isinstance(s, ast.stmt)]
    return {name: values[0] if len(values) == 1 and values[0] is not _STORED else None
            for name, values in out.items()}


_STORED = ast.Constant(None)  # a store through the name other than `name = value`


class FileFacts:
    """What one file binds at its top level, its imports and its command-line defaults."""

    def __init__(self, path: str, tree: ast.Module) -> None:
        self.path, self.tree = path, tree
        self.module = Scope(bindings(tree.body, []), tree.body)
        self.defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        self.imports: dict[str, str] = {}
        for st in tree.body:  # top-level imports, also under `if`/`try` (an import bound twice: neither)
            for node in ast.walk(st) if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ():
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    for a in node.names:
                        name = a.asname or a.name.split(".")[0]
                        self.imports[name] = _origin(a, node) if name not in self.imports and a.name != "*" else ""
        for g in ast.walk(tree):
            if isinstance(g, ast.Global):
                for n in g.names:
                    self.module.values[n] = None
        self.options = cli_defaults(tree)
        self._scopes: dict[int, Scope] = {}

    def scope(self, fn: ast.FunctionDef | ast.AsyncFunctionDef | None) -> Scope:
        if fn is None:
            return self.module
        if id(fn) not in self._scopes:
            a = fn.args
            params = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
            params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
            self._scopes[id(fn)] = Scope(bindings(fn.body, params), fn.body)
        return self._scopes[id(fn)]


def cli_defaults(tree: ast.Module) -> dict[str, ast.expr | None]:
    """dest -> the default of `add_argument(...)` in this file (None: required, given twice, changed, or
    an action whose value is not its default); `{}` when the file changes its parsed options wholesale."""
    out: dict[str, ast.expr | None] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in ("set_defaults", "parse_known_args") or (
                isinstance(node.func, ast.Attribute) and node.func.attr == "parse_args" and node.args):
            return {}
        if node.func.attr == "add_argument" and node.args:
            dest, default = _option(node)
            if dest:
                out[dest] = default if dest not in out else None
    for node in ast.walk(tree):  # `args.x = ...`, `setattr(args, ...)`, `vars(args)`: not the defaults
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and node.attr in out and \
                not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            out[node.attr] = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "vars") or \
                isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return {}
    return out


def option_dest(call: ast.Call, every_name: bool = True) -> str | None:
    """The dest argparse computes for `add_argument(...)`; None when it is not a constant (a `dest=`
    not a string; a name not a string constant, or, with `every_name` False, no name that is)."""
    for kw in call.keywords:
        if kw.arg == "dest":
            return kw.value.value if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str) else None
    names = _names(call)
    if not names or every_name and len(names) != len(call.args):
        return None
    long = [n for n in names if n.startswith("--")]
    return (long or names)[0].lstrip("-").replace("-", "_")


def _names(call: ast.Call) -> list[str]:
    return [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]


def _option(call: ast.Call) -> tuple[str, ast.expr | None]:
    """(dest, default) of one `add_argument(...)`: "" when the dest is not an identifier."""
    names = _names(call)
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    dest = option_dest(call, every_name=False) or ""
    dest = dest if dest.isidentifier() else ""
    action = kw.get("action")
    act = action.value if isinstance(action, ast.Constant) else None if action is None else "?"
    if act in ("store_true", "store_false"):
        return dest, ast.Constant(act == "store_false") if "default" not in kw else kw["default"]
    if act is not None and act != "store" or (names and not names[0].startswith("-") and "nargs" not in kw):
        return dest, None  # another action, or a positional argument: given on the command line
    if _true(kw.get("required")):
        return dest, None
    default = kw.get("default", ast.Constant(None))
    if "type" in kw and isinstance(default, ast.Constant) and isinstance(default.value, str):
        return dest, None  # argparse converts a string default with `type`
    return dest, default


def _true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and bool(node.value)


@dataclass
class Declarations:
    """The command-line options one file declares: every argparse dest (and `set_defaults` name, and a
    subparsers' `dest`), None when one is computed (anything may exist); and per dest the `type=` names
    its `add_argument` calls give (`int`, `float`; "?" for anything else, "" for none)."""

    dests: set[str] | None
    types: dict[str, set[str]]


def declarations(tree: ast.Module) -> Declarations:
    dests: set[str] | None = set()
    types: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr == "add_argument":
            dest = option_dest(node)
            if dest is None:
                dests = None
                continue
            kind = next((kw.value for kw in node.keywords if kw.arg == "type"), None)
            types.setdefault(dest, set()).add("" if kind is None else kind.id if isinstance(kind, ast.Name) else "?")
            if dests is not None:
                dests.add(dest)
        elif node.func.attr == "add_subparsers" and dests is not None:  # `dest` names the subcommand
            dests.update(kw.value.value for kw in node.keywords if kw.arg == "dest"
                         and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str))
        elif node.func.attr == "set_defaults" and dests is not None:
            if any(kw.arg is None for kw in node.keywords):
                dests = None
            else:
                dests.update(kw.arg for kw in node.keywords if kw.arg)
    return Declarations(dests, types)
