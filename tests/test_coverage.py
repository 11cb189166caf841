"""Coverage figures and the origins of values not understood (issue 13): each origin kind is recorded
where the value was born and survives the operations made on it; tensor operations are counted as
checked or skipped; paths ended by the program, and launchers not followed, are listed with their
location; an entry point that checked nothing gets PT013."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pytea_ci.diagnostics.result import EntryResult
from pytea_ci.driver.run import Options, run


def analyze(tmp_path: Path, source: str, strict: bool = True, **files: str) -> EntryResult:
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    path = tmp_path / "main.py"
    path.write_text(textwrap.dedent(source))
    (entry,) = run([str(path)], Options(root=str(tmp_path), strict=strict)).entries
    return entry


def origins(e: EntryResult) -> list[tuple[int, str]]:
    return [(o["location"][1], o["what"]) for o in e.stats.unknown_origins]


def line_of(source: str, marker: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if marker in line)


# Each origin kind the issue names: the line of `# <-` is where the value is born, the last line uses it.
KINDS = {
    "third-party module 'h5py'": """\
        import torch
        import h5py  # <-
        f = h5py.File("data.h5")
        y = torch.cat([torch.randn(2, 3), f["x"]])
    """,
    "read at run time by torch.load('ckpt.pt')": """\
        import torch
        state = torch.load("ckpt.pt")  # <-
        y = torch.randn(2, 3) + state
    """,
    "value of environment variable BATCH": """\
        import os
        import torch
        n = os.environ["BATCH"]  # <-
        y = torch.randn(4, 6).view(n, -1)
    """,
    "value from tensor data (.item())": """\
        import torch
        n = torch.randn(1).item()  # <-
        y = torch.randn(4, 6).view(n, -1)
    """,
    "attribute Linear.frobnicate": """\
        import torch
        lin = torch.nn.Linear(3, 4)
        w = lin.frobnicate  # <-
        y = torch.cat([torch.randn(2, 3), w])
    """,
}


@pytest.mark.parametrize("what", sorted(KINDS))
def test_each_origin_kind_is_recorded_where_it_is_born(tmp_path: Path, what: str) -> None:
    source = KINDS[what]
    e = analyze(tmp_path, source, strict=False)
    assert e.stats.ops_checked < e.stats.ops_reached, origins(e)
    born = line_of(source, "# <-")
    assert any(line == born and what.split(" '")[0] in text for line, text in origins(e)), origins(e)
    if what.startswith(("third-party", "torch.load", "attribute")):  # what to configure or model next
        assert any(what.split()[0] in name for name in e.stats.unmodeled), e.stats.unmodeled


def test_unknown_kind_origin_survives_ten_operations(tmp_path: Path) -> None:
    source = """\
        import torch
        import timm
        m = timm.create_model("resnet18")
        h = m.head
        h = h.weight
        h = h * 2
        h = h + 1
        h = -h
        h = h[0]
        h = h.T
        h = (h, 1)[0]
        h = h if h else h
        h = h / 3
        y = torch.cat([torch.randn(2, 3), h])
    """
    e = analyze(tmp_path, source)
    assert origins(e) == [(2, "third-party module 'timm' (import timm)")]
    assert (e.stats.ops_reached - e.stats.ops_checked, e.stats.unknowns) == (1, 1)


def test_tensor_of_unknown_shape_carries_the_origin(tmp_path: Path) -> None:
    source = """\
        import torch
        n = torch.load("n.pt")
        x = torch.zeros(n)
        y = x.relu().sum(0)
    """
    e = analyze(tmp_path, source)
    assert {line for line, _ in origins(e)} == {2}


def test_call_of_an_unknown_callable_with_a_tensor_is_a_skipped_operation(tmp_path: Path) -> None:
    # real-repository situation (c): a model built by an unknown factory
    source = """\
        import torch
        model = torch.hub.load("pytorch/vision", "resnet18")
        x = torch.randn(2, 3, 224, 224)
        y = model(x)
    """
    e = analyze(tmp_path, source)
    assert e.stats.coverage is not None and e.stats.coverage < 1
    assert origins(e)[0][0] == 2 and "torch.hub.load" in origins(e)[0][1]


def test_numpy_method_not_reported_as_a_tensor_api(tmp_path: Path) -> None:
    source = """\
        import numpy as np
        a = np.zeros((3, 4))
        b = a.frobnicate()
    """
    e = analyze(tmp_path, source)
    assert "numpy.ndarray.frobnicate" in e.stats.unmodeled
    assert not any(k.startswith("torch.Tensor") for k in e.stats.unmodeled)


def test_program_exception_path_is_listed_with_its_location(tmp_path: Path) -> None:
    # real-repository situation (a): any path ended by an exception of the program is listed
    source = """\
        import torch
        x = torch.randn(2, 3)
        if not torch.cuda.is_available():
            raise SystemError("this script needs a GPU")
        y = x @ x.T
    """
    e = analyze(tmp_path, source)
    ended = [(p["kind"], p["location"][1]) for p in e.stats.ended_paths]
    assert ("exception", 4) in ended
    assert "SystemError" in next(p["reason"] for p in e.stats.ended_paths if p["location"][1] == 4)
    assert e.stats.ops_checked == e.stats.ops_reached  # the other path went on and checked everything


def test_launcher_not_followed_is_pt013(tmp_path: Path) -> None:
    # real-repository situation (b): the entry point's only code is handed to a launcher not understood
    source = """\
        import torch
        from cluster_tools import launch

        def main():
            x = torch.randn(3, 11)
            return torch.nn.Linear(10, 5)(x)

        launch(main, num_processes=2)
    """
    e = analyze(tmp_path, source)
    (note,) = [d for d in e.diagnostics if d.rule == "PT013"]
    assert note.span.line == 8 and "main() is handed to" in note.message and "cluster_tools" in note.message
    assert e.stats.ops_checked == 0 and [p["kind"] for p in e.stats.ended_paths] == ["launcher"]


def test_code_wrapped_by_a_call_whose_result_is_kept_is_not_launched(tmp_path: Path) -> None:
    # torchrl at import time: `_warn = assume_constant_result(_err)`, `_make_specs = backend("gym")(Env._make_specs)`
    # and `@backend("gym")` on a method wrap the function (as a decorator does) and keep the result; nothing is
    # launched there, so the entry's first reason is not a launcher. A dropped result, or code handed by keyword
    # (`Thread(target=main).start()`), still is.
    source = """\
        import torch
        from compile_tools import assume_constant_result, backend, launch, Thread

        def _err():
            raise RuntimeError("never here")

        _warn = assume_constant_result(_err)

        class Env:
            def _make_specs(self):
                return 1

        class GymEnv(Env):
            _make_specs = backend("gym")(Env._make_specs)

            @backend("gym")
            def step(self):
                return 2

        def main():
            return torch.nn.Linear(10, 5)(torch.randn(3, 10))

        launch(main)
        Thread(target=main).start()
    """
    e = analyze(tmp_path, source)
    launched = [(p["location"][1], p["reason"].split("()")[0]) for p in e.stats.ended_paths if p["kind"] == "launcher"]
    assert launched == [(23, "main"), (24, "main")]


def test_nothing_checked_when_every_path_ends_first(tmp_path: Path) -> None:
    source = """\
        import sys
        import torch
        raise SystemExit("usage: main.py DATA")
        x = torch.randn(2, 3)
    """
    e = analyze(tmp_path, source)
    (note,) = [d for d in e.diagnostics if d.rule == "PT013"]
    assert note.span.line == 3 and "every path ended early" in note.message and "SystemExit" in note.message


def test_no_note_for_a_program_without_tensor_operations(tmp_path: Path) -> None:
    e = analyze(tmp_path, "x = [1, 2, 3]\nprint(sum(x))\n")
    assert e.stats.ops_reached == 0 and e.stats.coverage is None
    assert not [d for d in e.diagnostics if d.rule == "PT013"]


def test_checks_skipped_on_unknown_kind_symbols_are_counted(tmp_path: Path) -> None:
    source = """\
        import torch
        import timm
        n = len(timm.list_models())
        x = torch.randn(n, 3)
        y = torch.randn(4, 3) + x
    """
    e = analyze(tmp_path, source)
    assert e.stats.checks_skipped >= 1


def test_skipped_decisive_check_is_not_counted_as_checked(tmp_path: Path) -> None:
    """Issue 20: the operation whose only shape check needed a size of unknown kind is not checked, with
    the origin of that size named; the coverage line cannot say 100%."""
    source = """\
        import torch
        import timm
        n = len(timm.list_models())
        x = torch.randn(n, 3)
        y = torch.randn(4, 3) + x  # the check: n == 4 or n == 1
    """
    e = analyze(tmp_path, source)
    assert e.stats.checks_skipped >= 1
    assert e.stats.ops_checked < e.stats.ops_reached and e.stats.coverage is not None and e.stats.coverage < 1.0
    line = line_of(source, "len(timm")  # where the size was born
    assert any(at == line and "unknown kind" in what for at, what in origins(e)), origins(e)


def test_check_holding_for_every_value_of_an_unknown_size_is_decided(tmp_path: Path) -> None:
    source = """\
        import torch
        import timm
        n = len(timm.list_models())
        y = torch.randn(4, 3)[n % 4]  # in range whatever n is
    """
    e = analyze(tmp_path, source)
    assert e.stats.checks_skipped == 0 and e.stats.ops_checked == e.stats.ops_reached


def test_dims_free_of_the_unknown_size_are_still_decided(tmp_path: Path) -> None:
    """`[n?, T]` vs `[m?, U]` with T < U fails on the second dim whatever n and m are (one check, a
    conjunction over both dims, of which only the first needs the sizes of unknown kind)."""
    source = """\
        import random
        import torch
        import torch.nn.functional as F
        import timm
        n, m = len(timm.list_models()), len(timm.list_pretrained())
        T, U = random.randint(100, 200), random.randint(300, 400)
        x, t = torch.randn(n, T), torch.rand(m, U)
        loss = F.binary_cross_entropy(torch.sigmoid(x), t)  # fails for every n
    """
    e = analyze(tmp_path, source)
    assert [(d.rule, d.span.line) for d in e.diagnostics if d.rule.startswith("PT00")] == \
        [("PT001", line_of(source, "fails for every n"))]


def test_cached_result_keeps_the_figures(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("import torch, timm\nm = timm.create_model('r')\ny = m(torch.randn(2, 3))\n")
    opts = Options(root=str(tmp_path), cache_dir=str(tmp_path / ".cache"))
    (first,) = run([str(tmp_path / "main.py")], opts).entries
    (second,) = run([str(tmp_path / "main.py")], opts).entries
    assert second.cached and not first.cached
    assert second.stats == first.stats or (
        (second.stats.unknown_origins, second.stats.ops_reached, second.stats.ops_checked)
        == (first.stats.unknown_origins, first.stats.ops_reached, first.stats.ops_checked))


def test_nothing_checked_when_the_tensor_code_is_never_called(tmp_path: Path) -> None:
    source = """\
        import torch

        def train():
            return torch.nn.Linear(3, 4)(torch.randn(2, 3))

        layer = torch.nn.Linear(3, 4)
    """
    e = analyze(tmp_path, source)
    (note,) = [d for d in e.diagnostics if d.rule == "PT013"]
    assert e.stats.ops_reached == 0 and "no tensor operation was reached" in note.message
