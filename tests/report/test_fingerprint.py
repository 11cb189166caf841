"""`primaryLocationLineHash` against the test vectors of github/codeql-action (src/fingerprints.test.ts)."""

from __future__ import annotations

import pytest

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
