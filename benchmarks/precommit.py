#!/usr/bin/env python3
"""A pre-commit-shaped run: a git project of 30 entry points (30 acceptance cases, each in its own
folder, with their helper modules), the cache warm from a full run, then one staged change to one
file and the hook's command, end to end in a subprocess:

* `pytea-ci check --staged` (the affected entry points of the staged change);
* `pytea-ci check FILE` (what pre-commit runs: the staged file names as arguments);

for a change to an entry point (`main.py`) and to a helper module imported by one entry point.
Each timed run follows a fresh edit (a new comment line, staged with `git add`), so each one
re-analyzes exactly what a real commit would. Median and max of `--runs` edits per scenario.

    python benchmarks/precommit.py [--corpus ../shared/acceptance] [--entries 30] [--runs 7]

Target (issue 8): <= 1 s end to end. Exits 1 when the median of a scenario misses it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import CORPUS, cases, median, ms, pytea_cmd, run, table

CONFIG = '[tool.pytea-ci]\nentry-points = ["*/main.py"]\n'


def git(project: str, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True, env=env)


def make_project(corpus: str, dest: str, n: int) -> list[str]:
    """`n` cases (spread over the corpus, `_ok` ones first so most entry points are clean) as folders."""
    import shutil

    all_cases = cases(corpus)
    ok = [c for c in all_cases if c.endswith("_ok")]
    rest = [c for c in all_cases if not c.endswith("_ok")]
    step = max(1, len(rest) // max(1, n - len(ok)))
    chosen = (ok + rest[::step])[:n]
    os.makedirs(dest)
    for c in chosen:
        shutil.copytree(c, os.path.join(dest, os.path.basename(c)), ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(dest, "pyproject.toml"), "w") as f:
        f.write(CONFIG)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "initial")
    return sorted(os.path.join(dest, os.path.basename(c)) for c in chosen)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--entries", type=int, default=30)
    ap.add_argument("--runs", type=int, default=7)
    ns = ap.parse_args()
    exe = pytea_cmd()
    rows = []
    medians = {}
    with tempfile.TemporaryDirectory(prefix="pytea-precommit-") as tmp:
        project = os.path.join(tmp, "project")
        folders = make_project(os.path.abspath(ns.corpus), project, ns.entries)
        full = run(exe + ["check", "--fail-on", "never"], cwd=project)  # warms the cache (every entry point)
        if full.rc != 0:
            print(full.stdout, full.stderr, file=sys.stderr)
            return 2
        warm_all = run(exe + ["check", "--fail-on", "never"], cwd=project)
        rows.append(("full run, cold (fills the cache)", len(folders), "-", ms(full.wall), ms(full.wall),
                     f"{full.rss_mb:.0f} MB"))
        rows.append(("full run, warm (nothing changed)", len(folders), "-", ms(warm_all.wall), ms(warm_all.wall),
                     f"{warm_all.rss_mb:.0f} MB"))
        helper_case = next(f for f in folders if any(n != "main.py" and n.endswith(".py") for n in os.listdir(f)))
        helper = os.path.join(helper_case, sorted(n for n in os.listdir(helper_case)
                                                  if n != "main.py" and n.endswith(".py"))[0])
        targets = {"main.py": os.path.join(folders[len(folders) // 2], "main.py"), "helper": helper}
        for what, path in targets.items():
            rel = os.path.relpath(path, project)
            for mode in ("--staged", "FILE"):
                walls, rss, out = [], 0.0, ""
                for i in range(ns.runs):
                    with open(path, "a") as f:
                        f.write(f"\n# pre-commit benchmark edit {mode} {i}\n")
                    git(project, "add", rel)
                    args = ["--staged"] if mode == "--staged" else [rel]
                    r = run(exe + ["check", "--fail-on", "never", *args], cwd=project)
                    if r.rc != 0:
                        print(r.stdout, r.stderr, file=sys.stderr)
                        return 2
                    walls.append(r.wall)
                    rss = max(rss, r.rss_mb)
                    out = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
                git(project, "commit", "-q", "-m", f"edits {what} {mode}")  # the next scenario starts clean
                name = f"check {mode} after editing {what} ({rel})"
                medians[name] = median(walls)
                rows.append((name, out.split(":")[0].replace("Analyzed ", ""), len(walls), ms(median(walls)),
                             ms(max(walls)), f"{rss:.0f} MB"))
    print(table(("scenario", "entry points", "runs", "median", "max", "peak RSS"), rows))
    worst = max(medians.values())
    print(f"SUMMARY pre-commit: {ns.entries} entry points, one staged change, warm cache otherwise: "
          f"worst median {ms(worst)} (target <= 1 s): {'met' if worst <= 1.0 else 'MISSED'}")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
