"""How many parameters an `nn.Module` holds (`sum(p.numel() for p in m.parameters())`): right, or unknown.

Each modeled torch module class is declared here by its qualified name, with the attributes holding its
parameter tensors (what its model builds: `weight`, `bias` when present) or a formula over the
constructor arguments its model keeps (RNNs, attention); a class declared with `()` holds none of its
own. A count is unknown (None), never a guess, when a module's class is not declared (timm blocks,
torchvision models), a user module holds a tensor attribute (an `nn.Parameter` or a buffer: the model
does not tell which) or a value not understood (it may be a module), a container's items are
representatives of a loop not followed one by one, or a declared size is not known. Submodules are
counted once each, as torch does; `tests/oracle/test_parameter_counts.py` compares every declared
class with torch."""

from __future__ import annotations

from typing import Any, Callable, Collection

from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.dim import WORK, Dim, is_dim
from pytea_ci.shapes.tensor import Tensor

Count = Callable[[dict[str, Any]], "Dim | None"]


def flag(v: Any) -> bool | None:
    """A constructor's on/off argument as torch reads it (`if bias:`), None when not known."""
    return bool(v) if v is None or isinstance(v, (bool, int, float, str)) else None


def _rnn(a: dict[str, Any]) -> Dim | None:
    """Per layer and direction: weight_ih, weight_hh, the two biases, and weight_hr with a projection."""
    gates = {"RNN": 1, "LSTM": 4, "GRU": 3}.get(a.get("kind", ""))
    size, hidden, layers, proj = (a.get(k, 0) for k in ("input_size", "hidden_size", "num_layers", "proj_size"))
    both, bias = flag(a.get("bidirectional")), flag(a.get("bias", True))
    if gates is None or both is None or bias is None or not isinstance(layers, int) or not isinstance(proj, int) \
            or not is_dim(size) or not is_dim(hidden):
        return None
    out = proj if proj else hidden  # what a layer returns per direction
    directions = 2 if both else 1
    total: Dim = 0
    for i in range(layers):
        fan_in = size if i == 0 else out * directions
        total = total + gates * hidden * (fan_in + out) + (2 * gates * hidden if bias else 0) + proj * hidden
    return total * directions


def _cell(gates: int) -> Count:
    def count(a: dict[str, Any]) -> Dim | None:
        size, hidden, bias = a.get("input_size", 0), a.get("hidden_size", 0), flag(a.get("bias", True))
        if not is_dim(size) or not is_dim(hidden) or bias is None:
            return None
        return gates * hidden * (size + hidden) + (2 * gates * hidden if bias else 0)
    return count


def _attention(a: dict[str, Any]) -> Dim | None:
    """in_proj (or q/k/v_proj when kdim/vdim differ), out_proj, bias_k/bias_v."""
    e, k, v = (a.get(key, 0) for key in ("embed_dim", "kdim", "vdim"))
    bias, kv = flag(a.get("bias", True)), flag(a.get("add_bias_kv", False))
    if not (is_dim(e) and is_dim(k) and is_dim(v)) or bias is None or kv is None:
        return None
    return e * (e + k + v) + e * e + ((4 * e) if bias else 0) + ((2 * e) if kv else 0)


def _transformer_layer(blocks: int) -> Count:
    """The attention blocks (not submodules in the model); linear1/2 and the norms are submodules."""
    def count(a: dict[str, Any]) -> Dim | None:
        if flag(a.get("bias", True)) is not True:  # bias=False also drops the linears' and norms' biases
            return None
        e = a.get("embed_dim", 0)
        one = _attention({"embed_dim": e, "kdim": e, "vdim": e})
        return None if one is None else blocks * one
    return count


def _stack(a: dict[str, Any]) -> Dim | None:
    """TransformerEncoder/Decoder: torch holds `num_layers` copies of the layer; the model holds the one
    (counted as a submodule), so the other copies are counted here."""
    layers, n = a.get("layers"), a.get("num_layers", 0)
    if not (isinstance(layers, list) and len(layers) == 1 and _is_module(layers[0]) and is_dim(n)):
        return None
    one = parameter_count(layers[0])
    return None if one is None else (n - 1) * one


def _prelu(a: dict[str, Any]) -> Dim | None:
    n = a.get("num_parameters", 1)
    return n if is_dim(n) else None


_NONE = (
    "Module Sequential ModuleList ModuleDict DataParallel Identity Flatten Unflatten Softmax Softmax2d GLU "
    "ChannelShuffle Unfold Fold Upsample PixelShuffle PixelUnshuffle CosineSimilarity PairwiseDistance "
    "LocalResponseNorm ReLU ReLU6 LeakyReLU ELU SELU CELU GELU SiLU Mish Sigmoid Tanh Softplus Softsign "
    "Hardswish Hardsigmoid Hardtanh LogSigmoid Tanhshrink Softshrink Hardshrink Threshold RReLU Dropout "
    "Dropout1d Dropout2d Dropout3d AlphaDropout FeatureAlphaDropout "
    "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss HingeEmbeddingLoss HuberLoss "
    "KLDivLoss L1Loss MSELoss MarginRankingLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss "
    "PoissonNLLLoss SmoothL1Loss SoftMarginLoss TripletMarginLoss TripletMarginWithDistanceLoss").split()
_PADS = [f"{kind}Pad{n}d" for kind in ("Circular", "Constant", "Reflection", "Replication", "Zero") for n in (1, 2, 3)]
_POOLS = [f"{kind}{n}d" for kind in ("AvgPool", "MaxPool", "AdaptiveAvgPool", "AdaptiveMaxPool") for n in (1, 2, 3)]
_TENSORS = ("weight", "bias")

