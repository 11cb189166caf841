"""Library mode's symbolic inputs: a tensor of fresh positive dims per `forward` parameter.

A parameter's rank comes from its jaxtyping/torchtyping annotation (`Float[Tensor, "b c h w"]`:
names shared across parameters, fixed sizes, `...` and `*batch` variadics) or, without one, is a
*choice* the verdict layer enumerates (ranks 1 to 5: the first op that needs a rank keeps those it
accepts). Integer parameters (annotated `int`) are positive symbols; anything else is unknown. An
image input (rank 3 or more) of a module whose constructor says its images' size (`image_size`, an
`input_size=(H, W)` pair) has that height and width, and one whose constructor says a sample's shape
(`input_shape=(C, H, W)`) has those last sizes (`tied_to_image`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytea_ci.models.torch.nn.module import is_module
from pytea_ci.models.values import Instance
from pytea_ci.shapes.dim import INPUT, Dim, Sym, is_dim
from pytea_ci.shapes.tensor import Tensor

if TYPE_CHECKING:
    from pytea_ci.library.interpreter import LibraryInterpreter

RANKS = (1, 2, 3, 4, 5)
VARIADIC = (0, 1, 2)  # dims a `...` / `*batch` stands for
_LETTERS = {1: "D", 2: "ND", 3: "NCL", 4: "NCHW", 5: "NCDHW"}


def letters(rank: int) -> tuple[str, ...]:
    """The names of an input's dims in messages: N, C, ... by rank; a rank the code states beyond 5: N, D1, D2, ..."""
    return tuple(_LETTERS[rank]) if rank in _LETTERS else ("N", *(f"D{i}" for i in range(1, rank)))
# jaxtyping's `Float` is any floating dtype: not known (a guessed float32 would meet float64 weights);
# `Int` is any integer dtype, taken as int64, which can only hide a dtype error, never make one up
_DTYPES = {"Float": None, "Float32": "float32", "Float64": "float64", "Int": "int64", "Int64": "int64",
           "Long": "int64", "Integer": "int64", "Bool": "bool", "Shaped": None, "Num": None, "Real": None,
           "TensorType": None}


@dataclass(frozen=True)
class InputSpec:
    """One `forward` parameter: `kind` "tensor" | "tensors" (a sequence of tensors: `List[Tensor]`, or a name
    `forward` indexes or unpacks) | "mapping" (tensors by key: `TensorDictBase`, `Dict[str, Tensor]`) | "int" |
    "unknown"; `dims`: the annotation's tokens."""

    name: str
    kind: str = "tensor"
    dims: tuple[str, ...] | None = None
    dtype: str | None = None
    index: int = 0  # among the tensor parameters (the first one gets the plain letters)
    stated_rank: int | None = None  # the rank `forward` unpacks the input's shape to (`b, c, h, w = x.shape`)
    # `forward` names the input's last two sizes, neither as a height or width (`b, n, _ = x.shape`, `b, n, d`): a
    # sequence of tokens, not an image, whatever the constructor's `image_size` (`tied_to_image`)
    not_image: bool = False
    count: int = 0  # kind "tensors" (a list or tuple of tensors): how many, from the annotation or the code's use
    as_tuple: bool = False  # kind "tensors": annotated as a tuple
    star: bool = False  # kind "tensors": `forward`'s `*args`, its items passed as positional arguments


@dataclass(frozen=True)
class CallerInput:
    """The tensor shapes a project call site passes to the module (`library/callers.py`)."""

    shapes: tuple[tuple[int, ...], ...]
    rel: str  # the call site's file as shown
    path: str
    line: int
    col: int
    construct: str = ""  # how the call site built the instance it calls (`Net(4)`)

    def text(self, names: list[str]) -> str:
        return ", ".join(f"{n}: [{', '.join(map(str, s))}]" for n, s in zip(names, self.shapes))


@dataclass(frozen=True)
class LibraryTarget:
    """One module to check: where it is, how to build it, what `forward` takes."""

    path: str  # absolute path of the file defining the class
    cls: str
    line: int
    construct: str  # Python source of the construction, evaluated in the module's globals
    label: str  # how it is built, for messages ("defaults", "resnet18() at models.py:40")
    inputs: tuple[InputSpec, ...] = ()
    via: str = ""  # a script to run as __main__ instead: the first instance of `cls` it builds is checked
    callers: tuple[CallerInput, ...] = ()  # inputs the project's call sites pass: run as well
    # (input, rank, position) of the sizes some project call site passes as 1, however it builds the
    # module: size 1 is plausible there (`plausible.free_sizes`)
    unit_sizes: tuple[tuple[int, int, int], ...] = ()
    # `forward`'s parameters that default to None and that it uses as tensors (`targets=None`, then
    # `targets.view(-1)` under `if targets is not None`): the module is also run with each given
    optional: tuple[InputSpec, ...] = ()


