"""Import-time work (issue 12 item 9): the import prefix of an entry point runs once per entry point
(interp/snapshot.py), later paths start from a copy of the state after it, with the same findings as
when every path re-runs it; import-time branches on values not understood do not fork."""

from __future__ import annotations

import ast
import os

import pytest

from pytea_ci.driver.run import Options, run
from pytea_ci.interp import snapshot

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "imports", "import_prefix.py")


def _analyze() -> tuple[int, int, list[tuple[int, str]]]:
    result = run([FIXTURE], Options(root=os.path.dirname(FIXTURE), strict=True))
    entry = result.entries[0]
    return entry.stats.paths, entry.stats.steps, sorted((d.span.line, d.rule) for d in entry.diagnostics)


def test_later_paths_skip_the_imports_and_find_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    paths, steps, found = _analyze()
    monkeypatch.setattr(snapshot, "MIN_STEPS", 10**9)  # never checkpoint: every path re-runs the imports
    paths_rerun, steps_rerun, found_rerun = _analyze()
    assert paths == paths_rerun == 3  # the third path starts from the checkpoint the second one took
    assert found == found_rerun == [(33, "PT001")]
    assert steps < 0.75 * steps_rerun


def test_no_checkpoint_when_every_choice_is_made_inside_the_imports(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second path flips a choice made inside the import prefix: a later path could start from its
    checkpoint only if a path chose after the prefix, and none did, so no copy of the state is made (a
    restored package import copied for nothing was a sixth of a warm check)."""
    taken: list[int] = []
    real = snapshot.take
    monkeypatch.setattr(snapshot, "take", lambda interp, g: taken.append(1) or real(interp, g))
    entry = os.path.join(os.path.dirname(FIXTURE), "import_fork_inside.py")
    result = run([entry], Options(root=os.path.dirname(entry), strict=True))
    assert result.entries[0].stats.paths == 2
    assert [(d.span.line, d.rule) for d in result.entries[0].diagnostics] == [(10, "PT001")]
    assert taken == []


def test_import_prefix_ends_at_the_last_import_before_the_program() -> None:
    body = ast.parse("'''doc'''\nimport a\nX = 1\nfrom b import c\ndef f(): pass\nfor i in x: pass\nimport d\n").body
    assert snapshot.import_prefix(body) == 4
    assert snapshot.import_prefix(ast.parse("x = 1\nif __name__ == '__main__':\n    import a\n").body) == 0


def test_a_checkpoint_serves_paths_that_make_its_choices() -> None:
    assert snapshot.matches((True, False), [True, False, True])
    assert snapshot.matches((True, True), [True])  # past the forced ones, a path takes the first side
    assert not snapshot.matches((True, False), [True])
    assert not snapshot.matches((False,), [True])


def test_import_time_branches_on_values_not_understood_do_not_fork() -> None:
    entry = os.path.join(os.path.dirname(FIXTURE), "import_branches.py")
    result = run([entry], Options(root=os.path.dirname(entry), strict=True))
    stats = result.entries[0].stats
    assert stats.paths == 2  # the program's own branch, both ways (six import-time branches: 64 before)
    assert [(d.span.line, d.rule) for d in result.entries[0].diagnostics] == [(15, "PT001")]


def test_an_unknown_that_holds_objects_holds_their_copies() -> None:
    """A checkpoint copies what an Unknown holds (interp/escape.py) with the rest of the state: havoc
    through it on a later path changes that path's copy, never the checkpoint."""
    from pytea_ci.models.values import Unknown

    kept: list[object] = []
    holder = Unknown("RRef(self)", None, None, (kept,))
    state = {"a": kept, "b": holder}
    copier = snapshot._Copier.__new__(snapshot._Copier)
    copier.interp, copier.shared_ids, copier.seen = None, {}, {}  # type: ignore[assignment]
    new = copier.copy(state)
    assert new["b"] is not holder and new["b"].holds[0] is new["a"] and new["a"] is not kept
    assert copier.copy(Unknown("plain")).holds == ()


def test_a_named_tuple_holding_a_list_is_copied_with_its_class() -> None:
    """A named tuple of the program (a `NamedTupleVal`: its class is an attribute, not a constructor
    argument) copied because a list inside it is: the copy keeps the class, so `t.field` still reads."""
    from pytea_ci.models.values import ClassVal, NamedTupleVal

    cls = ClassVal("Stage", (), {"_fields": ("widths", "depth")})
    widths = [4, 8]
    t = NamedTupleVal.of(cls, [widths, 2])
    copier = snapshot._Copier.__new__(snapshot._Copier)
    copier.interp, copier.shared_ids, copier.seen = None, {}, {}  # type: ignore[assignment]
    new = copier.copy(t)
    assert isinstance(new, NamedTupleVal) and new.cls is cls and new[0] == widths and new[0] is not widths


def test_the_missing_sentinel_is_itself_in_every_copy() -> None:
    """`MISSING` is compared by identity: a copy of the state (checkpoint copier, pickle, `copy`) gives it
    back itself, so an import-time `ContextVar` never set still reads its default after its package's import
    is copied (a copied sentinel was returned as a value: `dict(var.get() or {})` became unknown)."""
    import copy
    import pickle

    from pytea_ci.models import all as _models  # noqa: F401  (registers contextvars.ContextVar)
    from pytea_ci.models.registry import REGISTRY
    from pytea_ci.models.values import MISSING, Instance

    var = Instance(REGISTRY["contextvars.ContextVar"], {"name": "v", "_default": None, "_value": MISSING})
    copier = snapshot._Copier.__new__(snapshot._Copier)
    copier.interp, copier.shared_ids, copier.seen = None, {}, {}  # type: ignore[assignment]
    new = copier.copy({"var": var})["var"]
    assert new is not var and new.attrs["_value"] is MISSING
    assert copy.copy(MISSING) is MISSING and copy.deepcopy(MISSING) is MISSING
    assert pickle.loads(pickle.dumps(MISSING)) is MISSING


def test_a_copy_of_the_state_shares_the_functions_defaults(tmp_path: "os.PathLike[str]",
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A function's defaults are a tuple, as CPython's `__defaults__` (never changed in place), so a copy of
    the state shares it and copies only what is mutable inside (issue 31: torchrl's import checkpoint was
    26k objects, 5k functions with two lists each; two copies per library target spent its share of the run
    budget). The one empty tuple is every function's without defaults; a mutable default is still one object
    per path, shared by that path's calls."""
    lib = "".join(f"def f{i}(x):\n    return x\n" for i in range(600))  # most functions have no defaults
    (tmp_path / "lib.py").write_text(lib + "def grow(acc=[]):\n    acc.append(1)\n    return len(acc)\n")
    (tmp_path / "main.py").write_text(
        "import sys\nimport torch\nimport lib\n"
        "n = 3 if len(sys.argv) > 2 else 4\n"  # a choice past the imports: a later path restores their checkpoint
        "lib.grow()\nk = lib.grow()\n"
        "x = torch.zeros(k, n)\ny = torch.zeros(3, 5)\nz = x @ y\n")  # k == 2: [2, 3] @ [3, 5] fits only for n == 3
    copies: list[int] = []
    real = snapshot._copy_with

    def counting(memo: "snapshot._Copier", state: dict, g: dict, interp: object) -> tuple[dict, dict]:
        out = real(memo, state, g, interp)  # type: ignore[arg-type]
        copies.append(len(memo.seen))
        return out

    monkeypatch.setattr(snapshot, "_copy_with", counting)
    result = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), strict=True))
    assert [(d.span.line, d.rule) for d in result.entries[0].diagnostics] == [(9, "PT001")]
    assert copies and max(copies) < 2.5 * 600  # each function and its (empty) attributes; two empty lists more each before


