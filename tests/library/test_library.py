"""Library mode: targets, construction, symbolic inputs and verdicts (issue 14), on tests/library/fixtures."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from pytea_ci.library.results import analyze_module, module_result
from pytea_ci.solver import Decider
from tests.library.helpers import FIXTURES, expectations, targets

FILES = ["cnn.py", "annotated.py", "degenerate.py", "construction.py", "split.py", "verdicts.py", os.path.join("proj", "models.py"), os.path.join("proj", "wide.py"),
         os.path.join("sites", "models.py"), "broadcast.py", "rnn_tutorial.py", "own_asserts.py", "factories.py", "pieces.py", "filled_later.py", "optional_inputs.py", "conditional_layers.py", "config_objects.py",
         "coincidence.py", "transposes.py", "stated_rank.py", "optional_arguments.py", "stage_sizes.py",
         "dimension_tables.py", "passed_through.py", "components.py", "residual_stacks.py", "unit_construction.py", "image_size.py",
         "stated_input.py", "unit_ranks.py", "torch_alias.py", "image_tokens.py", "callable_args.py", "tensor_lists.py",
         "guessed_asserts.py", "tensor_mappings.py"]


def _cli(*args: str, cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import sys; from pytea_ci.cli import main; sys.exit(main())", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _shapes(path: str, cls: str) -> dict:
    (t,) = targets(os.path.join(FIXTURES, path), cls)[:1]
    return analyze_module(t, os.path.dirname(t.path), Decider(), 10.0, strict=True).as_dict()


@pytest.mark.parametrize("name", FILES)
def test_findings_match_the_markers(name: str) -> None:
    """Every marked line is reported with its rule, and nothing else (a line without a marker: no finding)."""
    path = os.path.join(FIXTURES, name)
    found = set()
    for t in targets(path):
        res = analyze_module(t, os.path.dirname(path), Decider(), 10.0, strict=True)
        found |= {(d.span.line, d.rule) for d in res.diagnostics if d.severity.value != "note"}
    assert found == expectations(path)


def test_a_coincidence_of_constructor_arguments_is_named_in_them() -> None:
    """The warning states the coincidence in constructor arguments alone (the input's size the contract
    ties to them substituted) and constructor sizes, none of them 1, for which every input fails."""
    s = _shapes("coincidence.py", "PatchEmbedSwapped")
    (f,) = s["findings"]
    assert f["rule"] == "PT002" and "works only when its constructor arguments coincide" in f["message"]
    assert "3*(patch * patch) == dim" in f["message"]
    example = dict(kv.split(" = ") for kv in f["message"].split("; with ")[1].split(" every")[0].split(", "))
    assert set(example) == {"dim", "patch"} and 3 * int(example["patch"]) ** 2 != int(example["dim"])
    assert min(int(v) for v in example.values()) >= 2


def test_contract_example_and_layers_of_a_cnn() -> None:
    s = _shapes("cnn.py", "Net")
    assert s["status"] == "determined"
    assert s["inputs"][0]["shape"] == ["N", "C", "H", "W"]
    assert s["inputs"][0]["example"] == [1, 1, 28, 28]  # the smallest input the contract allows
    assert "C == 1" in s["contract"]
    assert s["output"] == "[N, 10]"
    names = [row["name"] for row in s["layers"] if row["kind"] != "op"]
    assert names == ["Net", "conv1", "conv2", "fc1", "fc2"]
    assert s["layers"][0]["params"] == "1199882"  # torch: sum(p.numel() for p in Net().parameters())


def test_a_fixed_size_broadcast_with_an_input_size_keeps_the_fixed_size() -> None:
    s = _shapes("broadcast.py", "Scale")
    assert s["status"] == "determined" and s["output"] == "[3, 2]"
    assert s["inputs"][0]["example"] == [1, 1], s["contract"]  # torch: Scale()(torch.ones(1, 1)) is [3, 2]


def test_symbolic_constructor_integer_is_an_error_for_every_dim() -> None:
    s = _shapes("cnn.py", "Mlp")
    assert s["construction"] == "symbolic dim"
    assert [f["rule"] for f in s["findings"]] == ["PT001"]
    assert "for every input x: [N, D]" in s["findings"][0]["message"]


def test_call_site_and_factory_configurations() -> None:
    block = _shapes(os.path.join("proj", "models.py"), "Block")
    assert block["construction"].startswith("Block(4, 8) at ")
    assert block["contract"] == ["C == 4"] and block["output"] == "[N, 8, H, W]"
    net = _shapes(os.path.join("proj", "models.py"), "ResNetish")
    assert net["construction"].startswith("resnet_small() at ")
    assert [r["name"] for r in net["layers"] if r["kind"] == "Block"] == ["layers.0", "layers.1"]


def test_a_script_that_builds_the_module_provides_its_configuration() -> None:
    s = _shapes(os.path.join("proj", "wide.py"), "Wide")
    assert s["construction"] == "Wide(16) at train.py:11"  # rebuilt with the script's `--hidden` default
    assert [f["rule"] for f in s["findings"]] == ["PT001"] and "in_features is 16" in s["findings"][0]["message"]


def test_jaxtyping_shared_variadic_and_fixed_sizes() -> None:
    fuse = _shapes("annotated.py", "Fuse")
    assert fuse["inputs"][0]["shape"] == fuse["inputs"][1]["shape"]  # *batch is shared
    assert fuse["inputs"][0]["shape"][-1] == "8" and fuse["findings"] == []
    image = _shapes("annotated.py", "Image")
    assert image["inputs"][0]["shape"][1] == "3" and image["inputs"][0]["example"] == [1, 3, 3, 3]


def test_integer_token_input_through_an_embedding() -> None:
    s = _shapes("cnn.py", "Tokens")
    assert s["inputs"][0]["shape"] == ["N", "D"] and s["output"] == "[N, D, 3]"


def test_rank_comes_from_first_use_and_wrong_ranks_are_no_finding() -> None:
    s = _shapes("cnn.py", "Reshaper")
    assert s["findings"] == [] and s["status"] == "determined"


def _project(tmp_path: object, main: str) -> str:
    root = str(tmp_path)
    shutil.copy(os.path.join(FIXTURES, "cnn.py"), os.path.join(root, "cnn.py"))
    with open(os.path.join(root, "main.py"), "w") as f:
        f.write(main)
    with open(os.path.join(root, "pyproject.toml"), "w") as f:
        f.write("[tool.pytea-ci]\n")
    return root


def _lines(root: str, *args: str) -> set[tuple[str, int]]:
    out = _cli("check", *args, "--no-cache", "--format", "json", cwd=root)
    return {(d["path"], d["line"]) for d in json.loads(out.stdout)["diagnostics"]}


def test_auto_mode_checks_modules_no_entry_point_ran(tmp_path: object) -> None:
    script = "import torch\nfrom cnn import Mlp, Head\nm = Mlp(8)\nif __name__ == '__main__':\n    pass\n"
    root = _project(tmp_path, script)
    lines = _lines(root, "main.py")
    assert ("cnn.py", 30) in lines  # Mlp: built by the entry point, never run: checked alone
    assert ("cnn.py", 41) not in lines  # Head: neither built nor defined in the file asked about
    assert {("cnn.py", 30), ("cnn.py", 41)} <= _lines(root)  # no path: every module nobody ran
    never = _cli("check", "main.py", "--no-cache", "--library-mode", "never", cwd=root)
    assert never.returncode == 0, never.stdout


def test_auto_mode_leaves_modules_an_entry_point_ran_to_the_entry_point(tmp_path: object) -> None:
    """Reshaper, whose forward the entry point ran to its end on a [2, 8] input, is not checked alone;
    Mlp, defined in a file asked about and never run, is."""
    script = ("import torch\nfrom cnn import Reshaper\nif __name__ == '__main__':\n"
              "    y = Reshaper()(torch.randn(2, 8))\n")
    root = _project(tmp_path, script)
    out = json.loads(_cli("check", "main.py", "cnn.py", "--no-cache", "--format", "json", cwd=root).stdout)
    checked = {e["entry"] for e in out["entries"]}
    assert "cnn.py::Mlp" in checked and "cnn.py::Reshaper" not in checked


def test_a_module_whose_forward_an_entry_point_reached_is_not_checked_alone(tmp_path: object) -> None:
    """Mlp's forward fails on the [2, 8] input the entry point passes: the path ends at the finding
    inside forward, the entry point reports it, and checking Mlp alone again would only repeat that
    work (issue 32 item 6); Head, never run, is still checked alone."""
    script = ("import torch\nfrom cnn import Mlp, Head\nif __name__ == '__main__':\n"
              "    y = Mlp(8)(torch.randn(2, 8))\n    h = Head()\n")
    root = _project(tmp_path, script)
    out = json.loads(_cli("check", "main.py", "cnn.py", "--no-cache", "--format", "json", cwd=root).stdout)
    checked = {e["entry"] for e in out["entries"]}
    assert "cnn.py::Mlp" not in checked and "cnn.py::Head" in checked
    assert {("cnn.py", 30), ("cnn.py", 41)} <= {(d["path"], d["line"]) for d in out["diagnostics"]}


def test_a_module_run_on_unknown_inputs_is_checked_alone(tmp_path: object) -> None:
    script = ("import torch\nfrom cnn import Mlp\nif __name__ == '__main__':\n"
              "    y = Mlp(8)(torch.load('x.pt'))\n")
    root = _project(tmp_path, script)
    out = json.loads(_cli("check", "main.py", "--no-cache", "--format", "json", cwd=root).stdout)
    mlp = next(e for e in out["entries"] if e["entry"] == "cnn.py::Mlp")
    assert mlp["coverage"]["reached"] > 0 and mlp["coverage"]["checked"] == mlp["coverage"]["reached"]
    assert mlp["stats"]["paths"] > 0
    assert ("cnn.py", 30) in {(d["path"], d["line"]) for d in out["diagnostics"]}


def test_lone_model_file_is_checked(tmp_path: object) -> None:
    root = _project(tmp_path, "")
    out = _cli("check", "cnn.py", "--no-cache", cwd=root)
    assert out.returncode == 1 and "cnn.py:30:" in out.stdout and "cnn.py:41:" in out.stdout


def test_shapes_cli_formats_and_bad_target(tmp_path: object) -> None:
    root = _project(tmp_path, "")
    text = _cli("shapes", "cnn.py::Net", cwd=root)
    assert text.returncode == 0 and "example [1, 1, 28, 28]" in text.stdout
    md = _cli("shapes", "cnn.py::Net", "--format", "markdown", cwd=root)
    assert "| conv1 |" in md.stdout.replace("&nbsp;", "")
    js = json.loads(_cli("shapes", "cnn.py::Net", "--format", "json", cwd=root).stdout)
    assert js["version"] == 1 and js["modules"][0]["output_example"] == [1, 10]
    bad = _cli("shapes", "nope.py", cwd=root)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_library_mode_configuration_is_validated() -> None:
    from pytea_ci.driver.config import ConfigError, from_table

    assert from_table({"library-mode": "only", "library-time-budget": 2}, "x").library_mode == "only"
    with pytest.raises(ConfigError, match="library-mode"):
        from_table({"library-mode": "sometimes"}, "x")


def test_a_construction_on_a_guessed_branch_is_never_reported() -> None:
    """`if cfg.wide:` on an unknown config takes its first side (no fork), whose Linear(8, 4) fails for
    every input: the other side may be the project's, so the module is rejected without a finding."""
    s = _shapes("construction.py", "Guessed")
    assert s["status"] == "rejected"
    assert s["findings"] == []