def keyed(target: LibraryTarget) -> bool:
    """Whether an input of `target` is a mapping of tensors by key (`protocol.KEYED`)."""
    return any(s.kind == "mapping" for s in target.inputs + target.optional)


def choices(spec: InputSpec) -> tuple[int, ...]:
    """What the verdict layer enumerates for this parameter: ranks, or the size of a variadic."""
    if spec.kind == "tensors" and spec.count == 0:
        return (0,)  # `*args` not annotated as tensors: passed none
    if spec.kind in ("tensors", "mapping"):
        return RANKS  # the rank of every tensor of the sequence or mapping
    if spec.kind != "tensor":
        return (0,)
    if spec.dims is None:  # the ranks tried, and the one the code states when it is beyond them (MaxViT's 6)
        return RANKS if spec.stated_rank is None or spec.stated_rank in RANKS else RANKS + (spec.stated_rank,)
    return VARIADIC if any(_variadic(t) for t in spec.dims) else (0,)


def parse_dims(text: str) -> tuple[str, ...]:
    """The tokens of a jaxtyping shape string ("b c h w", "*batch 3", "... d")."""
    return tuple(t.lstrip("#") for t in text.replace(",", " ").split() if t)


def dtype_of(wrapper: str) -> str | None:
    return _DTYPES.get(wrapper)


_OWN_NOTES = ("dimension ", "annotated dimension ", "argument ", "constructor argument ")


def is_own(s: Sym) -> bool:
    """A symbol library mode made (an input's dim, a constructor integer), not a machine fact."""
    return s.kind == INPUT and s.note.startswith(_OWN_NOTES)


def constructor_size(s: Sym) -> bool:
    """A positive symbol library mode made for a constructor argument (`positive`)."""
    return is_own(s) and s.note.startswith("constructor argument ")


def positive(ctx: "LibraryInterpreter", name: str, note: str) -> Sym:
    return Sym(name, INPUT, 1, None, ctx.span, note)


def make_input(ctx: "LibraryInterpreter", spec: InputSpec, choice: int) -> Any:
    if spec.kind == "int":
        return positive(ctx, spec.name, f"argument {spec.name} of forward")
    if spec.kind == "tensors":
        return _sequence(ctx, spec, choice)
    if spec.kind == "mapping" and ctx.keyed is not None:  # `protocol.KEYED`: each key's tensor made when read
        return ctx.call(ctx.keyed, spec.name, choice)
    if spec.kind != "tensor":
        return ctx.unknown(f"input {spec.name}")
    if spec.dims is None:
        suffix = "" if spec.index == 0 else str(spec.index + 1)
        dims: tuple[Dim, ...] = tuple(positive(ctx, f"{c}{suffix}", f"dimension {i} of input {spec.name}")
                                      for i, c in enumerate(letters(choice)))
    else:
        dims = _annotated(ctx, spec, choice)
    return Tensor(dims, spec.dtype, dense=None)  # the caller's tensor: dense or sparse


def _sequence(ctx: "LibraryInterpreter", spec: InputSpec, choice: int) -> Any:
    """A sequence of `spec.count` tensors of rank `choice`, each of sizes of its own (a feature pyramid's levels,
    a list of views): the number and the sizes' relations are a guess, so the path reports nothing
    (`LibraryInterpreter.guessing`), but its checks count."""
    ctx.guessing = True
    suffix = "" if spec.index == 0 else str(spec.index + 1)
    items = [Tensor(tuple(positive(ctx, f"{c}{suffix}_{k}", f"dimension {i} of item {k} of input {spec.name}")
                          for i, c in enumerate(letters(choice))), spec.dtype, dense=None)
             for k in range(spec.count)]
    return tuple(items) if spec.as_tuple else items


def flat(inputs: list[Any]) -> list[Any]:
    """The inputs with each sequence of tensors (`_sequence`) spread into its tensors."""
    return [t for x in inputs for t in (x if isinstance(x, (list, tuple)) else [x])]


