#!/usr/bin/env python3
"""Real projects as a yardstick: pinned releases of public PyTorch projects, analyzed whole.

Each project is downloaded once from PyPI with `pip download --no-deps` (the wheel, or the sdist
with `--no-binary :all:` where the wheel lacks what we want) into a cache outside the repository
(`$PYTEA_REAL_CACHE`, default `~/.cache/pytea-ci-real`), unpacked there (never imported, never
installed), and analyzed by `pytea-ci check --format json --no-cache` in a subprocess with a timeout
per project. Printed per project: the entry points pytea-ci discovered, the model modules (files
defining `nn.Module` subclasses), internal errors, findings (each looked up in the reviewed list
`real_projects_reviewed.json`: a confirmed bug with its torch reproduction, or a false alarm with
its cause; anything not in the list is UNREVIEWED and counts as a false alarm), budget notes (and
those reached while importing a module), checks executed, coverage where the JSON carries it,
median/max seconds per entry point and the whole-project time; then the top unknown origins across
all projects when the JSON carries them. Projects that use timm and transformers are analyzed with
those packages (pinned, `installed_packages.PINS`) installed as source in a scratch virtualenv
(`--packages-venv`, passed as `--python`): they are read, never imported.

A project's pinned pure-Python dependencies (`deps`: those the analyzer does not model, e.g.
x-transformers' torch-einops-utils and einx) are installed as wheels with `--no-deps` into a
virtualenv of the cache (pip runs no code of a wheel) and read from source, never imported, through
`--python` with every installed package followed (issue 21). `--no-deps` analyzes without them.

    python benchmarks/real_projects.py [--only NAME ...] [--small] [--offline] [--timeout S]
                                       [--time-budget S] [--library-mode MODE] [--json FILE]
                                       [--packages-venv DIR]

`--offline` never downloads: a project not in the cache is skipped with the reason. `--small` runs
the two small projects (what `tests/test_real_projects.py` runs when they are cached).
`--library-mode` is passed to pytea-ci (issue 14; default `never`: entry points only; `only`: every
model module alone); library-mode targets (`file.py::Class`) get their own row. Exits 1 on an
internal error, an unreviewed finding or a finding reviewed as a false alarm.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import tarfile
import time
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import bench_env, json_doc, median, pytea_cmd, run, table  # noqa: E402
from installed_packages import PINS, make_env  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REVIEWED = os.path.join(HERE, "real_projects_reviewed.json")


@dataclass(frozen=True)
class Project:
    name: str  # PyPI name
    version: str  # pinned release
    sdist: bool = False  # the sdist instead of the wheel
    small: bool = False  # part of the offline test-suite cut
    deps: tuple[str, ...] = ()  # pinned pure-Python dependencies, read from source (`--python`, issue 21)
    packages: bool = False  # uses timm/transformers: analyzed with them installed as source (`--python`)
    python: str = ""  # download the wheel for this Python: the release's Requires-Python excludes ours (only read)


PROJECTS = (
    Project("x-transformers", "2.31.10", small=True, deps=("torch-einops-utils==0.2.0", "einx==0.4.3")),
    Project("denoising-diffusion-pytorch", "2.3.4", small=True),
    Project("segmentation-models-pytorch", "0.6.0"),
    Project("pytorch-ignite", "0.5.5"),
    Project("litgpt", "0.5.13"),
    Project("timm", "1.0.31"),
    Project("torch-geometric", "2.8.1", sdist=True),  # 2.8.1's sdist has no examples/ either
    Project("ultralytics", "8.4.190"),
    Project("monai", "1.6.1"),
    # projects that use timm and transformers (issue 21): read with the pinned packages of
    # installed_packages.PINS as source in a scratch virtualenv (`--python`), never imported
    Project("open-clip-torch", "3.2.0", packages=True),  # CLIP training: timm towers, HF text towers
    Project("trl", "0.19.1", packages=True),  # fine-tuning scripts (sft, dpo, kto, grpo) on transformers
    # the sweep of issue 31 item 9: across the field, at pinned releases, checked at the root as a user would
    # (`--library-mode "" --time-budget 0`: pytea-ci's defaults); largest first within each field
    Project("diffusers", "0.31.0"),  # diffusion: ~490 files, the run that once never ended
    Project("k-diffusion", "0.1.1.post1"),
    Project("imagen-pytorch", "2.1.0"),
    Project("dalle2-pytorch", "1.15.6"),
    Project("torchtune", "0.6.1"),  # LLM fine-tuning recipes
    Project("pytorch-lightning", "2.6.6"),
    Project("peft", "0.21.2", packages=True),
    Project("rotary-embedding-torch", "0.9.1"),
    Project("stable-baselines3", "2.9.2", deps=("gymnasium==1.4.0",)),  # RL on gym environments
    Project("torchrl", "0.14.1", deps=("tensordict==0.14.1",)),  # its data structure library (a compiled wheel; read from source)
    Project("cleanrl", "0.4.8", sdist=True),  # PyPI's newest (the scripts live in cleanrl/)
    Project("audiocraft", "1.3.0", sdist=True),  # speech and audio (1.3.0 has no wheel on PyPI)
    Project("speechbrain", "1.1.2"),
    Project("asteroid", "0.7.0"),
    Project("openai-whisper", "20250625", sdist=True),
    Project("encodec", "0.1.1", sdist=True),
    Project("audiolm-pytorch", "2.4.0"),
    Project("e2-tts-pytorch", "2.2.2"),
    Project("mmdet", "3.3.0"),  # detection
    Project("yolov5", "7.0.14"),
    Project("effdet", "0.4.1", packages=True),
    Project("segment-anything", "1.0", sdist=True),  # segmentation
    Project("segment-anything-hq", "0.3"),  # for sam2, whose sdist pip cannot download without building it
    Project("mmsegmentation", "1.2.2"),
    Project("lightly", "1.6.0"),  # self-supervised vision
    Project("solo-learn", "1.0.2", sdist=True),
    Project("byol-pytorch", "0.9.1"),
    Project("torchdrug", "0.2.1", python="3.10"),  # graph networks (Requires-Python <3.11)
    Project("ogb", "1.3.6"),
    Project("d2l", "1.0.3"),  # tutorials and textbooks
    Project("vit-pytorch", "1.26.11"),  # paper-implementation collections
    Project("vector-quantize-pytorch", "1.32.0"),
    Project("kornia", "0.9.0"),
)


def cache_dir() -> str:
    return os.environ.get("PYTEA_REAL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "pytea-ci-real")


def _archive(p: Project, dl: str) -> str | None:
    stem = p.name.replace("-", "_").lower()
    for f in sorted(os.listdir(dl)) if os.path.isdir(dl) else []:
        low = f.lower().replace("-", "_")
        if low.startswith(f"{stem}_{p.version}") or low.startswith(f"{stem}-{p.version}"):
            if (f.endswith(".tar.gz") or f.endswith(".zip")) if p.sdist else f.endswith(".whl"):
                return os.path.join(dl, f)
    return None


def fetch(p: Project, offline: bool) -> tuple[str | None, str]:
    """The unpacked source folder of `p` (downloading it unless offline), or None and why not."""
    base = cache_dir()
    src = os.path.join(base, "src", f"{p.name}-{p.version}")
    if os.path.isdir(src):
        return src, ""
    dl = os.path.join(base, "dl")
    archive = _archive(p, dl)
    if archive is None:
        if offline:
            return None, f"not cached in {dl} (run benchmarks/real_projects.py online once)"
        os.makedirs(dl, exist_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", dl, f"{p.name}=={p.version}"]
        if p.sdist:
            cmd[5:5] = ["--no-binary", ":all:"]
        if p.python:
            cmd[5:5] = ["--only-binary", ":all:", "--python-version", p.python]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        archive = _archive(p, dl)
        if r.returncode != 0 or archive is None:
            return None, f"pip download failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}"
    _unpack(archive, src + ".part")
    os.replace(src + ".part", src)
    return src, ""


FOLLOW_ALL = '[tool.pytea-ci]\nfollow-packages = ["*"]\n'


def environment(p: Project, offline: bool) -> tuple[str | None, str]:
    """A virtualenv holding `p.deps` (wheels only, installed with --no-deps: pip runs no code of a
    wheel), whose packages pytea-ci reads from source (`--python`); None and why when there is none."""
    if not p.deps:
        return None, ""
    venv = os.path.join(cache_dir(), "venv", f"{p.name}-{p.version}")
    marker = os.path.join(venv, "pytea-deps.txt")
    want = "\n".join(p.deps) + "\n"
    try:
        with open(marker, encoding="utf-8") as f:
            if f.read() == want:
                return venv, ""
    except OSError:
        pass
    wheels = os.path.join(cache_dir(), "deps")
    steps = [[sys.executable, "-m", "venv", "--clear", venv]]
    if not offline:
        steps.append([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--quiet",
                      "-d", wheels, *p.deps])
    steps.append([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "--no-deps", "--no-index",
                  "--quiet", "--find-links", wheels, *p.deps])
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            return None, f"dependencies not installed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}"
    with open(os.path.join(venv, "pytea-ci.toml"), "w", encoding="utf-8") as f:
        f.write(FOLLOW_ALL)
    with open(marker, "w", encoding="utf-8") as f:
        f.write(want)
    return venv, ""


def _unpack(archive: str, dest: str) -> None:
    """Unpack without running anything; an sdist's single top folder becomes `dest` itself."""
    os.makedirs(dest, exist_ok=True)
    if archive.endswith(".whl") or archive.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            t.extractall(dest, filter="data")
    tops = os.listdir(dest)
    if not archive.endswith(".whl") and len(tops) == 1 and os.path.isdir(os.path.join(dest, tops[0])):
        inner = os.path.join(dest, tops[0])
        for name in os.listdir(inner):
            os.rename(os.path.join(inner, name), os.path.join(dest, name))
        os.rmdir(inner)


