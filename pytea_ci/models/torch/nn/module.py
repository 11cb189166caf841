"""`nn.Module` and the containers: Sequential, ModuleList, ModuleDict, Parameter(List)."""

from __future__ import annotations

from dataclasses import replace

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import ALWAYS, BY_ARGUMENTS, KEEPS, facets, model, native_class
from pytea_ci.models.dtype_device import cast, device_of, placed
from pytea_ci.models.values import SPREAD, Builtin, DType, IterVal, Instance, PropertyVal, Spread, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Sym
from pytea_ci.shapes.tensor import Tensor, category


def is_module(v: Any) -> bool:
    return isinstance(v, Instance) and v.cls.is_subclass_of("torch.nn.Module")


def _submodules(m: Instance) -> list[Instance]:
    out: list[Instance] = []
    for v in m.attrs.values():
        vals = v if isinstance(v, (list, tuple)) else (list(v.values()) if isinstance(v, dict) else [v])
        out.extend(x for x in vals if is_module(x))
    return out


def _named_children(ctx: Ctx, m: Instance) -> tuple[list[tuple[Any, Instance]], bool]:
    """`m.named_children()`: the modules set as its attributes and, for a container, its items (named by
    key or position), each once, in registration order; and whether some were left out (a container of
    layers built in a loop not followed one by one, or of items not understood)."""
    out: list[tuple[Any, Instance]] = []
    truncated = bool(m.attrs.get("_opaque"))
    for k, v in m.attrs.items():
        if k == "__layers__" and isinstance(v, list):
            items, cut = ctx.loop_items(v)
            truncated = truncated or cut
            out.extend((str(i) if not cut else ctx.unknown("position of a layer"), x)
                       for i, x in enumerate(items) if is_module(x))
        elif k == "_dict" and isinstance(v, dict):
            out.extend((key, x) for key, x in v.items() if is_module(x))
        elif is_module(v):
            out.append((k, v))
    seen: set[int] = set()
    return [(k, x) for k, x in out if not (id(x) in seen or seen.add(id(x)))], truncated  # type: ignore[func-returns-value]


def _submodule(ctx: Ctx, m: Instance, target: Any) -> Any:
    """`m.get_submodule(target)` as torch walks it: `getattr` of each dotted name (an attribute missing
    raises AttributeError, as torch's does), each step a module; None when a step is not one, or the
    target is not a known string (torch raises AttributeError for a step that is not a module: left to
    a run that knows more)."""
    if not isinstance(target, str):
        return None
    mod: Any = m
    for item in target.split(".") if target else ():
        mod = ctx.getattr(mod, item) if is_module(mod) else None
    return mod


def _named_modules(ctx: Ctx, m: Instance, prefix: Any, seen: set[int], out: list[tuple[Any, Instance]]) -> bool:
    """`m.named_modules()` into `out`, depth first from `m` (each module once); whether some were left out."""
    if id(m) in seen:
        return False
    seen.add(id(m))
    out.append((prefix, m))
    children, truncated = _named_children(ctx, m)
    for name, sub in children:
        known = isinstance(prefix, str) and isinstance(name, str)
        full = (f"{prefix}.{name}" if prefix else name) if known else ctx.unknown("name of a submodule")
        truncated = _named_modules(ctx, sub, full, seen, out) or truncated
    return truncated


def _parameters(m: Instance, seen: set[int]) -> list[Tensor]:
    """The weight and bias tensors of a module and its submodules, in registration order."""
    if id(m) in seen:
        return []
    seen.add(id(m))
    out = [v for k, v in m.attrs.items() if isinstance(v, Tensor) and k in ("weight", "bias")]
    for sub in _submodules(m):
        out.extend(_parameters(sub, seen))
    return out