def test_module_level_partial_and_constructor_checks() -> None:
    stages = _shapes("construction.py", "Stages")
    assert [f["line"] for f in stages["findings"]] == [27]  # conv3x3 = partial(nn.Conv2d, ...) was defined
    heads = _shapes("construction.py", "Heads")
    assert [(f["rule"], f["line"]) for f in heads["findings"]] == [("PT003", 38)]  # in __init__


_MNIST = """import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.fc1 = nn.Linear(9216, 128)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), {pool})
        return self.fc1(torch.flatten(x, 1))
"""


def test_callers_are_evidence(tmp_path: object) -> None:
    """max_pool2d(x, 1) makes a valid module for 16x16 images; a caller passing 28x28 makes it an error
    at the failing statement, with the call site related; without the caller, nothing is reported."""
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w") as f:
        f.write(_MNIST.format(pool=1))
    alone = _cli("check", "model.py", "--no-cache", cwd=root)
    assert alone.returncode == 0, alone.stdout
    with open(os.path.join(root, "test_model.py"), "w") as f:
        f.write("import torch\nfrom model import Net\n\n\ndef test_net():\n    net = Net()\n"
                "    x = torch.randn(2, 1, 28, 28)\n    assert net(x).shape == (2, 128)\n")
    out = json.loads(_cli("check", "model.py", "--no-cache", "--format", "json", cwd=root).stdout)
    (d,) = [d for d in out["diagnostics"] if d["rule"] == "PT001"]
    assert d["line"] == 15 and "x: [2, 1, 28, 28] at test_model.py:8" in d["message"]
    assert [(r["path"], r["line"]) for r in d["related"] if "called here" in r["message"]] == [("test_model.py", 8)]


