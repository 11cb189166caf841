"""Where a file's absolute imports are looked up, and the name it runs under: CPython's `sys.path[0]`
and `__name__` for the file as it runs.

A file inside a package (its folder and the folders above it, below the analysis root, each hold an
`__init__.py` and are named like identifiers) runs as part of its package, as `python -m pkg.sub.mod`
runs it: the parent of the package's top folder is first on the search path and the file is
`pkg.sub.mod`. So a sibling named like a library (d2l's `d2l/torch.py`, timm's `layers/typing.py`) never
shadows that library, and `import pkg.other` finds the package, not a sibling `pkg.py`. A file outside
any package runs as a script: its own folder first. The interpreter (for whatever file it starts at),
the driver's import graph and the readers of call sites outside the interpreter all ask here, so they agree on
what an import names. Pure path arithmetic over an `isfile` the caller passes (the driver's journals
its answers)."""

from __future__ import annotations

import os
from collections.abc import Callable


def package_parts(path: str, root: str, isfile: Callable[[str], bool] = os.path.isfile) -> list[str]:
    """The package folders `path` sits in, outermost first (`["pkg", "sub"]` for `pkg/sub/mod.py`);
    never the analysis `root` itself nor a folder above it (a project root with an `__init__.py` is
    where the program runs from, not a package it runs in)."""
    parts: list[str] = []
    d = os.path.dirname(os.path.abspath(path))
    stop = os.path.realpath(root)
    while d != os.path.dirname(d) and os.path.basename(d).isidentifier() \
            and isfile(os.path.join(d, "__init__.py")) and os.path.realpath(d) != stop:
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    return parts


def home(path: str, root: str, isfile: Callable[[str], bool] = os.path.isfile) -> str:
    """`sys.path[0]` for `path`: the folder its top package sits in, or its own folder (a script)."""
    d = os.path.dirname(os.path.abspath(path))
    for _ in package_parts(path, root, isfile):
        d = os.path.dirname(d)
    return d


def search_roots(path: str, root: str, isfile: Callable[[str], bool] = os.path.isfile) -> tuple[str, ...]:
    """Where absolute imports of a program started at `path` are looked up: its home, then the root,
    then the root's `src/` (a project in the src layout, installed into its environment as its users
    and its CI install it: `pip install -e .` puts `src/` on the path, as ruff's default `src` setting
    looks there too)."""
    first = home(path, root, isfile)
    src = os.path.join(root, "src")
    return tuple(dict.fromkeys((first, root, src)))


def package_of(path: str, root: str, isfile: Callable[[str], bool] = os.path.isfile) -> str:
    """`__package__` of `path` run as part of its package ("" for a script)."""
    return ".".join(package_parts(path, root, isfile))


def module_name(path: str, root: str, isfile: Callable[[str], bool] = os.path.isfile) -> str:
    """The name `path` is imported under from its home (`pkg.sub.mod`; a script's is its stem)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    pkg = package_of(path, root, isfile)
    if stem == "__init__":
        return pkg or os.path.basename(os.path.dirname(os.path.abspath(path)))
    return f"{pkg}.{stem}" if pkg else stem
