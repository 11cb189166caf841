"""Code written for a newer Python than the analyzer's (issue 31 item 8): never a PT012 on code that is
valid for the Python it is written for; still a PT012 for a file no Python version accepts; the parser
of newer grammars is loaded only for such a file. (The fixtures of tests/fixtures/syntax/ check the
findings in 3.12 and 3.14 code on this machine's 3.11.)"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from pytea_ci.diagnostics import grammar
from pytea_ci.driver.run import Options, run

NEWER = {
    "type parameters": "def f[T](x: T) -> T:\n    return x\nclass C[T]:\n    pass\n",
    "type alias": "type Shape = tuple[int, int]\n",
    "except without parentheses": "try:\n    pass\nexcept ValueError, KeyError:\n    pass\n",
    "f-string reusing its quotes": "d = {'a': 1}\ns = f\"{d[\"a\"]:>4}\"\n",
}


@pytest.mark.parametrize("name", sorted(NEWER))
def test_newer_syntax_is_read(name: str) -> None:
    if sys.version_info < (3, 12):
        with pytest.raises(SyntaxError):
            ast.parse(NEWER[name])  # this interpreter's ast rejects it: the fallback is what reads it
    tree = grammar.parse(NEWER[name])
    assert isinstance(tree, ast.Module) and tree.body


def test_what_the_interpreter_follows() -> None:
    tree = grammar.parse("type Shape = tuple[int, int]\ntry:\n    pass\nexcept A, B:\n    pass\n"
                         "d = {'w': 3}\ns = f\"<{d[\"w\"]!r:>4}>\"\n")
    assert isinstance(tree.body[0], ast.Assign) and isinstance(tree.body[0].value, ast.Lambda)  # lazy, bound
    handler = tree.body[1].handlers[0]  # type: ignore[attr-defined]
    assert isinstance(handler.type, ast.Tuple) and [e.id for e in handler.type.elts] == ["A", "B"]
    space: dict = {}
    exec(compile(ast.Module(tree.body[2:], []), "<test>", "exec"), space)
    assert space["s"] == "<   3>"  # CPython 3.12's f"<{d["w"]!r:>4}>"


def test_invalid_everywhere_is_still_a_syntax_error(tmp_path: Path) -> None:
    entry = tmp_path / "main.py"
    entry.write_text("import torch\ndef f(:\n    pass\n")
    result = run([str(entry)], Options(root=str(tmp_path)))
    assert [d.rule for d in result.diagnostics] == ["PT012"]


def test_the_newer_parser_is_loaded_only_when_needed() -> None:
    code = ("import sys\nfrom pytea_ci.diagnostics import grammar\ngrammar.parse('x = 1\\n')\n"
            "assert 'libcst' not in sys.modules\ngrammar.parse('type X = int\\n')\nprint('libcst' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ("True" if sys.version_info < (3, 12) else "False")