def model_modules(src: str) -> list[str]:
    """Project files defining a class whose bases end in `Module` (nn.Module and subclasses of
    project classes that are modules, followed within the project by class name)."""
    defined: dict[str, list[tuple[str, list[str]]]] = {}
    for dirpath, dirnames, files in os.walk(src):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and not d.endswith(".dist-info")]
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                defined[path] = _classes(path)
    modules = {"Module"}
    changed = True
    while changed:
        changed = False
        for classes in defined.values():
            for name, bases in classes:
                if name not in modules and any(b in modules for b in bases):
                    modules.add(name)
                    changed = True
    return sorted(os.path.relpath(p, src) for p, cs in defined.items() if any(b in modules for _, bs in cs for b in bs))


def _classes(path: str) -> list[tuple[str, list[str]]]:
    try:
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read())
    except (SyntaxError, ValueError, OSError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "") for b in node.bases]
            out.append((node.name, bases))
    return out


@dataclass
class Outcome:
    project: Project
    skipped: str = ""
    wall: float = 0.0
    cpu: float = 0.0  # user + system seconds of the pytea-ci process (the machine is shared)
    timed_out: bool = False
    models: int = 0
    doc: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    deps: str = ""  # "installed", or why the project's dependencies are not


def analyze(p: Project, src: str, args: argparse.Namespace) -> Outcome:
    cmd = [*(args.cmd.split() if args.cmd else pytea_cmd()), "check", "--no-cache", "--format", "json", "--no-progress",
           "--jobs", str(args.jobs), "--root", src]
    if args.time_budget:
        cmd += ["--time-budget", str(args.time_budget)]
    if args.library_mode:
        cmd += ["--library-mode", args.library_mode]
    if p.packages:
        python = packages_python(args)
        if python is None:
            return Outcome(p, skipped=f"cannot install {' '.join(PINS)} into {args.packages_venv}")
        cmd += ["--python", python]
    venv, why = environment(p, args.offline) if not args.no_deps and not p.packages else (None, "")
    if venv is not None:
        cmd += ["--python", venv, "--config", os.path.join(venv, "pytea-ci.toml")]
    # no path: at the root, as a user runs it (a folder given as a path with no entry point is a usage
    # error, exit 2, where the root without one checks its modules alone: 7 of 10 projects checked nothing)
    out = Outcome(p, models=len(model_modules(src)), deps=why or ("installed" if venv else ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = run(cmd, cwd=src, env=bench_env(), timeout=args.timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out.wall, out.timed_out = r.wall, r.timed_out
    out.cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if r.timed_out:
        out.error = f"whole-project timeout ({args.timeout:.0f} s)"
        return out
    out.doc = json_doc(r.stdout)  # {} when stdout is no JSON report (json_doc never raises)
    if not out.doc:  # a run killed (a CPU limit, a signal) or one that failed: an error, never 0 entries and 0 problems
        tail = (r.stderr.strip().splitlines() or ["no output"])[-1]
        if args.library_mode and "library-mode" in r.stderr:
            out.skipped = f"this pytea-ci has no library mode ({tail})"
        else:
            out.error = f"rc={r.rc}: {tail}"
    return out


_PYTHON: dict[str, str | None] = {}


def packages_python(args: argparse.Namespace) -> str | None:
    """The interpreter of a scratch virtualenv with timm and transformers (pinned, `--no-deps`)."""
    if args.packages_venv not in _PYTHON:
        _PYTHON[args.packages_venv] = make_env(args.packages_venv)
    return _PYTHON[args.packages_venv]


def load_reviewed() -> dict[str, dict[str, str]]:
    try:
        with open(REVIEWED, encoding="utf-8") as f:
            items = json.load(f)["findings"]
    except (OSError, ValueError, KeyError):
        return {}
    return {finding_key(i["project"], i["path"], i["line"], i["rule"]): i for i in items}


def finding_key(project: str, path: str, line: int, rule: str) -> str:
    return f"{project}:{path}:{line}:{rule}"


def _module_level(src: str, path: str, line: int, cache: dict[str, set[int]]) -> bool:
    """Whether `line` of `path` runs at import time (outside every function body)."""
    if path not in cache:
        lines: set[int] = set()
        try:
            with open(os.path.join(src, path), "rb") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    lines.update(range(node.body[0].lineno if isinstance(node.body, list) else node.lineno,
                                       (node.end_lineno or node.lineno) + 1))
        except (SyntaxError, ValueError, OSError):
            pass
        cache[path] = lines
    return line not in cache[path]


@dataclass
class Figures:
    entries: int = 0
    internal: int = 0
    checks: int = 0
    bugs: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)
    unreviewed: list[str] = field(default_factory=list)
    budget_notes: int = 0
    import_budget: int = 0  # entry points whose budget was reached in import-time code of another file
    zero_checks: int = 0
    ops_reached: int = 0
    ops_checked: int = 0
    seconds: list[float] = field(default_factory=list)
    coverage: list[float] = field(default_factory=list)
    origins: Counter = field(default_factory=Counter)
    ended: Counter = field(default_factory=Counter)  # paths ended by an exception of the program, by where


def is_library(entry: str) -> bool:
    """Library-mode targets are reported as `file.py::Class` (issue 14)."""
    return "::" in entry


def figures(o: Outcome, reviewed: dict[str, dict[str, str]], src: str, library: bool) -> Figures:
    """The figures of the entry points (or of the library-mode targets) of one project."""
    fig = Figures()
    doc = o.doc
    fig.internal = sum(bool(e.get("error")) for e in doc.get("entries", []) if is_library(e["entry"]) == library)
    body_lines: dict[str, set[int]] = {}
    import_hit: set[str] = set()
    for e in doc.get("entries", []):
        if is_library(e["entry"]) != library:
            continue
        fig.entries += 1
        st = e.get("stats", {})
        checks = int(st.get("concrete_checks", 0)) + int(st.get("z3_calls", 0))
        fig.checks += checks
        fig.seconds.append(float(st.get("seconds", 0.0)))
        cov = e.get("coverage")
        if isinstance(cov, dict):  # the coverage figures (issue 13), when this pytea-ci has them
            fig.ops_reached += cov["reached"]
            fig.ops_checked += cov["checked"]
            fig.zero_checks += cov["checked"] == 0
            if cov["reached"]:
                fig.coverage.append(cov["checked"] / cov["reached"])
        else:
            fig.zero_checks += checks == 0
        for origin in e.get("unknown_origins", []) or []:
            where = f"{origin.get('path', '?')}:{origin.get('line', 0)}"
            fig.origins[f"{o.project.name}: {where} {origin.get('what', '?')}"] += int(origin.get("ops", 1))
        ended = e.get("ended_paths", []) or []
        fig.ended.update(f"{p['path']}:{p['line']} {p['reason'][:90]}" for p in ended if p.get("kind") == "exception")
        if any(p.get("kind") == "budget" and p.get("module") for p in ended):
            import_hit.add(e.get("entry", ""))
    for d in doc.get("diagnostics", []):
        if is_library(d.get("entry", "")) != library:
            continue
        where = f"{d['path']}:{d['line']} {d['rule']} {d['message'][:110]}"
        if d["rule"] == "PT011":
            fig.budget_notes += 1
            if d["path"] != d.get("entry") and _module_level(src, d["path"], d["line"], body_lines):
                import_hit.add(d.get("entry", ""))
            continue
        if d["severity"] == "note":
            continue
        r = reviewed.get(finding_key(o.project.name, d["path"], d["line"], d["rule"]))
        if r is None:
            fig.unreviewed.append(where)
        elif r.get("verdict") == "bug":
            fig.bugs.append(where)
        else:
            fig.false_alarms.append(where)
    fig.import_budget = len(import_hit)
    return fig


def report(outcomes: list[Outcome], reviewed: dict[str, dict[str, str]], show: int) -> int:
    rows: list[list[object]] = []
    bad, origins, details = 0, Counter(), []
    for o in outcomes:
        p = o.project
        if o.skipped:
            rows.append([f"{p.name} {p.version}", f"skipped: {o.skipped}"] + [""] * 10)
            continue
        src = os.path.join(cache_dir(), "src", f"{p.name}-{p.version}")
        if o.error:
            bad += 1
            details.append(f"- {p.name}: {o.error}")
        if p.deps:
            state = "read from source" if o.deps == "installed" else o.deps
            details.append(f"- {p.name}: dependencies {', '.join(p.deps)}: {state}")
        for library in (False, True):
            fig = figures(o, reviewed, src, library)
            if library and not fig.entries:
                continue
            origins.update(fig.origins)
            bad += fig.internal + len(fig.unreviewed) + len(fig.false_alarms)
            rows.append(_row(o, fig, library))
            details += _details(p.name, fig, show)
        slow = sorted(o.doc.get("entries", []), key=lambda e: -float(e.get("stats", {}).get("seconds", 0)))[:show]
        details += [f"- {p.name}: slow entry {e['entry']} {e['stats'].get('seconds', 0):.1f}s "
                    f"status={e.get('status')} paths={e['stats'].get('paths')} steps={e['stats'].get('steps')}"
                    for e in slow]
    print(table(["project", "entry points", "model modules", "internal errors", "checks", "entries w/o checks",
                 "coverage: all ops (median entry)", "findings bug/false/unreviewed", "budget notes (in import)",
                 "median s/entry", "max s/entry", "whole project s (cpu s)"], rows))
    if details:
        print("\n" + "\n".join(details))
    if origins:
        print("\nTop 15 unknown origins (tensor operations they disabled, all projects):\n")
        print(table(["origin", "ops"], origins.most_common(15)))
    analyzed = [o for o in outcomes if not o.skipped]
    print(f"\nSUMMARY projects={len(analyzed)}/{len(outcomes)} problems={bad} "
          f"total_s={sum(o.wall for o in analyzed):.0f} cpu_s={sum(o.cpu for o in analyzed):.0f}")
    return 1 if bad else 0


def _row(o: Outcome, fig: Figures, library: bool) -> list[object]:
    p = o.project
    cov = (f"{100 * fig.ops_checked / fig.ops_reached:.0f}% ({100 * median(fig.coverage):.0f}%)"
           if fig.ops_reached else "n/a")
    return [f"{p.name} {p.version}" + (" (library mode)" if library else ""), fig.entries, o.models, fig.internal,
            fig.checks, fig.zero_checks, cov, f"{len(fig.bugs)}/{len(fig.false_alarms)}/{len(fig.unreviewed)}",
            f"{fig.budget_notes} ({fig.import_budget})", f"{median(fig.seconds):.2f}",
            f"{max(fig.seconds, default=0):.2f}", f"{o.wall:.1f} ({o.cpu:.1f})" if not library else ""]


def _details(name: str, fig: Figures, show: int) -> list[str]:
    out = []
    for label, items in (("bug", fig.bugs), ("FALSE ALARM", fig.false_alarms), ("UNREVIEWED", fig.unreviewed)):
        out += [f"- {name}: {label}: {w}" for w in items]
    out += [f"- {name}: {n} path(s) ended by the program raising at {w}" for w, n in fig.ended.most_common(show)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None, help="project names (PyPI spelling)")
    ap.add_argument("--small", action="store_true", help="only the two small projects")
    ap.add_argument("--offline", action="store_true", help="never download; skip what is not cached")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per project (whole run)")
    ap.add_argument("--time-budget", type=float, default=20.0, help="pytea-ci --time-budget per entry point "
                    "(0: pytea-ci's default)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--library-mode", default="never", help="passed to pytea-ci (issue 14): never (default: "
                    "entry points only), auto, always, only (the model modules alone); empty: pytea-ci's default")
    ap.add_argument("--no-deps", action="store_true", help="analyze without the projects' dependencies")
    ap.add_argument("--packages-venv", default=os.path.join(cache_dir(), "packages-venv"),
                    help="virtualenv where the projects that use timm/transformers find them (made when missing)")
    ap.add_argument("--cmd", help="the pytea-ci command to run (default: the console script)")
    ap.add_argument("--slowest", type=int, default=3, help="slowest entry points listed per project")
    ap.add_argument("--json", help="also write the raw JSON reports, keyed by project, to FILE")
    args = ap.parse_args(argv)
    chosen = [p for p in PROJECTS if (not args.small or p.small) and (args.only is None or p.name in args.only)]
    outcomes: list[Outcome] = []
    for p in chosen:
        t0 = time.monotonic()
        src, why = fetch(p, args.offline)
        o = Outcome(p, skipped=why) if src is None else analyze(p, src, args)
        outcomes.append(o)
        print(f"[{p.name}: {time.monotonic() - t0:.0f}s]", file=sys.stderr, flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({o.project.name: o.doc for o in outcomes}, f)
    return report(outcomes, load_reviewed(), args.slowest)


if __name__ == "__main__":
    sys.exit(main())
