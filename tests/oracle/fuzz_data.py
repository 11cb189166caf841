"""Random training scripts whose sizes and label values come from data (issue 20, item 4), for
differential testing against real torch.

A program is composed at random from three parts, each drawn independently:
- *sources* of its sizes (rows N, sequence T, features D, classes C, batch B, a second feature size E):
  literals, `random.randint`/`random.choice`, `numpy.random.randint`, environment variables with a
  default, argparse defaults, config dicts, `len()` of a generated list and of a listing of a data
  folder (the oracle fills it in a temp dir, with a different file count per run);
- a *pipeline* from the tensors to batches: none, `TensorDataset` + `DataLoader` (shuffle, drop_last),
  a custom `Dataset`, `random_split`, `Subset`, `enumerate`/`zip` of loaders;
- *consumers*: shifts (`mse_loss(x[:, :-1], x[:, k:])`), `view` by the batch size, `Linear` on a size
  from another source, `reshape`, class targets (`randint` with its exclusive high, `arange % C`, label
  shifts, bool comparisons) at `cross_entropy`/`nll_loss`/`Embedding`/`one_hot`, index tensors at
  `index_select`/`gather`; each with a random off-by-one variation.

`oracle` runs a program under torch for several seeds and environment values and says where it fails:
always (every run, at one line), sometimes, or never. `compare` analyzes it with pytea-ci and judges.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import traceback
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Iterator

from pytea_ci.driver.run import Options, run

SHAPE_ERRORS = (RuntimeError, ValueError, IndexError, AssertionError)
HEADER = """import argparse
import json
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Subset, TensorDataset, random_split
"""
ENV_RUNS = 16  # runs with the environment variables set (each of the values `_spread` gives)
SEED_RUNS = 12  # runs with the defaults, one random seed each
# Runs with the defaults whose random tensors take extreme outcomes, each one a draw the generators can
# make (however unlikely): every `torch.randint` element at its low (or highest) value, every `torch.randn`
# element positive (or negative), every `torch.randperm` in order (or reversed). A program that passes
# such a run does not fail "always", even if all seeded runs failed: its failure hangs on the draws.
EXTREMES = (("low", 1, False), ("high", -1, True), ("low", -1, True), ("high", 1, False))
MORE_RUNS = 48  # input values tried more before a program that reads inputs is judged to fail always


@dataclass
class Program:
    lines: list[str]
    env: dict[str, tuple[int, ...]] = field(default_factory=dict)  # variable -> values the oracle tries
    planted: set[int] = field(default_factory=set)  # lines of a bug that an earlier failure may hide from torch
    # data folder -> file counts the oracle tries; "cfg:section.key" -> values of that key of the config
    # file FZ_DATA/cfg.json the oracle writes for each run
    folders: dict[str, tuple[int, ...]] = field(default_factory=dict)
    rereads: dict[str, str] = field(default_factory=dict)  # size name -> its key path read again from the config
    setup: list[str] = field(default_factory=list)  # lines before the sources (the config file, a temp dir)
    # data folder -> (smallest, largest) side of the images the oracle writes there, one size drawn per
    # image and run (tests/oracle/fuzz_data_images.py); its file count is in `folders`
    images: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


# ----- sources ----------------------------------------------------------------------------------
def _source(rng: random.Random, name: str, v: int, prog: Program, argp: list[str]) -> list[str]:
    """Lines that bind `name` to a size whose typical value is `v` (>= 1)."""
    kind = rng.choice(["lit", "lit", "randint", "choice", "np", "env", "argparse", "cfg", "len", "folder",
                       "cfgfile", "saved"])
    lo = max(1, v - rng.choice([0, 1]))
    hi = v + rng.choice([0, 1])
    if kind == "lit":
        return [f"{name} = {v}"]
    if kind == "randint":
        return [f"{name} = random.randint({lo}, {hi})"]
    if kind == "choice":
        return [f"{name} = random.choice([{lo}, {hi}])"]
    if kind == "np":
        return [f"{name} = int(np.random.randint({lo}, {hi + 1}))"]
    if kind == "env":
        var = f"FZ_{name}"
        prog.env[var] = _spread(v)  # the analyzer assumes any value >= 1
        return [f"{name} = int(os.environ.get({var!r}, {str(v)!r}))"]
    if kind == "argparse":
        argp.append(f"parser.add_argument('--{name.lower()}', type=int, default={v})")
        return [f"{name} = args.{name.lower()}"]
    if kind == "cfg":
        inner = rng.choice([str(v), f"random.randint({lo}, {hi})"])
        return [f"cfg_{name} = {{'{name.lower()}': {inner}, 'lr': 0.01}}", f"{name} = cfg_{name}['{name.lower()}']"]
    if kind == "len":
        count = rng.choice([str(v), f"random.randint({lo}, {hi})"])
        return [f"items_{name} = [torch.zeros(2) for _ in range({count})]", f"{name} = len(items_{name})"]
    if kind == "cfgfile":  # a key of a config file the run is given (the oracle writes it, values per run)
        section = "model" if name in ("D", "E", "C") else "data"
        prog.folders[f"cfg:{section}.{name.lower()}"] = _spread(v)
        if "cfg_file = json.load(fh)" not in prog.setup:
            prog.setup += ["with open(os.path.join(os.environ.get('FZ_DATA', 'data'), 'cfg.json')) as fh:",
                           "    cfg_file = json.load(fh)"]
        read = prog.rereads[name] = f"cfg_file[{section!r}][{name.lower()!r}]"
        return [f"{name} = int({read})"]
    if kind == "saved":  # a size the program saved earlier in the run and loads back
        inner = rng.choice([str(v), f"random.randint({lo}, {hi})"])
        path = _path(rng, prog, f"meta_{name.lower()}.pt")
        return [f"torch.save({{'{name.lower()}': {inner}, 'lr': 0.01}}, {path})",
                f"{name} = torch.load({path})['{name.lower()}']"]
    # a folder of the data the run is given (made by the oracle in a temp dir, with a count per run)
    prog.folders[name] = _spread(v)
    return [f"{name} = len(os.listdir(os.path.join(os.environ.get('FZ_DATA', 'data'), {name!r})))"]


def _path(rng: random.Random, prog: Program, name: str) -> str:
    """A path of a file the program writes: in the data folder, or in a temp dir it makes."""
    if rng.random() < 0.5:
        return f"os.path.join(os.environ.get('FZ_DATA', 'data'), {name!r})"
    if "tmp_dir = tempfile.mkdtemp()" not in prog.setup:
        prog.setup.append("tmp_dir = tempfile.mkdtemp()")
    return f"os.path.join(tmp_dir, {name!r})"


def _spread(v: int) -> tuple[int, ...]:
    """Values an input whose default is `v` takes in the oracle's runs: small, near `v`, larger, and
    one larger than any typical size of the program (a class count above the row count: `v + 50`),
    so a failure that needs one input above another is tried too."""
    return tuple(sorted({1, 2, 3, max(1, v - 1), v, v + 1, 2 * v + 1, 3 * v, v + 50}))


def _sources(rng: random.Random, prog: Program) -> dict[str, int]:
    typical = {"N": rng.choice([24, 30, 32, 40]), "T": rng.choice([5, 6, 7, 8]), "D": rng.choice([3, 4, 6]),
               "C": rng.choice([3, 4, 5]), "B": rng.choice([4, 6, 8]), "E": 0}
    typical["E"] = typical["D"]
    bind_sizes(rng, prog, typical)
    return typical


def bind_sizes(rng: random.Random, prog: Program, typical: dict[str, int]) -> None:
    """Lines binding each size of `typical` from a source drawn at random (`_source`), the command-line
    parser first when one of them is an option."""
    argp: list[str] = []
    body: list[str] = []
    for name, v in typical.items():
        body += _source(rng, name, v, prog, argp)
    if argp:
        prog.lines += ["parser = argparse.ArgumentParser()", *argp, "args = parser.parse_args()"]
    prog.lines += prog.setup + body


# ----- labels -----------------------------------------------------------------------------------
def _labels(rng: random.Random) -> tuple[str, int]:
    """An expression of N class labels meant for C classes, and its off-by-one (0: none)."""
    d = rng.choice([0, 0, 0, 1, -1])
    forms = [
        (f"torch.randint(0, C{_off(d)}, (N,))", d if d > 0 else 0),
        (f"torch.randint(1, C + 1{_off(d)}, (N,)){' - 1' if d >= 0 else ''}", 1 if d < 0 else max(d, 0)),
        (f"torch.arange(N) % (C{_off(d)})", d if d > 0 else 0),
        (f"torch.randint(0, C, (N,)){_off(d)}", d),
        ("(X[:, 0, 0] > 0).long()" + (" + 1" if d > 0 else ""), d if d > 0 else 0),
        (f"torch.full((N,), C{_off(d - 1 if d > 0 else -1)})", 1 if d > 0 else 0),
    ]
    return rng.choice(forms)


def _off(d: int) -> str:
    return "" if d == 0 else (f" + {d}" if d > 0 else f" - {-d}")


# ----- pipelines --------------------------------------------------------------------------------
DATASET_CLASS = """class Seqs(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x){len_off}

    def __getitem__(self, i):
        return self.x[i], self.y[i]"""


def _pipeline(rng: random.Random, prog: Program) -> tuple[str, bool]:
    """Lines that loop over batches `xb, yb` (returns the indentation of the body and whether the
    batch size is B)."""
    kind = rng.choice(["direct", "loader", "loader", "custom", "split", "subset", "enumerate", "zip"])
    shuffle, drop = rng.choice(["True", "False"]), rng.choice(["False", "False", "True"])
    if kind == "direct":
        prog.lines += ["xb, yb = X, Y"]
        return "", False
    if kind == "custom":
        len_off = rng.choice(["", "", "", " + 1"])
        prog.lines += DATASET_CLASS.format(len_off=len_off).splitlines()
        if len_off:  # every epoch indexes one row past the end (unless a consumer fails first)
            prog.planted.add(len(prog.lines))
        ds = "Seqs(X, Y)"
    elif kind == "split":
        prog.lines += ["part, rest = random_split(TensorDataset(X, Y), [N - N // 4, N // 4])"]
        ds = "part"
    elif kind == "subset":
        prog.lines += [f"part = Subset(TensorDataset(X, Y), range(0, N, {rng.choice([1, 2])}))"]
        ds = "part"
    else:
        ds = "TensorDataset(X, Y)"
    prog.lines += [f"loader = DataLoader({ds}, batch_size=B, shuffle={shuffle}, drop_last={drop})"]
    if kind == "enumerate":
        prog.lines += ["for step, (xb, yb) in enumerate(loader):"]
    elif kind == "zip":
        prog.lines += [f"other = DataLoader(TensorDataset(Y), batch_size=B, drop_last={drop})",
                       "for (xb, yb), (yb2,) in zip(loader, other):"]
    else:
        prog.lines += ["for xb, yb in loader:"]
    return "    ", True


# ----- consumers --------------------------------------------------------------------------------
def _consumer(rng: random.Random, batched: bool, i: int) -> str:
    k = rng.choice([0, 0, 0, 1, -1])
    rows = "B" if batched else "N"
    forms = [
        f"out{i} = F.mse_loss(xb[:, :-1], xb[:, {1 + max(k, 0)}:])",
        f"out{i} = xb.view({rows}, -1)" if batched else f"out{i} = xb.view(N{_off(k)}, -1)",
        f"out{i} = nn.Linear(E{_off(k)}, 8)(xb)",
        f"out{i} = nn.Linear(T * D{_off(k)}, 8)(xb.flatten(1))",
        f"out{i} = xb.reshape(-1, T{_off(k)}, D)",
        f"out{i} = F.cross_entropy(nn.Linear(D, C{_off(k)})(xb[:, -1]), yb)",
        f"out{i} = F.nll_loss(F.log_softmax(nn.Linear(D, C)(xb[:, -1]), 1), yb{_off(k)})",
        f"out{i} = nn.Embedding(C{_off(k)}, 4)(yb)",
        f"out{i} = F.one_hot(yb, C{_off(k)})",
        f"out{i} = xb.index_select(1, torch.randint(0, T{_off(k)}, (3,)))",
        f"out{i} = xb.gather(2, torch.randint(0, D{_off(k)}, (xb.shape[0], T, 2)))",
        f"out{i} = xb[:, torch.arange(T{_off(k)})]",
        f"out{i} = torch.bincount(yb, minlength=C).view(C{_off(k)})",
    ]
    return rng.choice(forms)


def _round_trip(rng: random.Random, prog: Program) -> None:
    """Maybe save the data and load it back (torch.save of a dict, np.save of arrays: `.npy` is added
    to a name without it), so the tensors the pipeline sees come from files the run wrote."""
    kind = rng.choice(["none", "none", "torch", "numpy"])
    if kind == "torch":
        path = _path(rng, prog, "data.pt")
        prog.lines += [f"torch.save({{'x': X, 'y': Y}}, {path})", f"blob = torch.load({path})",
                       "X, Y = blob['x'], blob['y']"]
    elif kind == "numpy":
        px, py = _path(rng, prog, "x.npy"), _path(rng, prog, "y.npy")
        saved_y = py.replace("'y.npy'", "'y'") if rng.random() < 0.5 else py
        prog.lines += [f"np.save({px}, X.numpy())", f"np.save({saved_y}, Y.numpy())",
                       f"X = torch.from_numpy(np.load({px}))", f"Y = torch.from_numpy(np.load({py}))"]
    tmp = "tmp_dir = tempfile.mkdtemp()"
    if tmp in prog.setup and tmp not in prog.lines:  # a temp dir first needed here: made after the imports
        first = HEADER.count("\n")
        prog.lines[first:first] = [tmp]


def _reread(rng: random.Random, prog: Program, line: str) -> str:
    """A consumer that reads a config size again from the file instead of its variable (the same key
    path, the same size), as a layer's size or through `int()`."""
    for name, read in prog.rereads.items():
        if rng.random() < 0.5:
            continue
        for layer in ("nn.Linear(", "nn.Embedding("):
            line = line.replace(f"{layer}{name}, ", f"{layer}{read}, ")
        line = re.sub(rf"\b{name}\b", f"int({read})", line)
    return line


