"""Score pytea-ci on the labelled mutants (issue 32 item 4) and time library mode (item 6).

Modes, each a fresh `pytea-ci check --no-cache --format json` in the mutant's work folder:
- driver: a Module subject's generated driver is the entry (`check mutant_driver.py`);
- library: the mutated file alone, no driver in the folder (`check FILE`, default library mode; with the
  driver there, `check FILE` ran it as an importer of FILE: driver mode, not library mode);
- script: a Script subject's entry (`check ENTRY`, default), after the subject's setup has written its data
  files, with its command line (`--arg` pairs for argparse entries, and since stop 43 `--argv`: `script_args`).
Item 6: every subject's original, driver / script entry, default vs `--library-mode never`.

Figures per mode, per half (split.json), per operator and per source: mutants that fail always /
for some inputs; found (an error or warning PT001-PT007 on the subject's path: dtype and device findings are PT006 and PT007), found as an error, found at the
raising statement (a finding on the labelled file:line); false alarms (errors; warnings counted
apart) on never-failing mutants and on the originals; share whose check reached no tensor
operation or checked none ("checked nothing"), timeouts, and mutants with errors outside the subject.

A mutant's label covers the subject's runs only. In library mode `check FILE` reaches more than the
subject: the file's other modules, and the entry points importing it (its own `__main__` self-test,
another model's `_test()`), with inputs that are not the subject's. Such a finding (`on_path`) is
outside the subject: neither a find (unless at the labelled raising statement) nor a false alarm, and
counted in its own column so it stays visible. The originals count every error anywhere (their code
outside the subject is the authors', unmutated: an error there is a false alarm).

    python benchmarks/mutants/score.py run [--jobs 2] [--timeout 60] [--halves dev,test] [--modes ...]
                                           [--sample 0.25] [--pairs] [--out FILE]
    python benchmarks/mutants/score.py report FILE [--half dev] [--split 32]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from common import CACHE, DRIVER, HERE, SUBJECTS, Module, Script, load_mutants, make_workdir

PYTEA = os.environ.get("PYTEA_TREE", "/work/main")
PYTHON = os.environ.get("PYTEA_PYTHON", "/work/venv/bin/python")
RULES = re.compile(r"PT00[1-7]")  # shapes, arguments, asserts, dtypes (PT006) and devices (PT007)
LIBRARY_MARK = "(library mode: "  # in the message of a finding of a module checked alone (library/verdict.py)


def split(stop: int | None = None) -> dict[str, str]:
    """Source -> half: the current split, or (`stop`) the one made at that stop, from split.json's history
    (a source it did not hold is in no half)."""
    with open(os.path.join(HERE, "split.json")) as f:
        doc = json.load(f)
    if stop is not None:
        made = [h for h in doc.get("history", []) if h.get("stop") == stop and "dev" in h and "test" in h]
        if not made:
            raise SystemExit(f"split.json: no split made at stop {stop}")
        doc = made[0]
    return {s: h for h in ("dev", "test") for s in doc[h]}


def check(work: str, target: str, timeout: int, extra: tuple[str, ...] = (), named: bool = True) -> dict[str, Any]:
    """pytea-ci's check of `target` in `work`; `named`: with `--python /work/venv`, the environment whose
    packages are read from source and whose absent modules are absent (see `stubs_modules`)."""
    env = ("--python", "/work/venv") if named else ()
    cmd = [PYTHON, "-m", "pytea_ci", "check", target, "--no-cache", "--root", ".", *env,
           "--format", "json", "--fail-on", "never", *extra]
    t0, c0 = time.time(), _children_cpu()
    try:  # the limit is CPU seconds (the load does not decide a timeout); wall only as a backstop at 4x
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=4 * timeout,
                           env={**os.environ, "PYTHONPATH": PYTEA}, preexec_fn=lambda: _cpu_limit(timeout))
    except subprocess.TimeoutExpired:
        return {"timeout": True, "wall": round(time.time() - t0, 2)}
    wall = round(time.time() - t0, 2)
    if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"timeout": True, "wall": wall, "cpu": round(_children_cpu() - c0, 2)}
    cpu = round(_children_cpu() - c0, 2)  # with --jobs 1: this check's CPU seconds (wall follows the machine's load)
    try:
        doc = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"crash": (p.stderr or p.stdout)[-300:], "wall": wall, "rc": p.returncode}
    cov = doc["summary"].get("coverage", {})
    return {"wall": wall, "cpu": cpu, "seconds": doc["summary"]["seconds"], "reached": cov.get("reached", 0),
            "checked": cov.get("checked", 0), "entries": len(doc["entries"]),
            "findings": [{"rule": d["rule"], "severity": d["severity"], "path": d["path"], "line": d["line"],
                          "message": d["message"][:200], "library": LIBRARY_MARK in d["message"]}
                         for d in doc["diagnostics"]],
            "notes": sorted({d["rule"] for d in doc["diagnostics"] if d["severity"] == "note"})}


def _cpu_limit(seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _jobs(doc: dict, halves: set[str]) -> list[tuple[str, str, str, dict | None]]:
    """(key, subject, mode, mutant) of every check to run."""
    half = split()
    jobs: list[tuple[str, str, str, dict | None]] = []
    for name, subject in SUBJECTS.items():
        if half.get(subject.source) not in halves or name not in doc["inputs"]:
            continue
        if isinstance(subject, Module):
            jobs += [(f"{name}|orig|driver", name, "driver", None), (f"{name}|orig|driver-never", name, "driver-never",
                                                                     None)]
            for f in sorted({m["file"] for m in doc["mutants"] if m["subject"] == name}):
                jobs.append((f"{name}|orig|library|{f}", name, "library", {"file": f, "edits": [], "orig": True}))
        else:
            jobs += [(f"{name}|orig|script", name, "script", None), (f"{name}|orig|script-never", name,
                                                                     "script-never", None)]
    for m in doc["mutants"]:
        subject = SUBJECTS[m["subject"]]
        if half.get(subject.source) not in halves or m.get("label", {}).get("label", "unlabelled") == "unlabelled":
            continue  # a mutant drawn and not labelled yet (mutate.py ran, label.py not) is skipped as an unlabelled one
        if isinstance(subject, Module):
            jobs += [(f"{m['id']}|driver", m["subject"], "driver", m), (f"{m['id']}|library", m["subject"], "library", m)]
            if hashlib.sha256(m["id"].encode()).hexdigest() < "3":  # a fixed ~1/5 sample for item 6 on mutants
                jobs.append((f"{m['id']}|driver-never", m["subject"], "driver-never", m))
        else:
            jobs.append((f"{m['id']}|script", m["subject"], "script", m))
    return jobs


def _sampled(key: str, share: float) -> bool:
    """Whether a check is in the fixed `share` of them (a check and its `-never` twin together)."""
    return int(hashlib.sha256(key.replace("-never", "").encode()).hexdigest()[:8], 16) < share * 16 ** 8


def _run_one(job: tuple[str, str, str, dict | None], doc: dict, timeout: int, done: dict) -> dict:
    key, name, mode, m = job
    subject = SUBJECTS[name]
    orig = done.get(f"{name}|orig|{mode}", {}) if mode in ("driver", "script") else {}
    if m is not None and orig.get("timeout"):  # the original already ran out of time: so would its mutants
        return {"key": key, "subject": name, "mode": mode, "id": m.get("id"), "timeout": True, "skipped": True}
    tag = re.sub(r"[^A-Za-z0-9_.-]", "_", key)
    mutant = None if m is None or m.get("orig") else m
    ins = [tuple(i) for i in doc["inputs"][name]] if isinstance(subject, Module) else None
    work = make_workdir(subject, f"score{os.getpid()}-" + tag, mutant, ins, driver=mode != "library")
    never = ("--library-mode", "never") if mode.endswith("-never") else ()
    if mode.startswith("driver"):
        target = DRIVER
    elif mode == "library":
        target = m["file"]  # type: ignore[index]
    else:
        target = subject.entry  # type: ignore[union-attr]
        never += script_args(subject, work)  # type: ignore[arg-type]
    res = check(work, target, timeout, never, named=not stubs_modules(subject))
    shutil.rmtree(work, ignore_errors=True)
    return {"key": key, "subject": name, "mode": mode, "id": m.get("id") if m else None, **res}


def stubs_modules(subject: Module | Script) -> bool:
    """Whether the subject's setup puts stand-ins for modules that are not installed into `sys.modules` (tqdm,
    nltk, tensorboardX, pandas): the labelling runs had those modules, as a user's environment has them. Its
    checks do not name `/work/venv` (which lacks them: there `import nltk` is a ModuleNotFoundError, and the
    run ends at the import), so the modules are ones not followed, as installed packages outside
    `follow-packages` are (stop 40)."""
    return isinstance(subject, Script) and "sys.modules" in (subject.setup or "")


def argv_overrides(argv: tuple[str, ...]) -> tuple[str, ...]:
    """The subject's command line as pytea-ci's argparse overrides (`--epochs 3` and `--epochs=3`:
    `--arg epochs=3`; a flag alone: `--arg dry_run=True`), as a user of the script would configure them
    in `[tool.pytea-ci.args]`; () for a command line argparse would not read as `--name value` pairs."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if not word.startswith("--") or len(word) < 3:
            return ()
        name, eq, value = word[2:].partition("=")
        if not eq:
            if i + 1 < len(argv) and not argv[i + 1].startswith("--"):
                value, i = argv[i + 1], i + 1
            else:
                value = "True"
        out += ["--arg", f"{name.replace('-', '_')}={value}"]
        i += 1
    return tuple(out)


