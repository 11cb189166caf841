"""Write pytea_ci/models/torch/tensor_attrs.py: the names `torch.Tensor` and `torch.nn.Module` have
(`dir(...)` of the installed torch), so that `getattr(t, "_flag", False)` of a name torch's tensors lack
is the default unless the program set it, and `hasattr(nn.Module, "name")` is decided; and the names each
`torch.nn` class has beyond them (`hasattr(layer, "reset_parameters")`), and every name a `torch.nn` class's source may set on an instance.
Run with a Python that has torch: `python scripts/gen_tensor_attrs.py`."""

from __future__ import annotations

import ast
import inspect
import os
import textwrap

import torch

OUT = os.path.join(os.path.dirname(__file__), "..", "pytea_ci", "models", "torch", "tensor_attrs.py")


def _names(name: str, of: type) -> str:
    names = " ".join(sorted(dir(of)))
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(names + " ", 100, drop_whitespace=False))
    return f"{name}: frozenset[str] = frozenset((\n{body}\n).split())\n"


def _layers() -> str:
    """The names each class of `torch.nn` has beyond `nn.Module`'s (`reset_parameters`, `extra_repr`,
    `__constants__`): what `hasattr(layer, name)` finds on every instance of it."""
    rows = []
    for cls in _layer_classes():
        name = cls.__name__
        if cls is not torch.nn.Module:
            extra = sorted(set(dir(cls)) - set(dir(torch.nn.Module)))
            rows.append(f"    {'torch.nn.' + name!r}: frozenset({' '.join(extra)!r}.split()),")
    return "LAYER_ATTRS: dict[str, frozenset[str]] = {\n" + "\n".join(rows) + "\n}\n"


def _layer_instance_names() -> str:
    """Per `torch.nn` module class, every attribute name the source of the class or of one of its torch bases
    may set on an instance (`self.x = ...`, `setattr(self, "x", ...)`, `register_buffer("x", ...)`,
    `register_parameter`, `add_module`), with what functions outside any class of those files set: a name outside
    them, the class's and `Module.__init__`'s is on the layer only when the program set it
    (`getattr(layer, "_is_hf_initialized", False)`, `getattr(layer_norm, "running_mean", None)`)."""
    rows = []
    for cls, names in sorted(_set_names()[0].items()):
        rows.append(f"    {cls!r}: frozenset({' '.join(sorted(names))!r}.split()),")
    return "LAYER_INSTANCE_NAMES: dict[str, frozenset[str]] = {\n" + "\n".join(rows) + "\n}\n"


def _layer_classes() -> list[type]:
    return [c for n in sorted(dir(torch.nn)) if isinstance(c := getattr(torch.nn, n), type) and issubclass(c, torch.nn.Module)]


def _computed_site(node: ast.AST) -> ast.expr | None:
    """The name argument of `setattr(self, <expr>, ...)` or `self.register_*(<expr>, ...)` when not a constant."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and \
            len(node.args) > 1 and not isinstance(node.args[1], ast.Constant):
        return node.args[1]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS \
            and node.args and not isinstance(node.args[0], ast.Constant):
        return node.args[0]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Attribute) \
            and node.value.attr in ("_modules", "_parameters", "_buffers") and not isinstance(node.slice, ast.Constant):
        return node.slice  # `self._modules[str(index)] = module`
    return None


def _set_name(node: ast.AST) -> str | None:
    """The constant name `node` sets on `self` (or on a module, by `setattr`/`register_*` with a constant)."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
            isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
            isinstance(node.args[0].value, str) and (
            (isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS) or
            (isinstance(node.func, ast.Name) and node.func.id == "setattr")):
        return node.args[0].value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and \
            len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        return node.args[1].value
    return None