def test_a_call_site_passing_size_1_makes_size_1_plausible(tmp_path: object) -> None:
    """NoPool accepts only 1x1 maps: a finding alone, none when a project call site feeds it 1x1 maps
    (however that site builds it); a size the call site passes as more than 1 stays non-degenerate."""
    from pytea_ci.library import targets as lib
    from pytea_ci.driver.discover import python_files

    root = str(tmp_path)
    with open(os.path.join(FIXTURES, "degenerate.py"), encoding="utf-8") as f:
        model = f.read()
    with open(os.path.join(root, "model.py"), "w", encoding="utf-8") as f:
        f.write(model)

    def findings(caller: str) -> list[int]:
        with open(os.path.join(root, "use.py"), "w", encoding="utf-8") as f:
            f.write(f"import torch\nfrom model import NoPool\n\n\ndef test():\n    return {caller}\n")
        files = python_files(root, root, [])
        (t,) = lib.targets([os.path.join(root, "model.py")], files, root, {"NoPool"}).targets
        res = analyze_module(t, root, Decider(), 10.0, strict=True)
        return [d.span.line for d in res.diagnostics if d.severity.value == "error"]

    assert findings("None") == [18]
    assert findings("NoPool().eval()(torch.randn(4, 3, 1, 1))") == []
    assert findings("NoPool()(torch.randn(4, 3, 1, 5))") == [18]  # W == 1 only: H must still be 1


