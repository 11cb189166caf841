#!/usr/bin/env python3
"""Per entry point, cold and warm: every case of the acceptance corpus and every example of the
repository analyzed alone in a fresh `pytea-ci check` subprocess, as a user (or a hook) runs it.

* cold: `pytea-ci check --no-cache --format json --root CASE CASE/main.py` (nothing cached);
* warm: the same with the cache, after one run that fills it: a result-cache hit (the driver
  selects the entry point, hashes its import closure and loads the cached result); this run leaves
  a replay record;
* replayed: the same once more: the record is found and checked (driver/replay.py) and the output
  printed again, without loading the driver (what a re-run on unchanged code costs).

For each: median, p95 and max of the subprocess wall time, the analysis time the run reports
(`summary.seconds`: wall time minus interpreter start-up, imports and output), peak RSS of the
subprocess (its own rusage), and from the JSON report's per-entry stats: paths, solver queries
decided concretely vs sent to z3 (and solver-cache hits), and the z3 share of analysis time (on
warm runs the stats are those recorded when the entry point was analyzed).
The corpus is copied to a temporary folder first, so nothing is written next to it.

    python benchmarks/entry_points.py [--corpus ../shared/acceptance] [--examples examples] [--limit N] [--slowest K]

Targets (issue 8): cold median <= 0.5 s, p95 <= 2 s; warm median <= 50 ms (wall time of the
replayed run; the result-cache hit is shown beside it); peak RSS <= 250 MB. Exits 1 when a target is
missed or a replayed run was not replayed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import (
    CORPUS,
    EXAMPLES,
    cases,
    copy_tree,
    example_entries,
    json_doc,
    median,
    ms,
    pct,
    pytea_cmd,
    run,
    table,
)


@dataclass
class Sample:
    name: str
    wall: float
    analysis: float
    rss: float
    paths: int = 0
    concrete: int = 0
    z3: int = 0
    hits: int = 0
    z3_seconds: float = 0.0
    status: str = ""


def measure(name: str, root: str, entry: str, cached: bool) -> Sample:
    cmd = pytea_cmd() + ["check", "--format", "json", "--root", root, "--fail-on", "never", entry]
    if not cached:
        cmd.insert(len(pytea_cmd()) + 1, "--no-cache")
    r = run(cmd, cwd=root, timeout=120)
    doc = json_doc(r.stdout)
    if r.rc != 0 or not doc:
        return Sample(name, r.wall, 0.0, r.rss_mb, status=f"exit {r.rc}{' (timeout)' if r.timed_out else ''}")
    e = doc["entries"][0]
    s = e["stats"]
    return Sample(name, r.wall, float(doc["summary"]["seconds"]), r.rss_mb, s["paths"], s["concrete_checks"],
                  s["z3_calls"], s["cache_hits"], s["z3_seconds"], e["status"] + (" cached" if e["cached"] else ""))


def _has_record(root: str) -> bool:
    folder = os.path.join(root, ".pytea_cache", "replay")
    return any(f.endswith(".replay") for _, _, files in os.walk(folder) for f in files)


def summarize(label: str, samples: list[Sample]) -> tuple:
    walls = [s.wall for s in samples]
    ana = [s.analysis for s in samples]
    # a warm entry's stats are the ones recorded when it was analyzed: its z3 time is not spent now
    cached = all(s.status.endswith("cached") for s in samples)
    z3_share = "- (cached)" if cached else f"{sum(s.z3_seconds for s in samples) / max(1e-9, sum(ana)):.1%}"
    return (label, len(samples), ms(median(walls)), ms(pct(walls, 95)), ms(max(walls)), ms(median(ana)),
            ms(pct(ana, 95)), f"{max(s.rss for s in samples):.0f} MB", sum(s.paths for s in samples),
            sum(s.concrete for s in samples), sum(s.z3 for s in samples), sum(s.hits for s in samples),
            z3_share)


HEADERS = ("set", "entries", "wall median", "wall p95", "wall max", "analysis median", "analysis p95",
           "peak RSS max", "paths", "concrete checks", "z3 calls", "solver cache hits", "z3 time share")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--examples", default=EXAMPLES)
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (0: all)")
    ap.add_argument("--slowest", type=int, default=8, help="list the K slowest cold entry points")
    ns = ap.parse_args()
    rows = []
    results: dict[str, dict[str, list[Sample]]] = {}
    unreplayed: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="pytea-entries-") as tmp:
        corpus = copy_tree(os.path.abspath(ns.corpus), os.path.join(tmp, "acceptance"))
        examples = copy_tree(os.path.abspath(ns.examples), os.path.join(tmp, "examples"))
        sets = {
            "acceptance": [(os.path.basename(c), c, os.path.join(c, "main.py")) for c in cases(corpus)],
            "examples": [(os.path.relpath(e, examples), os.path.dirname(e), e) for e in example_entries(examples)],
        }
        if ns.limit:
            sets["acceptance"] = sets["acceptance"][: ns.limit]
        for set_name, entries in sets.items():
            cold = [measure(n, root, e, cached=False) for n, root, e in entries]
            for n, root, e in entries:
                measure(n, root, e, cached=True)  # fills the result cache
            warm = [measure(n, root, e, cached=True) for n, root, e in entries]
            replayed = [measure(n, root, e, cached=True) for n, root, e in entries]
            missing = [n for n, root, _ in entries if not _has_record(root)]
            results[set_name] = {"cold": cold, "warm": warm, "replayed": replayed}
            unreplayed[set_name] = missing
            rows.append(summarize(f"{set_name} cold", cold))
            rows.append(summarize(f"{set_name} warm (result cache)", warm))
            rows.append(summarize(f"{set_name} warm (replayed)", replayed))
    print(table(HEADERS, rows))
    acc = results["acceptance"]
    failed = [s for s in acc["cold"] + acc["warm"] if s.status.startswith("exit")]
    slow = sorted(acc["cold"], key=lambda s: -s.wall)[: ns.slowest]
    print("\nslowest cold acceptance entry points:")
    print(table(("case", "wall", "analysis", "RSS", "paths", "concrete", "z3", "z3 s", "status"),
                [(s.name, ms(s.wall), ms(s.analysis), f"{s.rss:.0f} MB", s.paths, s.concrete, s.z3,
                  f"{s.z3_seconds:.3f}", s.status) for s in slow]))
    if failed:
        print("\nfailed runs: " + ", ".join(f"{s.name} ({s.status})" for s in failed))
    cold_w = [s.wall for s in acc["cold"]]
    warm_w = [s.wall for s in acc["warm"]]
    replay_w = [s.wall for s in acc["replayed"]]
    rss = max(s.rss for s in acc["cold"] + acc["warm"] + acc["replayed"])
    missing = [n for names in unreplayed.values() for n in names]
    if missing:
        print("\nno replay record left for: " + ", ".join(missing))
    checks = {"cold median <= 0.5 s": median(cold_w) <= 0.5, "cold p95 <= 2 s": pct(cold_w, 95) <= 2.0,
              "warm median <= 50 ms": median(replay_w) <= 0.050, "peak RSS <= 250 MB": rss <= 250,
              "no failed run": not failed, "every warm run replayable": not missing}
    print(f"\nSUMMARY entry points: acceptance cold median {ms(median(cold_w))} p95 {ms(pct(cold_w, 95))} "
          f"max {ms(max(cold_w))}; warm median {ms(median(replay_w))} replayed, {ms(median(warm_w))} from the "
          f"result cache; peak RSS {rss:.0f} MB; "
          + ", ".join(f"{k}: {'met' if v else 'MISSED'}" for k, v in checks.items()))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
