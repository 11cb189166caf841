"""Pay once (issue 21, item 2): what the import of an installed package leaves, kept in the process
(and, through `disk.py`, in the cache folder: a kept import not in the process is looked for there).
What is kept and how it is restored is `interp/kept.py` (shared with the project's own packages,
`interp/project_imports.py`); this module keys it by the site and charges it as the cold import.

See `site.py` for the budgets. An import entering a package from outside it is kept when
its side effects are replayable: no finding, no budget note, no path fact changed (new ones are
replayed), and no change to the modules loaded before it (no name bound there, no container bound
there shrunk or changed) but the binding of a new submodule in its package and containers there that
only grew (a registry its classes filled: what was added is added again on restore). An import that
makes decisions (a fork on a fact about the machine, a guess; up to `MAX_CHOICES`) is kept once per
sequence of its choices, under the key with the choices, and restored on a path that would make the
same ones (its replayed choices, then first sides) under the same path condition: the trail, the
path-condition conjuncts, the machine choices and the solver counts are replayed. A kept import is reused when the same modules are
loaded (by name), when everything the copy refers to in them is found at the same place on the path
(module, name), when the path's symbol counter has not passed where the kept one started (its symbols
cannot clash with the path's), and when the steps it ran fit in what is left of the path's, the
entry point's and the package's budgets — as the cold import would have, so a restored import ends
exactly where a cold one would.

Key: the module imported, the site (folders, followed packages with their versions and RECORD
hashes, the package budget), the recursion, unroll and loop budgets (the options import-time code
depends on) and the names of the modules already loaded.

Exactness: an import starts on a whole step (symbolic work not yet charged is dropped), and a restored
one leaves the same work pending as the cold one did, so every later step is charged alike. Attributes
the import set on modeled classes of the registry (transformers: `logging.Logger.warning_once = ...`)
are recorded and set again by a restored import (every model is loaded before a cold import, so a model
loaded during it is not taken for one it changed).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.kept import (Before, Kept, apply, candidates, resolve, restore, table,
                                  with_choices)
from pytea_ci.interp.runtime import ModuleVal
from pytea_ci.models.stdlib import SYS_PATH_CHANGED
from pytea_ci.packages.disk import DiskCache, values
from pytea_ci.packages.site import Site, charged, enter, site_of
from pytea_ci.shapes.dim import WORK

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_MAX_KEPT = 16
_IMPORTS: dict[str, Kept] = {}
_READ: set[str] = set()  # keys whose disk entry a path of this process has taken as it was read
STATS = {"kept": 0, "reused": 0}  # for benchmarks/installed_packages.py


def enter_import(interp: "Interpreter", dotted: str, package: str, run: Callable[[], Any]) -> Any:
    key = _key(interp, dotted)
    disk = _site(interp).disk
    interp.work_seen = WORK[0]  # an import starts on a whole step, so a restored one ends as the cold one
    for k in candidates(interp, key):
        kept = _IMPORTS.get(k)
        if kept is not None:
            if _fits(interp, _figures(kept), package):
                seeds = resolve(interp, table(kept.refs))
                if seeds is not None:
                    return _reused(interp, kept, package, restore(interp, kept, {id(r[2]): s for r, s in zip(kept.refs, seeds)})[0])
            break
        if disk is not None:
            out = _from_disk(interp, disk, k, package)
            if out is not None:
                return out
    before = Before(interp)
    out = enter(interp, package, run, importing=dotted)
    if before.replayable(interp) and isinstance(out, ModuleVal) and len(_IMPORTS) < _MAX_KEPT:
        kept = before.keep(interp, out)
        key = with_choices(key, kept.decided.choices if kept.decided is not None else ())
        _IMPORTS[key] = kept
        STATS["kept"] += 1
        if disk is not None and kept.result is not None:
            _to_disk(interp, disk, key, kept)
    return out


def _site(interp: "Interpreter") -> Site:
    site = site_of(interp)
    assert site is not None  # an import enters a package only when there is a site
    return site


def _figures(kept: Kept) -> dict[str, Any]:
    """What `_fits` checks, as plain data (the disk form keeps it apart from the values)."""
    return {"steps": kept.steps, "sym_start": kept.sym_start, "sym_names": sorted(kept.sym_names),
            "result": kept.result, "modules": sorted(kept.modules),
            "pc_before": kept.decided.pc_before if kept.decided is not None else None}


def _to_disk(interp: "Interpreter", disk: DiskCache, key: str, kept: Kept) -> None:
    meta = {**_figures(kept), "refs": table(kept.refs)}
    disk.save(interp, key, meta, dataclasses.replace(kept, refs=[]), [r[2] for r in kept.refs], kept.files)


def _from_disk(interp: "Interpreter", disk: DiskCache, key: str, package: str) -> Any:
    """Restore the import from its disk form (None: not there, not fitting this path, or unreadable)."""
    stored = disk.load(key, interp.shared.editor)
    if stored is None or not _fits(interp, stored.meta, package):
        return None
    seeds = resolve(interp, stored.meta["refs"])
    if seeds is None:
        return None
    kept = values(stored, interp, seeds)
    if not isinstance(kept, Kept):
        return None
    if key not in _READ:  # the first path of the process takes what was read (most checks have one)
        _READ.add(key)
        interp.keepalive.append(kept)  # what the id-keyed records refer to stays alive
        return _reused(interp, kept, package, apply(interp, kept, kept.modules, kept.callbacks, lambda obj: obj, lambda v: v))
    # another path: kept in the process as if this path had run the import (later paths copy it, which
    # costs less than reading the entry again), and this path gets a copy too
    kept.refs = [(n, k, obj) for (n, k, _), obj in zip(stored.meta["refs"], seeds)]
    if len(_IMPORTS) < _MAX_KEPT:
        _IMPORTS[key] = kept
    return _reused(interp, kept, package, restore(interp, kept, {id(obj): obj for obj in seeds})[0])


def _key(interp: "Interpreter", dotted: str) -> str:
    site = _site(interp)
    loaded = sorted(n for n, m in interp.modules.items() if isinstance(m, ModuleVal))
    doc = [dotted, list(site.folders), sorted(site.follow), sorted(site.skip), site.steps, site.versions,
           interp.config.budget.recursion, interp.config.budget.unroll, interp.config.budget.build_unroll,
           interp.config.budget.loop_iterations, loaded,
           None if site.present is None else sorted(site.present), bool(interp.facts.get(SYS_PATH_CHANGED))]
    return json.dumps(doc, sort_keys=True, default=repr)


def _fits(interp: "Interpreter", kept: dict[str, Any], package: str) -> bool:
    """Whether the kept import can stand for a cold one here: its symbols cannot clash with the path's,
    the steps it ran fit in what is left of every budget, and none of its modules is loaded already."""
    site = _site(interp)
    b = interp.config.budget
    steps = kept["steps"]
    pc_before = kept.get("pc_before")
    if pc_before is not None and pc_before != [repr(c) for c in interp.pc]:
        return False  # its decisions were made under another path condition
    return (interp.sym_count <= kept["sym_start"] and kept["result"] is not None
            and interp.steps + steps <= b.steps
            and interp.shared.pot(interp.command) + interp.steps + steps <= b.entry_steps
            and interp.pkg.used.get(charged(package, "import"), 0) + steps <= site.steps
            and not interp.sym_names.intersection(kept["sym_names"])
            and not any(n in interp.modules for n in kept["modules"]))


def _reused(interp: "Interpreter", kept: Kept, package: str, out: Any) -> Any:
    """Charge the path what the cold import cost (its steps, to the path and to the package's imports)."""
    interp.steps += kept.steps
    key = charged(package, "import")
    interp.pkg.used[key] = interp.pkg.used.get(key, 0) + kept.steps
    STATS["reused"] += 1
    return out