def test_caller_inputs_read_from_the_source() -> None:
    import ast

    from pytea_ci.library.callers import caller_inputs

    src = ("import torch\nm = Net(4).eval()\ny = m(torch.zeros((2, 3)))\n"
           "def f():\n    x = torch.randn(5, 3)\n    Net(4).forward(x)\n"
           "def g(x):\n    Net(4)(x)\n"  # x not known: no evidence
           "def h():\n    x = torch.randn(1, 3)\n    x = torch.randn(7, 3)\n    Net(4)(x)\n")  # two values: not followed
    found = caller_inputs("Net", {"/p/a.py": ast.parse(src)}, "/p", 1)
    assert [(c.shapes, c.line, c.construct) for c in found] == [(((2, 3),), 3, "Net(4)"), (((5, 3),), 6, "Net(4)")]


def test_a_caller_is_evidence_only_for_the_construction_it_calls(tmp_path: object) -> None:
    """28x28 images go to `Net(pool=2)`; `Net(pool=1)` (for 16x16 images) is built elsewhere and never
    called: the 28x28 call is no evidence against it."""
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w") as f:
        f.write(_MNIST.format(pool="self.pool").replace("def __init__(self):", "def __init__(self, pool=2):")
                .replace("super().__init__()", "super().__init__()\n        self.pool = pool"))
    with open(os.path.join(root, "test_model.py"), "w") as f:
        f.write("import torch\nfrom model import Net\n\n\ndef test_net():\n    net = Net(pool=2)\n"
                "    x = torch.randn(2, 1, 28, 28)\n    y = net(x)\n\n\ndef test_small():\n    Net(pool=1)\n")
    out = _cli("check", "model.py", "--no-cache", cwd=root)
    assert "PT001" not in out.stdout and "test_model.py:8" not in out.stdout, out.stdout


def test_library_results_carry_their_coverage_into_text_and_sarif(tmp_path: object) -> None:
    import re

    root = _project(tmp_path, "")
    text = _cli("check", "cnn.py", "--no-cache", "--library-mode", "only", cwd=root).stdout
    m = re.search(r"Analyzed 0 entry points and (\d+) modules alone: .*checked (\d+) of (\d+) tensor operations"
                  r" \(\d+%\); (\d+) path\(s\)", text)
    assert m is not None, text
    assert int(m.group(1)) >= 5 and 0 < int(m.group(2)) <= int(m.group(3)) and int(m.group(4)) > 0
    sarif = json.loads(_cli("check", "cnn.py", "--no-cache", "--library-mode", "only", "--format", "sarif",
                            cwd=root).stdout)
    per = {e["entry"]: e for e in sarif["runs"][0]["properties"]["pytea-ci/coverage"]["entries"]}
    assert per["cnn.py::Mlp"]["reached"] > 0 and per["cnn.py::Mlp"]["checked"] == per["cnn.py::Mlp"]["reached"]


def test_check_model_file_whose_script_only_builds_it(tmp_path: object) -> None:
    """Issue 19's scratch folder: a script that only constructs the model; `check model.py` maps to the
    script, which never calls forward, so the model is checked alone: its bug and its coverage."""
    import re

    root = _project(tmp_path, "import torch\nfrom cnn import Mlp\n\nif __name__ == '__main__':\n"
                              "    m = Mlp(8)\n    print(sum(p.numel() for p in m.parameters()))\n")
    out = _cli("check", "cnn.py", "--no-cache", cwd=root)
    assert out.returncode == 1 and "cnn.py:30:" in out.stdout, out.stdout
    m = re.search(r"Analyzed 1 entry point and (\d+) modules alone: .*checked (\d+) of (\d+)", out.stdout)
    assert m is not None and int(m.group(2)) > 0, out.stdout


