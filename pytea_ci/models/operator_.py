"""`operator`'s functions of one and two operands (`operator.neg`, `operator.add`, `operator.lt`, ...),
`operator.getitem`, `operator.index` and `operator.contains`: what the program's own operator computes,
by the interpreter's rules for it (sizes stay symbols, tensors go to their models, instances to their
dunder methods)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import register
from pytea_ci.models.values import Builtin, EnumMember, plain_member
from pytea_ci.shapes.dim import is_dim

_ARITHMETIC = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv", "floordiv": "floordiv",
               "mod": "mod", "pow": "pow", "matmul": "matmul", "and_": "and", "or_": "or", "xor": "xor",
               "lshift": "lshift", "rshift": "rshift"}
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")
_UNARY = {"neg": "neg", "pos": "pos", "invert": "invert", "inv": "invert", "not_": "not"}


def _binary(op: str, compare: bool) -> Any:
    def run(ctx: Ctx, a: Any, b: Any) -> Any:
        return ctx.compare_values(op, a, b) if compare else ctx.binary_values(op, a, b)

    return run


for _name, _op in _ARITHMETIC.items():
    register(f"operator.{_name}", Builtin(f"operator.{_name}", _binary(_op, False)))
for _name in _COMPARISONS:
    register(f"operator.{_name}", Builtin(f"operator.{_name}", _binary(_name, True)))
for _name, _op in _UNARY.items():
    register(f"operator.{_name}", Builtin(f"operator.{_name}", lambda ctx, a, _op=_op: ctx.unary_values(_op, a)))
register("operator.getitem", Builtin("operator.getitem", lambda ctx, obj, idx: ctx.getitem(obj, idx)))


def _index(ctx: Ctx, a: Any) -> Any:
    """`operator.index(a)`: an int (or a size) as it is, a bool as its int; what else defines
    `__index__` is not followed; a float or a str is CPython's TypeError."""
    if isinstance(a, bool):
        return int(a)
    if is_dim(a):
        return plain_member(a) if isinstance(a, EnumMember) else a
    if isinstance(a, (float, str)):
        ctx.user_error("TypeError", f"'{type(a).__name__}' object cannot be interpreted as an integer")
    return ctx.unknown("operator.index")


register("operator.index", Builtin("operator.index", _index))
register("operator.contains", Builtin("operator.contains", lambda ctx, a, b: ctx.compare_values("in", b, a)))