def shape_text(spec: InputSpec, choice: int) -> str:
    """How an input of this choice is written in messages: "[N, C, H, W]", "[b, *batch, d]", "int"."""
    if spec.kind == "tensors":
        return f"{spec.count} tensors [" + ", ".join(f"{c}_k" for c in letters(choice)) + "]"
    if spec.kind == "mapping":
        return "tensors by key [" + ", ".join(f"{c}_key" for c in letters(choice)) + "]"
    if spec.kind != "tensor":
        return spec.kind
    if spec.dims is None:
        suffix = "" if spec.index == 0 else str(spec.index + 1)
        return "[" + ", ".join(f"{c}{suffix}" for c in letters(choice)) + "]"
    return "[" + ", ".join(spec.dims) + "]"


def _variadic(token: str) -> bool:
    return token == "..." or token.startswith("*")


def _annotated(ctx: "LibraryInterpreter", spec: InputSpec, choice: int) -> tuple[Dim, ...]:
    out: list[Dim] = []
    for i, tok in enumerate(spec.dims or ()):
        if _variadic(tok):
            out.extend(_variadic_dims(ctx, spec, tok, choice))
        elif tok.isdigit():
            out.append(int(tok))
        elif tok.isidentifier() and tok != "_":
            if tok not in ctx.named:
                ctx.named[tok] = Sym(tok, INPUT, 1, None, ctx.span, f"annotated dimension {tok} of {spec.name}")
            out.append(ctx.named[tok])
        else:  # "_", or an expression such as "h*2": a size nobody promised anything about
            out.append(positive(ctx, f"{spec.name}_{i}", f"dimension {i} of input {spec.name}"))
    return tuple(out)


def _variadic_dims(ctx: "LibraryInterpreter", spec: InputSpec, tok: str, choice: int) -> list[Dim]:
    name = tok.lstrip("*") if tok != "..." else f"{spec.name}_batch"
    key = "*" + name
    if key not in ctx.named:
        ctx.named[key] = [Sym(f"{name}{j}", INPUT, 1, None, ctx.span, f"annotated dimension {name}{j} of {spec.name}")
                          for j in range(choice)]
    return list(ctx.named[key])


# Constructor parameters that state the module's input, given or defaulted, by how people name them:
IMAGE_SIZE = ("image_size", "img_size")  # its images' size: one size for both sides, or (height, width)
# (height, width) only as a pair: one integer under these names is a width of features (an RNN's `input_size`,
# a U-Net block's `in_size` of channels), not an image's side
INPUT_SIZE = ("in_size", "input_size", "input_resolution", "image_resolution", "img_resolution", "input_image_size")
# a sample's whole shape (`(channels, height, width)`, `(channels, *spatial)`): the input's last sizes
INPUT_SHAPE = ("in_shape", "input_shape", "img_shape", "image_shape")


def _argument(init: Any, name: str, args: tuple, kwargs: dict) -> Any:
    """The value of `__init__`'s parameter `name` (`init`: the function value, `args` without `self`): given
    by keyword or position, else its default; None when it has neither or no such parameter."""
    if name in kwargs:
        return kwargs[name]
    node = getattr(init, "node", None)
    if not isinstance(node, ast.FunctionDef):
        return None
    a = node.args
    params = [p.arg for p in a.posonlyargs + a.args]
    kwonly = [p.arg for p in a.kwonlyargs]
    if name in params[1:]:
        i, first_default = params.index(name), len(params) - len(init.defaults)
        return args[i - 1] if i - 1 < len(args) else init.defaults[i - first_default] if i >= first_default else None
    if name in kwonly and kwonly.index(name) < len(init.kw_defaults):
        return init.kw_defaults[kwonly.index(name)]
    return None


def _sizes(value: Any) -> tuple[Any, ...] | None:
    if isinstance(value, (tuple, list)) and all(is_dim(v) and not isinstance(v, bool) for v in value):
        return tuple(value)
    return None


@dataclass(frozen=True)
class Stated:
    """The last sizes of the inputs a module is built for, as its constructor states them (`image_size_of`):
    an image's (height, width), or (`whole`) a sample's whole shape, which the input's rank must hold."""

    sizes: tuple[Any, ...]
    whole: bool = False

    def min_rank(self) -> int:
        """The rank from which an input is tied: an image's height and width from rank 3 ([C, H, W]), a sample's
        whole shape from its own rank (unbatched)."""
        return len(self.sizes) if self.whole else 3


