"""Library mode's results as `ModuleShapes`: the findings, the input contract with its smallest
example (a z3 model), the output shape and the per-layer table, for one module.
The accepted rank combination shown is `verdict.prefer`'s.
"""

from __future__ import annotations

import dataclasses
import os
import re
from typing import Any

from pytea_ci.diagnostics import Diagnostic, Severity, Span
from pytea_ci.diagnostics.modshapes import InputShape, Layer, ModuleShapes
from pytea_ci.diagnostics.result import EntryStats
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.library import protocol
from pytea_ci.library.interpreter import PathOutcome
from pytea_ci.library.inputs import LibraryTarget, is_own, shape_text

from pytea_ci.library.verdict import ComboResult, LibraryRun, prefer, run_module, verdict
from pytea_ci.shapes.dim import Dim, Lin, Op, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred
from pytea_ci.shapes.tensor import Tensor, fmt_shape
from pytea_ci.solver import Decider
from pytea_ci.interp.installed import Installed
from pytea_ci.interp.project_imports import ProjectImports
from pytea_ci.interp.observe import NO_EDITOR, Editor


def analyze_module(target: LibraryTarget, root: str, decider: Decider, seconds: float = 5.0,
                   display_root: str | None = None, strict: bool = False) -> ModuleShapes:
    """Check one module in library mode: its findings and what `pytea-ci shapes` shows."""
    return module_result(target, root, decider, seconds, display_root, strict)[0]


def module_result(target: LibraryTarget, root: str, decider: Decider, seconds: float = 5.0,
                  display_root: str | None = None, strict: bool = False,
                  editor: Editor = NO_EDITOR, installed: Installed | None = None,
                  deadline: float | None = None, steps: int | None = None,
                  imports: ProjectImports | None = None) -> tuple[ModuleShapes, EntryStats]:
    """`analyze_module`, with the coverage of the module's runs (reached/checked ops, paths, unknowns);
    `deadline`: the whole run's wall-clock safety net (monotonic seconds); `steps`: the module's share of
    the run budget, when it is less than `seconds` stand for (`verdict.run_module`)."""
    run = run_module(target, root, decider, seconds, display_root, strict, editor, installed, deadline, steps, imports)
    for other in ([] if run.accepted or run.out_of_budget else other_stage_counts(target)):
        # no way of running the module got to the end of `forward` with the number of sizes per stage guessed: a
        # number that agrees with the other parameters (`len(in_shape) == spatial_dims + 1`) decides whether that
        # is the module's bug or the guess's
        again = run_module(other, root, decider, seconds, display_root, strict, editor, installed, deadline, steps, imports)
        if again.accepted:
            target, run = other, again
            break
    return _shapes(run, target, root, decider, display_root), run.stats


_STAGES = re.compile(re.escape(protocol.STAGES) + r"\(('[^']*'), (\d+)\)")
_OTHER_COUNTS = (1, -1, 2)  # tried after the guessed number of sizes per stage fails (at least one size each)


def other_stage_counts(target: LibraryTarget) -> list[LibraryTarget]:
    """`target` built with other numbers of sizes per stage (`protocol.STAGES`: the guessed one plus one, minus
    one, plus two), when it is built with any."""
    found = _STAGES.findall(target.construct)
    if not found:
        return []
    n = int(found[0][1])
    return [dataclasses.replace(target, construct=_STAGES.sub(rf"{protocol.STAGES}(\1, {n + d})", target.construct))
            for d in _OTHER_COUNTS if n + d >= 1]


def _shapes(run: LibraryRun, target: LibraryTarget, root: str, decider: Decider,
            display_root: str | None) -> ModuleShapes:
    rel = os.path.relpath(target.path, display_root or root)
    shapes = ModuleShapes(f"{rel}::{target.cls}", rel, target.line, target.label, "skipped")
    shapes.diagnostics = verdict(run, rel, lambda combo: _inputs_text(target, combo))
    chosen = prefer(run.accepted) if run.accepted else None
    if chosen is None:
        shapes.status = "incomplete" if run.out_of_budget else "rejected" if run.combos else "skipped"
        return shapes
    _fill(shapes, _best_path(chosen), decider, [s.name for s in target.inputs])
    return shapes


def _inputs_text(target: LibraryTarget, combo: ComboResult) -> str:
    specs = target.inputs + ((combo.given,) if combo.given is not None else ())
    return ", ".join(f"{s.name}: {shape_text(s, r)}" for s, r in zip(specs, combo.ranks)) or "(no input)"


def _best_path(combo: ComboResult) -> PathOutcome:
    return next((p for p in combo.completed if isinstance(p.output, Tensor) and p.output.shape is not None),
                combo.completed[0])


