"""Library mode alone on the acceptance corpus (issue 14): which error cases it must find, and which it finds.

An error case is *expected* from library mode when its bug is inside a module and does not depend
on the input's size: the marked line lies in a method of an `nn.Module` class of the case (found
from the AST, as library mode finds its targets) and the module, built as the project builds it,
fails for every input of every rank (the hand-written verdict and reason in CLASSIFIED, one line
per in-module case; the reasons were checked against the case's code and `cases.json`'s
description). Every case is run with `pytea-ci check --library-mode only` (no entry-point analysis)
in a private copy; a case is found when a PT001-PT005 finding sits on its marked line (the scorer's
rule, with PT005 unpacking errors counted as the project's acceptance test does), and an ok case
with any such finding is a false alarm.

usage: python benchmarks/library_mode_acceptance.py [--out benchmarks/library_mode_acceptance.md] [--jobs 2]
       python benchmarks/library_mode_acceptance.py --contracts   (the correct programs' modules: how each is
       built and whether its contract is determined, per target and per module; no findings run)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _bench import CORPUS, bench_env, pytea_cmd  # noqa: E402
from pytea_ci.library import targets as lib  # noqa: E402

FINDING = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+):\s+(?P<rule>PT00[1-5])\b")

# In-module error cases: case id -> [verdict, why] (library_mode_acceptance.json, written by hand from
# the code and cases.json). "yes": the marked operation fails for every input of the module as the
# project builds it (the module holding the marker, or one that contains it). "no": some input
# (another channel count, image size, sequence length, rank, dtype or value range) runs it: library
# mode adds the check to the module's contract and must not report it. "later": some input passes
# the marked operation but every input fails further on (library mode may report that later line).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "library_mode_acceptance.json"),
          encoding="utf-8") as _f:
    CLASSIFIED: dict[str, list[str]] = json.load(_f)


def module_of(case_dir: str, file: str, line: int) -> str | None:
    """The nn.Module class whose body holds `file:line`, if any."""
    files = [os.path.join(case_dir, f) for f in sorted(os.listdir(case_dir)) if f.endswith(".py")]
    mods = {(i.path, i.node.name): i for i in lib.module_classes(lib.classes_of(files))}
    for (path, name), info in mods.items():
        if os.path.basename(path) == file and info.node.lineno <= line <= (info.node.end_lineno or 0):
            return name
    return None


def run_case(root: str, case: dict) -> tuple[dict, list[tuple[str, int, str]], str]:
    d = os.path.join(root, case["id"])
    try:
        p = subprocess.run([*pytea_cmd(), "check", "--library-mode", "only", "--no-cache", case.get("entry", "main.py")],
                           cwd=d, capture_output=True, text=True, timeout=300, env=bench_env())
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        out = "TIMEOUT"
    hits = [(os.path.basename(m["file"]), int(m["line"]), m["rule"])
            for m in (FINDING.match(x.strip()) for x in out.splitlines()) if m]
    return case, hits, out


def contracts(only: str) -> int:
    """Every library target of the correct programs (`*_ok`), as `pytea-ci shapes` builds and runs it: how it is
    built (a script run as `__main__`, or rebuilt from a construction: literals, a project call site's
    arguments, a factory, the defaults) and its status. *rebuilt*: built without a script and without an
    argument library mode could not give a value or a symbol (what the torch oracle test can rebuild)."""
    from pytea_ci.driver.discover import python_files
    from pytea_ci.library.results import analyze_guarded
    from pytea_ci.solver import Decider

    decider = Decider()
    per_module: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (case, class) -> [(how built, status)]
    for case in sorted(c for c in os.listdir(CORPUS) if c.endswith("_ok")):
        if only and not any(case.startswith(p) for p in only.split(",")):
            continue
        folder = os.path.join(CORPUS, case)
        files = python_files(folder, folder, [])
        for t in lib.targets(files, files, folder).targets:
            shapes, _ = analyze_guarded(t, folder, decider, 5.0)
            how = "script" if t.via else "partly unknown" if "__pytea_unknown__" in t.construct else "rebuilt"
            per_module.setdefault((case, t.cls), []).append((how, shapes.status))
            print(f"{case} {t.cls}: {shapes.status}; {how}, built with {t.label}", flush=True)
    rows = [r for v in per_module.values() for r in v]

    def count(rs: list[tuple[str, str]], how: str) -> str:
        mine = [s for h, s in rs if h == how]
        return f"{how} {len(mine)} ({sum(s == 'determined' for s in mine)} determined)"

    print(f"targets: {len(rows)}, {sum(s == 'determined' for _, s in rows)} determined; "
          + "; ".join(count(rows, h) for h in ("rebuilt", "partly unknown", "script")))
    best = [min(v, key=lambda r: (r[1] != "determined", r[0] != "rebuilt")) for v in per_module.values()]
    print(f"modules: {len(best)}, {sum(s == 'determined' for _, s in best)} determined by some target, "
          f"{sum(r == ('rebuilt', 'determined') for r in best)} determined by a rebuilt target")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "library_mode_acceptance.md"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated case-id prefixes")
    ap.add_argument("--raw", default="", help="also write every case's findings and output (JSON) to FILE")
    ap.add_argument("--from-raw", default="", help="no run: the findings of an earlier --raw FILE")
    ap.add_argument("--contracts", action="store_true",
                    help="only measure how the correct programs' modules are built and which contracts are determined")
    args = ap.parse_args()
    if args.contracts:
        return contracts(args.only)
    cases = json.load(open(os.path.join(CORPUS, "cases.json"), encoding="utf-8"))
    if args.only:
        cases = [c for c in cases if any(c["id"].startswith(p) for p in args.only.split(","))]
    if args.from_raw:
        with open(args.from_raw, encoding="utf-8") as f:
            raw = json.load(f)
        results = [(c, [tuple(h) for h in raw[c["id"]]["hits"]], raw[c["id"]]["output"]) for c in cases]
    else:
        tmp = tempfile.mkdtemp(prefix="pytea-libacc-")
        root = os.path.join(tmp, "acceptance")
        shutil.copytree(CORPUS, root, ignore=shutil.ignore_patterns("_oracle"))
        with ThreadPoolExecutor(args.jobs) as ex:
            results = list(ex.map(lambda c: run_case(root, c), cases))
        shutil.rmtree(tmp, ignore_errors=True)
    if args.raw:
        with open(args.raw, "w", encoding="utf-8") as f:
            json.dump({c["id"]: {"hits": h, "output": o} for c, h, o in results}, f, indent=1)
    rows, alarms = [], []
    count = {"yes": [0, 0, 0], "later": [0, 0, 0], "no": [0, 0, 0]}  # verdict -> [cases, at the marker, anywhere]
    for case, hits, _out in results:
        if case["verdict"] == "ok":
            if hits:
                alarms.append(f"{case['id']}: {hits}")
            continue
        cls = module_of(os.path.join(CORPUS, case["id"]), case["file"], int(case["line"]))
        hit = any(f == os.path.basename(case["file"]) and ln == int(case["line"]) for f, ln, _ in hits)
        if cls is None:
            verdict, why = "no", "marker outside every nn.Module (script, dataset, loss or helper code)"
        else:
            verdict, why = CLASSIFIED.get(case["id"], ["no", "UNCLASSIFIED"])
        count[verdict][0] += 1
        count[verdict][1] += hit
        count[verdict][2] += bool(hits)
        shown = "found" if hit else "elsewhere: " + ", ".join(f"{f}:{ln}" for f, ln, _ in hits) if hits else "-"
        rows.append((case["id"], cls or "-", verdict, shown, why))
    ok_n = sum(c["verdict"] == "ok" for c in cases)
    summary = (f"input-independent in-module bugs found at the marker: {count['yes'][1]}/{count['yes'][0]}; "
               f"'later' cases found at the marker: {count['later'][1]}/{count['later'][0]} (at their later line: "
               f"{count['later'][2]}/{count['later'][0]}); other error cases "
               f"found: {count['no'][1]}/{count['no'][0]}; false alarms: {len(alarms)}/{ok_n} ok cases")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("# Library mode alone on the acceptance corpus\n\n"
                "Generated by `python benchmarks/library_mode_acceptance.py` (`pytea-ci check --library-mode only`"
                " on each case). *Expected*: the marked line is inside an nn.Module and the bug fails for every"
                " input of the module as the project builds it (*later*: some input passes the marked operation, every"
                " input fails further on). Reasons: `benchmarks/library_mode_acceptance.json`.\n\n"
                f"**{summary}**\n\n| case | module | expected | library mode | why |\n|---|---|---|---|---|\n")
        for r in rows:
            f.write("| " + " | ".join(r) + " |\n")
        if alarms:
            f.write("\nFalse alarms:\n\n" + "".join(f"- {a}\n" for a in alarms))
    print(summary)
    for r in rows:
        if r[2] != "no" and r[3] != "found":
            print("MISSED", r[0], r[4])
    for a in alarms:
        print("FALSE ALARM", a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