def image_size_of(init: Any, args: tuple, kwargs: dict) -> Stated | None:
    """What a module's constructor states of its input (given or defaulted; `init`: the `__init__` function
    value, `args` without `self`): `image_size` (one size for both sides, or a pair), a `(height, width)` pair
    under `INPUT_SIZE`'s names, a sample's shape of two or more sizes under `INPUT_SHAPE`'s
    (`input_shape=(channels, height, width)`); else the same names as attributes of a configuration object it
    is given (`ViT(config)` with `config.image_size = 224`, a dataclass, a `SimpleNamespace`); None otherwise."""
    node = getattr(init, "node", None)
    if isinstance(node, ast.FunctionDef) and _passed_on_as_other(node):
        return None
    found = _stated(lambda name: _argument(init, name, args, kwargs))
    params = [p.arg for p in (node.args.posonlyargs + node.args.args)[1:] + node.args.kwonlyargs] \
        if isinstance(node, ast.FunctionDef) else []
    given = [*args, *kwargs.values(), *(_argument(init, p, args, kwargs) for p in params)]
    for value in given if found is None else ():
        if isinstance(value, Instance) and not is_module(value):
            found = _stated(value.attrs.get)
            if found is not None:
                break
    return found


def _passed_on_as_other(init: ast.FunctionDef) -> bool:
    """Whether `__init__` uses its `image_size` only as another keyword of a call (rvt's `Transformer` builds
    `AxialRotaryEmbedding(dim_head, max_freq=image_size)`): the size of something else, not of its own inputs. A use
    of it in any other way (`pair(image_size)`, `image_size // patch_size`, `img_size=img_size` passed on) keeps it."""
    uses = [n for n in ast.walk(init) if isinstance(n, ast.Name) and n.id in IMAGE_SIZE]
    if not uses:
        return False
    others = {id(k.value) for n in ast.walk(init) if isinstance(n, ast.Call) for k in n.keywords
              if k.arg is not None and k.arg not in IMAGE_SIZE and isinstance(k.value, ast.Name) and k.value.id in IMAGE_SIZE}
    return all(id(u) in others for u in uses)


def _stated(get: Callable[[str], Any]) -> Stated | None:
    for name in IMAGE_SIZE:
        value = get(name)
        if is_dim(value) and not isinstance(value, bool):
            return Stated((value, value))
        pair = _sizes(value)
        if pair is not None and len(pair) == 2:
            return Stated(pair)
    for name in INPUT_SIZE:
        pair = _sizes(get(name))
        if pair is not None and len(pair) == 2:
            return Stated(pair)
    for name in INPUT_SHAPE:
        shape = _sizes(get(name))
        if shape is not None and len(shape) >= 2:
            return Stated(shape, whole=True)
    return None


def tied_to_image(t: Any, spec: InputSpec, stated: Stated | None) -> Any:
    """An unannotated input of a module built for inputs whose last sizes are `stated` (an image's height and
    width: from rank 3, an image [C, H, W], a batch [N, C, H, W], a video [N, C, F, H, W]; a sample's whole
    shape: from its own rank) has those last sizes: the module's own statement of its input, as a caller's
    shapes would be (ViT's patch count and positional embedding follow from it). Not an input `forward` names as
    a sequence (`InputSpec.not_image`): rvt's `Transformer(dim, ..., image_size)` takes tokens `b, n, _ = x.shape`
    and uses `image_size` for its rotary frequencies; tied, its `LayerNorm(dim)` met the image's width and was
    warned as a coincidence of `image_size` and `dim`."""
    if stated is None or not isinstance(t, Tensor) or spec.dims is not None or t.shape is None \
            or len(t.shape) < stated.min_rank() or spec.not_image:
        return t
    size = stated.sizes
    return t.with_shape(tuple(t.shape[:len(t.shape) - len(size)]) + tuple(size), t.dtype)


def below_stated(t: Any, spec: InputSpec, stated: Stated | None) -> bool:
    """Whether an unannotated input's rank is not that of a batch of the samples whose whole shape its module
    states (`input_shape=(C, H, W)` fed a tensor of rank 3 or less): a module that states its sample's shape
    takes batches of it (`x.flatten(1)` of a rank-3 `[C, H, W]` would read the channels as the batch)."""
    return stated is not None and stated.whole and isinstance(t, Tensor) and spec.dims is None \
        and t.shape is not None and len(t.shape) <= len(stated.sizes)
