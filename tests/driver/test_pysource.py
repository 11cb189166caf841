"""The one reader of what a file binds and of its argparse declarations (driver/pysource.py), which
library mode's construction sites and callers and the `--arg` check share."""

from __future__ import annotations

import ast

from pytea_ci.driver.pysource import FileFacts, assigned_once, bindings, option_dest


def _call(src: str) -> ast.Call:
    node = ast.parse(src, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


def test_the_dest_is_what_argparse_computes() -> None:
    assert option_dest(_call('p.add_argument("-l", "--learning-rate")')) == "learning_rate"
    assert option_dest(_call('p.add_argument("-l")')) == "l"
    assert option_dest(_call('p.add_argument("--x", dest="y")')) == "y"
    assert option_dest(_call('p.add_argument("--x", dest=NAME)')) is None


def test_a_name_not_constant_hides_the_dest_unless_the_constant_names_are_enough() -> None:
    call = _call('p.add_argument("-l", LONG)')
    assert option_dest(call) is None
    assert option_dest(call, every_name=False) == "l"


def test_a_name_bound_once_is_followed_and_one_bound_twice_is_not() -> None:
    body = ast.parse("a = 1\nb = 2\nb = 3\nc, d = PAIR\nfor e in xs:\n    pass\nimport f\n").body
    found = bindings(body, [])
    assert isinstance(found["a"], ast.Constant) and found["b"] is None
    assert isinstance(found["c"], ast.Subscript)  # PAIR[0]
    assert found["e"] is None and found["f"] is None


def test_argparse_defaults_are_read_and_a_changed_option_is_not() -> None:
    tree = ast.parse("import argparse\np = argparse.ArgumentParser()\np.add_argument('--hidden', default=64)\n"
                     "p.add_argument('--depth', default=2)\nargs = p.parse_args()\nargs.depth = 3\n")
    options = FileFacts("x.py", tree).options
    assert isinstance(options["hidden"], ast.Constant) and options["hidden"].value == 64
    assert options["depth"] is None


def test_an_object_is_followed_only_through_one_plain_assignment() -> None:
    """`assigned_once` (library mode's callers) is stricter than `bindings`: an item store stops it,
    where `bindings` still follows the name; so does a `for` target."""
    body = ast.parse("x = torch.randn(2, 3)\nx[0] = 1\ny = 4\nfor y in ys:\n    pass\nz = torch.zeros(2)\n").body
    once, bound = assigned_once(body), bindings(body, [])
    assert once["x"] is None and isinstance(bound["x"], ast.Call)
    assert once["y"] is None
    assert isinstance(once["z"], ast.Call)
