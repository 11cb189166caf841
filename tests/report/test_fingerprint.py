"""`primaryLocationLineHash` against the test vectors of github/codeql-action (src/fingerprints.test.ts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.result import EntryResult, RunResult
from pytea_ci.report import sarif
from pytea_ci.report.fingerprint import decode_like_node, line_hashes

_SIX = ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
        "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"]

VECTORS = [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
     ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
      "b86d3392aea1be30:1", "e6ceba753e1a442:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", _SIX),
    (" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", _SIX),
    (" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", _SIX),
    (" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", _SIX),
    ("Lorem ipsum dolor sit amet.\n" * 10,
     [*(f"a7f2ff13bc495cf2:{k}" for k in range(1, 7)), "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
      "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"]),
]


@pytest.mark.parametrize(("text", "expected"), VECTORS)
def test_codeql_action_vectors(text: str, expected: list[str]) -> None:
    assert line_hashes(text) == expected


def test_one_hash_per_line_and_utf16_units() -> None:
    text = "x = '🚀'\ny = 1\n"
    assert len(line_hashes(text)) == 3
    # an astral character is two UTF-16 code units, so it shifts the window unlike one BMP character
    assert line_hashes("🚀\n")[0] != line_hashes("é\n")[0]


def test_undecodable_bytes_are_replaced_like_node() -> None:
    assert decode_like_node(b"a\xffb") == "a\ufffdb"


# ----- through the SARIF reporter: stable across unrelated edits, distinct between findings ----------
MODEL = (
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(320, 50)\n"
    "\n"
    "    def forward(self, x):\n"
    "        y = self.fc(x) + self.fc(x.t())\n"
    "        return y.view(64, -1)\n"
)
ABOVE = "# a new comment\nimport os  # and an import\n\n"


def _findings(shift: int, fc_line: int = 10) -> list[Diagnostic]:
    fc = fc_line + shift
    return [  # two findings of one rule on one line, one of another rule, one more on the next line
        Diagnostic("PT001", Severity.ERROR, Span("m.py", fc, 12, fc, 22), "first fc"),
        Diagnostic("PT001", Severity.ERROR, Span("m.py", fc, 25, fc, 39), "second fc"),
        Diagnostic("PT003", Severity.ERROR, Span("m.py", fc, 12, fc, 22), "another rule, same place"),
        Diagnostic("PT001", Severity.ERROR, Span("m.py", fc + 1, 15, fc + 1, 29), "view"),
    ]


def _fingerprints(tmp_path: Path, text: str, shift: int) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    (tmp_path / "m.py").write_text(text, encoding="utf-8")
    doc = json.loads(sarif.render(RunResult([EntryResult("m.py", _findings(shift))]), str(tmp_path)))
    by_message = {r["message"]["text"]: r for r in doc["runs"][0]["results"]}
    return [(by_message[d.message]["ruleId"], tuple(sorted(by_message[d.message]["partialFingerprints"].items())))
            for d in _findings(shift)]


def test_fingerprints_survive_unrelated_edits_above(tmp_path: Path) -> None:
    before = _fingerprints(tmp_path, MODEL, 0)
    lines = MODEL.splitlines(keepends=True)
    edited = ABOVE + "".join(lines[:6]) + "        self.dropout = nn.Dropout(0.5)  # changed above\n" + "".join(lines[6:])
    after = _fingerprints(tmp_path, edited, ABOVE.count("\n") + 1)
    assert after == before


def test_different_findings_never_share_a_fingerprint(tmp_path: Path) -> None:
    # GitHub matches an alert by rule id, file and partialFingerprints: all must differ somewhere
    prints = _fingerprints(tmp_path, MODEL, 0)
    assert len(set(prints)) == len(prints)
    assert prints[0][1] != prints[1][1]  # same rule, same line: the start column tells them apart
    assert prints[0][1] == prints[2][1] and prints[0][0] != prints[2][0]  # same place, another rule


def test_identical_lines_get_distinct_hashes() -> None:
    text = "x = f(a)\ny = 1\nx = f(a)\ny = 1\n" + "z = 2\n" * 30
    hashes = line_hashes(text)
    assert hashes[0] != hashes[2]  # the window continues past the line, and `:k` counts repeats
    repeated = line_hashes("same line here\n" * 3 + "\n" * 200)
    assert len(set(repeated[:3])) == 3
