#!/usr/bin/env python3
"""Scaling: how analysis time grows with program size. Generated programs, each analyzed cold
(`pytea-ci check --no-cache --format json`) in a subprocess, median of `--runs`:

* sequential: an `nn.Sequential` of N Linear+ReLU layers, trained for a few steps;
* loop: N layers in an `nn.ModuleList` applied in a `for` loop in `forward`;
* branches: K sequential `if` statements, each on an independent symbolic size (the length of an
  `ImageFolder`, unknown statically), so the paths double with each one (2^K): the path budget
  must bound them, with a PT011 note saying so.

Reported: wall time, analysis time (the entry point's `stats.seconds` in the report: path
exploration only, without interpreter start-up and loading the models), paths, steps, and the
PT011 note when a budget was reached. Linear growth: the analysis time at 100 layers is at most
1.5 x 10 times the time at 10 layers (constant costs only make the ratio smaller); the marginal
cost per layer is printed too.

    python benchmarks/scaling.py [--runs N] [--sizes 1,10,100] [--branches 1,10,20]

Exits 1 when growth is worse than linear, or a branching program exceeds the default time
budget or reaches a budget without its PT011 note.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _bench import json_doc, median, ms, pytea_cmd, run, table

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\nimport torchvision\n\n"
TRAIN = """
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    x = torch.randn(8, 32)
    y = torch.randint(0, 10, (8,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
"""


def sequential(n: int) -> str:
    hidden = "".join("            nn.Linear(64, 64), nn.ReLU(),\n" for _ in range(n - 1))
    return HEAD + f"""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(32, 64), nn.ReLU(),
{hidden}            nn.Linear(64, 10),
        )

    def forward(self, x):
        return self.layers(x)
""" + TRAIN


def loop(n: int) -> str:
    return HEAD + f"""
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(32, 64)
        self.blocks = nn.ModuleList([nn.Linear(64, 64) for _ in range({n})])
        self.out = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.inp(x))
        for block in self.blocks:
            x = F.relu(block(x)) + x
        return self.out(x)
""" + TRAIN


def branches(k: int) -> str:
    body = "x = torch.zeros(4, 8)\n"
    for i in range(k):
        body += (f"n{i} = len(torchvision.datasets.ImageFolder('data/class{i}'))\n"
                 f"if n{i} > {100 + i}:\n    x = x + 1\nelse:\n    x = x * 2\n")
    return HEAD + body + "y = x @ torch.ones(8, 3)\nprint(y.shape)\n"


def measure(folder: str, name: str, source: str, runs: int) -> dict:
    path = os.path.join(folder, f"{name}.py")
    with open(path, "w") as f:
        f.write(source)
    walls, analysis, doc = [], [], {}
    for i in range(runs + 1):
        r = run(pytea_cmd() + ["check", "--no-cache", "--format", "json", "--fail-on", "never", "--root", folder,
                               path], cwd=folder, timeout=300)
        doc = json_doc(r.stdout)
        if r.rc != 0 or not doc:
            raise SystemExit(f"{name}: exit {r.rc}\n{r.stderr}")
        if i == 0:
            continue  # warms the OS file cache
        walls.append(r.wall)
        analysis.append(float(doc["entries"][0]["stats"]["seconds"]))
    stats = doc["entries"][0]["stats"]
    notes = [d["message"] for d in doc["diagnostics"] if d["rule"] == "PT011"]
    errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
    return {"wall": median(walls), "analysis": median(analysis), "paths": stats["paths"], "steps": stats["steps"],
            "note": notes[0] if notes else "", "errors": len(errors), "lines": source.count("\n")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="1,10,100")
    ap.add_argument("--branches", default="1,10,20")
    ns = ap.parse_args()
    sizes = [int(x) for x in ns.sizes.split(",")]
    ks = [int(x) for x in ns.branches.split(",")]
    rows = []
    results: dict[str, dict[int, dict]] = {"sequential": {}, "loop": {}, "branches": {}}
    with tempfile.TemporaryDirectory(prefix="pytea-scaling-") as tmp:
        for kind, gen, values in (("sequential", sequential, sizes), ("loop", loop, sizes),
                                  ("branches", branches, ks)):
            for n in values:
                m = measure(tmp, f"{kind}_{n}", gen(n), ns.runs)
                results[kind][n] = m
                rows.append((kind, n, m["lines"], ms(m["wall"]), ms(m["analysis"]), m["paths"], m["steps"],
                             m["errors"], m["note"][:90] or "-"))
    print(table(("program", "N", "lines", "wall", "analysis", "paths", "steps", "errors", "PT011 note"), rows))
    verdicts = []
    ok = True
    for kind in ("sequential", "loop"):
        r = results[kind]
        if len(sizes) >= 3:
            a, b, c = sizes[:3]
            small = (r[b]["analysis"] - r[a]["analysis"]) / max(1, b - a)
            large = (r[c]["analysis"] - r[b]["analysis"]) / max(1, c - b)
            ratio = r[c]["analysis"] / max(1e-6, r[b]["analysis"])
            linear = ratio <= 1.5 * c / b
            ok &= linear
            verdicts.append(f"{kind}: x{ratio:.1f} time for x{c // b} layers ({small * 1000:.2f} ms/layer {a}->{b}, "
                            f"{large * 1000:.2f} ms/layer {b}->{c}) {'linear' if linear else 'SUPERLINEAR'}")
    r = results["branches"]
    worst = max(r.values(), key=lambda m: m["analysis"])
    bounded = [k for k, m in r.items() if m["note"]]
    honest = all(m["note"] for k, m in r.items() if m["paths"] < 2 ** k)
    within = worst["wall"] <= 20.0  # the default time budget per entry point
    ok &= honest and within
    verdicts.append(f"branches: worst {ms(worst['wall'])} wall, bounded with PT011 at K={bounded or 'none'}, "
                    f"{'honest' if honest else 'SILENTLY BOUNDED'}, {'within' if within else 'OVER'} budget")
    print("SUMMARY scaling: " + "; ".join(verdicts))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
