"""Label every mutant of mutants.json with what torch 2.13 (CPU) does on the subject's plausible
inputs: `always` (every input fails), `some`, `never`, with the raising statement (file:line of the
innermost frame in the subject's files) and the exception. Device mutants (`drop_to_device`)
are run with the `meta` emulation of a second device (oracle.py) and only device errors count.

    python benchmarks/mutants/label.py --shard 0/2 --out A.json   # two shards in parallel
    python benchmarks/mutants/label.py --merge A.json B.json [--check]  # write (or compare) labels
    python benchmarks/mutants/label.py --summary [test]                  # counts per source and operator

`--missing` labels only the mutants that have no label yet (those of subjects added later, see mutate.py);
`--merge` writes the labels it is given and keeps every other one; `--check` compares those it is given.
`--only REGEX` labels only the mutants whose id matches (a change of the oracle that concerns a few mutants).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import Counter
from typing import Any

from common import CACHE, MUTANTS_JSON, SUBJECTS, Module, load_mutants, make_workdir, save_json
import oracle


def _device_error(r: dict) -> bool:
    return r["status"] == "error" and any(w in r.get("message", "") for w in oracle.DEVICE_WORDS)


_META_ORIG: dict[str, list[dict]] = {}


def _runs(m: dict, originals: dict) -> list[dict]:
    subject = SUBJECTS[m["subject"]]
    ins = originals[m["subject"]]["inputs"]
    work = make_workdir(subject, "label-" + m["id"].replace("#", "_"), m, [tuple(i) for i in ins] if isinstance(subject, Module) else None)
    if isinstance(subject, Module):
        rep = oracle.run(subject, work, [tuple(i) for i in ins], timeout=120)
        return rep.get("results") or [{"status": "crash", "message": rep.get("crash")}] * len(ins)
    device = "meta" if m["op"] == "drop_to_device" else None
    out = []
    for i in ins:
        rep = oracle.run(subject, work, subject.variants[i], device=device, timeout=subject.timeout)
        r = rep.get("results") or {"status": "crash", "message": rep.get("crash")}
        if device:
            key = f"{m['subject']}/{i}"
            if key not in _META_ORIG:
                ow = make_workdir(subject, f"label-orig{os.getpid()}-{i}", None)  # one per shard
                _META_ORIG[key] = oracle.run(subject, ow, subject.variants[i], device=device,
                                             timeout=subject.timeout).get("results") or {}
            o = _META_ORIG[key]
            same = o.get("status") == "error" and (o.get("file"), o.get("line")) == (r.get("file"), r.get("line"))
            if _device_error(r) and not same:
                pass
            elif o.get("status") == "ok":
                r = {"status": "ok", "meta": r.get("status")}
            else:  # the emulation could not run the original through: no label
                r = {"status": "crash", "message": "meta run of the original: " + str(o.get("message"))[:100]}
        out.append(r)
    return out


def label(runs: list[dict]) -> dict[str, Any]:
    bad = [r for r in runs if r["status"] == "error"]
    if any(r["status"] in ("timeout", "crash") for r in runs):
        return {"label": "unlabelled", "why": [r["status"] for r in runs]}
    if not bad:
        return {"label": "never"}
    where = Counter((r.get("file"), r.get("line")) for r in bad).most_common(1)[0][0]
    first = next(r for r in bad if (r.get("file"), r.get("line")) == where)
    return {"label": "always" if len(bad) == len(runs) else "some", "file": where[0], "line": where[1],
            "exception": first.get("exception"), "message": (first.get("message") or "")[:160],
            "failing_inputs": [i for i, r in enumerate(runs) if r["status"] == "error"]}


def summary(doc: dict, half: str | None) -> None:
    """Label counts per source and per operator (of one half of split.json, or all), as Markdown tables."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "split.json")) as f:
        sources = set(json.load(f)[half]) if half else None
    kinds = ("always", "some", "never", "unlabelled")
    rows: dict[str, dict[str, Counter]] = {"source": {}, "operator": {}}
    subjects: dict[str, set[str]] = {}
    for m in doc["mutants"]:
        src = SUBJECTS[m["subject"]].source
        if sources is not None and src not in sources:
            continue
        lab = m.get("label", {}).get("label", "no label")
        subjects.setdefault(src, set()).add(m["subject"])
        for by, key in (("source", src), ("operator", m["op"])):
            rows[by].setdefault(key, Counter())[lab] += 1
    for by, table in rows.items():
        extra = " | subjects with mutants" if by == "source" else ""
        print(f"\n| {by}{extra} | mutants | " + " | ".join(kinds) + " |")
        print("|---" * (len(kinds) + 2 + bool(extra)) + "|")
        for key in [*sorted(table), "all"]:
            c = sum(table.values(), Counter()) if key == "all" else table[key]
            n = (f" | {len(subjects[key])}" if key != "all" else f" | {sum(map(len, subjects.values()))}") if extra else ""
            print(f"| {key}{n} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in kinds) + " |")


def main() -> int:
    oracle.fixed_hash_seed()
    ap = argparse.ArgumentParser()
    ap.add_argument("--shard", default="0/1")
    ap.add_argument("--out")
    ap.add_argument("--merge", nargs="*")
    ap.add_argument("--check", action="store_true", help="compare the merged labels with mutants.json")
    ap.add_argument("--missing", action="store_true", help="only the mutants without a label")
    ap.add_argument("--summary", nargs="?", const="", help="label counts per source and operator (of a half)")
    ap.add_argument("--only", default="", help="only the mutants whose id matches this regular expression")
    args = ap.parse_args()
    doc = load_mutants()
    if args.summary is not None:
        summary(doc, args.summary or None)
        return 0
    if args.merge is not None:
        labels: dict[str, dict] = {}
        for p in args.merge:
            with open(p) as f:
                labels.update(json.load(f))
        given = [m for m in doc["mutants"] if m["id"] in labels]
        if args.check:
            diff = [m["id"] for m in given if m.get("label") != labels[m["id"]]]
            print(f"{len(given) - len(diff)}/{len(given)} labels identical; differing: {diff[:20]}")
            return 1 if diff else 0
        for m in given:
            m["label"] = labels[m["id"]]
        with open(os.path.join(CACHE, "originals.json")) as f:
            originals = json.load(f)
        inputs = doc.get("inputs", {})  # the inputs of subjects labelled before stay as they were
        inputs.update({n: originals[n]["inputs"] for n in {m["subject"] for m in given}})
        doc["inputs"] = dict(sorted(inputs.items()))
        missing = [m["id"] for m in doc["mutants"] if "label" not in m]
        if missing:
            print(f"{len(missing)} mutants still without a label: {missing[:10]}")
        save_json(MUTANTS_JSON, doc)
        print(Counter(m["label"]["label"] for m in given))
        return 0
    k, n = map(int, args.shard.split("/"))
    with open(os.path.join(CACHE, "originals.json")) as f:
        originals = json.load(f)
    oracle.warm_up()
    out: dict[str, dict] = {}
    todo = [m for m in doc["mutants"] if (not args.missing or "label" not in m)
            and (not args.only or re.search(args.only, m["id"]))]
    for i, m in enumerate(todo):
        if i % n != k:
            continue
        t0 = time.time()
        out[m["id"]] = label(_runs(m, originals))
        print(f"{m['id']:40} {m['op']:18} {out[m['id']]['label']:10} {time.time() - t0:5.1f}s", flush=True)
        shutil.rmtree(os.path.join(CACHE, "work", m["subject"], "label-" + m["id"].replace("#", "_")), ignore_errors=True)
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