def test_callers_are_attributed_through_imports_not_by_name(tmp_path: object) -> None:
    """Issue 31: `a/eval.py` calls a/model.py's Net (`from model import Net`); b/net.py defines another
    Net (Linear(8, 2)): the [3, 4] input is no evidence against it, and is evidence for a/model.py's,
    also under an alias or through the module (`import model as m; m.Net()`)."""
    from pytea_ci.library import targets as lib
    from pytea_ci.driver.discover import python_files

    root = str(tmp_path)
    net = ("import torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.fc = nn.Linear({n}, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n")
    for folder, name, n in (("a", "model.py", 4), ("b", "net.py", 8)):
        os.makedirs(os.path.join(root, folder))
        with open(os.path.join(root, folder, name), "w") as f:
            f.write(net.format(n=n))
    with open(os.path.join(root, "a", "eval.py"), "w") as f:
        f.write("import torch\nfrom model import Net\nimport model as m\nfrom model import Net as M\n\n"
                "Net()(torch.randn(3, 4))\nm.Net()(torch.randn(5, 4))\nM()(torch.randn(6, 4))\n")

    def callers(path: str) -> list[tuple[int, ...]]:
        (t,) = lib.targets([os.path.join(root, path)], python_files(root, root, []), root, {"Net"}).targets
        return [c.shapes[0] for c in t.callers]

    assert callers(os.path.join("b", "net.py")) == []
    assert sorted(callers(os.path.join("a", "model.py"))) == [(3, 4), (5, 4), (6, 4)]
    out = _cli("check", os.path.join("b", "net.py"), "--no-cache", cwd=root)
    assert out.returncode == 0, out.stdout


def test_caller_inputs_through_the_modules_own_helper() -> None:
    """Issue 37: `encoder.init_hidden()` is evidence too: the helper's `torch.zeros(self.n_layers, 1,
    self.hidden_size)` with the attributes the construction sets (an argument, a default)."""
    import ast

    from pytea_ci.library.callers import caller_inputs

    model = ("import torch\nimport torch.nn as nn\n\n\nclass Enc(nn.Module):\n"
             "    def __init__(self, vocab, hidden_size, n_layers=2):\n        super().__init__()\n"
             "        self.hidden_size = hidden_size\n        self.n_layers = n_layers\n\n"
             "    def forward(self, x, hidden):\n        return x, hidden\n\n"
             "    def init_hidden(self):\n        h = torch.zeros(self.n_layers, 1, self.hidden_size)\n        return h\n")
    use = ("import torch\nfrom model import Enc\n\nenc = Enc(10, 32)\nh0 = enc.init_hidden()\n"
           "enc(torch.randint(0, 10, (7,)), h0)\nenc(torch.randint(0, 10, (5,)), enc.init_hidden())\n")
    trees = {"/p/model.py": ast.parse(model), "/p/use.py": ast.parse(use)}
    found = caller_inputs("Enc", trees, "/p", 2, "/p/model.py")
    assert [(c.shapes, c.line) for c in found] == [(((7,), (2, 1, 32)), 6), (((5,), (2, 1, 32)), 7)]


def test_a_factory_that_returns_a_call_site_of_its_own_is_one_construction(tmp_path: object) -> None:
    """`def senet18(): return SENet(Block, [2, 2])` builds what its own call site builds: one
    construction, checked once (both cost the module's whole budget twice, issue 32 item 6); a factory
    building it otherwise stays a construction of its own."""
    path = os.path.join(str(tmp_path), "net.py")
    with open(path, "w") as f:
        f.write("import torch.nn as nn\n\nclass Block(nn.Module):\n    def forward(self, x):\n        return x\n\n"
                "class SENet(nn.Module):\n    def __init__(self, block, blocks, width=8):\n        super().__init__()\n"
                "        self.fc = nn.Linear(width, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n\n"
                "def senet18():\n    return SENet(Block, [2, 2])\n\ndef senet_wide(width=16):\n"
                "    return SENet(Block, [2, 2], width)\n")
    built = [t.construct for t in targets(path, "SENet")]
    assert built[:2] == ["SENet(Block, [2, 2])", "senet_wide()"] and "senet18()" not in built, built


