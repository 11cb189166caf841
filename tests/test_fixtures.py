"""Every fixture program produces exactly the findings its `# E:` markers announce."""

from __future__ import annotations

import os

import pytest

from tests.fixture_runner import FIXTURES, actual, expected, fixture_files


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: os.path.relpath(p, FIXTURES))
def test_fixture(path: str) -> None:
    want = expected(path)
    got = actual(path)
    missing = sorted(want - got, key=lambda e: (e.path, e.line))
    extra = sorted(got - want, key=lambda e: (e.path, e.line))
    assert not missing and not extra, f"missing: {missing}\nunexpected: {extra}"