def make_program(seed: int) -> Program:
    rng = random.Random(seed)
    prog = Program(HEADER.splitlines())
    _sources(rng, prog)
    labels, _ = _labels(rng)
    prog.lines += ["X = torch.randn(N, T, D)", f"Y = {labels}"]
    _round_trip(rng, prog)
    indent, batched = _pipeline(rng, prog)
    for i in range(rng.choice([1, 2, 2, 3])):
        prog.lines.append(indent + _reread(rng, prog, _consumer(rng, batched, i)))
    return prog


# ----- the oracle ---------------------------------------------------------------------------------
@dataclass
class Verdict:
    kind: str  # always | sometimes | never | broken (a run raised something else than a shape error)
    lines: dict[int, int]  # failing line -> runs that failed there
    runs: int
    passed: int  # runs that ran to the end
    default_passed: int = 0  # of them, runs with the environment's defaults (the program's own configuration)
    passed_through: set[int] = field(default_factory=set)  # lines executed by a run with the defaults that passed
    seeded: dict[int, int] = field(default_factory=dict)  # failing line -> runs with ordinary draws that failed there
    seeded_passed: int = 0  # runs with ordinary draws that passed
    by_chance: bool = False  # every ordinary run failed at one line, only extreme draws or more inputs did not

    @property
    def line(self) -> int | None:
        return max(self.lines, key=lambda k: (self.lines[k], -k)) if self.lines else None


