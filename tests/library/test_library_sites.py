"""Library mode rebuilds a module as the project's construction sites build it (issue 19, item 5):
which arguments are known, which become symbols, and which are never assumed (library/sites.py)."""

from __future__ import annotations

import os

import pytest

from pytea_ci.library import targets as lib
from pytea_ci.library.inputs import LibraryTarget
from pytea_ci.library.results import analyze_module
from pytea_ci.solver import Decider
from tests.library.helpers import FIXTURES, targets

MODEL = '''import torch.nn as nn

WIDTH = 8


def make(n):
    return [nn.Linear(n, n)]


class Net(nn.Module):
    def __init__(self, dim, hidden=16, act=None, *, depth: int = 2):
        super().__init__()
        self.fc = nn.Linear(dim, hidden)

    def forward(self, x):
        return self.fc(x)
'''


def _constructs(tmp_path: object, script: str, model: str = MODEL) -> list[str]:
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w", encoding="utf-8") as f:
        f.write(model)
    with open(os.path.join(root, "main.py"), "w", encoding="utf-8") as f:
        f.write(script)
    files = [os.path.join(root, "model.py"), os.path.join(root, "main.py")]
    return [t.construct or f"via {os.path.basename(t.via)}" for t in lib.targets(files[:1], files, root).targets]


ARGPARSE = "import argparse\nfrom model import Net\nparser = argparse.ArgumentParser()\n"


@pytest.mark.parametrize("script, expected", [
    # literals, names bound once, constants, tuples unpacked, dictionary items, pure builtins
    ("from model import Net\nH = 4\ndef f():\n    d = 3\n    return Net(d * 2, hidden=H)\n", ["Net(3 * 2, hidden=4)"]),
    ("from model import Net\nC = {'d': 5}\nh, w = (6, 7)\nNet(max(C['d'], 2), w)\n", ["Net(max({'d': 5}['d'], 2), (6, 7)[1])"]),
    # the class's module's own names: imported from it, or through `import model as m`
    ("from model import Net, WIDTH, make\nNet(WIDTH, act=make(2))\n", ["Net(8, act=make(2))"]),
    ("import model as m\nm.Net(m.WIDTH)\n", ["Net(8)"]),
    # argparse defaults, also through a function that returns the parsed options
    (ARGPARSE + "parser.add_argument('--dim-in', type=int, default=12)\nparser.add_argument('--on', "
     "action='store_true')\nargs = parser.parse_args()\nNet(args.dim_in, act=args.on)\n", ["Net(12, act=False)"]),
    ("import argparse\nfrom model import Net\ndef opts():\n    p = argparse.ArgumentParser()\n"
     "    p.add_argument('--dim', type=int, default=9)\n    return p.parse_args()\nargs = opts()\nNet(args.dim)\n",
     ["Net(9)"]),
    # unknown arguments become symbols (integer parameters) or unknown values, the rest stays known
    ("from model import Net\ndef f(text):\n    n = len(text)\n    return Net(n, 32, text)\n",
     ["Net(__pytea_dim__('dim'), 32, __pytea_unknown__('act'))"]),
    ("from model import Net\ndef f(d):\n    return Net(3, depth=d)\n", ["Net(3, depth=__pytea_dim__('depth'))"]),
])
def test_known_arguments_are_resolved(tmp_path: object, script: str, expected: list[str]) -> None:
    assert _constructs(tmp_path, script) == expected


