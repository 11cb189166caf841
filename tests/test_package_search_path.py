"""A file inside a package runs as part of its package (interp/search_path.py), as `python -m pkg.mod`
runs it, whether it is an entry point or a module checked in library mode, and the import graph reads
its imports the same way: a sibling named like a library never shadows it. d2l's `d2l/torch.py` was run
as a file named `torch` with its own folder first on the search path, so its `import torch` imported
itself and its 21 modules reached no tensor operation (the sweep of stop 30, issue 31 item 9; reduction
in benchmarks/real_projects_repro/d2l_import_shadow/)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pytea_ci.driver.check import check
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.project import CheckRequest
from pytea_ci.interp import search_path

FFN = """\
    import torch
    from torch import nn


    class FFN(nn.Module):
        def __init__(self, a=8, b=4):
            super().__init__()
            self.dense1 = nn.Linear(a, b)

        def forward(self, X):
            return self.dense1(X)
    """


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))


def _check(root: Path, *paths: str, mode: str = "auto") -> tuple[dict[str, tuple[int, int]], set[tuple[str, int]]]:
    """(entry -> (operations checked, reached), findings as (path, line)) of a check at `root`."""
    out = check(CheckRequest(root=str(root), paths=[str(root / p) for p in paths], no_cache=True,
                             overrides={"jobs": 1, "library_mode": mode})).result
    entries = {e.entry: (e.stats.ops_checked, e.stats.ops_reached) for e in out.entries}
    return entries, {(d.span.path, d.span.line) for d in out.diagnostics if d.rule != "PT011"}


def test_a_package_module_named_like_torch_imports_the_real_torch_in_library_mode(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/torch.py": FFN,
                      "pkg/mm.py": FFN.replace("FFN", "FFN2").replace("import torch\n", "import torch  # the real one\n")})
    entries, _ = _check(tmp_path, "pkg", mode="only")
    assert entries == {"pkg/torch.py::FFN": (2, 2), "pkg/mm.py::FFN2": (2, 2)}  # the driver's calls sit on the class's line


def test_an_entry_point_in_a_package_imports_the_real_library_and_the_package(tmp_path: Path) -> None:
    """`pkg/run.py`'s `import torch` is torch though `pkg/torch.py` is beside it, and `from pkg.pkg import
    FFN` is the package's module `pkg/pkg.py`, not the sibling `pkg.py` taken for the package."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/torch.py": "raise ImportError('never imported by run.py')\n",
        "pkg/pkg.py": FFN,
        "pkg/run.py": """\
            import torch
            from pkg.pkg import FFN
            if __name__ == "__main__":
                y = FFN()(torch.randn(2, 9))
            """,
    })
    entries, findings = _check(tmp_path, "pkg/run.py", mode="never")
    assert findings == {("pkg/pkg.py", 11)}
    assert entries["pkg/run.py"] == (3, 3)


def test_the_import_graph_resolves_a_package_file_as_the_interpreter_does(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/torch.py": "import torch\n", "pkg/typing.py": "",
                      "pkg/mm.py": "import torch\nimport typing\nimport pkg.torch\n",
                      "tools/torch.py": "", "tools/run.py": "import torch\n"})
    graph = ImportGraph(str(tmp_path), ImportCache(None))
    mm, shadow = str(tmp_path / "pkg/mm.py"), str(tmp_path / "pkg/torch.py")
    assert graph.direct_imports(mm) == {shadow, str(tmp_path / "pkg/__init__.py")}  # `import pkg.torch` only
    assert set(graph.closure(str(tmp_path / "pkg/torch.py")).files) == {shadow}
    assert str(tmp_path / "tools/torch.py") in graph.direct_imports(str(tmp_path / "tools/run.py"))  # a script's folder


def test_the_search_path_of_files_in_and_out_of_packages(tmp_path: Path) -> None:
    _write(tmp_path, {"__init__.py": "", "a/__init__.py": "", "a/b/__init__.py": "", "a/b/m.py": "",
                      "a/not-a-name/__init__.py": "", "a/not-a-name/n.py": "", "s/t.py": ""})
    root = str(tmp_path)
    assert search_path.module_name(str(tmp_path / "a/b/m.py"), root) == "a.b.m"
    assert search_path.module_name(str(tmp_path / "a/b/__init__.py"), root) == "a.b"
    src = str(tmp_path / "src")  # last, where a project in the src layout keeps its package
    assert search_path.search_roots(str(tmp_path / "a/b/m.py"), root) == (root, src)  # the root's own __init__ aside
    assert search_path.package_of(str(tmp_path / "a/not-a-name/n.py"), root) == ""
    assert search_path.search_roots(str(tmp_path / "s/t.py"), root) == (str(tmp_path / "s"), root, src)


def test_a_project_in_the_src_layout_imports_its_package_from_src(tmp_path: Path) -> None:
    """A script at the root of a project whose package lives in `src/` (`pip install -e .` puts `src/` on
    the path, as the project's users and CI run it) imports that package: the model's call is followed
    and its bug found, and the import graph sees the script depend on the package's file. On main the
    package was a third-party module not followed: nothing after the import was checked."""
    _write(tmp_path, {
        "src/mylib/__init__.py": "",
        "src/mylib/model.py": FFN,
        "demo.py": """\
            import torch
            from mylib.model import FFN

            y = FFN()(torch.randn(2, 9))
            """,
    })
    entries, findings = _check(tmp_path, "demo.py", mode="never")
    assert findings == {("src/mylib/model.py", 11)}
    graph = ImportGraph(str(tmp_path), ImportCache(None))
    assert str(tmp_path / "src/mylib/model.py") in graph.closure(str(tmp_path / "demo.py")).files
    assert search_path.search_roots(str(tmp_path / "demo.py"), str(tmp_path)) == (str(tmp_path), str(tmp_path / "src"))
