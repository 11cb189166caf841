"""A project package's import, run once per run (issue 31 item 9): the project's own packages
(`torchrl`, `torchrl.envs` imported from inside the torchrl checkout) are imported by every entry point
and by every module checked alone, and one `__init__` often imports most of the project. Run again per
entry and per file, that was most of a big project's run budget (torchrl: about 10 M of 12 M steps).

`ProjectImports` is one run's store (the driver makes one per process of a run and hands it in through
`Shared.project_imports`; never a process global: a later run may see other files). The first path
that imports a package of the project runs it cold, under an allowance of its own (the path's
step budget, `Budget.steps`, whatever the path had spent: so whether it completes never depends on
which entry came first); what it left is kept (`kept.py`: a private copy of its modules and of the
interpreter's records about them) when it is replayable. Every later import of the same package under
the same key restores a fresh copy, so what an entry changes in a module's state never reaches another
entry. Every path that imports it — the cold one too — is charged the copy (its objects, as a
checkpoint restore is: `snapshot.py`), and the cold steps are the run's shared work, charged to the
run budget once per key (`Shared.shared_imports`, `RunMeter.charge_entry`): so an entry's result never
depends on the order of entries, on `jobs` or on the result cache.

Key: the package, the interpreter's class, the modules loaded before (by name), the options and budgets
import-time code depends on, the installed packages' identity, the path facts set before and whether a
handler catches an import error. A restored import is used only where every module lookup the cold one
made finds the same file from this entry (its search roots may differ), its symbols cannot clash with
the path's, and (when it made decisions) under the same path condition.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics.budgets import STEPS_PER_ENTRY, STEPS_PER_PATH, copy_steps
from pytea_ci.interp.kept import Before, Kept, candidates, resolve, restore, table, with_choices
from pytea_ci.interp.runtime import BudgetExceeded, ModuleVal
from pytea_ci.shapes.dim import WORK

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

MIN_STEPS = 500  # an import cheaper than this is simply run (a copy would cost about as much)
MAX_KEPT = 32  # kept imports per run (each holds a copy of the modules its import added)


@dataclass
class _Entry:
    kept: Kept
    lookups: dict[str, str | None]  # module name -> the file the cold import found for it (None: none)
    digest: str  # the key's short form: what the run budget is charged once for
    inputs: dict[str, str]  # data files of the project it read (path -> hash)
    pkg_used: dict[str, int]  # steps it ran inside installed packages (their per-path budgets)


@dataclass
class ProjectImports:
    """The project packages' imports of one run (see the module docstring)."""

    kept: dict[str, _Entry] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)  # keys whose cold import is not replayable (run cold again)
    recording: list[dict[str, str | None]] = field(default_factory=list)  # lookups of the cold imports running
    stats: dict[str, int] = field(default_factory=lambda: {"kept": 0, "reused": 0})

    def applies(self, interp: "Interpreter", path: str) -> bool:
        """A package of the project (its `__init__`; a subpackage after its parents, which come first: the
        top-level `__init__` of torchrl is cheap, `torchrl.envs` imports most of it), imported from the
        program's own top level (no import, call, loop or generator running: what those change would not
        be in the key)."""
        return (path.endswith("__init__.py") and interp.importing == 0 and not interp.frames
                and not interp.pkg.stack and not interp.loop_mutations and not interp.yields and not interp.gen_reps
                and interp.rep_depth == 0 and not interp.cm_hooks)

    def looked_up(self, dotted: str, found: str | None) -> None:
        for rec in self.recording:
            rec.setdefault(dotted, found)

    def load(self, interp: "Interpreter", dotted: str, run: Callable[[], Any]) -> Any:
        """Import `dotted` (`run()` runs it cold): from a kept copy when one fits this path."""
        key = _key(interp, dotted)
        interp.work_seen = WORK[0]  # an import starts on a whole step, so a restored one ends as the cold one
        for k in candidates(interp, key):
            entry = self.kept.get(k)
            if entry is not None:
                if self._fits(interp, entry):
                    seeds = resolve(interp, table(entry.kept.refs))
                    if seeds is not None:
                        return self._restore(interp, entry, seeds)
                break
        if key in self.failed:
            return run()  # not replayable: run as any import, within the path's own budgets
        return self._cold(interp, key, run)

    def _cold(self, interp: "Interpreter", key: str, run: Callable[[], Any]) -> Any:
        """Run the import under its own allowance; keep it when it is replayable. One that is not ends the path
        where its budgets would have (`_within`), as it ends on every later path (which runs it without one)."""
        s0, c0, config, sh = interp.steps, interp.charged, interp.config, interp.shared
        # its own allowance, whatever the path spent before: whether it completes is the same from any entry
        budget = dataclasses.replace(config.budget, steps=s0 + config.budget.steps,
                                     entry_steps=sh.pot(interp.command) + s0 + config.budget.steps)
        before = Before(interp)
        inputs, pkg_used = dict(sh.inputs), dict(interp.pkg.used)
        lookups: dict[str, str | None] = {}
        interp.config = dataclasses.replace(config, budget=budget)
        self.recording.append(lookups)
        try:
            out = run()
        finally:
            interp.config = config
            self.recording.pop()
        ran = interp.steps - s0
        if not (isinstance(out, ModuleVal) and ran >= MIN_STEPS and before.replayable(interp)
                and len(self.kept) < MAX_KEPT):
            self.failed.add(key)
            _within(interp)
            return out
        kept = before.keep(interp, out)
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        entry = _Entry(kept, lookups, digest, {k: v for k, v in sh.inputs.items() if k not in inputs},
                       {k: v - pkg_used.get(k, 0) for k, v in interp.pkg.used.items() if v != pkg_used.get(k, 0)})
        self.kept[with_choices(key, kept.decided.choices if kept.decided is not None else ())] = entry
        self.stats["kept"] += 1
        copied = _charge(kept)  # this path goes on with the original, charged as a restore
        interp.steps, interp.charged = s0 + copied, c0 + copied
        sh.shared_imports[digest] = ran
        return out

    def _fits(self, interp: "Interpreter", entry: _Entry) -> bool:
        kept = entry.kept
        if kept.decided is not None and kept.decided.pc_before != [repr(c) for c in interp.pc]:
            return False  # its decisions were made under another path condition
        if interp.sym_count > kept.sym_start or interp.sym_names.intersection(kept.sym_names):
            return False
        if kept.result is None or any(n in interp.modules for n in kept.modules):
            return False
        return all(interp.find_module_file(dotted) == found for dotted, found in entry.lookups.items())

    def _restore(self, interp: "Interpreter", entry: _Entry, seeds: list[Any]) -> Any:
        kept = entry.kept
        out, _ = restore(interp, kept, {id(r[2]): s for r, s in zip(kept.refs, seeds)})
        interp.charge_work(_charge(kept))
        sh = interp.shared
        sh.inputs.update(entry.inputs)
        for k, v in entry.pkg_used.items():
            interp.pkg.used[k] = interp.pkg.used.get(k, 0) + v
        sh.shared_imports[entry.digest] = kept.steps
        self.stats["reused"] += 1
        return out


