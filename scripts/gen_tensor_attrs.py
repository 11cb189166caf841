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
    """Every attribute name the source of a `torch.nn` module class may set on an instance (`self.x = ...`,
    `setattr(self, "x", ...)`, `register_buffer("x", ...)`, `register_parameter`, `add_module`), over every
    class of `torch.nn` and its bases: a name outside them, their class's and `Module.__init__`'s is on a
    torch layer only when the program set it (`getattr(layer, "_is_hf_initialized", False)`)."""
    names, _ = _set_names()
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(" ".join(sorted(names)) + " ", 100, drop_whitespace=False))
    return f"LAYER_INSTANCE_NAMES: frozenset[str] = frozenset((\n{body}\n).split())\n"


def _layer_classes() -> list[type]:
    return [c for n in sorted(dir(torch.nn)) if isinstance(c := getattr(torch.nn, n), type) and issubclass(c, torch.nn.Module)]


def _set_names() -> tuple[set[str], set[str]]:
    """The names the sources of `torch.nn`'s classes (and their bases) set on `self`, and the classes of
    `torch.nn` whose instances may also hold names computed at run time (`setattr(self, name, ...)`: an RNN's
    `weight_ih_l0`), for which no name is ever decided absent."""
    files = {f for cls in _layer_classes() for base in cls.__mro__
             if base.__module__.startswith("torch.") and (f := inspect.getsourcefile(base))}
    names: set[str] = set()
    computed: set[str] = set()  # "file:Class" of a class body that sets a computed name
    for path in sorted(files):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for cls_node in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
            for node in ast.walk(cls_node):
                if isinstance(node, ast.Call) and ((isinstance(node.func, ast.Name) and node.func.id == "setattr" and
                                                    len(node.args) > 1 and not isinstance(node.args[1], ast.Constant)) or
                                                   (isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS
                                                    and node.args and not isinstance(node.args[0], ast.Constant))):
                    computed.add(f"{path}:{cls_node.name}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
            elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
                    isinstance(node.args[0].value, str) and (
                    (isinstance(node.func, ast.Attribute) and node.func.attr in _REGISTERS) or
                    (isinstance(node.func, ast.Name) and node.func.id == "setattr")):
                names.add(node.args[0].value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and \
                    len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                names.add(node.args[1].value)
    open_classes = {"torch.nn." + cls.__name__ for cls in _layer_classes()
                    if any(f"{inspect.getsourcefile(b)}:{b.__name__}" in computed for b in cls.__mro__
                           if b.__module__.startswith("torch.") and b is not torch.nn.Module)}
    return names, open_classes


def _open_layers() -> str:
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(" ".join(sorted(_set_names()[1])) + " ", 100,
                                                                 drop_whitespace=False))
    return f"LAYER_COMPUTED_NAMES: frozenset[str] = frozenset((\n{body}\n).split())  # classes setting computed names\n"


_REGISTERS = {"register_buffer", "register_parameter", "add_module", "register_module"}


def _instance_names() -> str:
    """The attributes `nn.Module.__init__` sets on every instance (`training`, `_parameters`, `_forward_hooks`,
    ...): with the class's names, all an `nn.Module` instance holds that its subclass did not set."""
    names = " ".join(sorted(vars(torch.nn.Module())))
    body = "\n".join(f"    {line!r}" for line in textwrap.wrap(names + " ", 100, drop_whitespace=False))
    return f"MODULE_INSTANCE_ATTRS: frozenset[str] = frozenset((\n{body}\n).split())\n"


def main() -> None:
    text = (f'"""The attribute names of `torch.Tensor` and `torch.nn.Module` in torch {torch.__version__.split("+")[0]} '
            "(`dir(torch.Tensor)`,\n`dir(torch.nn.Module)`): a name outside them is on a tensor or on the class "
            "`nn.Module` only when the\nprogram set it; "
            "`vars(torch.nn.Module())`: what `Module.__init__` sets on every instance.\nGenerated by `scripts/gen_tensor_attrs.py`; do not edit by "
            'hand."""\n\n' + _names("TENSOR_ATTRS", torch.Tensor) + "\n" + _names("MODULE_ATTRS", torch.nn.Module) + "\n"
            + _instance_names() + "\n" + _layer_instance_names() + "\n" + _open_layers() + "\n" + _layers())
    with open(OUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
