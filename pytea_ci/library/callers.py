"""Library mode: the inputs the project's own call sites pass to a module (DESIGN §3, "callers are
evidence"), read from the source without running it.

A call site is evidence when every tensor argument has a literal shape:
`Net()(torch.randn(2, 1, 28, 28))`, or `net = Net(...)` / `x = torch.zeros((2, 1, 28, 28))` earlier in
the same function (or module body) and then `net(x)` or `net.forward(x)`; or what the module's own
helper returns, `net.init_hidden()` returning `torch.zeros(self.n_layers, 1, self.hidden_size)`, with
the attributes `__init__` sets from the construction's literal arguments. A name assigned more
than once in that scope, or stored through otherwise (`driver/pysource.assigned_once`), is not followed.
An input is evidence for the module built as its call site builds it (`Net(4)` with literal
arguments). Library mode runs the module on each such input as well (`library/verdict.py`): a module
that fails on every input its callers pass is an error at the failing statement, with the call site as
a related location. A call is the class's only when the name called resolves to it through the file's
imports (`from model import Net` finds `model.py` beside the file or at the root), never by name
alone: a project may define many classes called `Net`.
"""

from __future__ import annotations

import ast
import copy
import os
from dataclasses import dataclass

from pytea_ci.driver import fs
from pytea_ci.driver.pysource import assigned_once
from pytea_ci.interp.search_path import search_roots
from pytea_ci.library import ast_index
from pytea_ci.library.inputs import CallerInput

Bound = dict[str, "ast.expr | None"]  # name -> its one value in a scope (`pysource.assigned_once`)

MAX_CALLERS = 3  # distinct caller inputs per module
_WRAPPERS = ("to", "eval", "train", "cuda", "cpu", "float", "double")
_FACTORIES = {"randn", "rand", "zeros", "ones", "empty", "randint", "full", "randn_like"}


def _shape(node: ast.expr) -> tuple[int, ...] | None:
    """The literal shape of `torch.randn(2, 3)`, `torch.zeros((2, 3))`, `torch.randint(0, 10, (2, 3))`."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _FACTORIES
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"):
        return None
    args = list(node.args)
    if node.func.attr == "randint":
        args = args[-1:] if args and isinstance(args[-1], (ast.Tuple, ast.List)) else []
    elif node.func.attr == "full":
        args = args[:1]
    size = next((k.value for k in node.keywords if k.arg == "size"), None)
    if size is not None:
        args = [size]
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = list(args[0].elts)
    dims = [a.value for a in args if isinstance(a, ast.Constant) and type(a.value) is int]
    return tuple(dims) if dims and len(dims) == len(args) and all(d > 0 for d in dims) else None


@dataclass(frozen=True)
class Names:
    """How one file names the class: bare names bound to it, and names bound to its module."""

    bare: frozenset[str]
    modules: frozenset[str] = frozenset()
    # (name, the factory of the class's file it is bound to, what calling it without arguments builds)
    factories: tuple[tuple[str, str, str], ...] = ()


def factories(tree: ast.Module, cls: str) -> dict[str, str]:
    """The top-level functions of the class's own file whose every `return` builds `cls`
    (`def ResNet18(): return ResNet(BasicBlock, [2, 2, 2, 2])`): an instance they return is one of `cls`;
    each with what a call without arguments builds, as written: the construction it returns when it has
    no parameters and one `return` (the same construction as that call site's, checked once), else the call."""
    out = {}
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        returns = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return)]
        if returns and all(isinstance(v, ast.Call) and isinstance(v.func, (ast.Name, ast.Attribute))
                           and ast.unparse(v.func).rsplit(".", 1)[-1] == cls for v in returns):
            a = fn.args
            bare = not (a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg) and len(returns) == 1 \
                and isinstance(returns[0], ast.Call) and isinstance(returns[0].func, ast.Name)
            out[fn.name] = ast.unparse(returns[0]) if bare and returns[0] is not None else f"{fn.name}()"
    return out


def _module_file(dotted: str, level: int, importer: str, root: str) -> str | None:
    """The project file an import names (from the importer's home or the root, as the importer run would
    look it up: interp/search_path.py; relative imports from the importer's package); None when no such
    file exists (an installed package, a path set at run time)."""
    if level:
        base = os.path.dirname(importer)
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases = [base]
    else:
        bases = list(search_roots(importer, root, fs.isfile))
    parts = [p for p in dotted.split(".") if p]
    for b in bases:
        stem = os.path.join(b, *parts)
        for cand in (stem + ".py", os.path.join(stem, "__init__.py")):
            if fs.isfile(cand):
                return os.path.abspath(cand)
    return None


