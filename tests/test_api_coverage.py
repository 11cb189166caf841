"""Proof of issue 3's breadth line: every modeled library API (aliases of one model counted once, grouped as
in pytea_ci/models/catalog.py) has an oracle row (tests/oracle/api_table.py; exempt APIs have an exemption
row with its reason instead) and is exercised by some fixture under tests/fixtures/."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pytea_ci.models.catalog import entries, library_names
from pytea_ci.models.registry import PROPERTIES, REGISTRY
from tests.fixture_runner import FIXTURES, fixture_files
from tests.oracle.api_table import CASES, EXEMPT, RECORDED

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _groups() -> list[tuple[str, ...]]:
    lib = set(library_names())
    return [(e.name,) + e.aliases for e in entries() if e.name in lib]


def _fixture_words() -> set[str]:
    words: set[str] = set()
    for path in fixture_files() + [os.path.join(d, f) for d, _, fs in os.walk(FIXTURES) for f in fs if f.startswith("_")]:
        with open(path, encoding="utf-8") as f:
            words |= set(re.findall(r"[\w.]+", f.read())) | set(re.findall(r"\w+", open(path, encoding="utf-8").read()))
    return words


def test_table_names_are_modeled() -> None:
    known = set(REGISTRY) | set(PROPERTIES)
    names = {c[0] for c in CASES} | {r[0] for r in RECORDED} | set(EXEMPT)
    assert not sorted(names - known), f"table rows for names that are not modeled: {sorted(names - known)}"


def test_every_library_api_has_an_oracle_row_and_a_fixture() -> None:
    rows = {c[0] for c in CASES} | {r[0] for r in RECORDED}
    words = _fixture_words()
    groups = _groups()
    no_row, no_fixture, exempt = [], [], 0
    for names in groups:
        if any(n in rows for n in names):
            pass
        elif any(n in EXEMPT for n in names):
            exempt += 1
        else:
            no_row.append(names[0])
        # a fixture mentions the API by full name (generated fixtures name it on the case's def line) or by
        # its last component (hand-written fixtures call it through its usual spelling)
        if not any(n in words or n.split(".")[-1] in words for n in names):
            no_fixture.append(names[0])
    print(f"\n{len(groups)} library APIs: {len(groups) - len(no_row) - exempt} with oracle rows "
          f"({len(CASES)} live cases, {len(RECORDED)} recorded), {exempt} exempt, {len(no_row)} without; "
          f"{len(groups) - len(no_fixture)} in fixtures")
    assert not no_row, f"APIs without an oracle row or exemption: {no_row}"
    assert not no_fixture, f"APIs no fixture exercises: {no_fixture}"
    assert len(groups) - exempt >= 300


def test_generated_fixtures_are_current() -> None:
    # the generator asks real torch which row of each API is accepted: without torch (the README's
    # promise: the suite passes without it) there is nothing to compare, in this process or the script's
    pytest.importorskip("torch")
    script = os.path.join(ROOT, "scripts", "gen_api_fixtures.py")
    done = subprocess.run([sys.executable, script, "--check"], cwd=ROOT, check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
