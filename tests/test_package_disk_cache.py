"""What an installed package's import left, kept on disk (issue 21, item 2): a hand-written package in a
scratch virtualenv is imported cold by one process and restored from the cache folder by the next, with
the same report; a changed package file or a damaged entry sends the import back to the cold path;
the environment's answer (its site-packages folders) is kept too."""

from __future__ import annotations

import glob
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.packages import environment
from tests.scratch_site import scratch_site

# import-time code of the kinds a restored import must give back: classes, a decorator's closure, a
# lambda, nested definitions, a registry filled at import, a set, a modeled class given a method
# (transformers: `logging.Logger.warning_once = warning_once`), a submodule imported by its package
CORE = '''
import logging
import torch
from torch import nn

WIDTHS = {"small": 256, "base": 768}
REGISTRY = {}
TAGS = {"a", "b", "c"}
SCALE = lambda w: w * 1


def register(name):
    def deco(cls):
        REGISTRY[name] = cls
        return cls
    return deco


def warning_once(self, *args):
    return None


logging.Logger.warning_once = warning_once


class Base(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.num_features = SCALE(width)

    def features(self, x):
        return x


@register("backbone")
class Backbone(Base):
    def __init__(self, width=256):
        super().__init__(width)
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        def flat(t):
            return t.flatten(1)
        logging.getLogger(__name__).warning_once("forward")
        return flat(self.pool(self.stem(x)))
'''
INIT = '''
from .core import REGISTRY, WIDTHS, TAGS

SIZES = sorted(WIDTHS)  # read at import: the package's import runs core's (not a late import, packages/lazy.py)


def create_model(name, size="base"):
    return REGISTRY[name](WIDTHS[size])
'''
BAD = '''import torch
from torch import nn
import pkgcached

model = pkgcached.create_model("backbone")
head = nn.Linear(512, 10)
x = torch.randn(8, 3, 32, 32)
y = head(model(x))
'''
# an import that forks on a fact about the machine and fills a registry of a module loaded before it
FORKS_REGISTRY = '''
MODELS = []


def register(cls):
    MODELS.append(cls)
    return cls
'''
FORKS_MODELS = '''
import torch
from torch import nn
from .registry import register

if torch.distributed.is_available():
    BACKEND = "gloo"
else:
    BACKEND = None


@register
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 512)

    def forward(self, x):
        return self.fc(x)
'''
FORKS_BAD = '''import torch
from torch import nn
import pkgforks.registry
from pkgforks.models import Net

net = pkgforks.registry.MODELS[0]()
head = nn.Linear(256, 10)
y = head(net(torch.randn(2, 8)))
'''
GOOD = BAD.replace("nn.Linear(512, 10)", "nn.Linear(model.num_features, 10)")
OTHER = GOOD + "z = torch.randn(4, 5) @ torch.randn(5, 6)\n"

# the second process prints what the package caches did (run as `python -c`)
RUN = '''
import json, sys
from pytea_ci.cli import main
from pytea_ci.packages import disk as package_disk
from pytea_ci.packages import kept as package_cache
code = main(sys.argv[1:])
print(json.dumps({"code": code, "disk": package_disk.STATS, "kept": package_cache.STATS}), file=sys.stderr)
'''


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> str:
    python, site = scratch_site(tmp_path_factory)
    pkg = site / "pkgcached"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "core.py").write_text(CORE)
    info = site / "pkgcached-0.1.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("pkgcached/__init__.py,,\npkgcached/core.py,,\n")
    (info / "top_level.txt").write_text("pkgcached\n")
    forks = site / "pkgforks"
    forks.mkdir()
    for name, text in (("__init__.py", ""), ("registry.py", FORKS_REGISTRY), ("models.py", FORKS_MODELS)):
        (forks / name).write_text(text)
    info = site / "pkgforks-0.1.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("pkgforks/__init__.py,,\npkgforks/registry.py,,\npkgforks/models.py,,\n")
    (info / "top_level.txt").write_text("pkgforks\n")
    return python


def _project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[tool.pytea-ci]\nfollow-packages = ["pkgcached", "pkgforks"]\n')
    for name, text in (("bad.py", BAD), ("good.py", GOOD), ("other.py", OTHER), ("forks_bad.py", FORKS_BAD)):
        (root / name).write_text(text)
    return root


def _run(root: Path, python: str, cache: Path, *args: str) -> tuple[dict, dict]:
    """One `pytea-ci check` in a new process: (its JSON report, what the package caches did)."""
    argv = ["check", "--root", str(root), "--cache-dir", str(cache), "--python", python, "--format", "json", "--jobs", "1",
            *args]
    p = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, cwd=root,
                       env={k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"})
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout), json.loads(p.stderr.strip().splitlines()[-1])


def _fresh(cache: Path) -> None:
    """Forget the results (and replay records), so the next run analyzes again: only the package
    imports stay in the cache."""
    for sub in ("results", "replay"):
        for f in glob.glob(str(cache / sub / "**" / "*"), recursive=True):
            if os.path.isfile(f):
                os.remove(f)


