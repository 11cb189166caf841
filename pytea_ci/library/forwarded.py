"""Constructor parameters passed through: what a class's `__init__` hands its `*args` / `**kwargs` to.

`class DistillableViT(ViT): def __init__(self, *args, **kwargs): super().__init__(*args, **kwargs)` and
`GroupedResidualVQ(dim, groups, **kwargs)` building `ResidualVQ(dim=dim_per_group, **kwargs)` need, from
their user, the required parameters of the callee (ViT's `image_size`, `dim`, ...; ResidualVQ's
`num_quantizers`, `codebook_size`). Built with none, CPython raises a TypeError in the constructor and
library mode checked nothing of the module. Read from the source, never run: the callee is `super()`'s
`__init__` (the class's bases among the project's classes) or a project class called by name, one
candidate only; its required parameters not given at that call, nor parameters of the outer constructor,
become keyword arguments of the construction (positional-only ones cannot: then nothing is added).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

MAX_DEPTH = 4  # a callee that passes its own **kwargs on is followed this deep

Resolve = Callable[[str], "ast.FunctionDef | None"]


def _splats(call: ast.Call, args: str | None, kwargs: str | None) -> bool:
    return any(isinstance(k.value, ast.Name) and k.arg is None and k.value.id == kwargs for k in call.keywords) or \
        any(isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == args for a in call.args)


def _is_super_init(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, ast.Call) \
        and isinstance(f.value.func, ast.Name) and f.value.func.id == "super"


def _callee_name(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, (ast.Name, ast.Attribute)):
        return f.value.id if isinstance(f.value, ast.Name) else f.value.attr  # `Base.__init__(self, **kwargs)`
    return f.attr if isinstance(f, ast.Attribute) else None


def required(init: ast.FunctionDef, base_init: Callable[[], "ast.FunctionDef | None"], resolve: Resolve,
             depth: int = 0) -> list[ast.arg] | None:
    """The required parameters the callees of `init`'s `*args` / `**kwargs` need and `init` does not give
    them, in order, each once; None when one cannot be given as a keyword (positional-only)."""
    a = init.args
    if (a.vararg is None and a.kwarg is None) or depth >= MAX_DEPTH:
        return []
    own = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    out: dict[str, ast.arg] = {}
    for call in (n for n in ast.walk(init) if isinstance(n, ast.Call)):
        if not _splats(call, a.vararg.arg if a.vararg else None, a.kwarg.arg if a.kwarg else None):
            continue
        if _is_super_init(call):
            callee = base_init()
        else:
            name = _callee_name(call)
            callee = resolve(name) if name else None
            if callee is not None and isinstance(call.func, ast.Attribute) and call.func.attr == "__init__":
                positional = [x for x in call.args if not isinstance(x, ast.Starred)][1:]  # (`self` first)
                call = ast.Call(call.func, positional, call.keywords)
        if callee is None:
            continue
        b = callee.args
        params = (b.posonlyargs + b.args)[1:]  # (an `__init__`: `self` first)
        needed = params[:len(params) - len(b.defaults)] if b.defaults else params
        needed = needed + [p for p, d in zip(b.kwonlyargs, b.kw_defaults) if d is None]
        given = {k.arg for k in call.keywords if k.arg} | {p.arg for p in params[:sum(
            not isinstance(x, ast.Starred) for x in call.args)]}
        for p in needed:
            if p.arg in given or p.arg in own or p.arg in out:
                continue
            if p in b.posonlyargs:
                return None
            out[p.arg] = p
        deeper = required(callee, lambda: None, resolve, depth + 1)  # passed on again (its own `super()`: not followed)
        if deeper is None:
            return None
        for p in deeper:
            if p.arg not in own and p.arg not in given:
                out.setdefault(p.arg, p)
    return list(out.values())
