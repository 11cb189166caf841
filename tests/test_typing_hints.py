"""`typing` hints and the annotations `inspect.signature` reports, against CPython: the text (`repr`, `str`),
`__origin__`, `__args__`, `_name`, `__module__` and equality of `Tensor`, `Optional[Tensor]`, `Tuple[Tensor,
Tensor]`, aliases (`OptTensor = Optional[Tensor]`), `Union[...]`, `List[int]`, PEP 604 `int | None`, string
annotations, `typing._eval_type` of a `ForwardRef` (torch-geometric's `Inspector` prints each parameter's hint
and evaluates it back: issue 36). CPython runs each program with a stand-in `torch` whose `Tensor` is named as
torch's (`torch.Tensor`); every probe must be CPython's exactly. Strings are probed by their length and a
checksum of their characters."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from tests import test_python_values as python_values
from tests.oracle.fuzz_python import Analyzer, judge_probe

HEAD = '''
import inspect
import typing
from typing import Any, Dict, List, Optional, Set, Tuple, Type, Union
import torch
from torch import Tensor


def code(s):
    return len(s) + 1, sum((i + 1) * ord(c) for i, c in enumerate(s)) % 97 + 1


class Node:
    pass


OptTensor = Optional[Tensor]
PairTensor = Tuple[Tensor, Tensor]
'''

# (expression, the attributes CPython has for it)
HINTS = [
    ("Tensor", ("__module__", "__qualname__")),
    ("int", ("__module__", "__qualname__")),
    ("Node", ("__module__", "__qualname__")),
    ("Optional[Tensor]", ("__origin__", "__args__", "_name", "__module__")),
    ("OptTensor", ("__origin__", "__args__", "_name")),
    ("PairTensor", ("__origin__", "__args__", "_name")),
    ("Union[Tensor, None]", ("__args__", "_name")),
    ("Union[int, str]", ("__origin__", "__args__", "_name")),
    ("Union[int]", ()),
    ("List[int]", ("__origin__", "__args__", "_name")),
    ("Dict[str, Any]", ("__origin__", "__args__", "_name")),
    ("Optional[Node]", ("__args__",)),
    ("Optional[List[Tensor]]", ("__args__",)),
    ("Set[int]", ("__origin__", "__args__")),
    ("Type[Node]", ("__origin__", "__args__")),
    ("int | None", ("__args__",)),
    ("Tensor | None", ("__args__",)),
    ("List", ("_name", "__origin__", "__module__")),
    ("Optional", ("_name", "__module__")),
    ("Any", ("__module__",)),
    ('Optional["Tensor"]', ("__args__",)),
    ('typing.ForwardRef("Tensor")', ("__forward_arg__",)),
]


def cpython_probes(source: str) -> dict[str, Any]:
    class Tensor:
        pass

    Tensor.__module__, Tensor.__qualname__ = "torch", "Tensor"
    return python_values.cpython_probes(source, Tensor=Tensor)


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def exact(analyzer: Analyzer, source: str) -> None:
    source = textwrap.dedent(source)
    truth = cpython_probes(source)
    assert truth, "the program has no probe"
    seen = analyzer.analyze(source)
    assert seen.crash is None and not seen.errors, (seen.crash, seen.errors)
    got = {name: judge_probe(want, seen.shapes.get(name)) for name, want in truth.items()}
    assert set(got.values()) == {"exact"}, [(k, v, truth[k], seen.shapes.get(k)) for k, v in got.items()
                                            if v != "exact"]


def test_hints_print_and_hold_what_cpython_gives(analyzer: Analyzer) -> None:
    lines = [HEAD]
    for i, (hint, attrs) in enumerate(HINTS):
        lines.append(f"h = {hint}")
        lines.append(f"p_repr_{i} = torch.zeros(*code(repr(h)))")
        lines.append(f"p_str_{i} = torch.zeros(*code(str(h)))")
        lines += [f"p_{attr.strip('_')}_{i} = torch.zeros(*code(repr(h.{attr})))" for attr in attrs]
    exact(analyzer, "\n".join(lines) + "\n")


def test_hints_compare_as_cpython(analyzer: Analyzer) -> None:
    exact(analyzer, HEAD + '''
p_same = torch.zeros(2 if Optional[Tensor] == Union[Tensor, None] else 3, 2 if OptTensor == Optional[Tensor] else 3)
p_order = torch.zeros(2 if Union[int, str] == Union[str, int] else 3, 2 if List[int] != List[str] else 3)
p_node = torch.zeros(2 if Optional[Node] == Optional[Tensor] else 3, 2 if Tuple[int, int] == PairTensor else 3)
p_typevar = torch.zeros(2 if isinstance(Tensor, typing.TypeVar) else 3, 2 if isinstance(List[int], typing.TypeVar) else 3)
T = typing.TypeVar("T")
p_t = torch.zeros(*code(repr(List[T])), 2 if isinstance(T, typing.TypeVar) else 3)
p_args = torch.zeros(2 if all(isinstance(a, typing.TypeVar) for a in List[T].__args__) else 3)
p_none = torch.zeros(2 if Optional[Tensor].__args__[1] is type(None) else 3)
''')


def test_signature_annotations_are_cpythons_values(analyzer: Analyzer) -> None:
    exact(analyzer, HEAD + '''
def message(x_j: Tensor, edge_weight: OptTensor, size: Optional[Tuple[int, int]] = None, name: "Tensor" = None,
            flag: int | None = None, plain=1, *rest: List[int], **kw: Any) -> PairTensor:
    return x_j


sig = inspect.signature(message)
ps = list(sig.parameters.values())
p_0 = torch.zeros(*code(repr(ps[0].annotation)))
p_1 = torch.zeros(*code(repr(ps[1].annotation)))
p_2 = torch.zeros(*code(repr(ps[2].annotation)))
p_3 = torch.zeros(*code(repr(ps[3].annotation)))
p_4 = torch.zeros(*code(repr(ps[4].annotation)))
p_5 = torch.zeros(2 if ps[5].annotation is inspect.Parameter.empty else 3)
p_6 = torch.zeros(*code(repr(ps[6].annotation)), *code(repr(ps[7].annotation)))
p_ret = torch.zeros(*code(repr(sig.return_annotation)))
p_same = torch.zeros(2 if ps[1].annotation == Optional[Tensor] else 3)
''')


def test_annotations_under_the_future_import_are_their_text(analyzer: Analyzer) -> None:
    exact(analyzer, "from __future__ import annotations\n" + HEAD + '''
def message(x_j: Tensor, edge_weight: OptTensor, size: Optional[Tuple[int, int]] = None, name: "Tensor" = None,
            flag: int | None = None) -> PairTensor:
    return x_j


ps = list(inspect.signature(message).parameters.values())
p_0 = torch.zeros(*code(ps[0].annotation), *code(ps[1].annotation))
p_2 = torch.zeros(*code(ps[2].annotation), *code(ps[3].annotation))
p_4 = torch.zeros(*code(ps[4].annotation), *code(inspect.signature(message).return_annotation))
''')


def test_forward_references_evaluate_in_the_names_given(analyzer: Analyzer) -> None:
    """`typing._eval_type(ForwardRef(text), names, None)` and a library's own printer of hints (the shape of
    torch-geometric's `type_repr`: the hint's `__module__`, `_name`, `__args__`)."""
    exact(analyzer, HEAD + '''
names = {"Tensor": Tensor, "Optional": Optional, "Tuple": Tuple, "OptTensor": OptTensor, "int": int}


def type_repr(obj, names):
    def name_of(name, module):
        return name if name in names else f"{module}.{name}"

    if isinstance(obj, str):
        return obj
    if obj is type(None):
        return "None"
    if obj.__module__ == "typing":
        if not hasattr(obj, "_name"):
            return repr(obj)
        name = obj._name
        args = getattr(obj, "__args__", None)
        if name == "Optional":
            args = [a for a in obj.__args__ if a is not type(None)]
        return f"{name_of(name, obj.__module__)}[{', '.join(type_repr(a, names) for a in args)}]"
    if obj.__module__ == "builtins":
        return obj.__qualname__
    return name_of(obj.__qualname__, obj.__module__)


hints = [typing._eval_type(typing.ForwardRef(t), names, None) for t in ["Tensor", "OptTensor", "Optional[Tensor]",
                                                                        "Tuple[Tensor, int]", "int"]]
p_0 = torch.zeros(*code(type_repr(hints[0], names)), *code(type_repr(hints[1], names)))
p_2 = torch.zeros(*code(type_repr(hints[2], names)), *code(type_repr(hints[3], names)))
p_4 = torch.zeros(*code(type_repr(hints[4], names)))
p_eq = torch.zeros(2 if hints[1] == hints[2] else 3, 2 if typing._eval_type(hints[2], names, None) == hints[2] else 3)
p_node = torch.zeros(*code(type_repr(Optional[Node], {})))
''')


def test_builtin_classes_print_their_own_names(analyzer: Analyzer) -> None:
    """`complex` is a class of its own, not `float`'s model (`str(complex)` printed `<class 'float'>`)."""
    exact(analyzer, HEAD + '''
p_complex = torch.zeros(*code(str(complex)), *code(repr(complex(3))))
p_float = torch.zeros(*code(str(float)), *code(float.__qualname__))
p_type = torch.zeros(*code(repr(type(1.0))), *code(dict.__module__))
''')