_TIMINGS = {"seconds", "z3_seconds", "cached", "analyzed", "z3_calls", "cache_hits"}


def _strip(doc: object) -> object:
    if isinstance(doc, dict):
        return {k: _strip(v) for k, v in doc.items() if k not in _TIMINGS}
    if isinstance(doc, list):
        return [_strip(v) for v in doc]
    return doc


def _lines(doc: dict, rule: str = "PT001") -> list[tuple[str, int]]:
    return sorted((d["entry"], d["line"]) for d in doc["diagnostics"] if d["rule"] == rule)


def test_a_new_process_restores_the_import_from_disk_with_the_same_report(env: str, tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    cold, did = _run(root, env, cache, "bad.py", "good.py")
    assert did["disk"]["saved"] >= 1 and did["disk"]["loaded"] == 0
    assert _lines(cold) == [("bad.py", 8)]  # the width read from the package: found, twin clean
    assert glob.glob(str(cache / "packages" / "*" / "*.pkl"))
    _fresh(cache)
    warm, did = _run(root, env, cache, "bad.py", "good.py")
    assert did["disk"]["loaded"] >= 1 and did["kept"]["kept"] == 0  # nothing imported cold
    assert _strip(warm) == _strip(cold)


def test_an_import_that_forks_and_fills_a_registry_is_restored_with_the_same_report(env: str, tmp_path: Path) -> None:
    """`pkgforks.models` forks on `torch.distributed.is_available()` (a fact about the machine) and
    registers its class in `pkgforks.registry.MODELS`, loaded before it: kept once per side, restored
    with its decisions and the registry refilled (the model is read from the registry)."""
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    cold, did = _run(root, env, cache, "forks_bad.py")
    assert _lines(cold) == [("forks_bad.py", 8)] and cold["entries"][0]["stats"]["paths"] == 2
    assert did["kept"]["kept"] == 3 and did["disk"]["saved"] == 3  # the registry, then the models once per side
    _fresh(cache)
    warm, did = _run(root, env, cache, "forks_bad.py")
    assert did["disk"]["loaded"] >= 3 and did["kept"]["kept"] == 0  # nothing imported cold
    assert _strip(warm) == _strip(cold)


def test_jobs_one_and_two_give_the_same_report_from_the_disk_cache(env: str, tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    cold, _ = _run(root, env, cache, "--jobs", "1", "bad.py", "good.py", "other.py")
    _fresh(cache)
    two, did = _run(root, env, cache, "--jobs", "2", "bad.py", "good.py", "other.py")
    assert _strip(two) == _strip(cold)
    _fresh(cache)
    one, did = _run(root, env, cache, "--jobs", "1", "bad.py", "good.py", "other.py")
    assert did["disk"]["loaded"] >= 1
    assert _strip(one) == _strip(cold)


def test_a_changed_package_file_is_imported_cold_again(env: str, tmp_path: Path) -> None:
    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    core = Path(environment.site_folders(env)[0]) / "pkgcached" / "core.py"
    _run(root, env, cache, "bad.py")
    try:
        core.write_text(CORE.replace('"base": 768', '"base": 512'))  # the head now fits
        _fresh(cache)
        doc, did = _run(root, env, cache, "bad.py")
        assert did["disk"]["loaded"] == 0 and did["disk"]["rejected"] >= 1 and did["kept"]["kept"] >= 1
        assert _lines(doc) == []
    finally:
        core.write_text(CORE)


def test_a_damaged_entry_is_a_miss_and_is_written_again(env: str, tmp_path: Path) -> None:
    from pytea_ci.packages import disk as package_disk

    root, cache = _project(tmp_path / "p"), tmp_path / "cache"
    cold, _ = _run(root, env, cache, "bad.py")
    entries = glob.glob(str(cache / "packages" / "*" / "*.pkl"))
    assert entries
    for i, path in enumerate(entries):
        data = Path(path).read_bytes()
        if i == 0:  # well formed, with a valid digest, but figures of the wrong types
            (key, files, folders, meta), start, buffers = package_disk.unpack(data)
            end = len(data) - sum(b.nbytes for b in buffers)
            bad = package_disk.pack((key, files, folders, {**meta, "steps": "many"}), data[start:end], buffers)
            Path(path).write_bytes(bad)
        else:
            Path(path).write_bytes(b"not a pickle" if i % 2 else data[: len(data) // 2] + b"\0" * 64)
    _fresh(cache)
    doc, did = _run(root, env, cache, "bad.py")
    assert did["disk"]["loaded"] == 0 and did["disk"]["rejected"] >= 1 and did["disk"]["saved"] >= 1
    assert _strip(doc) == _strip(cold)
    _fresh(cache)
    _, did = _run(root, env, cache, "bad.py")
    assert did["disk"]["loaded"] >= 1  # written again by the run that found it damaged


def test_an_entry_naming_code_outside_the_analyzer_is_refused(env: str, tmp_path: Path) -> None:
    """The payload is read with a restricted unpickler: an entry that would call `os.system` is a miss."""
    from pytea_ci.packages import disk as package_disk

    class Evil:
        def __reduce__(self) -> tuple:
            return (os.system, ("touch " + str(tmp_path / "ran"),))

    payload = pickle.dumps(Evil(), protocol=5)
    stored = package_disk.Stored({}, payload)
    assert package_disk.values(stored, object(), []) is None  # type: ignore[arg-type]
    assert not (tmp_path / "ran").exists()


def test_the_environment_answer_is_kept_and_keyed_by_the_interpreter(env: str, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    cache = str(tmp_path / "cache")
    environment.site_folders.cache_clear()
    first = environment.site_folders(env, cache)
    assert glob.glob(os.path.join(cache, "environment", "*", "*.json"))

    def no_interpreter(*args: object, **kwargs: object) -> None:
        raise AssertionError("the interpreter was asked again")

    environment.site_folders.cache_clear()
    monkeypatch.setattr(environment.subprocess, "run", no_interpreter)
    assert environment.site_folders(env, cache) == first
    cfg = Path(env).parent.parent / "pyvenv.cfg"
    text = cfg.read_text()
    try:
        cfg.write_text(text + "\n# changed\n")  # another environment configuration: asked again
        environment.site_folders.cache_clear()
        with pytest.raises(AssertionError, match="asked again"):
            environment.site_folders(env, cache)
    finally:
        cfg.write_text(text)
        environment.site_folders.cache_clear()


def test_a_restored_definition_reads_its_parameters_and_body_when_first_used() -> None:
    """A restored import defines thousands of functions and a run calls a few: a definition's body,
    parameters, decorators and annotations stay pickled until one of them is used, then read whole."""
    import ast

    from pytea_ci.packages import disk as package_disk

    src = "@deco(1)\ndef f(x: int | None = None, *args: str, y=2, **kw) -> list[int]:\n    return [x]\n"
    node = ast.parse(src).body[0]
    lazy = package_disk._lazy_def(*package_disk._def_args(node))
    assert isinstance(lazy, ast.FunctionDef) and lazy.name == "f" and lazy.lineno == 2
    assert not {"body", "args", "decorator_list", "returns"} & set(lazy.__dict__)  # nothing read yet
    assert [a.arg for a in lazy.args.args] == ["x"]  # the first use reads them all
    assert {"body", "decorator_list", "returns"} <= set(lazy.__dict__)
    def text(d: ast.AST) -> list[str]:
        return [ast.unparse(n) for n in (d.args, *d.body, *d.decorator_list, d.returns)]  # type: ignore[attr-defined]

    assert text(lazy) == text(node)
    again = package_disk._lazy_def(*package_disk._def_args(lazy))  # written again once read: the same
    assert text(again) == text(node)


def test_a_one_shot_run_keeps_what_a_restore_read_out_of_later_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's process ends with its run: what a restore read lives until then, so it is
    frozen (`gc.freeze`) instead of being walked by every later young, middle and old collection."""
    import gc

    from pytea_ci.packages import disk as package_disk

    stored = package_disk.Stored({}, pickle.dumps([[i] for i in range(1000)], protocol=5))
    monkeypatch.setattr(package_disk, "ONE_SHOT", [False])
    gc.unfreeze()
    try:
        assert package_disk.values(stored, object(), []) is not None  # type: ignore[arg-type]
        assert gc.get_freeze_count() == 0  # a language server's process: collectable as before
        package_disk.one_shot()
        read = package_disk.values(stored, object(), [])  # type: ignore[arg-type]
        assert read is not None and gc.get_freeze_count() >= 1000
    finally:
        gc.unfreeze()


def test_a_definition_is_pickled_once_for_every_entry_that_holds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cold check writes an entry per import kept, and nested imports' entries hold the same definitions:
    each body is pickled once per process (a BERT check pickled 2,796 bodies 8,765 times), the same bytes
    every time; a field set anew is pickled anew."""
    import ast

    from pytea_ci.packages import disk as package_disk

    node = ast.parse("def f(x, y=2):\n    return x + y\n").body[0]
    calls = []
    real = pickle.dumps
    monkeypatch.setattr(package_disk.pickle, "dumps", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = package_disk._def_args(node)
    assert package_disk._def_args(node) == first and len(calls) == 1
    assert first[2] == real({k: v for k, v in node.__dict__.items() if k in package_disk._LAZY_FIELDS}, protocol=5)
    node.body = ast.parse("return x * y").body  # type: ignore[attr-defined]
    changed = package_disk._def_args(node)
    assert len(calls) == 2 and changed[2] != first[2]
    assert ast.unparse(package_disk._lazy_def(*changed).body[0]) == "return x * y"
