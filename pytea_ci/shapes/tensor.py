"""The abstract tensor (a shape of dims plus a dtype) and shape formatting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from pytea_ci.diagnostics import Span
from pytea_ci.shapes.dim import Dim, prod
from pytea_ci.shapes.vrange import ValueRange

FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")
INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8")


class Origin(NamedTuple):
    """Where a value not understood was born (`span`) and what made it (`what`, e.g. "torch.load result")."""

    span: Span
    what: str


@dataclass(frozen=True)
class Tensor:
    """`shape` is None when even the rank is unknown; `dtype` is None when unknown."""

    shape: tuple[Dim, ...] | None
    dtype: str | None = "float32"
    lib: str = "torch"  # "numpy" for ndarrays, which follow the same shape rules
    # Element strides when the memory layout is known (fresh tensors and views of them); None when
    # it is not known. Only `view` reads them; they take no part in equality.
    strides: tuple[int, ...] | None = field(default=None, compare=False)
    # Where a tensor of unknown shape came from (see `Origin`); no part in equality either.
    origin: Origin | None = field(default=None, compare=False)
    # The values of an integer tensor where the program makes them known (see `vrange`); no part in equality.
    vrange: ValueRange | None = field(default=None, compare=False)

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def numel(self) -> Dim | None:
        return None if self.shape is None else prod(self.shape)

    def with_shape(self, shape: "tuple[Dim, ...] | None", dtype: str | None = "") -> "Tensor":
        return Tensor(shape, self.dtype if dtype == "" else dtype, self.lib)

    def is_float(self) -> bool:
        return self.dtype in FLOAT_DTYPES

    def is_int(self) -> bool:
        return self.dtype in INT_DTYPES


def fmt_shape(shape: "tuple[Dim, ...] | None") -> str:
    if shape is None:
        return "[?]"
    return "[" + ", ".join(repr(d) for d in shape) + "]"


def promote(a: str | None, b: str | None) -> str | None:
    """Result dtype of a binary op (enough for float/int/bool distinctions)."""
    if a is None or b is None:
        return a or b
    order = ("bool",) + INT_DTYPES[::-1] + ("float16", "bfloat16", "float32", "float64")
    return max(a, b, key=lambda d: order.index(d) if d in order else 0)