def _fill(shapes: ModuleShapes, path: PathOutcome, decider: Decider, names: list[str]) -> None:
    from pytea_ci.solver.example import smallest

    contract: list[Cond] = [c for c in path.pc if isinstance(c, Pred) and all(is_own(s) for s in symbols(c))]
    shown = [t for t in path.inputs + [path.output] if isinstance(t, Tensor) and t.shape]  # constructor
    wanted = sorted({s for t in shown for d in t.shape or () for s in symbols(d) if is_own(s)}  # ints too
                    | {s for c in contract for s in symbols(c)}, key=lambda s: s.name)
    model = smallest(contract, wanted, decider.rlimit) or {}
    shapes.symbols = {k: v for k, v in sorted(model.items()) if any(s.name == k for s in wanted)}
    shapes.contract = [repr(c) for c in contract]
    shapes.inputs = [_input(name, v, model) for name, v in zip(names, path.inputs)]
    shapes.output, shapes.output_example = _value_text(path.output), _example(path.output, model)
    shapes.layers = [_layer(row, out, ins, model) for _, row, out, ins in path.layers]
    total = path.params
    shapes.params = repr(total) if total is not None else ""
    determined = (isinstance(path.output, Tensor) and path.output.shape is not None and bool(model)
                  and shapes.output_example is not None)
    shapes.status = "determined" if determined else "partial"


def _input(name: str, v: Any, model: dict[str, int]) -> InputShape:
    if isinstance(v, Tensor) and v.shape is not None:
        return InputShape(name, [repr(d) for d in v.shape], _example(v, model))
    return InputShape(name, None)


def _value_text(v: Any) -> str:
    if isinstance(v, Tensor):
        return fmt_shape(v.shape)
    if isinstance(v, (tuple, list)) and v and all(isinstance(x, Tensor) for x in v):
        return "(" + ", ".join(fmt_shape(x.shape) for x in v) + ")"
    return "unknown"


def _example(v: Any, model: dict[str, int]) -> list[int] | None:
    if not isinstance(v, Tensor) or v.shape is None:
        return None
    vals = [evaluate(d, model) for d in v.shape]
    return None if any(x is None for x in vals) else [int(x) for x in vals if x is not None]


def _layer(row: Layer, out: Any, ins: list[Any], model: dict[str, int]) -> Layer:
    row.inputs_example = [_example(t, model) for t in ins]
    row.output_example = _example(out, model)
    return row


def evaluate(d: Dim, values: dict[str, int], memo: dict[int, int | None] | None = None) -> int | None:
    """The value of a dim under an assignment of its symbols (None when one is missing). Sub-terms are
    shared (a network's blocks nest the sizes of the one before, `dim.py` `_cached`): `memo` (by
    identity, the terms all live as long as `d`) values each once, not once per path through the
    sharing, which never ended for imagen-pytorch's SRUnet256."""
    if isinstance(d, int):
        return d
    if isinstance(d, Sym):
        return values.get(d.name)
    memo = {} if memo is None else memo
    if id(d) not in memo:
        memo[id(d)] = _evaluate_term(d, values, memo)
    return memo[id(d)]


def _evaluate_term(d: Dim, values: dict[str, int], memo: dict[int, int | None]) -> int | None:
    if isinstance(d, Lin):
        parts = [evaluate(a, values, memo) for a, _ in d.terms]
        if any(p is None for p in parts):
            return None
        return d.const + sum(c * p for (_, c), p in zip(d.terms, parts) if p is not None)
    if isinstance(d, Op):
        return _op(d.op, [evaluate(a, values, memo) for a in d.args])
    return None


def _op(op: str, args: list[int | None]) -> int | None:
    if any(a is None for a in args):
        return None
    vals = [a for a in args if a is not None]
    if op == "mul":
        out = 1
        for a in vals:
            out *= a
        return out
    if op in ("floordiv", "mod") and vals[1] == 0:
        return None
    return {"floordiv": lambda: vals[0] // vals[1], "mod": lambda: vals[0] % vals[1],
            "min": lambda: min(vals), "max": lambda: max(vals)}[op]()


def analyze_guarded(target: LibraryTarget, root: str, decider: Decider, seconds: float,
                    strict: bool = False, editor: Editor = NO_EDITOR,
                    installed: Installed | None = None, deadline: float | None = None,
                    steps: int | None = None, imports: ProjectImports | None = None) -> tuple[ModuleShapes, EntryStats]:
    """`module_result`, with an analyzer bug turned into a PT011 note on the module (never a crash);
    `editor`: the language server's buffers, shape recorder and cancel test (interp/observe.py)."""
    try:
        return module_result(target, root, decider, seconds, root, strict, editor, installed, deadline, steps, imports)
    except Exception as e:  # an analyzer bug: report it for this module, keep going
        if strict:
            raise
        rel = os.path.relpath(target.path, root)
        text = f"library mode failed on {target.cls}: internal error: {type(e).__name__}: {e}"
        shapes = ModuleShapes(f"{rel}::{target.cls}", rel, target.line, target.label, "internal-error")
        shapes.diagnostics = [Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, target.line, 0), text, entry=rel)]
        return shapes, EntryStats()


def holds(cond: Cond, values: dict[str, int]) -> bool | None:
    """Whether a condition holds under an assignment of its symbols (None when one is missing)."""
    if isinstance(cond, bool):
        return cond
    if cond.op in ("and", "or", "not"):
        parts = [holds(a, values) for a in cond.args if isinstance(a, (bool, Pred))]
        if any(p is None for p in parts):
            return None
        return {"and": all, "or": any}[cond.op](parts) if cond.op != "not" else not parts[0]
    a, b = (evaluate(x, values) for x in cond.args if not isinstance(x, Pred))
    if a is None or b is None:
        return None
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b}[cond.op]