def _is_own(dotted: str, level: int, importer: str, root: str, own: str) -> bool:
    """Whether an import names the class's module (its package's `__init__` re-exporting it counts);
    by the module's name when the import names no project file."""
    found = _module_file(dotted, level, importer, root)
    if found is None:
        return dotted.split(".")[-1] == os.path.splitext(os.path.basename(own))[0]
    return found == own or (found.endswith("__init__.py") and own.startswith(os.path.dirname(found) + os.sep))


def names_for(tree: ast.Module, path: str, own: str, cls: str, root: str,
              made: dict[str, str] | None = None) -> Names:
    """The names under which the file `path` refers to `cls` defined in `own` (`made`: the factories
    of `own` that build it, `factories`)."""
    if os.path.abspath(path) == own:
        return Names(frozenset({cls}), factories=tuple((f, f, b) for f, b in sorted((made or {}).items())))
    if any(isinstance(n, ast.ClassDef) and n.name == cls for n in tree.body):
        return Names(frozenset())  # its own class of that name
    bare: set[str] = set()
    modules: set[str] = set()
    built: set[tuple[str, str, str]] = set()
    made = made or {}
    for node in ast_index.imports(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if a.name == cls and _is_own(node.module or "", node.level, path, root, own):
                    bare.add(a.asname or cls)
                elif a.name in made and _is_own(node.module or "", node.level, path, root, own):
                    built.add((a.asname or a.name, a.name, made[a.name]))
                elif a.name != cls and _is_own(".".join(filter(None, [node.module, a.name])), node.level, path, root, own):
                    modules.add(a.asname or a.name)  # `from pkg import model`
        elif isinstance(node, ast.Import):
            for a in node.names:
                if _is_own(a.name, 0, path, root, own):
                    modules.add(a.asname or a.name.split(".")[-1])
    return Names(frozenset(bare), frozenset(modules), tuple(sorted(built)))


def _builds(node: ast.expr, cls: str, names: Names | None = None) -> str | None:
    """`Cls(...)`, `mod.Cls(...)`, possibly followed by `.to(...)`, `.eval()`, `.cuda()`: the construction
    as library mode writes it (`Cls(4, dim=8)`, as `library.call_sites` does); None otherwise."""
    node = _unwrap(node)
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    names = names if names is not None else Names(frozenset({cls}), frozenset({"*"}))
    factory = next((f for f in names.factories if isinstance(node.func, ast.Name) and f[0] == node.func.id), None)
    if factory is not None and _literal(node):  # `ResNet18()`, evaluated in the class's module as its factories are
        return factory[2] if not (node.args or node.keywords) else ast.unparse(ast.Call(ast.Name(factory[1]),
                                                                                        node.args, node.keywords))
    if not ((isinstance(f, ast.Name) and f.id in names.bare) or (
            isinstance(f, ast.Attribute) and f.attr == cls and ("*" in names.modules or (
                isinstance(f.value, ast.Name) and f.value.id in names.modules)))):
        return None
    args = [ast.unparse(a) for a in node.args] + [f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords]
    return f"{cls}({', '.join(args)})"


def _literal(call: ast.Call) -> bool:
    """Every argument a literal: the call means the same in the class's module."""
    try:
        for a in call.args + [k.value for k in call.keywords]:
            ast.literal_eval(a)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return False
    return not any(k.arg is None for k in call.keywords)


def _unwrap(node: ast.expr) -> ast.expr:
    """`Cls(...)` of `Cls(...).to(device).eval()`."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _WRAPPERS:
        node = node.func.value
    return node


def _method(cls: ast.ClassDef | None, name: str) -> ast.FunctionDef | None:
    return next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == name), None) if cls else None


def _attributes(cls: ast.ClassDef, built: ast.Call) -> dict[str, ast.expr]:
    """`self.X = param` (or a literal) in `__init__`, with the parameters as `built` passes them (or
    their defaults): attribute -> its literal value."""
    init = _method(cls, "__init__")
    if init is None:
        return {}
    params = [a.arg for a in init.args.args[1:]]
    values: dict[str, ast.expr] = dict(zip(params[len(params) - len(init.args.defaults):], init.args.defaults))
    values.update(zip(params, built.args))
    values.update({k.arg: k.value for k in built.keywords if k.arg})
    out: dict[str, ast.expr] = {}
    for st in init.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(t := st.targets[0], ast.Attribute) \
                and isinstance(t.value, ast.Name) and t.value.id == "self":
            v = values.get(st.value.id) if isinstance(st.value, ast.Name) else st.value
            if isinstance(v, ast.Constant):
                out[t.attr] = v
    return out


class _Self(ast.NodeTransformer):
    def __init__(self, attrs: dict[str, ast.expr]) -> None:
        self.attrs = attrs

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr in self.attrs:
            return self.attrs[node.attr]
        return self.generic_visit(node)  # type: ignore[return-value]


def _helper(node: ast.expr, assigned: Bound, cls: ast.ClassDef | None) -> ast.expr | None:
    """What the module's own helper returns, `encoder.init_hidden()` -> `torch.zeros(1, 1, 100)` for
    `encoder = EncoderRNN(128, 100)`: its one `return` of a factory call (or of a name bound once to one),
    `self.X` read from the construction; None otherwise."""
    if not (isinstance(node, ast.Call) and not node.args and not node.keywords and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)):
        return None
    built = _unwrap(assigned.get(node.func.value.id) or ast.Constant(None))
    method = _method(cls, node.func.attr)
    returns = [r.value for r in ast.walk(method) if isinstance(r, ast.Return) and r.value] if method else []
    if cls is None or not isinstance(built, ast.Call) or len(returns) != 1:
        return None
    value = returns[0]
    if isinstance(value, ast.Name):
        value = assigned_once(method.body).get(value.id) if method else None  # type: ignore[assignment]
    return _Self(_attributes(cls, built)).visit(copy.deepcopy(value)) if value is not None else None


def _inputs(call: ast.Call, assigned: Bound, cls: ast.ClassDef | None = None) -> tuple[tuple[int, ...], ...] | None:
    if call.keywords or not call.args:
        return None
    shapes = []
    for a in call.args:
        value = assigned.get(a.id) if isinstance(a, ast.Name) else a
        value = (_helper(value, assigned, cls) or value) if value is not None else None
        shape = _shape(value) if value is not None else None
        if shape is None:
            return None
        shapes.append(shape)
    return tuple(shapes)


def _model(func: ast.expr, cls: str, assigned: Bound, names: Names | None = None) -> str | None:
    """The construction of the model called by `func(...)`, when it is an instance of `cls`."""
    if isinstance(func, ast.Attribute) and func.attr == "forward":
        func = func.value
    if isinstance(func, ast.Name):
        value = assigned.get(func.id)
        return _builds(value, cls, names) if value is not None else None
    return _builds(func, cls, names)


def caller_inputs(cls: str, trees: dict[str, ast.Module], root: str, tensors: int,
                  own: str | None = None) -> tuple[CallerInput, ...]:
    """The distinct inputs of `tensors` tensors the files of `trees` pass to `cls` (defined in `own`:
    only the calls that resolve to it; None: any class of that name), each with the construction of
    the instance called (evidence only for a module built that way)."""
    out: dict[tuple[str, tuple[tuple[int, ...], ...]], CallerInput] = {}
    made = factories(trees[own], cls) if own is not None and own in trees else {}
    defined = next((n for n in trees[own].body if isinstance(n, ast.ClassDef) and n.name == cls), None) \
        if own is not None and own in trees else None
    for path, tree in sorted(trees.items()):
        names = names_for(tree, path, os.path.abspath(own), cls, root, made) if own is not None else None
        if names is not None and not (names.bare or names.modules or names.factories):
            continue
        for scope in ast_index.call_scopes(tree):
            for node in scope.calls:
                built = _model(node.func, cls, scope.assigned, names)
                shapes = _inputs(node, scope.assigned, defined) if built is not None else None
                if built is not None and shapes is not None and len(shapes) == tensors and (built, shapes) not in out:
                    out[(built, shapes)] = CallerInput(shapes, os.path.relpath(path, root), path, node.lineno,
                                                       node.col_offset, built)
    return tuple(out.values())
