"""Model modules load on demand (models/registry.py, models/index.py): the index names exactly what
the models register, a program loads the models of the libraries it uses and no others, and what
is found does not depend on whether every model was loaded up front."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

RUN = """
import json, sys
if sys.argv[1] == "eager":
    import pytea_ci.models.all  # noqa: F401
from pytea_ci.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
sys.stdout.flush()
print("\\n" + json.dumps(sorted(m for m in sys.modules if m.startswith("pytea_ci.models."))))
"""


def _run(mode: str, args: list[str], cwd: Path) -> tuple[str, set[str]]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # both runs iterate sets of strings in the same order
    out = subprocess.run([sys.executable, "-c", RUN, mode, *args], cwd=cwd, capture_output=True, text=True, check=True,
                         env=env)
    *report, loaded = out.stdout.rstrip().splitlines()
    return "\n".join(report), set(json.loads(loaded))


def _findings(report: str) -> list[object]:
    data = json.loads(report)
    return [data["diagnostics"], [(e["entry"], e["status"], e["coverage"], e["unknown_origins"], e["ended_paths"],
                                   e["stats"]["paths"], e["stats"]["steps"]) for e in data["entries"]]]


def test_the_index_is_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_model_index.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_index_names_what_the_models_register() -> None:
    probe = ("import json; from pytea_ci.models import index, registry; import pytea_ci.models.all; "
             "print(json.dumps([sorted(registry.REGISTRY), sorted(registry.PROPERTIES), "
             "sorted(n for t in index.NAMES.values() for n in t.split()), "
             "sorted(n for t in index.PROPERTIES.values() for n in t.split())]))")
    names, props, indexed, indexed_props = json.loads(subprocess.check_output([sys.executable, "-c", probe], text=True))
    assert names == indexed and props == indexed_props


def test_a_program_loads_only_the_models_of_what_it_imports(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("import argparse\nimport math\n"
                                      "p = argparse.ArgumentParser()\np.add_argument('--n', type=int, default=3)\n"
                                      "print(math.sqrt(p.parse_args().n))\n")
    _, loaded = _run("lazy", ["check", "--no-cache", "--root", str(tmp_path), "main.py"], tmp_path)
    assert "pytea_ci.models.argparse_" in loaded
    assert not {m for m in loaded if m.startswith(("pytea_ci.models.numpy_.", "pytea_ci.models.torchvision."))}
    assert not loaded & {"pytea_ci.models.einops_", "pytea_ci.models.yaml_", "pytea_ci.models.torch.nn.conv",
                         "pytea_ci.models.torch.fft", "pytea_ci.models.torch.optim"}
    (tmp_path / "main.py").write_text("import torch\nimport torch.nn as nn\n\nx = nn.Linear(4, 3)(torch.zeros(2, 5))\n")
    _, loaded = _run("lazy", ["check", "--no-cache", "--root", str(tmp_path), "main.py"], tmp_path)
    assert {"pytea_ci.models.torch.nn.layers", "pytea_ci.models.torch.creation"} <= loaded
    assert not {m for m in loaded if m.startswith("pytea_ci.models.numpy_.")}
    assert "pytea_ci.models.einops_" not in loaded


def test_findings_do_not_depend_on_loading_every_model_first() -> None:
    files = ["ops/numpy_ops.py", "ops/einops_ops.py", "dtype/consumers.py", "core/dtypes.py",
             "core/machine_env.py", "symbols/data_sources.py", "api/api_tensor.py"]
    for rel in files:
        args = ["check", "--no-cache", "--format", "json", "--root", str(FIXTURES), str(FIXTURES / rel)]
        lazy, lazy_loaded = _run("lazy", args, FIXTURES)
        eager, eager_loaded = _run("eager", args, FIXTURES)
        assert lazy_loaded < eager_loaded, rel  # fewer model modules, the same report
        assert _findings(lazy) == _findings(eager), rel