def _within(interp: "Interpreter") -> None:
    """End the path by the budget the allowance let the import pass (charged up to that budget only)."""
    b, pot = interp.config.budget, interp.shared.pot(interp.command)
    limit = min(b.steps, b.entry_steps - pot)
    if interp.steps > limit:
        interp.steps = limit + 1
        raise BudgetExceeded(STEPS_PER_PATH if b.steps <= b.entry_steps - pot else STEPS_PER_ENTRY, interp.span)


def _charge(kept: Kept) -> int:
    """What a path that imports a kept package is charged: the copy (its objects), never more than the
    cold import ran."""
    return min(kept.steps, copy_steps(kept.objects))


def _key(interp: "Interpreter", dotted: str) -> str:
    b = interp.config.budget
    installed = interp.shared.installed
    doc = [dotted, type(interp).__qualname__, sorted(n for n, m in interp.modules.items() if isinstance(m, ModuleVal)),
           [b.recursion, b.unroll, b.build_unroll, b.loop_iterations],
           installed.identity() if installed is not None else None,
           sorted((repr(k), v if isinstance(v, (bool, int, str, type(None))) else type(v).__name__)
                  for k, v in interp.facts.items()), interp.catching_import > 0, interp.expecting > 0,
           json.dumps(interp.config.options, sort_keys=True, default=repr)]
    return json.dumps(doc, sort_keys=True, default=repr)
