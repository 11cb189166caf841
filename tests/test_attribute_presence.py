"""`hasattr` / `getattr(obj, name, default)` against CPython: every answer the analyzer claims is CPython's.
The names are the ones a class holds without the program writing them (what `object` and `type` give, what
`type.__new__` keeps or drops, `__dict__`/`__weakref__` that `__slots__` removes) and the attributes of
classes the analyzer models (builtin bases, exceptions, `nn.Module` and its layers), over instances and
classes. Each (value, name) pair is its own probe, so one wrong answer is named."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

from tests.oracle.fuzz_python import Analyzer, judge_probe
from tests.test_python_values import cpython_probes

NAMES = ("__signature__", "__len__", "__class__", "__dict__", "__doc__", "__module__", "__init__", "__eq__",
         "__weakref__", "__qualname__", "__name__", "__call__", "__getitem__", "__iter__", "__mro__", "__slots__",
         "__getstate__", "__dataclass_fields__", "__match_args__", "keys", "args", "with_traceback", "value",
         "missing", "method", "attr", "__hash__", "w", "extra")

CLASSES = '''
import dataclasses
import torch


class Plain:
    attr = 1

    def method(self):
        return 2


class Slotted:
    __slots__ = ("x",)


class Mapping(dict):
    pass


class Failure(Exception):
    pass


class Doc:
    """a docstring"""


@dataclasses.dataclass
class Record:
    value: int = 0


class Forwarding:
    def __getattr__(self, name):
        if name == "extra":
            return 3
        raise AttributeError(name)


class ForwardingFailure(Exception):
    def __getattr__(self, name):
        raise AttributeError(name)


VALUES = [Plain, Plain(), Slotted, Slotted(), Mapping, Mapping(), Failure, Failure("x"), Doc, Doc(), Record, Record(),
          Forwarding, Forwarding(), ForwardingFailure, ForwardingFailure()]
'''


def program(values: str, count: int) -> str:
    lines = [f"NAMES = {NAMES!r}"]
    for i in range(count):
        for j in range(len(NAMES)):
            lines.append(f"p_{i}_{j} = torch.zeros(3 if hasattr({values}[{i}], NAMES[{j}]) else 4)")
    return "\n".join(lines)


def torch_probes(source: str) -> dict[str, tuple[int, ...]]:
    """Run `source` under CPython with real torch (its values are nn.Modules): each probe's shape."""
    run = subprocess.run([sys.executable, "-c", source + "\nprint({k: tuple(v.shape) for k, v in list(globals().items()) "
                          "if k.startswith('p_')})"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return eval(run.stdout)  # type: ignore[no-any-return]  # noqa: S307 - our own program's printed dict of tuples


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def wrong_answers(analyzer: Analyzer, source: str, truth: dict[str, tuple[int, ...]]) -> dict[str, str]:
    seen = analyzer.analyze(source)
    assert seen.crash is None and not seen.errors, (seen.crash, seen.errors)
    verdicts = {name: judge_probe(want, seen.shapes.get(name)) for name, want in truth.items()}
    return {name: v for name, v in verdicts.items() if v in ("wrong", "unreached")}


def decided(analyzer: Analyzer, source: str, truth: dict[str, tuple[int, ...]], probes: list[str]) -> dict[str, str]:
    seen = analyzer.analyze(source)
    return {p: judge_probe(truth[p], seen.shapes.get(p)) for p in probes}


def probe(i: int, name: str) -> str:
    return f"p_{i}_{NAMES.index(name)}"


def test_hasattr_on_program_classes_and_instances_is_never_wrong(analyzer: Analyzer) -> None:
    source = textwrap.dedent(CLASSES) + program("VALUES", 16)
    truth = cpython_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}
    # and what CPython answers the same on every version is decided: `object`'s names are on every
    # instance, `__qualname__`/`__name__`/`__mro__` are the class's (its metaclass's), never an instance's;
    # a name nothing defines is absent from a class and instance the analyzer fully knows
    sure = [probe(0, "__class__"), probe(1, "__class__"), probe(1, "__init__"), probe(1, "__eq__"),
            probe(0, "__qualname__"), probe(0, "__name__"), probe(0, "__mro__"), probe(1, "__qualname__"),
            probe(1, "__name__"), probe(1, "__mro__"), probe(0, "__signature__"), probe(1, "__signature__"),
            probe(1, "__len__"), probe(0, "missing"), probe(1, "missing"), probe(1, "method"), probe(1, "attr"),
            probe(5, "__class__"), probe(7, "__class__"), probe(9, "__doc__"), probe(2, "w"), probe(5, "keys"),
            probe(7, "with_traceback"), probe(7, "missing"), probe(13, "__hash__"), probe(13, "missing")]
    got = decided(analyzer, source, truth, sure)
    assert set(got.values()) == {"exact"}, {k: v for k, v in got.items() if v != "exact"}


TORCH_VALUES = '''
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)


class Sub(nn.Linear):
    pass


VALUES = [nn.Linear(2, 3), Net(), Sub(2, 3), Net]
'''

TORCH_NAMES = ("reset_parameters", "extra_repr", "forward", "bias", "training", "_parameters", "zero_grad",
               "__constants__", "__class__", "fc", "missing", "__signature__")


def test_hasattr_on_torch_modules_is_never_wrong(analyzer: Analyzer) -> None:
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the oracle needs torch: these values are nn.Modules")
    lines = [textwrap.dedent(TORCH_VALUES), f"NAMES = {TORCH_NAMES!r}"]
    lines += [f"p_{i}_{j} = torch.zeros(3 if hasattr(VALUES[{i}], NAMES[{j}]) else 4)"
              for i in range(4) for j in range(len(TORCH_NAMES))]
    source = "\n".join(lines)
    truth = torch_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}
    sure = [f"p_1_{TORCH_NAMES.index('fc')}", f"p_1_{TORCH_NAMES.index('__class__')}",
            f"p_0_{TORCH_NAMES.index('bias')}", f"p_0_{TORCH_NAMES.index('zero_grad')}",
            f"p_1_{TORCH_NAMES.index('zero_grad')}", f"p_3_{TORCH_NAMES.index('zero_grad')}",
            f"p_0_{TORCH_NAMES.index('reset_parameters')}", f"p_2_{TORCH_NAMES.index('reset_parameters')}"]
    assert set(decided(analyzer, source, truth, sure).values()) == {"exact"}