def test_a_copy_of_the_state_makes_no_dict_for_a_function_without_attributes(tmp_path: "os.PathLike[str]",
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A function's `__dict__` is made when first asked for, and a `Span` (frozen: a path and numbers) is shared, so
    a copy of the state is one object per function where it was two plus a span per definition (issue 31: 5,031
    empty dicts and 1,316 spans of torchrl's 17.3k-object import checkpoint, restored once or twice per library
    target). A function given an attribute on one path keeps it there only, as CPython's functions do per run."""
    lib = "".join(f"def f{i}(x):\n    return x\n" for i in range(600))
    (tmp_path / "lib.py").write_text(lib + "def tagged(x):\n    return x\n")
    (tmp_path / "main.py").write_text(
        "import sys\nimport torch\nimport lib\n"
        "n = 3 if len(sys.argv) > 2 else 4\n"  # a choice past the imports: a later path restores their checkpoint
        "lib.tagged.width = n\n"  # each path sets its own: the other path's copy never sees it
        "x = torch.zeros(2, lib.tagged.width)\ny = torch.zeros(3, 5)\nz = x @ y\n")  # fits only for n == 3
    copies: list[int] = []
    real = snapshot._copy_with

    def counting(memo: "snapshot._Copier", state: dict, g: dict, interp: object) -> tuple[dict, dict]:
        out = real(memo, state, g, interp)  # type: ignore[arg-type]
        copies.append(len(memo.seen))
        return out

    monkeypatch.setattr(snapshot, "_copy_with", counting)
    result = run([str(tmp_path / "main.py")], Options(root=str(tmp_path), strict=True))
    assert [(d.span.line, d.rule) for d in result.entries[0].diagnostics] == [(8, "PT001")]
    assert copies and max(copies) < 1.1 * 600, copies  # main: an empty dict more per function (1,236)
