#!/usr/bin/env python3
"""Results must not depend on machine load (issue 24): run the acceptance corpus (and optionally the
real-projects benchmark) twice — once as the machine is, once with busy loops on every core — and
compare the JSON reports byte for byte, timings excluded.

    python benchmarks/determinism.py [--corpus DIR] [--stress N] [--jobs N] [--only P,...]
                                     [--no-corpus] [--keep DIR]
                                     [--real-projects [--real-projects-args=--small]]

Each case runs `pytea-ci check ENTRY --format json --no-cache` in a private copy of the corpus. The
stressed pass starts N processes spinning on the CPU (default: one per core) before it starts and stops
them after. Exit 1 when any report differs; the first differences are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import pytea_cmd  # noqa: E402

TIMING_KEYS = {"seconds", "z3_seconds"}
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(HERE, "..", "..", "shared", "acceptance")


def normalized(doc: Any) -> Any:
    """The report without its timings (the only fields allowed to differ between two runs)."""
    if isinstance(doc, dict):
        return {k: normalized(v) for k, v in doc.items() if k not in TIMING_KEYS}
    if isinstance(doc, list):
        return [normalized(v) for v in doc]
    return doc


def run_case(cmd: list[str], root: str, case: dict[str, Any]) -> tuple[str, str]:
    d = os.path.join(root, case["id"])
    p = subprocess.run([*cmd, "check", case.get("entry", "main.py"), "--format", "json", "--no-cache"], cwd=d,
                       capture_output=True, text=True, timeout=1800, check=False)
    try:
        text = json.dumps(normalized(json.loads(p.stdout)), sort_keys=True)
    except ValueError:
        text = f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
    return case["id"], text


def corpus_pass(cmd: list[str], corpus: str, only: list[str] | None, jobs: int) -> dict[str, str]:
    cases = json.load(open(os.path.join(corpus, "cases.json")))
    if only:
        cases = [c for c in cases if any(c["id"].startswith(p) for p in only)]
    tmp = tempfile.mkdtemp(prefix="pytea-determinism-")
    try:
        root = os.path.join(tmp, "acceptance")
        shutil.copytree(corpus, root, ignore=shutil.ignore_patterns("_oracle"))
        with ThreadPoolExecutor(jobs) as ex:
            return dict(ex.map(lambda c: run_case(cmd, root, c), cases))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def real_projects_pass(extra: list[str]) -> dict[str, str]:
    out = tempfile.mktemp(suffix=".json")
    subprocess.run([sys.executable, os.path.join(HERE, "real_projects.py"), "--offline", "--json", out, *extra],
                   capture_output=True, text=True, check=False)
    try:
        docs = json.load(open(out))
    except (OSError, ValueError):
        return {"real-projects": "no report"}
    return {f"real:{k}": json.dumps(normalized(v), sort_keys=True) for k, v in docs.items()}


def stress(n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def one_pass(ns: argparse.Namespace, stressed: bool) -> dict[str, str]:
    procs = stress(ns.stress) if stressed else []
    try:
        out = {} if ns.no_corpus else corpus_pass(pytea_cmd(), os.path.abspath(ns.corpus), ns.only, ns.jobs)
        if ns.real_projects:
            out.update(real_projects_pass(ns.real_projects_args.split()))
        return out
    finally:
        for p in procs:
            p.kill()
            p.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--stress", type=int, default=os.cpu_count() or 2, help="busy processes in the stressed pass")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", type=lambda s: s.split(","), default=None, help="case id prefixes")
    ap.add_argument("--no-corpus", action="store_true", help="skip the acceptance corpus (real projects only)")
    ap.add_argument("--keep", default=None, help="write both passes' normalized reports to DIR/first.json, second.json")
    ap.add_argument("--real-projects", action="store_true", help="also run benchmarks/real_projects.py --offline")
    ap.add_argument("--real-projects-args", default="", help="more arguments for it, e.g. --real-projects-args=--small")
    ns = ap.parse_args()
    first = one_pass(ns, stressed=False)
    second = one_pass(ns, stressed=True)
    if ns.keep:
        os.makedirs(ns.keep, exist_ok=True)
        for name, doc in (("first", first), ("second", second)):
            with open(os.path.join(ns.keep, f"{name}.json"), "w") as f:
                json.dump(doc, f, indent=0, sort_keys=True)
    differ = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
    print(f"reports: {len(first)}; identical: {len(first) - len(differ)}; different: {len(differ)}")
    for k in differ[:10]:
        a, b = first.get(k, ""), second.get(k, "")
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print(f"  {k}: first difference at {at}:\n    {a[max(0, at - 120):at + 120]}\n    {b[max(0, at - 120):at + 120]}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