def _run_once(prog: Program, seed: int, env: dict[str, str], scratch: str,
              executed: set[int] | None = None, extreme: tuple[str, int, bool] | None = None) -> tuple[str, int | None]:
    """Run the program once; `executed` collects the lines of the program it ran; `extreme` forces the
    random tensors' draws (see EXTREMES)."""
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    saved_env = {k: os.environ.get(k) for k in [*prog.env, "FZ_DATA"]}
    saved_argv, saved_tmp = sys.argv, tempfile.tempdir
    os.environ.update(env)
    for k in prog.env:
        if k not in env:
            os.environ.pop(k, None)
    sys.argv, tempfile.tempdir = ["prog.py"], scratch
    os.environ["FZ_DATA"] = scratch
    try:
        with warnings.catch_warnings(), _lines_run(executed), _extreme_draws(extreme):
            warnings.simplefilter("ignore")  # torch's broadcasting warnings before its errors
            exec(compile(prog.text, "<fuzz>", "exec"), {"__name__": "__main__"})  # noqa: S102 (the oracle)
        return "ok", None
    except SHAPE_ERRORS as e:
        frames = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<fuzz>"]
        return "shape", frames[-1] if frames else None
    except Exception:  # noqa: BLE001 - a generator mistake, not a shape error
        return "other", None
    finally:
        sys.argv, tempfile.tempdir = saved_argv, saved_tmp
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _extreme_draws(extreme: tuple[str, int, bool] | None) -> Iterator[None]:
    """torch's random tensors forced to an extreme but possible outcome for the duration of a run."""
    if extreme is None:
        yield
        return
    import torch

    end, sign, backwards = extreme
    real = {name: getattr(torch, name) for name in ("randint", "randn", "randperm")}

    def randint(*args: Any, **kwargs: Any) -> Any:
        out = real["randint"](*args, **kwargs)
        ints = [a for a in args if isinstance(a, int)]
        low, high = kwargs.get("low", ints[0] if len(ints) >= 2 else 0), kwargs.get("high", ints[-1] if ints else None)
        return out.fill_(low if end == "low" or high is None else high - 1)

    def randn(*args: Any, **kwargs: Any) -> Any:
        out = real["randn"](*args, **kwargs).abs() + 1e-3
        return out if sign > 0 else -out

    def randperm(n: int, *args: Any, **kwargs: Any) -> Any:
        out = torch.arange(n, dtype=kwargs.get("dtype", torch.int64))
        return out.flip(0) if backwards else out

    for name, fn in (("randint", randint), ("randn", randn), ("randperm", randperm)):
        setattr(torch, name, fn)
    try:
        yield
    finally:
        for name, fn in real.items():
            setattr(torch, name, fn)