def test_get_origin_and_get_args_are_cpythons(analyzer: Analyzer) -> None:
    """`typing.get_origin`/`get_args` (transformers 5 asks them of its config fields' hints while importing)."""
    lines = [HEAD]
    for i, (hint, _) in enumerate(HINTS[:15]):  # (`int | None`: its origin, `types.UnionType`, is not modeled)
        lines.append(f"h = {hint}")
        lines.append(f"p_origin_{i} = torch.zeros(*code(repr(typing.get_origin(h))))")
        lines.append(f"p_args_{i} = torch.zeros(*code(repr(typing.get_args(h))))")
    lines.append("p_none = torch.zeros(2 if typing.get_origin(Tensor) is None and typing.get_args(int) == () else 3)")
    lines.append("p_union = torch.zeros(2 if typing.get_origin(Optional[int]) is Union else 3)")
    exact(analyzer, "\n".join(lines) + "\n")


def test_ordered_dict_form_makes_an_ordered_dict(analyzer: Analyzer) -> None:
    """`typing.OrderedDict()` is a `collections.OrderedDict` (torch_geometric's MessagePassing keeps its hooks
    in one: an unknown dict made every layer's output unknown); its hints print as CPython's; `typing.List()`
    is CPython's TypeError."""
    exact(analyzer, HEAD + '''
hooks = typing.OrderedDict()
hooks[3] = "a"
p_len = torch.zeros(len(hooks) + 1, 2 if list(hooks.values()) == ["a"] else 3)
p_hint = torch.zeros(*code(repr(typing.OrderedDict[int, str])), *code(repr(typing.OrderedDict)))
try:
    List()
    made = True
except TypeError:
    made = False
p_list = torch.zeros(2 if made else 3)
''')
