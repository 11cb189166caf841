"""The abstract tensor (a shape of dims plus a dtype) and shape formatting."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from pytea_ci.diagnostics import Span
from pytea_ci.shapes.dim import Dim, prod
from pytea_ci.shapes.vrange import ValueRange

FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")
INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8")
COMPLEX_DTYPES = ("complex64", "complex128", "complex32")


class Origin(NamedTuple):
    """Where a value not understood was born (`span`) and what made it (`what`, e.g. "read at run time by torch.load('ckpt.pt')")."""

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
    # Where the dtype was set (`.float()`, `dtype=`, `torch.randint`), named by dtype findings.
    dtype_from: Origin | None = field(default=None, compare=False)
    # The device when known for certain ("cpu", "cuda", "meta", ...; None: not known) and where it was
    # set. Like the dtype's origin, no part in equality: a device never changes a shape.
    device: str | None = field(default=None, compare=False)
    device_from: Origin | None = field(default=None, compare=False)
    # Its class: exactly `torch.Tensor` (False), a `torch.nn.Parameter` (True: `nn.Parameter(t)`, a modeled
    # layer's weight) or not known (None: an op's result on a Parameter may be the Parameter itself, as
    # `p.float()` of a float parameter is). No part in equality.
    param: bool | None = field(default=False, compare=False)
    # The elements of a small tensor of rank 0 or 1 whose every value the program fixes (`torch.linspace(0,
    # 0.1, 12)`), with the family of tensors sharing its memory: a `models.contents.Known`. No part in equality.
    known: Any = field(default=None, compare=False)
    # Its layout: dense (`torch.strided`) for certain (True), or not known (None: a sparse constructor's
    # result, an op's result on such a tensor or on a value not understood, a library-mode input; see
    # models/call_facets.py). No part in equality.
    dense: bool | None = field(default=True, compare=False)

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    def numel(self) -> Dim | None:
        return None if self.shape is None else prod(self.shape)

    def with_shape(self, shape: "tuple[Dim, ...] | None", dtype: str | None = "") -> "Tensor":
        """A result of `shape` on this tensor's device, of its dtype unless `dtype` is given."""
        same = dtype == "" or dtype == self.dtype
        return Tensor(shape, self.dtype if dtype == "" else dtype, self.lib,
                      dtype_from=self.dtype_from if same else None, device=self.device, device_from=self.device_from,
                      param=False if self.param is False else None, dense=self.dense)

    def as_parameter(self) -> "Tensor":
        """This tensor made a `torch.nn.Parameter` (what `type()` and `isinstance` answer for it)."""
        return replace(self, param=True, known=None)  # trained between forward passes: values not fixed

    def is_float(self) -> bool:
        return self.dtype in FLOAT_DTYPES

    def is_int(self) -> bool:
        return self.dtype in INT_DTYPES

    def is_complex(self) -> bool:
        return self.dtype in COMPLEX_DTYPES


def fmt_shape(shape: "tuple[Dim, ...] | None") -> str:
    if shape is None:
        return "[?]"
    return "[" + ", ".join(repr(d) for d in shape) + "]"


def category(dtype: str | None) -> int | None:
    """0 bool, 1 integer, 2 floating point, 3 complex (torch's promotion categories); None unknown."""
    if dtype == "bool":
        return 0
    for k, group in enumerate((INT_DTYPES, FLOAT_DTYPES, COMPLEX_DTYPES), 1):
        if dtype in group:
            return k
    return None


_ORDER = ("bool",) + INT_DTYPES[::-1] + ("float16", "bfloat16", "float32", "float64", "complex32", "complex64",
                                         "complex128")


def promote(a: str | None, b: str | None) -> str | None:
    """Result dtype of a binary op on two tensors, as `torch.result_type` (an unknown dtype on either
    side gives an unknown result: `int64 + ?` may be float64)."""
    if a is None or b is None:
        return None
    if {a, b} == {"float16", "bfloat16"}:
        return "float32"
    if {a, b} == {"int8", "uint8"}:
        return "int16"
    if category(a) == 3 or category(b) == 3:
        wide = "float64" in (a, b) or "complex128" in (a, b)
        return "complex128" if wide else "complex64"
    return max(a, b, key=lambda d: _ORDER.index(d) if d in _ORDER else 0)


def promote_scalar(t: str | None, scalar: str) -> str | None:
    """A tensor of dtype `t` with a Python scalar of category `scalar` ("bool" "int" "float" "complex"):
    the scalar raises the category only (a float scalar makes an integer tensor float32)."""
    if t is None:
        return None
    cat = category(t)
    want = {"bool": 0, "int": 1, "float": 2, "complex": 3}[scalar]
    if cat is None or want <= cat:
        return t
    if want == 3:
        return "complex128" if t == "float64" else "complex64"
    return "float32" if want == 2 else "int64"