def _named_parameters(ctx: Ctx, m: Instance, prefix: Any) -> list[tuple[str, Tensor]] | None:
    """`m.named_parameters(prefix)` as torch lists it (each module of `named_modules()`, its own declared
    `weight`/`bias`), when `parameters()` is torch's exact list and every name is known; else None."""
    from pytea_ci.models.torch.nn.parameters import DECLARED, parameter_tensors

    exact = parameter_tensors(m, ctx.inexact)
    modules: list[tuple[Any, Instance]] = []
    if exact is None or not isinstance(prefix, str) or _named_modules(ctx, m, prefix, set(), modules):
        return None
    out: list[tuple[str, Tensor]] = []
    for name, mod in modules:
        model = next((c for c in mod.cls.mro() if c.native), None)
        declared = DECLARED.get(model.qualname) if model is not None else None
        if not isinstance(name, str) or not isinstance(declared, tuple):
            return None
        out.extend((f"{name}.{k}" if name else k, v) for k in declared if isinstance(v := mod.attrs.get(k), Tensor))
    # the same tensors in the same order as `parameters()`, each once (torch lists a tensor two modules share
    # once, under its first name), or the names are not trusted
    if len({id(t) for _, t in out}) != len(out) or len(out) != len(exact) or any(a is not b for (_, a), b in zip(out, exact)):
        return None
    return out