def script_args(subject: Script, work: str) -> tuple[str, ...]:
    """What a script check is given beside its entry, so it checks the run torch labelled: the subject's
    setup is run in the work folder first (the data files its script reads, as the labelling runs
    had them), and its command line: its `--name value` pairs as `--arg` overrides where the entry reads
    argparse (`argv_overrides`), and since stop 43 the whole line verbatim (`--argv`: `sys.argv` and the
    entry's parser read it as CPython does — short options, positionals, which the pairs cannot say)."""
    if subject.setup:
        subprocess.run([PYTHON, "-c", subject.setup], cwd=work, capture_output=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": work})
    with open(os.path.join(work, subject.entry), encoding="utf-8", errors="replace") as f:
        uses_argparse = "argparse" in f.read()
    pairs = argv_overrides(subject.argv) if uses_argparse else ()  # as before stop 43 (an --arg wins)
    return (*pairs, f"--argv={shlex.join(subject.argv)}") if subject.argv else ()


def cmd_run(args: argparse.Namespace) -> int:
    doc = load_mutants()
    jobs = _jobs(doc, set(args.halves.split(",")))
    out: dict[str, dict] = {}
    if os.path.exists(args.out):
        with open(args.out) as f:
            out = json.load(f)
    modes = set(args.modes.split(","))
    sources = set(args.sources.split(",")) if args.sources else None
    todo = [j for j in jobs if j[0] not in out and j[2].removesuffix("-never") in modes
            and (args.sample >= 1 or _sampled(j[0], args.sample))
            and (sources is None or SUBJECTS[j[1]].source in sources)
            and (not args.only or re.search(args.only, j[0]))
            and (not args.pairs or j[2].endswith("-never") or f"{j[0]}-never" in {k for k, *_ in jobs})]
    # the slow library checks last, in a fixed shuffled order (a partial run covers both halves alike)
    todo.sort(key=lambda j: (j[2] == "library", hashlib.sha256(j[0].encode()).hexdigest() if j[2] == "library" else ""))
    print(f"{len(jobs)} checks, {len(todo)} to run", flush=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r in ex.map(lambda j: _run_one(j, doc, args.timeout, out), todo):
            out[r["key"]] = r
            print(f"{r['key']:60} {r.get('wall')}s findings={len(r.get('findings', []))} "
                  f"{'TIMEOUT' if r.get('timeout') else ''}{'CRASH' if r.get('crash') else ''}", flush=True)
            with open(args.out, "w") as f:
                json.dump(out, f, indent=1)
    return 0


def _finding(r: dict, severities: tuple[str, ...] = ("error", "warning")) -> list[dict]:
    return [d for d in r.get("findings", []) if RULES.fullmatch(d["rule"]) and d["severity"] in severities]


_EXECUTED: dict[str, dict[str, set[int]]] = {}


def executed(subject: str) -> dict[str, set[int]] | None:
    """The lines of its files the subject's original runs execute (originals.py), None when not recorded."""
    if not _EXECUTED:
        path = os.path.join(CACHE, "originals.json")
        if os.path.exists(path):
            with open(path) as f:
                _EXECUTED.update({k: {f: set(ls) for f, ls in v.get("lines", {}).items()}
                                  for k, v in json.load(f).items()})
    return _EXECUTED.get(subject)


def on_path(d: dict, label: dict, lines: dict[str, set[int]] | None) -> bool:
    """Whether a library-mode check's finding speaks of the subject, where its label does: the labelled
    raising statement, or a finding of a module checked alone (`library`) on a line the subject's runs
    execute (`lines`, the original's). Elsewhere it is outside the subject, which the label does not
    cover: a module of the file the subject never runs, or an entry point `check FILE` runs as well
    (the file's own `__main__` self-test, a script or test importing it), whose inputs are not the
    subject's even where it goes through the subject's lines. `lines` None (not recorded) and findings
    of older score files, which do not say whether they are library mode's: by their line only."""
    if d["path"] == label.get("file") and d["line"] == label.get("line"):
        return True
    if lines is None:
        return True
    return d.get("library", True) and d["line"] in lines.get(d["path"], ())


def counts(r: dict, d: dict, label: dict) -> bool:
    """Whether a finding of a mutant's check speaks of the subject: in driver mode every one (the entry is
    the subject); in library mode those on the subject's path (`on_path`); in script mode every finding of
    the script's own run, and a finding of a module the check built alone (library mode inside a script's
    check: a class the script defines and never runs) where `on_path` says (stop 40: the label does not
    cover code torch never ran, a module of the script that no run calls)."""
    if r["mode"] == "library":
        return on_path(d, label, executed(r["subject"]))
    if r["mode"] == "script" and d.get("library", False):
        return on_path(d, label, executed(r["subject"]))
    return True


def own(r: dict, label: dict, severities: tuple[str, ...] = ("error", "warning")) -> list[dict]:
    """The findings of a mutant's check that count for it (`counts`)."""
    return [d for d in _finding(r, severities) if counts(r, d, label)]


def outside(r: dict, label: dict) -> list[dict]:
    """The errors of a check of a mutant outside the subject (`counts`): counted apart."""
    return [d for d in _finding(r, ("error",)) if not counts(r, d, label)]


def _at(r: dict, label: dict) -> bool:
    return any(d["path"] == label.get("file") and d["line"] == label.get("line") for d in _finding(r))


class Fig:
    def __init__(self) -> None:
        self.c: dict[str, int] = defaultdict(int)

    def add(self, r: dict, label: dict) -> None:
        c = self.c
        c["n"] += 1
        lab = label["label"]
        c[lab] += 1
        if r.get("timeout") or r.get("crash"):
            c["timeout"] += 1
        if not r.get("timeout") and not r.get("crash") and (r.get("checked", 0) == 0):
            c["nothing"] += 1
        if lab in ("always", "some"):
            c[f"{lab}_found"] += bool(own(r, label))
            c[f"{lab}_error"] += bool(own(r, label, ("error",)))
            c[f"{lab}_at"] += _at(r, label)
        else:
            c["fa_error"] += bool(own(r, label, ("error",)))
            c["fa_warning"] += bool(own(r, label, ("warning",)))
        c["outside"] += bool(outside(r, label))

    def row(self) -> list[str]:
        c = self.c

        def pct(a: str, b: str) -> str:
            return f"{c[a]}/{c[b]}" + (f" ({100 * c[a] / c[b]:.0f}%)" if c[b] else "")
        return [str(c["n"]), pct("always_found", "always"), pct("always_at", "always"), pct("always_error", "always"),
                pct("some_found", "some"), f"{c['fa_error']}/{c['never']}", f"{c['fa_warning']}/{c['never']}",
                pct("nothing", "n"), str(c["timeout"]), str(c["outside"])]


HEAD = ["mutants", "always: found", "always: at the raising line", "always: as error", "some: found",
        "false alarms (errors) on never", "warnings on never", "checked nothing", "timeouts",
        "errors outside the subject"]


def _table(title: str, rows: dict[str, Fig]) -> str:
    lines = [f"| {title} | " + " | ".join(HEAD) + " |", "|---" * (len(HEAD) + 1) + "|"]
    for k in sorted(rows):
        lines.append(f"| {k} | " + " | ".join(rows[k].row()) + " |")
    return "\n".join(lines)


def _print_misses(res: dict, by_id: dict, half: dict, h: str) -> None:
    """Each always/some-failing mutant not found at its raising line, and each error on a never-failing
    mutant or an original: key, operator, label, and what pytea-ci reported instead."""
    print(f"\n{h}: misses and false alarms\n")
    for key in sorted(res):
        r = res[key]
        if half.get(SUBJECTS[r["subject"]].source) != h or r["mode"].endswith("never"):
            continue
        m = by_id.get(r["id"]) if r["id"] else None
        label = m["label"] if m else {"label": "never"}
        got = [f"{d['rule']} {d['severity']} {d['path']}:{d['line']}" for d in _finding(r)]
        state = "TIMEOUT " if r.get("timeout") else ""
        if label["label"] in ("always", "some") and not _at(r, label):
            print(f"- miss {key} [{m['op'] if m else ''}] {label['label']} at {label.get('file')}:{label.get('line')}"
                  f" ({label.get('exception', '')}: {str(label.get('message', ''))[:80]}): {state}got {got or 'nothing'}, checked {r.get('checked')}")
        elif label["label"] == "never" and (own(r, label, ("error",)) if m else _finding(r, ("error",))):
            print(f"- false alarm {key} [{m['op'] if m else 'original'}]: {state}got {got}")
        elif m and outside(r, label):
            print(f"- outside the subject {key} [{m['op']}] {label['label']}: {state}got {got}")


def unrecorded_lines(res: dict[str, dict], half: dict[str, str], h: str) -> list[str]:
    """The subjects of half `h` with library-mode checks (or script checks, whose modules are checked alone)
    in `res` whose executed lines originals.py has not recorded: `on_path` then counts every finding of
    theirs, a `__main__` self-test's or an importing script's too (stop 42: the module subjects' lines were
    missing from a cache whose originals.json had been rewritten for the scripts alone, and three true
    findings of self-tests and scripts counted as false alarms)."""
    return sorted({r["subject"] for r in res.values() if r["mode"] in ("library", "script")
                   and half.get(SUBJECTS[r["subject"]].source) == h and executed(r["subject"]) is None})


def cmd_report(args: argparse.Namespace) -> int:
    doc = load_mutants()
    by_id = {m["id"]: m for m in doc["mutants"]}
    with open(args.out) as f:
        res = json.load(f)
    half = split(args.split)
    halves = args.half.split(",")
    for h in halves:
        print(f"\n### {h} half\n")
        per_mode: dict[str, Fig] = defaultdict(Fig)
        per_op: dict[str, dict[str, Fig]] = defaultdict(lambda: defaultdict(Fig))
        per_src: dict[str, dict[str, Fig]] = defaultdict(lambda: defaultdict(Fig))
        data_ops = {"dataset_label", "dataset_length", "loader_batch_size", "loader_drop_last"}
        dd_ops = {"dtype_drop", "dtype_add", "drop_to_device"}
        groups: dict[str, Fig] = defaultdict(Fig)
        origs: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for r in res.values():
            subject = SUBJECTS[r["subject"]]
            if half.get(subject.source) != h or r["mode"].endswith("never"):
                continue
            if r["id"] is None:
                o = origs[r["mode"]]
                o[0] += 1
                o[1] += bool(_finding(r, ("error",)))
                o[2] += bool(_finding(r, ("warning",)))
                continue
            m = by_id[r["id"]]
            per_mode[r["mode"]].add(r, m["label"])
            per_op[r["mode"]][m["op"]].add(r, m["label"])
            per_src[r["mode"]][subject.source].add(r, m["label"])
            if m["op"] in data_ops:
                groups[f"data-path ({r['mode']})"].add(r, m["label"])
            if m["op"] in dd_ops:
                groups[f"dtype/device ({r['mode']})"].add(r, m["label"])
        print(_table("mode", per_mode))
        print()
        print(_table("group", groups))
        print("\nOriginals (false alarms: errors / warnings):",
              ", ".join(f"{k}: {v[1]}/{v[0]} errors, {v[2]}/{v[0]} warnings" for k, v in sorted(origs.items())))
        unrecorded = unrecorded_lines(res, half, h)
        if unrecorded:
            print(f"\nNot recorded (originals.py): the lines {len(unrecorded)} subjects' runs execute, so every "
                  "finding of their library-mode checks counts for them, entry points' and other modules' too "
                  f"(`python benchmarks/mutants/originals.py {' '.join(unrecorded)}` records them): "
                  + ", ".join(unrecorded))
        if args.misses:
            _print_misses(res, by_id, half, h)
        if args.detail:
            for mode in sorted(per_op):
                print(f"\n{h}, {mode}, per operator\n")
                print(_table("operator", per_op[mode]))
                print(f"\n{h}, {mode}, per source\n")
                print(_table("source", per_src[mode]))
    print("\n### Item 6: default `check` vs `--library-mode never` (CPU seconds where both were measured, else wall;"
          " a timeout counts as the timeout)\n")
    for h in halves:
        for what in ("originals", "mutants (fixed sample)"):
            pairs = []
            for r in res.values():
                if r["mode"] not in ("driver", "script") or half.get(SUBJECTS[r["subject"]].source) != h:
                    continue
                if (r["id"] is None) != (what == "originals"):
                    continue
                n = res.get(r["key"].replace(f"|{r['mode']}", f"|{r['mode']}-never"))
                if n and not r.get("skipped") and not n.get("skipped") and r.get("wall") and n.get("wall"):
                    what_ = "cpu" if r.get("cpu") and n.get("cpu") else "wall"  # CPU when measured: load-independent
                    pairs.append((r[what_] / n[what_], r["key"], r[what_], n[what_], bool(r.get("timeout"))))
            if pairs:
                ratios = [p[0] for p in pairs]
                worst = max(pairs)
                print(f"- {h}, {what}: {len(pairs)} checks, median ratio {statistics.median(ratios):.2f}, "
                      f"worst {worst[0]:.1f} ({worst[2]:.1f} s vs {worst[3]:.1f} s{', timed out' if worst[4] else ''}); "
                      f"default timed out on {sum(p[4] for p in pairs)}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--timeout", type=int, default=60, help="CPU seconds per check (wall: 4x, a backstop)")
    r.add_argument("--halves", default="dev,test")
    r.add_argument("--modes", default="driver,script,library")
    r.add_argument("--sample", type=float, default=1.0, help="a fixed share of the checks (by a hash of their key)")
    r.add_argument("--sources", default="", help="only these sources (comma-separated names of sources.json)")
    r.add_argument("--only", default="", help="only the checks whose key matches this regular expression")
    r.add_argument("--pairs", action="store_true", help="only the checks item 6 times twice (default and never)")
    r.add_argument("--out", default=os.path.join(CACHE, "scores.json"))
    p = sub.add_parser("report")
    p.add_argument("out")
    p.add_argument("--half", default="dev,test")
    p.add_argument("--detail", action="store_true")
    p.add_argument("--split", type=int, help="the halves of the split made at this stop (split.json's history), e.g."
                   " 32 for a score file of stop 32")
    p.add_argument("--misses", action="store_true", help="list each always-failing mutant not found at its line,"
                   " and each false alarm (development use: never on a sealed half)")
    args = ap.parse_args()
    return cmd_run(args) if args.cmd == "run" else cmd_report(args)


if __name__ == "__main__":
    sys.exit(main())
