#!/usr/bin/env python3
"""Library mode's target selection on a whole project: the CPU seconds `library.targets` takes to find
every nn.Module class of a folder and build its constructions and callers (before any module is
analyzed), and a digest of what it found, so that a change to its speed can be shown to change nothing.

    python benchmarks/library_targets.py FOLDER

Measured on timm 1.0.31 (the sweep's cache): see RESULTS.md, "Stop 31, the lead".
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

from pytea_ci.driver.discover import python_files
from pytea_ci.library import targets as lib


def main(root: str) -> None:
    files = python_files(root, root, [])
    t = time.process_time()
    found = lib.targets(files, files, root, None)
    cpu = time.process_time() - t
    what = [(x.path, x.cls, x.construct, x.label, [c.shapes for c in x.callers]) for x in found.targets]
    digest = hashlib.sha256(json.dumps(what, default=str).encode()).hexdigest()[:16]
    print(f"{len(files)} files, {len(found.targets)} targets, {len(found.skipped)} skipped, "
          f"{cpu:.1f} s of CPU, digest {digest}")


if __name__ == "__main__":
    main(sys.argv[1])