def test_getattr_default_is_taken_only_where_cpython_takes_it(analyzer: Analyzer) -> None:
    source = textwrap.dedent(CLASSES) + "\n".join(
        f"p_{i}_{j} = torch.zeros(3 if getattr(VALUES[{i}], {name!r}, None) is None else 4)"
        for i in range(16) for j, name in enumerate(NAMES))
    truth = cpython_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}


NAMESPACES = '''
import argparse
import types

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, default=0.1)
VALUES = [parser.parse_args([]), argparse.Namespace(depth=2), types.SimpleNamespace(width=8), argparse.Namespace,
          types.SimpleNamespace]
NAMES = ("lr", "depth", "width", "fp16", "missing", "__contains__", "__eq__", "__class__", "_get_kwargs", "__dict__")
'''


def test_attributes_of_standard_library_namespaces_are_decided(analyzer: Analyzer) -> None:
    """A namespace of options holds exactly the attributes given to it: `getattr(args, "fp16", False)` takes
    the default, `hasattr(args, "lr")` is True (a driver of a config fell into 2^n paths of `if` on
    `getattr(args, name, default)` when absence was not decided); the class's own public names are
    CPython's, its private ones (which differ between versions) are left not known."""
    lines = [textwrap.dedent(NAMESPACES)]
    lines += [f"p_{i}_{j} = torch.zeros(3 if hasattr(VALUES[{i}], NAMES[{j}]) else 4)" for i in range(5)
              for j in range(10)]
    lines += [f"p_g{i}_{j} = torch.zeros(3 if getattr(VALUES[{i}], NAMES[{j}], None) is None else 4)" for i in range(3)
              for j in range(5)]
    source = "\n".join(lines)
    truth = cpython_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}
    sure = [f"{k}{i}_{j}" for k in ("p_", "p_g") for i in range(3) for j in range(5)]
    sure += [f"p_{i}_{j}" for i in range(5) for j in (5, 6, 7)] + ["p_3_3", "p_4_4"]
    got = decided(analyzer, source, truth, sure)
    assert set(got.values()) == {"exact"}, {k: v for k, v in got.items() if v != "exact"}