@contextlib.contextmanager
def _lines_run(executed: set[int] | None) -> Iterator[None]:
    """Record the program's own lines as they run (frames of other files are not traced)."""
    if executed is None:
        yield
        return

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            executed.add(frame.f_lineno)
        return local

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == "<fuzz>" else None

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(old)


def _fill_folders(prog: Program, run: int, scratch: str, fixed: dict[str, int] | None = None) -> None:
    """The data folders of run number `run`: counts drawn independently per folder and run (two folders
    of the same counts are not to be equal in every run), or as `fixed` says."""
    config: dict[str, dict[str, int]] = {}
    for k, (name, counts) in enumerate(prog.folders.items()):
        pick = random.Random(run * 101 + k * 7919)
        count = (fixed or {}).get(name, pick.choice(counts))
        if name.startswith("cfg:"):  # a key of the config file
            section, key = name[4:].split(".")
            config.setdefault(section, {})[key] = count
            continue
        folder = os.path.join(scratch, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for i in range(count):
            if name in prog.images:
                _write_image(os.path.join(folder, f"f{i}.png"), prog.images[name], pick)
            else:
                open(os.path.join(folder, f"f{i}.txt"), "w").close()
    if config:
        with open(os.path.join(scratch, "cfg.json"), "w") as f:
            json.dump(config, f)


def _write_image(path: str, sides: tuple[int, int], pick: random.Random) -> None:
    """A PNG of random width and height in `sides` and a random mode (grayscale, RGB or RGBA: a loader
    that forgets `convert('RGB')` meets all three)."""
    from PIL import Image

    mode = pick.choice(["RGB", "RGB", "L", "RGBA"])
    Image.new(mode, (pick.randint(*sides), pick.randint(*sides))).save(path)


def oracle(prog: Program, seed: int) -> Verdict:
    """Run `prog` SEED_RUNS times with the defaults, once per EXTREMES, and ENV_RUNS times with
    environment values; a program that failed at one line in all of them and reads inputs (environment,
    folders) gets MORE_RUNS more input values before it is judged to fail always."""
    plan: list[Run] = [Run({}, None, True) for _ in range(SEED_RUNS)] + [Run({}, x, True) for x in EXTREMES]
    pick = random.Random(seed)
    if prog.env:  # values drawn independently per variable and run
        plan += [Run({k: str(pick.choice(vs)) for k, vs in prog.env.items()}, None, False) for _ in range(ENV_RUNS)]
    # each value of each input once (the others drawn): a failure needing one value is not left to chance
    for var, values in prog.env.items():
        plan += [Run({**{k: str(pick.choice(vs)) for k, vs in prog.env.items()}, var: str(x)}, None, False)
                 for x in values]
    for name, values in prog.folders.items():
        plan += [Run({k: str(pick.choice(vs)) for k, vs in prog.env.items()}, None, False, {name: x}) for x in values]
    v = _run_plan(prog, seed, plan, 0)
    if v.kind == "always" and (prog.env or prog.folders):
        more = [Run({k: str(pick.choice(vs)) for k, vs in prog.env.items()}, None, False) for _ in range(MORE_RUNS)]
        w = _run_plan(prog, seed, more, len(plan))
        if w.kind == "broken" or w.lines.keys() != v.lines.keys() or w.passed:
            lines = {k: v.lines.get(k, 0) + w.lines.get(k, 0) for k in {*v.lines, *w.lines}}
            return Verdict("sometimes" if w.kind != "broken" else "broken", lines, v.runs + w.runs, w.passed,
                           w.default_passed, v.passed_through | w.passed_through, by_chance=True)
    if v.kind == "sometimes" and _always_seeded(v):
        return replace(v, by_chance=True)
    return v


def _always_seeded(v: Verdict) -> bool:
    """Every run with ordinary draws failed at one line; only an extreme draw passed or failed elsewhere."""
    return len(v.seeded) == 1 and v.seeded_passed == 0


@dataclass(frozen=True)
class Run:
    env: dict[str, str]  # environment variables set
    extreme: tuple[str, int, bool] | None  # forced draws (EXTREMES)
    defaults: bool  # the program's own configuration (no environment value set)
    folders: dict[str, int] | None = None  # file counts of data folders (else drawn per run)


def _run_plan(prog: Program, seed: int, plan: list[Run], first: int) -> Verdict:
    """Run the (environment, extreme draws, with the defaults) runs of `plan`; run numbers from `first`."""
    scratch = tempfile.mkdtemp(prefix="pytea-fuzz-data-")
    lines: dict[int, int] = {}
    seeded: dict[int, int] = {}
    passed = default_passed = seeded_passed = 0
    through: set[int] = set()
    try:
        for i, (env, extreme, defaults, counts) in enumerate(
                (r.env, r.extreme, r.defaults, r.folders) for r in plan):
            i += first
            _fill_folders(prog, i, scratch, counts)
            executed: set[int] = set()
            status, line = _run_once(prog, seed * 100 + i, env, scratch, executed if defaults else None, extreme)
            if status == "other" or (status == "shape" and line is None):
                return Verdict("broken", {}, len(plan), passed)
            if status == "ok":
                passed += 1
                default_passed += defaults
                seeded_passed += extreme is None
                through |= executed
            else:
                lines[line] = lines.get(line, 0) + 1  # type: ignore[index]
                if extreme is None:
                    seeded[line] = seeded.get(line, 0) + 1  # type: ignore[index]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    kind = "never" if not lines else "always" if passed == 0 and len(lines) == 1 else "sometimes"
    return Verdict(kind, lines, len(plan), passed, default_passed, through, seeded=seeded, seeded_passed=seeded_passed)


# ----- the analyzer and the judgement -------------------------------------------------------------
def analyze(prog: Program) -> dict[int, str]:
    """Line -> "error" | "warning" of pytea-ci's PT001-PT004 findings."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "prog.py")
        with open(path, "w") as f:
            f.write(prog.text)
        result = run([path], Options(root=d, strict=True))
    out: dict[int, str] = {}
    for x in result.diagnostics:
        if x.rule in ("PT001", "PT002", "PT003", "PT004"):
            sev = "error" if x.severity.value == "error" else "warning"
            out[x.span.line] = "error" if out.get(x.span.line) == "error" else sev
    return out


def judge(v: Verdict, got: dict[int, str], planted: set[int] | frozenset[int] = frozenset()) -> str:
    """found | found-as-warning | missed | false-alarm | overclaimed | ok. An error says the line fails
    on every run that reaches it: it is overclaimed when a run with the environment's defaults went
    through that line and passed (an error that holds under the program's own configuration, like an
    argparse default, is by design)."""
    bad = set(v.lines)
    got = {line: sev for line, sev in got.items() if line not in planted or line in bad or v.kind == "never"}
    if v.kind == "never":
        return "false-alarm" if got else "ok"
    first_bad = min(bad)
    if any(line not in bad and line < first_bad and line > HEADER.count("\n") for line in got):
        return "false-alarm"  # a finding on a line every run went through without error
    line = v.line
    if v.kind == "always":
        return "found" if got.get(line) == "error" else ("found-as-warning" if line in got else "missed")
    if any(got.get(b) == "error" and b in v.passed_through for b in bad):
        return "overclaimed"
    return "found" if bad & set(got) else "missed"  # inputs decide which of the lines fails first


def compare(seed: int) -> tuple[str, Program, Verdict, dict[int, str]]:
    return compare_program(make_program(seed), seed)


def compare_program(prog: Program, seed: int) -> tuple[str, Program, Verdict, dict[int, str]]:
    """The oracle's verdict on `prog`, pytea-ci's findings and the judgement."""
    v = oracle(prog, seed)
    if v.kind == "broken":
        return "broken", prog, v, {}
    got = analyze(prog)
    outcome = judge(v, got, prog.planted)
    if outcome == "false-alarm" and v.kind != "never":
        outcome = judge(v, got, prog.planted | masked(prog, v, seed))
    return outcome, prog, v, got


def masked(prog: Program, v: Verdict, seed: int, rounds: int = 3) -> set[int]:
    """Lines that fail under torch once the consumer lines that failed first are disabled: bugs the
    earlier failure hid from the oracle (a finding there is not a false alarm)."""
    found: set[int] = set()
    lines, bad = list(prog.lines), set(v.lines)
    for _ in range(rounds):
        for b in bad:
            text = lines[b - 1]
            if not text.strip().startswith("out"):
                return found  # not a consumer line: cannot be disabled
            lines[b - 1] = text[: len(text) - len(text.lstrip())] + "pass"
        variant = replace(prog, lines=list(lines))
        w = oracle(variant, seed)
        bad = set(w.lines)
        if w.kind in ("never", "broken"):
            break
        found |= bad
    return found


def describe(prog: Program, v: Verdict, got: dict[int, str]) -> str:
    numbered = "\n".join(f"{i:3} {line}" for i, line in enumerate(prog.lines, 1) if i > HEADER.count("\n"))
    return f"{numbered}\n-> torch {v.kind} {v.lines} ({v.passed}/{v.runs} passed); pytea {got}"