DECLARED: dict[str, tuple[str, ...] | Count] = {
    **{f"torch.nn.{name}": () for name in _NONE + _PADS + _POOLS},
    **{f"einops.layers.torch.{name}": () for name in ("Rearrange", "Reduce", "Repeat")},
    **{f"torch.nn.{kind}{n}d": _TENSORS for kind in ("Conv", "ConvTranspose", "BatchNorm", "InstanceNorm")
       for n in (1, 2, 3)},
    **{f"torch.nn.{name}": _TENSORS for name in ("Linear", "Bilinear", "Embedding", "EmbeddingBag", "LayerNorm",
                                                 "RMSNorm", "GroupNorm")},
    "torch.nn.PReLU": _prelu,
    **{f"torch.nn.{name}": _rnn for name in ("RNN", "LSTM", "GRU")},
    "torch.nn.RNNCell": _cell(1), "torch.nn.LSTMCell": _cell(4), "torch.nn.GRUCell": _cell(3),
    "torch.nn.MultiheadAttention": _attention,
    "torch.nn.TransformerEncoderLayer": _transformer_layer(1),
    "torch.nn.TransformerDecoderLayer": _transformer_layer(2),
    "torch.nn.TransformerEncoder": _stack, "torch.nn.TransformerDecoder": _stack,
}
UNSURE = "_parameters_unsure"  # set by a model that could not tell which parameters it has (`bias=flag`)
_CONTAINERS = ("torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict")  # and Parameter(List|Dict)


def parameter_count(m: Instance, inexact: Collection[int] = ()) -> Dim | None:
    """Elements of the parameters of `m` and its submodules; None when any is not known. `inexact`:
    ids of the lists that hold representatives of more items (a loop not followed one by one).
    Counting for a report is not analysis work: its symbolic arithmetic is not charged as steps."""
    before = WORK[0]
    try:
        return _count(m, inexact, set())
    finally:
        WORK[0] = before


def _count(m: Instance, inexact: Collection[int], seen: set[int]) -> Dim | None:
    if id(m) in seen:
        return 0
    seen.add(id(m))
    total = _own(m)
    for key, v in m.attrs.items():
        if total is None or key == "_opaque" and v:
            return None
        items = list(v.values()) if isinstance(v, dict) else v if isinstance(v, (list, tuple)) else None
        if items is not None and id(v) in inexact:
            return None
        for x in items if items is not None else ():
            total = _add(total, _item(m, x, inexact, seen))
        if items is None and _is_module(v):
            total = _add(total, _count(v, inexact, seen))
    return total


def _add(total: Dim | None, n: Dim | None) -> Dim | None:
    return None if total is None or n is None else total + n


def _item(owner: Instance, x: Any, inexact: Collection[int], seen: set[int]) -> Dim | None:
    if _is_module(x):
        return _count(x, inexact, seen)
    if isinstance(x, Tensor):  # a ParameterList's or ParameterDict's item; a user's list of tensors is not counted
        return _numel(x) if owner.cls.native and owner.cls.qualname in _CONTAINERS else 0
    return None if isinstance(x, Unknown) and not owner.cls.native else 0


def _own(m: Instance) -> Dim | None:
    """The module's own parameters (not its submodules'), by the declaration of its modeled class."""
    model = next((c for c in m.cls.mro() if c.native), None)
    declared = DECLARED.get(model.qualname) if model is not None else None
    if declared is None or m.attrs.get(UNSURE):
        return None
    if callable(declared):
        return declared(m.attrs)
    total: Dim | None = 0
    for name in declared:
        v = m.attrs.get(name)
        total = _add(total, 0 if v is None else _numel(v) if isinstance(v, Tensor) else None)
    if not m.cls.native:  # a user's subclass: any other tensor may be an nn.Parameter, any unknown a module
        others = [v for k, v in m.attrs.items() if k not in declared]
        if any(isinstance(v, (Tensor, Unknown)) for v in others):
            return None
    return total


def _numel(t: Tensor) -> Dim | None:
    n = t.numel()
    return n if n is not None and is_dim(n) else None


def _is_module(v: Any) -> bool:
    return isinstance(v, Instance) and v.cls.is_subclass_of("torch.nn.Module")


def parameter_tensors(m: Instance, inexact: Collection[int] = ()) -> list[Tensor] | None:
    """`m.parameters()` in torch's order (each module's own, then its children's, depth first, each once)
    when every one is known: the count is known and every module's parameters are its declared `weight` and
    `bias` (no recurrent or attention layer with its own names, no parameter list); else None."""
    if parameter_count(m, inexact) is None:
        return None
    out: list[Tensor] = []
    seen: set[int] = set()

    def walk(x: Instance) -> bool:
        if id(x) in seen:
            return True
        seen.add(id(x))
        model = next((c for c in x.cls.mro() if c.native), None)
        declared = DECLARED.get(model.qualname) if model is not None else None
        if not isinstance(declared, tuple) or (model is not None and model.qualname in _CONTAINERS
                                               and any(isinstance(v, Tensor) for v in _values(x))):
            return False
        out.extend(v for name in declared if isinstance(v := x.attrs.get(name), Tensor))
        return all(walk(v) for v in _values(x) if _is_module(v))

    return out if walk(m) else None


def _values(m: Instance) -> list[Any]:
    """What a module holds, items of its lists and dicts flattened, in registration order."""
    out: list[Any] = []
    for v in m.attrs.values():
        out.extend(v.values() if isinstance(v, dict) else v if isinstance(v, (list, tuple)) else (v,))
    return out