PRIVATE_NAMES = ("_traits", "_flag", "_parameters", "_forward_hooks", "_modules", "training", "_version", "fc")


def test_getattr_default_of_a_private_name_torch_never_sets_is_the_default(analyzer: Analyzer) -> None:
    """`Module.__init__` sets a known list of private attributes (`vars(nn.Module())`, generated into
    `MODULE_INSTANCE_ATTRS`); any other private name on an instance of a class the analyzer fully knows is
    absent, so timm 1.0.31's `getattr(model, "_traits", {})` is the default. On main every private name of
    an nn.Module instance was not known: `getattr(Net(), "_traits", None) is None` was answered wrong (the
    side CPython does not take was followed, 17 paths and the step budget for timm's resnet18). (The class
    `Net` is left out: `getattr(Net, "_modules", None)` is still not None, on main too.)"""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the oracle needs torch: these values are nn.Modules")
    lines = [textwrap.dedent(TORCH_VALUES), f"NAMES = {PRIVATE_NAMES!r}"]
    lines += [f"p_{i}_{j} = torch.zeros(3 if getattr(VALUES[{i}], NAMES[{j}], None) is None else 4)"
              for i in range(3) for j in range(len(PRIVATE_NAMES))]  # the instances (the class `Net`: below)
    source = "\n".join(lines)
    truth = torch_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}
    sure = [f"p_1_{PRIVATE_NAMES.index(n)}" for n in ("_traits", "_flag", "_modules", "training", "fc")]
    # a torch layer (and the program's subclass of one): what its source may set on `self` is generated
    # (`LAYER_INSTANCE_NAMES`), so transformers' `getattr(module, "_is_hf_initialized", False)` is the default
    sure += [f"p_{i}_{PRIVATE_NAMES.index(n)}" for i in (0, 2) for n in ("_traits", "_flag")]
    got = decided(analyzer, source, truth, sure)
    assert set(got.values()) == {"exact"}, {k: v for k, v in got.items() if v != "exact"}


LAYERS = '''
import torch
from torch import nn

VALUES = [nn.LSTM(2, 3), nn.Linear(2, 3), nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3), nn.Sequential(nn.ReLU()),
          nn.LayerNorm(3), nn.ModuleList([nn.ReLU()])]
NAMES = ("weight_ih_l0", "bias_hh_l0", "in_features", "_reversed_padding_repeated_twice", "num_batches_tracked",
         "running_mean", "_is_hf_initialized", "0", "weight")
'''


def test_layer_instance_attributes_are_torchs(analyzer: Analyzer) -> None:
    """The names a torch layer's instance holds come from its class's source and its torch bases' (`self.x =
    ...`, registered buffers and parameters): never a wrong answer, also for names computed at run time (an
    LSTM's `weight_ih_l0`, a Sequential's `0`), and a name no torch source sets (`_is_hf_initialized`) is
    absent, as is one only another layer's source sets (a LayerNorm's `running_mean`, a Linear's
    `num_batches_tracked`: transformers 5's `_init_weights` asks every norm) and a name that is no number on a
    ModuleList (its computed names are `str(index)`)."""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the oracle needs torch: these values are nn.Modules")
    lines = [textwrap.dedent(LAYERS)]
    lines += [f"p_{i}_{j} = torch.zeros(3 if getattr(VALUES[{i}], NAMES[{j}], None) is None else 4)"
              for i in range(7) for j in range(9)]
    source = "\n".join(lines)
    truth = torch_probes(source)
    assert wrong_answers(analyzer, source, truth) == {}
    sure = [f"p_{i}_6" for i in (1, 2, 3, 5, 6)] + ["p_1_4", "p_1_5", "p_5_4", "p_5_5", "p_6_2", "p_6_5"]
    got = decided(analyzer, source, truth, sure)
    assert set(got.values()) == {"exact"}, got
