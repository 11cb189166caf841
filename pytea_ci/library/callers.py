"""Library mode: the inputs the project's own call sites pass to a module (DESIGN §3, "callers are
evidence"), read from the source without running it.

A call site is evidence when every tensor argument has a literal shape:
`Net()(torch.randn(2, 1, 28, 28))`, or `net = Net(...)` / `x = torch.zeros((2, 1, 28, 28))` earlier in
the same function (or module body) and then `net(x)` or `net.forward(x)`. A name assigned more
than once in that scope, or stored through otherwise (`driver/pysource.assigned_once`), is not followed.
An input is evidence for the module built as its call site builds it (`Net(4)` with literal
arguments). Library mode runs the module on each such input as well (`library/verdict.py`): a module
that fails on every input its callers pass is an error at the failing statement, with the call site as
a related location.
"""

from __future__ import annotations

import ast
import os

from pytea_ci.driver.pysource import assigned_once
from pytea_ci.library.inputs import CallerInput

Bound = dict[str, "ast.expr | None"]  # name -> its one value in a scope (`pysource.assigned_once`)

MAX_CALLERS = 3  # distinct caller inputs per module
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


def _builds(node: ast.expr, cls: str) -> str | None:
    """`Cls(...)`, `mod.Cls(...)`, possibly followed by `.to(...)`, `.eval()`, `.cuda()`: the construction
    as library mode writes it (`Cls(4, dim=8)`, as `library.call_sites` does); None otherwise."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
            "to", "eval", "train", "cuda", "cpu", "float", "double"):
        node = node.func.value
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if not ((isinstance(f, ast.Name) and f.id == cls) or (isinstance(f, ast.Attribute) and f.attr == cls)):
        return None
    args = [ast.unparse(a) for a in node.args] + [f"{k.arg}={ast.unparse(k.value)}" for k in node.keywords]
    return f"{cls}({', '.join(args)})"


def _scopes(tree: ast.Module) -> list[list[ast.stmt]]:
    bodies: list[list[ast.stmt]] = [tree.body]
    bodies += [n.body for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return bodies


def _inputs(call: ast.Call, assigned: Bound) -> tuple[tuple[int, ...], ...] | None:
    if call.keywords or not call.args:
        return None
    shapes = []
    for a in call.args:
        value = assigned.get(a.id) if isinstance(a, ast.Name) else a
        shape = _shape(value) if value is not None else None
        if shape is None:
            return None
        shapes.append(shape)
    return tuple(shapes)


def _model(func: ast.expr, cls: str, assigned: Bound) -> str | None:
    """The construction of the model called by `func(...)`, when it is an instance of `cls`."""
    if isinstance(func, ast.Attribute) and func.attr == "forward":
        func = func.value
    if isinstance(func, ast.Name):
        value = assigned.get(func.id)
        return _builds(value, cls) if value is not None else None
    return _builds(func, cls)


def caller_inputs(cls: str, trees: dict[str, ast.Module], root: str, tensors: int) -> tuple[CallerInput, ...]:
    """The distinct inputs of `tensors` tensors the files of `trees` pass to `cls`, each with the
    construction of the instance called (evidence only for a module built that way)."""
    out: dict[tuple[str, tuple[tuple[int, ...], ...]], CallerInput] = {}
    for path, tree in sorted(trees.items()):
        for body in _scopes(tree):
            assigned = assigned_once(body)
            for st in body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                for node in ast.walk(st):
                    if not isinstance(node, ast.Call):
                        continue
                    built = _model(node.func, cls, assigned)
                    shapes = _inputs(node, assigned) if built is not None else None
                    if built is not None and shapes is not None and len(shapes) == tensors and (built, shapes) not in out:
                        out[(built, shapes)] = CallerInput(shapes, os.path.relpath(path, root), path, node.lineno,
                                                           node.col_offset, built)
    return tuple(out.values())