def test_a_caller_building_the_module_through_its_files_factory_is_evidence(tmp_path: object) -> None:
    """`net = mnist_net()` with `def mnist_net(): return Net()` in the class's file calls a Net: the
    input it passes is evidence for Net as the factory builds it (kuangliu's `net = ResNet18()` in each
    model file's test), from the file itself and from a file importing the factory."""
    root = str(tmp_path)
    with open(os.path.join(root, "model.py"), "w") as f:
        f.write(_MNIST.format(pool=1) + "\n\ndef mnist_net():\n    return Net()\n")
    with open(os.path.join(root, "test_model.py"), "w") as f:
        f.write("import torch\nfrom model import mnist_net as make\n\n\ndef test_net():\n    net = make()\n"
                "    x = torch.randn(2, 1, 28, 28)\n    assert net(x).shape == (2, 128)\n")
    out = json.loads(_cli("check", "model.py", "--no-cache", "--format", "json", cwd=root).stdout)
    (d,) = [d for d in out["diagnostics"] if d["rule"] == "PT001"]
    assert d["line"] == 15 and d["severity"] == "error" and "Net() at model.py:19 fails on the input its caller passes, x: [2, 1, 28, 28] at test_model.py:8" in d["message"], d


def _folder(root: str, models: dict[str, tuple[str, str]]) -> None:
    """A folder of model files: name -> (class source, the shape its own test passes, or "")."""
    os.makedirs(os.path.join(root, "models"), exist_ok=True)
    for name, (source, shape) in models.items():
        test = f"\n\ndef test():\n    net = {name.capitalize()}()\n    y = net(torch.randn({shape}))\n" if shape else ""
        with open(os.path.join(root, "models", f"{name}.py"), "w") as f:
            f.write(source + test)


_FLAT = ("import torch\nimport torch.nn as nn\n\n\nclass {cls}(nn.Module):\n    def __init__(self):\n"
         "        super().__init__()\n        self.fc = nn.Linear({features}, 10)\n\n    def forward(self, x):\n"
         "        return self.fc(torch.flatten(x, 1))\n")


@pytest.mark.parametrize("siblings", [
    {"a": "2, 1, 28, 28", "b": "4, 1, 28, 28"},  # two other models of the folder fed 1x28x28 images
    {"a": "2, 1, 28, 28", "b": "4, 1, 28, 28", "c": "2, 1, 28, 28"},
])
def test_the_inputs_of_the_folders_other_models_are_no_evidence_for_one_nobody_calls(
        tmp_path: object, siblings: dict[str, str]) -> None:
    """Net (max_pool2d(x, 1): valid for 16x16 images only) has no caller; the folder's other models are
    each called by their file's test with 1x28x28 images. That is a guess about Net's data, not evidence:
    a model of other data beside them (a 64x64 model in a folder of 32x32 ones) is correct code, so a
    finding from it would be a false alarm. Decision of stop 32 (a sibling-input warning was built and
    withdrawn): nothing is reported for Net, and its own contracts are still checked."""
    root = str(tmp_path)
    models = {k: (_FLAT.format(cls=k.capitalize(), features=784), s) for k, s in siblings.items()}
    _folder(root, {**models, "net": (_MNIST.format(pool=1), "")})
    out = json.loads(_cli("check", "models/net.py", "--no-cache", "--format", "json", cwd=root).stdout)
    assert [d for d in out["diagnostics"] if d["rule"] in ("PT001", "PT002")] == [], out["diagnostics"]
    assert out["summary"]["coverage"]["checked"] > 0, out["summary"]


def test_optional_forward_inputs_are_those_used_as_tensors() -> None:
    """Defaults of None used as tensors are given in runs of their own; flags, lists tested with
    isinstance and values never read as tensors are left at their defaults."""
    got = {t.cls: [s.name for s in t.optional] for t in targets(os.path.join(FIXTURES, "optional_inputs.py"))}
    assert got == {"LossNotFlattened": ["targets"], "LossFlattened": ["targets"], "AnnotatedMask": ["mask"],
                   "MaskBroadcast": ["mask"], "NotATensor": []}


def test_a_coincidence_stands_when_other_paths_could_not_decide_its_check() -> None:
    """A path that met the coincidence's check undecided (the module's solver budget spent by the paths of
    its construction: CaiT's symbolic depths) tells neither way; a path that passed it without the
    coincidence still silences it (an input that does without), undecided elsewhere or not."""
    from pytea_ci.diagnostics import Diagnostic, Severity, Span
    from pytea_ci.library import coincide
    from pytea_ci.library.interpreter import PathOutcome
    from pytea_ci.library.verdict import ComboResult, LibraryRun, verdict

    (t,) = targets(os.path.join(FIXTURES, "coincidence.py"), "PatchEmbedSwapped")[:1]
    site, other = Span("m.py", 18, 15), Span("m.py", 12, 8)
    warning = Diagnostic("PT002", Severity.WARNING, site, f"Linear: ... (M {coincide.MARK}, whatever the input: a == b)")

    def run(*paths: tuple[frozenset, frozenset]) -> list[str]:
        combo = ComboResult((3,), [PathOutcome([], [], None, [], None, None, c, u) for c, u in paths], warnings=[warning])
        return [d.rule for d in verdict(LibraryRun(t, [combo]), "m.py", lambda c: "")]

    met, unsure = frozenset({site}), frozenset({site})
    assert run((met, frozenset()), (frozenset(), unsure)) == ["PT002"]
    assert run((met, frozenset()), (frozenset(), frozenset())) == []  # a path that does without
    assert run((met, frozenset()), (frozenset(), frozenset({other}))) == []  # undecided elsewhere only