def module_target(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """(dtype, device) of `module.to(...)`: False for what does not change, None for not known."""
    dtype: Any = False
    device: Any = False
    for key, a in [(None, a) for a in args] + list(kwargs.items()):
        if isinstance(a, DType):
            dtype = a.name
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif key == "non_blocking" or a is None or isinstance(a, bool):
            continue
        elif isinstance(a, str) or key == "device" or (isinstance(a, Unknown) and a.pytype == "str") or \
                (isinstance(a, Instance) and a.cls.name == "device"):
            device = device_of(a)
        else:
            dtype = device = None
    return dtype, device


def convert_module(ctx: Ctx, m: Instance, dtype: Any, device: Any, what: str, seen: set[int]) -> None:
    """`module.to(...)` and friends on the module tree: parameters (`weight`, `bias`) take the dtype
    (floating ones only) and the device; other tensor attributes may be buffers or plain tensors
    (only buffers move), so what would change about them becomes unknown."""
    if id(m) in seen:
        return
    seen.add(id(m))
    for k, v in list(m.attrs.items()):
        if not isinstance(v, Tensor) or v.lib != "torch":
            continue
        param = k.startswith(("weight", "bias"))
        if dtype is not False and category(v.dtype) != 1 and v.dtype != "bool":  # ints stay ints
            v = cast(ctx, v, dtype if param and category(v.dtype) in (2, 3) else None, what)
        if device is not False:
            v = placed(ctx, v, device if param else None, what)
        m.attrs[k] = v
    for sub in _submodules(m):
        convert_module(ctx, sub, dtype, device, what, seen)


def _set_training(m: Instance, mode: bool, seen: set[int]) -> None:
    if id(m) in seen:
        return
    seen.add(id(m))
    m.attrs["training"] = mode
    for sub in _submodules(m):
        _set_training(sub, mode, seen)


def _modules_view(ctx: Ctx, self: Instance) -> Any:
    """`m._modules`: its children by name, in registration order (a container's items by position; the
    model keeps them under `__layers__`); not known when some were left out."""
    children, truncated = _named_children(ctx, self)
    if truncated or not all(isinstance(k, str) for k, _ in children):
        return ctx.unknown(f"{self.cls.name}._modules")
    return dict(children)


@native_class("torch.nn.Module", "torch.nn.modules.module.Module", identity_eq=True)
class Module:
    _modules = PropertyVal(Builtin("torch.nn.Module._modules", _modules_view))

    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs.setdefault("training", True)

    @facets(layout=KEEPS)  # what `forward` returned, whose own ops set its layout
    def call(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        fwd = ctx.getattr(self, "forward")
        return ctx.call(fwd, *args, **kwargs)

    def forward(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return ctx.unknown(f"{self.cls.name}.forward")

    def train(ctx: Ctx, self: Instance, mode: Any = True) -> Any:
        _set_training(self, bool(mode) if isinstance(mode, bool) else True, set())
        return self

    def eval(ctx: Ctx, self: Instance) -> Any:
        _set_training(self, False, set())
        return self

    @facets(places=BY_ARGUMENTS)
    def to(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        dtype, device = module_target(args, kwargs)
        convert_module(ctx, self, dtype, device, ".to()", set())
        return self

    @facets(places=ALWAYS)
    def cuda(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, False, "cuda", ".cuda()", set())
        return self

    def cpu(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, False, "cpu", ".cpu()", set())
        return self

    def float(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, "float32", False, ".float()", set())
        return self

    def double(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, "float64", False, ".double()", set())
        return self

    def half(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, "float16", False, ".half()", set())
        return self

    def bfloat16(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, "bfloat16", False, ".bfloat16()", set())
        return self

    def type(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        convert_module(ctx, self, None, None, ".type()", set())  # a legacy type name: not followed
        return self

    def requires_grad_(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return self

    share_memory = requires_grad_

    def apply(ctx: Ctx, self: Instance, fn: Any = None, *args: Any, **kwargs: Any) -> Any:
        """As torch's: `fn` on each child's tree (each child's own `apply`, in registration order), then on
        the module itself; the module back. When its children are not all known (a container of layers
        built in a loop) or `fn` is not understood, `fn` is not run and what it may do to the parameters'
        dtypes and devices (`m.apply(lambda m: m.half())`) is forgotten. (transformers 4 initializes its
        weights so: `self.apply(self._initialize_weights)`; not run, every model's dtype was unknown.)"""
        children, truncated = _named_children(ctx, self)
        if truncated or isinstance(fn, Unknown) or fn is None or args or kwargs:
            convert_module(ctx, self, None, None, ".apply()", set())
            return self
        for _, child in children:
            ctx.call(ctx.getattr(child, "apply"), fn)
        ctx.call(fn, self)
        return self

    def register_buffer(ctx: Ctx, self: Instance, name: Any, tensor: Any, persistent: Any = True) -> Any:
        if isinstance(name, str):
            self.attrs[name] = tensor
        return None

    def register_parameter(ctx: Ctx, self: Instance, name: Any, param: Any) -> Any:
        return Module.ns["register_buffer"].fn(ctx, self, name, param)  # type: ignore[attr-defined]

    def add_module(ctx: Ctx, self: Instance, name: Any, module: Any) -> Any:
        return Module.ns["register_buffer"].fn(ctx, self, name, module)  # type: ignore[attr-defined]

    register_module = add_module

    def delattr(ctx: Ctx, self: Instance, name: Any) -> Any:
        """`del module.name`: the attribute goes, and with it a container's layer of that name."""
        gone = self.attrs.pop(name, None) if isinstance(name, str) else None
        layers = self.attrs.get("__layers__")
        if gone is not None and isinstance(layers, list) and any(x is gone for x in layers):
            if ctx.iterate(layers) is None:
                self.attrs["_opaque"] = True  # representatives of layers: which position went is not known
            else:
                layers[:] = [x for x in layers if x is not gone]
                ctx.note_mutation(layers)
        return None

    def parameters(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        from pytea_ci.models.torch.nn.parameters import parameter_tensors

        exact = parameter_tensors(self, ctx.inexact) if kwargs.get("recurse", args[0] if args else True) is True else None
        if exact is not None:
            return IterVal(exact)  # every parameter known: exactly these (`tuple(self.parameters())` has a length)
        params = _parameters(self, set())
        # the real weights when the layers are modeled; else one tensor of unknown shape
        return IterVal(params or [Tensor(None, None, param=True)], truncated=True)

    def buffers(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        # the same stand-ins as `parameters` (a model does not tell buffers apart), of a class not known
        return IterVal([replace(p, param=None) for p in _parameters(self, set())] or [Tensor(None, None, param=None)],
                       truncated=True)

    def named_parameters(ctx: Ctx, self: Instance, prefix: Any = "", recurse: Any = True, *args: Any,
                         **kwargs: Any) -> Any:
        """torch's exact list, named, when `parameters()` is exact and each name is known (diffusers'
        `ModelMixin.dtype` reads the first floating one's dtype); else a parameter not known, of a name
        not known, standing for them all (a user's `nn.Parameter` may come before the layers' weights)."""
        named = _named_parameters(ctx, self, prefix) if recurse is True and not args and not kwargs else None
        if named is not None:
            return IterVal(named)
        return IterVal([(ctx.unknown("parameter name"), Tensor(None, None, param=None))], truncated=True)

    def named_buffers(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return IterVal([(ctx.unknown("buffer name"), Tensor(None, None, param=None))], truncated=True)

    def state_dict(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return ctx.unknown("state dict")

    def named_children(ctx: Ctx, self: Instance) -> Any:
        children, truncated = _named_children(ctx, self)
        return IterVal(list(children), truncated=truncated)

    def named_modules(ctx: Ctx, self: Instance, memo: Any = None, prefix: Any = "", remove_duplicate: Any = True) -> Any:
        if memo is not None or remove_duplicate is not True:
            return ctx.unknown("named_modules with a memo or duplicates")
        out: list[tuple[Any, Instance]] = []
        truncated = _named_modules(ctx, self, prefix, set(), out)
        return IterVal(out, truncated=truncated)

    def children(ctx: Ctx, self: Instance) -> Any:
        return list(_submodules(self))

    def get_submodule(ctx: Ctx, self: Instance, target: Any) -> Any:
        mod = _submodule(ctx, self, target)
        return mod if is_module(mod) else ctx.unknown("get_submodule of a target not understood")

    def get_parameter(ctx: Ctx, self: Instance, target: Any) -> Any:
        """`get_submodule` of the part before the last dot, then that module's attribute, a tensor."""
        if not isinstance(target, str):
            return ctx.unknown("get_parameter of a target not understood")
        path, _, name = target.rpartition(".")
        mod = _submodule(ctx, self, path)
        found = ctx.getattr(mod, name) if is_module(mod) else None
        return found if isinstance(found, Tensor) else ctx.unknown("get_parameter of a target not understood")

    def modules(ctx: Ctx, self: Instance) -> Any:
        return [self] + list(_submodules(self))

    def zero_grad(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return None

    def load_state_dict(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return ctx.unknown("load_state_dict result")


def _items(ctx: Ctx, args: tuple[Any, ...]) -> list[Any]:
    if len(args) == 1 and not is_module(args[0]):
        items = ctx.iterate(args[0])
        if isinstance(args[0], dict):
            return [args[0][k] for k in args[0]]
        return items if items is not None else []
    return list(args)


def _spread_layers(ctx: Ctx, self: Instance, args: tuple[Any, ...]) -> None:
    """`Sequential(a, *blocks, b)` with `blocks` built in a loop not followed one by one: the layers,
    with the representatives of `blocks` in their place, of known length when the count is known; where
    the representatives sit (`_spread`: start, end, count). Two such runs of layers are not followed."""
    layers: list[Any] = []
    spread: tuple[int, int, Any] | None = None
    for a in args:
        if isinstance(a, Spread) and spread is not None:
            self.attrs["_opaque"] = True
            return
        if isinstance(a, Spread):
            spread = (len(layers), len(layers) + len(a.items), a.length)
            layers.extend(a.items)
        else:
            layers.append(a)
    assert spread is not None
    count = spread[2]
    self.attrs["__layers__"] = ctx.sized_items(layers, len(args) - 1 + count) if count is not None else layers
    if count is None:
        ctx.mark_inexact(layers)
    self.attrs["_spread"] = spread


def _run_spread(ctx: Ctx, self: Instance, x: Any) -> Any:
    """`forward` of a Sequential with a run of representative layers (`_spread_layers`): the layers before
    it, each representative once, the layers after it; when the run has at least one layer and every
    representative keeps the shape it is given (a stack of equal blocks), any number of them gives that
    shape; else what comes out is not known."""
    start, end, count = self.attrs["_spread"]
    layers = self.attrs["__layers__"]
    for layer in layers[:start]:
        x = ctx.call(layer, x)
    at_least_one = isinstance(count, int) and count >= 1 or isinstance(count, Sym) and (count.lo or 0) >= 1
    if not at_least_one or not isinstance(x, Tensor) or x.shape is None:
        return ctx.unknown("Sequential of layers built in a loop")
    for layer in layers[start:end]:
        y = ctx.call(layer, x)
        if not isinstance(y, Tensor) or y.shape is None or len(y.shape) != len(x.shape) or not all(
                a is b or a == b or ctx.holds(P.eq(a, b)) for a, b in zip(x.shape, y.shape)):
            return ctx.unknown("Sequential of layers built in a loop, which change the shape")
        x = y.with_shape(x.shape)  # the same sizes, as the path knows them
    for layer in layers[end:]:
        x = ctx.call(layer, x)
    return x


@native_class("torch.nn.Sequential", bases=(Module,))
class Sequential:
    def init(ctx: Ctx, self: Instance, *args: Any) -> None:
        self.attrs["training"] = True
        if any(isinstance(a, Spread) for a in args):
            _spread_layers(ctx, self, args)
            return
        layers = _items(ctx, args)
        if len(args) == 1 and isinstance(args[0], dict):
            for k, v in args[0].items():
                self.attrs[str(k)] = v
        self.attrs["__layers__"] = layers
        if len(args) == 1 and not is_module(args[0]) and ctx.iterate(args[0]) is None and not isinstance(args[0], dict):
            self.attrs["_opaque"] = True

    @facets(layout=KEEPS)  # what the last layer returned, whose own ops set its layout
    def forward(ctx: Ctx, self: Instance, input: Any, *rest: Any) -> Any:
        if self.attrs.get("_opaque"):
            return ctx.unknown("Sequential of unknown layers")
        if "_spread" in self.attrs:
            return _run_spread(ctx, self, input)
        layers = ctx.iterate(self.attrs["__layers__"])
        if layers is None:  # representatives of layers appended in a loop not followed one by one
            return ctx.unknown("Sequential of layers built in a loop")
        x = input
        for layer in layers:
            x = ctx.call(layer, x)
        return x

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        layers = self.attrs["__layers__"]
        if self.attrs.get("_opaque"):
            return ctx.unknown(f"{self.cls.name}[...] of unknown layers")
        if isinstance(idx, slice):
            new = Instance(self.cls, {"training": self.attrs.get("training", True), "__layers__": ctx.getitem(layers, idx)})
            return new
        if isinstance(idx, int):
            return ctx.getitem(layers, idx)  # an IndexError past the end; unknown in an inexact list
        return ctx.unknown("Sequential[?]")

    def __delitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        """`del seq[i]` / `del seq[a:b]`: the layers go (their names too); at a position not known, or
        among layers built in a loop not followed one by one, what is left is not known."""
        layers = self.attrs["__layers__"]
        exact = not self.attrs.get("_opaque") and ctx.iterate(layers) is not None
        if not exact or not (isinstance(idx, int) and not isinstance(idx, bool) or isinstance(idx, slice) and
                             all(isinstance(x, (int, type(None))) for x in (idx.start, idx.stop, idx.step))):
            self.attrs["_opaque"] = True
            return None
        if isinstance(idx, int) and not -len(layers) <= idx < len(layers):
            ctx.user_error("IndexError", f"index {idx} is out of range")
        gone = layers[idx] if isinstance(idx, slice) else [layers[idx]]
        del layers[idx]
        ctx.note_mutation(layers)
        for k in [k for k, v in self.attrs.items() if k != "__layers__" and any(v is g for g in gone)]:
            del self.attrs[k]
        return None

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        n = None if self.attrs.get("_opaque") else ctx.known_length(self.attrs["__layers__"])
        return n if n is not None else ctx.unknown(f"len of {self.cls.name}")

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        if self.attrs.get("_opaque"):
            return IterVal([ctx.unknown(f"{self.cls.name} item")], truncated=True)
        items, truncated = ctx.loop_items(self.attrs["__layers__"])
        at = ctx.positions(self.attrs["__layers__"]) if truncated else None
        return IterVal(list(items), truncated=truncated, indices=list(at) if at is not None else None)

    def append(ctx: Ctx, self: Instance, module: Any) -> Any:
        self.attrs["__layers__"].append(module)
        ctx.note_mutation(self.attrs["__layers__"])
        return self

    def add_module(ctx: Ctx, self: Instance, name: Any, module: Any) -> Any:
        self.attrs["__layers__"].append(module)
        ctx.note_mutation(self.attrs["__layers__"])
        if isinstance(name, str):
            self.attrs[name] = module
        return None


Sequential.ns[SPREAD] = True  # type: ignore[attr-defined]  # its layers may come as `*blocks` of a loop not followed


@native_class("torch.nn.ModuleList", "torch.nn.ParameterList", bases=(Module,))
class ModuleList:
    def init(ctx: Ctx, self: Instance, modules: Any = None) -> None:
        self.attrs["training"] = True
        if isinstance(modules, (list, tuple)):  # representatives when built in a loop not followed one by one
            self.attrs["__layers__"] = ctx.same_items(modules, list(modules))
            return
        items = [] if modules is None else ctx.iterate(modules)
        self.attrs["__layers__"] = list(items) if items is not None else []
        if items is None:
            self.attrs["_opaque"] = True

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        return Sequential.ns["__getitem__"].fn(ctx, self, idx)  # type: ignore[attr-defined]

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return Sequential.ns["__len__"].fn(ctx, self)  # type: ignore[attr-defined]

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return Sequential.ns["__iter__"].fn(ctx, self)  # type: ignore[attr-defined]

    def __delitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        return Sequential.ns["__delitem__"].fn(ctx, self, idx)  # type: ignore[attr-defined]

    def append(ctx: Ctx, self: Instance, module: Any) -> Any:
        return Sequential.ns["append"].fn(ctx, self, module)  # type: ignore[attr-defined]

    def insert(ctx: Ctx, self: Instance, index: Any, module: Any) -> Any:
        """Insert before position `index`; torch's own insert mishandles negative positions and
        positions past the end (a KeyError, a gap): those make the list unknown."""
        if isinstance(index, int) and 0 <= index <= len(self.attrs["__layers__"]):
            self.attrs["__layers__"].insert(index, module)
            ctx.note_mutation(self.attrs["__layers__"])
        else:
            self.attrs["_opaque"] = True
        return None

    def extend(ctx: Ctx, self: Instance, modules: Any) -> Any:
        items = ctx.iterate(modules)
        if items is None:
            self.attrs["_opaque"] = True
        else:
            self.attrs["__layers__"].extend(items)
            ctx.note_mutation(self.attrs["__layers__"])
        return self


@native_class("torch.nn.ModuleDict", "torch.nn.ParameterDict", bases=(Module,))
class ModuleDict:
    def init(ctx: Ctx, self: Instance, modules: Any = None) -> None:
        self.attrs["training"] = True
        self.attrs["_dict"] = dict(modules) if isinstance(modules, dict) else {}

    def __getitem__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        d = self.attrs["_dict"]
        return d[key] if key in d else ctx.unknown("ModuleDict item")

    def __getattr__(ctx: Ctx, self: Instance, name: Any) -> Any:  # noqa: N805
        """Entries read as attributes (`self.transformer.wte`), as `nn.Module.__getattr__` finds them."""
        d = self.attrs.get("_dict", {})
        return d[name] if name in d else ctx.unknown(f"ModuleDict attribute {name}")

    def update(ctx: Ctx, self: Instance, modules: Any) -> Any:
        if isinstance(modules, dict):
            self.attrs["_dict"].update(modules)
        else:
            self.attrs["_opaque"] = True
        return None

    def __setitem__(ctx: Ctx, self: Instance, key: Any, value: Any) -> Any:  # noqa: N805
        self.attrs["_dict"][key] = value

    def __delitem__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        if isinstance(key, str) and key in self.attrs["_dict"]:
            del self.attrs["_dict"][key]
        else:
            self.attrs["_opaque"] = True
        return None

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return IterVal(list(self.attrs["_dict"]))

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return len(self.attrs["_dict"])

    def items(ctx: Ctx, self: Instance) -> Any:
        return list(self.attrs["_dict"].items())

    def values(ctx: Ctx, self: Instance) -> Any:
        return list(self.attrs["_dict"].values())

    def keys(ctx: Ctx, self: Instance) -> Any:
        return list(self.attrs["_dict"].keys())


@model("torch.nn.Parameter", "torch.nn.parameter.Parameter", layout=KEEPS)  # the tensor it was given
def parameter(ctx: Ctx, data: Any = None, requires_grad: Any = True) -> Any:
    return data.as_parameter() if isinstance(data, Tensor) else ctx.unknown("Parameter")


@model("torch.nn.Buffer", "torch.nn.parameter.Buffer", layout=KEEPS)  # the tensor it was given (torch >= 2.5)
def buffer(ctx: Ctx, data: Any = None, *, persistent: Any = True) -> Any:
    return replace(data, param=None) if isinstance(data, Tensor) else ctx.unknown("Buffer")  # a Buffer object