@pytest.mark.parametrize("script", [
    # a changed option, options set wholesale, no default, a string default converted by `type`
    ARGPARSE + "parser.add_argument('--d', type=int, default=4)\nargs = parser.parse_args()\nargs.d = 8\nNet(args.d)\n",
    ARGPARSE + "parser.add_argument('--d', type=int, default=4)\nparser.set_defaults(d=6)\nargs = parser.parse_args()\n"
    "Net(args.d)\n",
    ARGPARSE + "parser.add_argument('--d', type=int, default=4)\nargs = parser.parse_args()\nvars(args).update(d=2)\n"
    "Net(args.d)\n",
    ARGPARSE + "parser.add_argument('--d', type=int, default='4')\nargs = parser.parse_args()\nNet(args.d)\n",
    ARGPARSE + "parser.add_argument('d', type=int)\nargs = parser.parse_args()\nNet(args.d)\n",
    # a dictionary changed or passed on before the site, a name bound twice, a closure, a parameter
    "from model import Net\nC = {'d': 5}\nC['d'] = 6\nNet(C['d'])\n",
    "from model import Net\nC = {'d': 5}\ndef fill(c):\n    c['d'] = 6\nfill(C)\nNet(C['d'])\n",
    "from model import Net\nC = {'d': 5}\nD = C\nD['d'] = 6\nNet(C['d'])\n",
    "from model import Net\nd = 5\nif input():\n    d = 6\nNet(d)\n",
    "from model import Net\ndef outer():\n    d = 5\n    def inner():\n        return Net(d)\n    return inner\n",
    "from model import Net\nd = 5\ndef f(d=7):\n    return Net(d)\n",
    # calls that are not pure, a local function of the script's own
    "from model import Net\nimport os\nNet(int(os.environ.get('D', 4)))\n",
    "from model import Net\ndef dim():\n    return 4\nNet(dim())\n",
])
def test_values_that_may_differ_are_never_assumed(tmp_path: object, script: str) -> None:
    found = _constructs(tmp_path, script + "\nif __name__ == '__main__':\n    pass\n")
    assert found == ["via main.py", "Net(dim=__pytea_dim__('dim'))"], found  # nothing known: the script, the defaults


def test_internal_sites_count_only_when_every_argument_is_known(tmp_path: object) -> None:
    """A site inside another module's `__init__` is its parent's business unless fully known."""
    model = MODEL + "\n\nclass Outer(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n" \
                    "        self.a = Net(d, 4)\n        self.b = Net(3, 5)\n\n    def forward(self, x):\n" \
                    "        return self.b(x)\n"
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w", encoding="utf-8") as f:
        f.write(model)
    found = lib.targets([os.path.join(root, "model.py")], [os.path.join(root, "model.py")], root, {"Net"}).targets
    assert [t.construct for t in found] == ["Net(3, 5)"]


def test_a_script_only_building_modules_gets_them_rebuilt_with_its_values() -> None:
    """fixtures/sites: Head fails only with the script's `--hidden` default; Heads' values are changed
    after parsing (never assumed: the script builds it); Stack gets the module's own `make_layers`."""
    found: dict[str, LibraryTarget] = {}
    for t in targets(os.path.join(FIXTURES, "sites", "models.py")):
        found.setdefault(t.cls, t)
    assert found["Head"].construct == "Head(20, 32)" and found["Head"].label == "Head(20, 32) at train.py:23"
    assert found["Heads"].via.endswith("train.py")
    assert found["Stack"].construct.startswith("Stack(make_layers([8, 16]), classes=")
    assert found["Vocab"].construct.startswith("Vocab(__pytea_dim__('vocab_size'), ")
    stack = analyze_module(found["Stack"], os.path.dirname(found["Stack"].path), Decider(), 10.0, strict=True)
    assert stack.status == "determined" and stack.output_example == [1, 5]


def test_the_defaults_fallback_leaves_what_some_site_gives_unknown(tmp_path: object) -> None:
    """effdet: `Interpolate2d(scale_factor=scale)` only inside a parent's `__init__` (not rebuildable)
    was checked as `Interpolate2d()`, which torch rejects for every input ("either size or
    scale_factor should be defined") though the project never builds it so: a parameter some site
    gives is not taken at its default when that default is None ("not given")."""
    model = MODEL + "\n\nclass Outer(nn.Module):\n    def __init__(self, d, f):\n        super().__init__()\n" \
                    "        self.a = Net(d, 8, act=f)\n\n    def forward(self, x):\n        return self.a(x)\n"
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w", encoding="utf-8") as f:
        f.write(model)
    found = lib.targets([os.path.join(root, "model.py")], [os.path.join(root, "model.py")], root, {"Net"}).targets
    assert [t.construct for t in found] == ["Net(dim=__pytea_dim__('dim'), act=__pytea_unknown__('act'))"]  # hidden=16 kept