def test_a_forgotten_transpose_names_both_axes_with_a_plausible_input() -> None:
    """The warning names the input's axis and the axis that already has the width, and its counterexample
    is a plausible input (sizes of at least 2), not the degenerate sequence of 1 the contract first gives."""
    (t,) = targets(os.path.join(FIXTURES, "transposes.py"), "AttentionNoTranspose")[:1]
    res = analyze_module(t, os.path.dirname(t.path), Decider(), 10.0, strict=True)
    (f,) = [d for d in res.diagnostics if d.severity.value != "note"]
    assert f.rule == "PT002" and "a size of its input must equal a width already on another axis" in f.message
    assert "(axis -2 of [N, 8, C, 64]) must equal 64, the size of its axis -1" in f.message, f.message
    assert f.counterexample and min(f.counterexample.values()) >= 2, f.counterexample


def test_integers_defaulting_to_none_are_given_in_a_construction_of_their_own() -> None:
    """`num_classes=None` that nobody gives: built as the defaults say and with it a symbol; a parameter
    called (a layer class) stays None; a module a project site builds is built only as the site says."""
    path = os.path.join(FIXTURES, "optional_arguments.py")
    built = {}
    for t in targets(path):
        built.setdefault(t.cls, []).append(t.construct)
    assert len(built["HeadOffByOne"]) == 2 and "num_classes" not in built["HeadOffByOne"][0]
    assert "num_classes=__pytea_dim__('num_classes')" in built["HeadOffByOne"][1]
    assert "dim_out=__pytea_dim__('dim_out')" in built["OutAnnotated"][1]
    assert len(built["NormLayerGiven"]) == 1
    assert all("num_classes" not in c for c in built["BuiltBySite"])


def test_sizes_per_stage_are_tuples_of_symbols() -> None:
    """`assert isinstance(depth, tuple)`: two stages; `depths` indexed beside `dims=(8, 16, 32, 64)`: four."""
    path = os.path.join(FIXTURES, "stage_sizes.py")
    built = {t.cls: t.construct for t in targets(path)}
    assert "depth=__pytea_stages__('depth', 2)" in built["Stages"]
    assert built["Widths"] == "Widths(depths=__pytea_stages__('depths', 4))"
    assert built["Block"] == "Block(dim=__pytea_dim__('dim'), depth=__pytea_dim__('depth'))"


@pytest.mark.parametrize("seconds", [0.2, 0.3, 0.5, 10.0])
def test_a_coincidence_needs_every_run_to_its_end(seconds: float) -> None:
    """A run a budget cut is no agreement: with a share too small for the runs with the optional input given,
    the coincidence they would contradict is not reported (fixtures/cut_variants.py: main reported it at 0.2-0.5 s)."""
    path = os.path.join(FIXTURES, "cut_variants.py")
    found = [d for t in targets(path) for d in analyze_module(t, os.path.dirname(path), Decider(), seconds, strict=True).diagnostics
             if d.severity.value != "note"]
    assert found == []


def test_a_construction_the_constructor_rejects_outright_is_not_a_target() -> None:
    """`if input_shape is None and input_size is None: raise` makes the defaults a construction that never runs:
    only the one with the size given is built (library/rejects.py)."""
    built = [t.construct for t in targets(os.path.join(FIXTURES, "optional_arguments.py"), "EitherShapeOrSize")]
    assert len(built) == 1 and "input_size=" in built[0], built
    kept = [t.construct for t in targets(os.path.join(FIXTURES, "optional_arguments.py"), "HeadOffByOne")]
    assert len(kept) == 2, kept  # its defaults build a module (no guard rejects them)