def _set_names() -> tuple[dict[str, set[str]], set[str], set[str]]:
    """Per class of `torch.nn`, the names the sources of it and its torch bases set on `self` (and what functions
    outside classes in those files set); the classes whose instances may also hold names computed at run time
    (`setattr(self, name, ...)`: an RNN's `weight_ih_l0`), for which no name is ever decided absent; and of those,
    the ones whose computed names are all `str(...)` of a number (a ModuleList's `"0"`, `"1"`): a name that is no
    number is decided there as elsewhere."""
    classes = _layer_classes()
    files = {f for cls in classes for base in cls.__mro__
             if base.__module__.startswith("torch.") and (f := inspect.getsourcefile(base))}
    per_class: dict[str, set[str]] = {}  # "file:Class" -> the names its body sets
    loose: set[str] = set()  # set outside any class of those files
    computed: dict[str, bool] = {}  # "file:Class" of a class body setting a computed name -> all of them `str(...)`
    for path in sorted(files):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        inside: set[int] = set()
        for cls_node in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            key = f"{path}:{cls_node.name}"
            for node in ast.walk(cls_node):
                inside.add(id(node))
                if (name := _set_name(node)) is not None:
                    per_class.setdefault(key, set()).add(name)
                if (arg := _computed_site(node)) is not None:
                    number = isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "str"
                    computed[key] = computed.get(key, True) and number
        loose.update(n for node in ast.walk(tree) if id(node) not in inside and (n := _set_name(node)) is not None)
    names: dict[str, set[str]] = {}
    open_classes: set[str] = set()
    numbered: set[str] = set()
    for cls in classes:
        keys = [f"{inspect.getsourcefile(b)}:{b.__name__}" for b in cls.__mro__
                if b.__module__.startswith("torch.") and b is not torch.nn.Module]
        module_key = f"{inspect.getsourcefile(torch.nn.Module)}:Module"  # what Module's methods set (`compile`)
        names["torch.nn." + cls.__name__] = set(loose).union(*(per_class.get(k, set()) for k in [*keys, module_key]))
        if any(k in computed for k in keys):
            open_classes.add("torch.nn." + cls.__name__)
            if all(computed.get(k, True) for k in keys):
                numbered.add("torch.nn." + cls.__name__)
    return names, open_classes, numbered


def _open_layers() -> str:
    _, open_classes, numbered = _set_names()
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(" ".join(sorted(open_classes)) + " ", 100,
                                                                 drop_whitespace=False))
    nums = "\n".join(f"    {line!r}" for line in textwrap.wrap(" ".join(sorted(numbered)) + " ", 100, drop_whitespace=False))
    return (f"LAYER_COMPUTED_NAMES: frozenset[str] = frozenset((\n{body}\n).split())  # classes setting computed names\n\n"
            f"LAYER_NUMBERED_NAMES: frozenset[str] = frozenset((\n{nums}\n).split())  # ... all of them str(number)\n")


_REGISTERS = {"register_buffer", "register_parameter", "add_module", "register_module"}


def _instance_names() -> str:
    """The attributes `nn.Module.__init__` sets on every instance (`training`, `_parameters`, `_forward_hooks`,
    ...): with the class's names, all an `nn.Module` instance holds that its subclass did not set."""
    names = " ".join(sorted(vars(torch.nn.Module())))
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(names + " ", 100, drop_whitespace=False))
    return f"MODULE_INSTANCE_ATTRS: frozenset[str] = frozenset((\n{body}\n).split())\n"


def _layer_modules() -> str:
    """Per submodule of `torch.nn.modules` (`activation`, `normalization`, ...), the names in its namespace, in
    its `vars()` order, that hold a `torch.nn` module class (its own and those it imports, `Module`): what
    `vars(torch.nn.modules.activation)` holds of them (torch_geometric's `activation_resolver` looks its
    activations up there); the namespace holds other names too."""
    import importlib
    import pkgutil

    rows = []
    for info in sorted(pkgutil.iter_modules(torch.nn.modules.__path__), key=lambda i: i.name):
        qual = f"torch.nn.modules.{info.name}"
        mod = importlib.import_module(qual)
        names = [n for n, v in vars(mod).items() if isinstance(v, type) and issubclass(v, torch.nn.Module)
                 and getattr(torch.nn, v.__name__, None) is v and n == v.__name__]
        rows.append(f"    {qual!r}: tuple({' '.join(names)!r}.split()),")
    return "LAYER_MODULES: dict[str, tuple[str, ...]] = {\n" + "\n".join(rows) + "\n}\n"


def main() -> None:
    text = (f'"""The attribute names of `torch.Tensor` and `torch.nn.Module` in torch {torch.__version__.split("+")[0]} '
            "(`dir(torch.Tensor)`,\n`dir(torch.nn.Module)`): a name outside them is on a tensor or on the class "
            "`nn.Module` only when the\nprogram set it; "
            "`vars(torch.nn.Module())`: what `Module.__init__` sets on every instance.\nGenerated by `scripts/gen_tensor_attrs.py`; do not edit by "
            'hand."""\n\n' + _names("TENSOR_ATTRS", torch.Tensor) + "\n" + _names("MODULE_ATTRS", torch.nn.Module) + "\n"
            + _instance_names() + "\n" + _layer_instance_names() + "\n" + _open_layers() + "\n" + _layers() + "\n"
            + _layer_modules())
    with open(OUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
