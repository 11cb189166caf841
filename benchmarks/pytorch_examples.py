#!/usr/bin/env python3
"""pytorch/examples as a yardstick for false alarms (issue 21 item 6): `pytea-ci check` at the root of
a checkout of https://github.com/pytorch/examples, every finding looked up in the reviewed list
`pytorch_examples_reviewed.json` (a confirmed bug, or a false alarm with its cause; a finding not
listed is UNREVIEWED and counts as a false alarm), and the entry points with PT011 (incomplete) or
PT013 (nothing checked) notes counted, each note's cause as reviewed.

    git clone https://github.com/pytorch/examples /tmp/pex && git -C /tmp/pex checkout COMMIT
    python benchmarks/pytorch_examples.py /tmp/pex [--time-budget S] [--json FILE]

COMMIT is the `commit` of the reviewed list (findings are reviewed at that commit). The checkout is
only read: pytea-ci never imports or runs it. A generous `--time-budget` (default 120 s per entry
point) keeps a loaded machine from turning path budgets into time budgets. Exits 1 on an unreviewed
finding or one reviewed as a false alarm.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import pytea_cmd, run  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REVIEWED = os.path.join(HERE, "pytorch_examples_reviewed.json")


def analyze(root: str, time_budget: float) -> dict[str, Any]:
    r = run([*pytea_cmd(), "check", "--no-cache", "--no-progress", "--time-budget", str(time_budget),
             "--format", "json"], cwd=root)
    if r.rc not in (0, 1):
        sys.exit(f"pytea-ci failed (exit {r.rc}): {r.stderr.strip()[-500:]}")
    doc = json.loads(r.stdout)
    doc["wall"] = r.wall
    return doc


def review(doc: dict[str, Any], reviewed: dict[str, Any]) -> tuple[list[str], int]:
    """One line per finding (PT001-PT004) with its verdict; the number that count as false alarms."""
    verdicts = {(f["path"], f["line"], f["rule"]): f for f in reviewed["findings"]}
    lines, bad = [], 0
    for d in doc["diagnostics"]:
        if d["rule"] not in ("PT001", "PT002", "PT003", "PT004"):
            continue
        key = (d["path"], d["line"], d["rule"])
        v = verdicts.get(key)
        verdict = v["verdict"] if v else "UNREVIEWED"
        bad += verdict not in ("bug", "input-dependent")
        lines.append(f"  {verdict:11} {d['path']}:{d['line']} {d['rule']} {d['message'][:100]}")
    return lines, bad


def notes(doc: dict[str, Any], reviewed: dict[str, Any]) -> tuple[Counter[str], list[str]]:
    """Entry points with PT011/PT013, by rule, and the notes whose cause is not in the reviewed list."""
    causes = {(n["entry"], n["rule"]) for n in reviewed["notes"]}
    by_rule: dict[str, set[str]] = {"PT011": set(), "PT013": set()}
    unknown = []
    for d in doc["diagnostics"]:
        if d["rule"] in by_rule:
            entry = d.get("entry") or d["path"]
            by_rule[d["rule"]].add(entry)
            if (entry, d["rule"]) not in causes:
                unknown.append(f"  {d['rule']} {entry}: {d['message'][:120]}")
    return Counter({k: len(v) for k, v in by_rule.items()} | {"either": len(by_rule["PT011"] | by_rule["PT013"])}), unknown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", help="a checkout of pytorch/examples at the reviewed commit")
    ap.add_argument("--time-budget", type=float, default=120.0)
    ap.add_argument("--json", help="write the figures here")
    a = ap.parse_args()
    with open(REVIEWED, encoding="utf-8") as f:
        reviewed = json.load(f)
    doc = analyze(a.root, a.time_budget)
    s = doc["summary"]
    found, bad = review(doc, reviewed)
    counts, new_notes = notes(doc, reviewed)
    print(f"pytorch/examples (reviewed at {reviewed['commit'][:12]}): {len(doc['entries'])} entry points, "
          f"{len(found)} finding(s), {bad} unreviewed or false alarm(s); {s}")
    print("\n".join(found) if found else "  no PT001-PT004 finding")
    print(f"entry points with PT011: {counts['PT011']}, with PT013: {counts['PT013']}, "
          f"with either: {counts['either']}; {doc['wall']:.0f}s")
    if new_notes:
        print("notes whose cause is not reviewed yet:\n" + "\n".join(new_notes))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"summary": s, "findings": found, "notes": dict(counts), "wall": doc["wall"]}, f, indent=1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