def test_an_input_annotated_through_an_alias_of_torch_is_a_tensor() -> None:
    """torch_alias.py: `observations: th.Tensor` (`import torch as th`) is built as a tensor and checked; main
    built a value not understood (stable-baselines3's extractors and actors checked nothing)."""
    (t,) = targets(os.path.join(FIXTURES, "torch_alias.py"), "Extractor")
    assert [s.kind for s in t.inputs] == ["tensor"]
    _, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
    assert stats.ops_checked >= 3 and stats.ops_checked == stats.ops_reached
    (head,) = targets(os.path.join(FIXTURES, "torch_alias.py"), "Head")
    assert [s.kind for s in head.inputs] == ["tensor"] and [s.name for s in head.optional] == ["mask"]


def test_a_callable_the_constructor_stores_and_forward_calls_gets_a_stand_in() -> None:
    """callable_args.py: `self.block = block`, then `self.block(x)` in `forward`, built without a site: main built
    it with the callable unknown and checked no operation of AddBack, SkipCat and WrongOwnLayer (NormThen: only its
    norm); now an identity stands in, the wrapper's own operations are checked, and nothing is reported."""
    path = os.path.join(FIXTURES, "callable_args.py")
    for t in targets(path):
        assert "__pytea_stand_in__(" in t.construct, t.construct
        res, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
        assert stats.ops_checked >= 2 and stats.ops_checked == stats.ops_reached, (t.cls, stats)
        assert not [d for d in res.diagnostics if d.severity.value != "note"], t.cls
    (t,) = targets(path, "NormThen")
    assert "width=__pytea_dim__('width')" in t.construct  # a size stays a size


def test_sequences_of_tensors_are_inputs() -> None:
    """tensor_lists.py: `List[Tensor]`, `Sequence[Tensor]`, `Tuple[Tensor, ...]`, `tuple[Tensor, Tensor]` and an
    unannotated input indexed by literals are sequences of tensors (main: values not understood, nothing checked),
    as many as said or used; `*tensors: Tensor` is two tensors passed one by one (main: called with none, a false
    PT003 of `torch.cat`, torchrl's CatLinear); each module's operations are checked, none reported (the number is a
    guess)."""
    path = os.path.join(FIXTURES, "tensor_lists.py")
    counts = {"PyramidSum": 3, "FourthLevel": 4, "MeanOfViews": 3, "PairDistance": 2, "ConcatAll": 3,
              "CatThenProject": 2}
    (t,) = targets(path, "AnyArgs")  # `*args` not annotated: passed none, and main's PT003 of `cat` of none is gone
    assert [(s.kind, s.count, s.star) for s in t.inputs] == [("tensors", 0, True)]
    res, _ = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
    assert not [d for d in res.diagnostics if d.severity.value != "note"]
    for t in [t for t in targets(path) if t.cls != "AnyArgs"]:
        assert [(s.kind, s.count) for s in t.inputs] == [("tensors", counts[t.cls])], t.cls
        res, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
        assert stats.ops_checked >= 2 and stats.ops_checked == stats.ops_reached, (t.cls, stats)
        assert not [d for d in res.diagnostics if d.severity.value != "note"], t.cls
    (t,) = targets(path, "PairDistance")
    assert t.inputs[0].as_tuple
    (t,) = targets(path, "CatThenProject")
    assert t.inputs[0].star


def test_an_assert_the_construction_fails_by_its_guesses_constrains_the_path() -> None:
    """guessed_asserts.py: ImageEncoder's `assert looks_like_image(space)` fails only because every test of the
    space library mode does not have took its first side; main ended the construction there (nothing checked).
    Now the module is checked and nothing reported; StillRejected's assert fails without a guess and still ends it."""
    path = os.path.join(FIXTURES, "guessed_asserts.py")
    (t,) = targets(path, "ImageEncoder")
    res, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
    assert stats.ops_checked >= 4 and stats.ops_checked == stats.ops_reached, stats
    assert not [d for d in res.diagnostics if d.severity.value != "note"]
    (t,) = targets(path, "StillRejected")
    _, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
    assert stats.ops_reached == 0


def test_tensors_by_key_are_inputs() -> None:
    """tensor_mappings.py: a tensordict, `Dict[str, torch.Tensor]` and a quoted `Mapping[str, Tensor]` are
    mappings whose tensor under a key is made when read (main: values not understood, nothing checked); each
    module's operations are checked, none reported (the keys are a guess)."""
    path = os.path.join(FIXTURES, "tensor_mappings.py")
    for t in targets(path):
        assert [s.kind for s in t.inputs] == ["mapping"], t.cls
        res, stats = module_result(t, FIXTURES, Decider(), 10.0, strict=True)
        assert stats.ops_checked >= 1 and stats.ops_checked == stats.ops_reached, (t.cls, stats)
        assert not [d for d in res.diagnostics if d.severity.value != "note"], t.cls
