"""Run every subject's original under torch once: the plausible inputs (those the original
accepts), the executed lines of its mutable files (where mutants may go), and the nn.Module
classes of the source its run constructs. Writes `$PYTEA_MUTANTS_CACHE/originals.json`.

    python benchmarks/mutants/originals.py [SUBJECT ...]
"""
from __future__ import annotations

import json
import os
import sys
import time

from common import CACHE, SUBJECTS, Module, inputs, make_workdir, subject_files
import oracle

def run_original(name: str) -> dict:
    subject = SUBJECTS[name]
    files = set(subject_files(subject))
    t0 = time.time()
    if isinstance(subject, Module):
        ins = inputs(subject)
        work = make_workdir(subject, "orig", None, ins)
        rep = oracle.run(subject, work, ins, trace=files, timeout=120)
        res = rep.get("results") or []
        ok = [list(i) for i, r in zip(ins, res) if r["status"] == "ok"]
        out = {"inputs": ok, "rejected": [[list(i), r] for i, r in zip(ins, res) if r["status"] != "ok"],
               "lines": rep.get("lines", {}), "crash": rep.get("crash")}
    else:
        work = make_workdir(subject, "orig", None)
        lines: dict[str, set[int]] = {}
        ok, rejected = [], []
        for i, v in enumerate(subject.variants):
            rep = oracle.run(subject, work, v, trace=files, timeout=subject.timeout * 2)
            r = rep.get("results")
            if r and r["status"] == "ok":
                ok.append(i)
                for f, ls in rep["lines"].items():
                    lines.setdefault(f, set()).update(ls)
            else:
                rejected.append([i, r or rep.get("crash")])
        out = {"inputs": ok, "rejected": rejected, "lines": {f: sorted(v) for f, v in lines.items()}}
    out["seconds"] = round(time.time() - t0, 1)
    return out


def main(argv: list[str]) -> int:
    oracle.fixed_hash_seed()
    oracle.warm_up()
    path = os.path.join(CACHE, "originals.json")
    doc = {}
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    for name in argv or list(SUBJECTS):
        doc[name] = run_original(name)
        d = doc[name]
        print(f"{name:34} ok={len(d['inputs'])} rejected={len(d['rejected'])} lines="
              f"{sum(len(v) for v in d['lines'].values())} {d['seconds']}s "
              f"{(str(d['rejected'][0][1])[:150] if d['rejected'] else '')} {d.get('crash') or ''}", flush=True)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
