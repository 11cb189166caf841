"""Python operators over abstract values: dims fold or become terms, tensors go to their models,
concrete values use Python itself, and anything involving Unknown is Unknown."""

from __future__ import annotations

import ast
import operator
from typing import Any

from pytea_ci.models import contents, registry
from pytea_ci.models.values import Unknown, is_concrete
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import MACHINE, Term, is_dim, symbols
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.tensor import Tensor

BINOPS: dict[type, tuple[str, Any]] = {
    ast.Add: ("add", operator.add), ast.Sub: ("sub", operator.sub), ast.Mult: ("mul", operator.mul),
    ast.Div: ("truediv", operator.truediv), ast.FloorDiv: ("floordiv", operator.floordiv),
    ast.Mod: ("mod", operator.mod), ast.Pow: ("pow", operator.pow), ast.MatMult: ("matmul", operator.matmul),
    ast.BitAnd: ("and", operator.and_), ast.BitOr: ("or", operator.or_), ast.BitXor: ("xor", operator.xor),
    ast.LShift: ("lshift", operator.lshift), ast.RShift: ("rshift", operator.rshift),
}

CMPOPS: dict[type, tuple[str, Any]] = {
    ast.Eq: ("eq", operator.eq), ast.NotEq: ("ne", operator.ne), ast.Lt: ("lt", operator.lt),
    ast.LtE: ("le", operator.le), ast.Gt: ("gt", operator.gt), ast.GtE: ("ge", operator.ge),
}

_DIM_BIN = {"add", "sub", "mul", "floordiv", "mod"}


def tensor_method(t: Tensor, name: str) -> Any:
    lib = "numpy.ndarray" if getattr(t, "lib", "torch") == "numpy" else "torch.Tensor"
    return registry.get(f"{lib}.{name}")


def dim_binop(name: str, a: Any, b: Any) -> Any:
    if name == "sub":
        return a - b
    return {"add": operator.add, "mul": operator.mul, "floordiv": operator.floordiv, "mod": operator.mod}[name](a, b)


def compare_dims(name: str, a: Any, b: Any) -> Any:
    return {"eq": P.eq, "ne": P.ne, "lt": P.lt, "le": P.le, "gt": P.gt, "ge": P.ge}[name](a, b)


def compare_seq(name: str, a: tuple, b: tuple) -> Any:
    """Sizes compared with tuples (`x.shape == (3, 4)`) when some dim is symbolic."""
    if name not in ("eq", "ne"):
        return Unknown("ordered comparison of sizes")
    if len(a) != len(b):
        return name == "ne"
    parts = []
    for x, y in zip(a, b):
        if is_dim(x) and is_dim(y):
            parts.append(P.eq(x, y))
        elif is_concrete(x) and is_concrete(y):
            parts.append(x == y)
        else:
            return Unknown("comparison")
    c = P.and_(*parts)
    return c if name == "eq" else P.not_(c)


def truth(v: Any) -> Any:
    """bool, a Pred, or Unknown."""
    if isinstance(v, (bool, Pred)):
        return v
    if isinstance(v, Term):
        return P.ne(v, 0)
    if isinstance(v, Unknown) and (bounded := contents.truth(v)) is not None:
        return bounded
    if isinstance(v, Tensor) and (one := contents.elements(v)) is not None and len(one) == 1 and one[0][0] == one[0][1]:
        return bool(one[0][0])  # a one-element tensor of known contents (`torch.rand([]) < 0.0` of LayerDrop)
    if isinstance(v, Tensor) and v.vrange is not None and isinstance(v.vrange.lo, int) and v.vrange.lo == v.vrange.hi \
            and v.shape is not None and all(d == 1 for d in v.shape if isinstance(d, int)) \
            and all(isinstance(d, int) for d in v.shape):
        return bool(v.vrange.lo)  # a one-element tensor whose value is one number (`if mask.sum() == mask.numel()`)
    if isinstance(v, (Unknown, Tensor)):
        return Unknown("truth value")
    if is_concrete(v):
        return bool(v)
    if isinstance(v, (list, tuple, dict, set)):
        return len(v) > 0
    return True


def on_machine(cond: Any) -> bool:
    """A condition about the machine the program runs on (it involves a MACHINE symbol)."""
    return isinstance(cond, Pred) and any(s.kind == MACHINE for s in symbols(cond))


def has_sym(*vs: Any) -> bool:
    return any(isinstance(v, Term) for v in vs)


def contains_term(v: Any) -> bool:
    if isinstance(v, Term):
        return True
    if isinstance(v, (tuple, list)):
        return any(contains_term(x) for x in v)
    return False
