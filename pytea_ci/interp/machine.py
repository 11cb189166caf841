"""Findings that depend on the machine (DESIGN §3, "The machine is an input").

A path forks on a fact about the machine (`if torch.cuda.is_available():`, `if rank == 0:`) the way
it forks on any undecided condition, and remembers the side it took as a *machine choice*; a later
branch on the same fact is decided by it and runs *inside* that choice. A finding made on a path
with machine choices is held back until every path has run. It is dropped when, for one of its
choices, machines that went the other way avoid it: a path that made the same decisions up to that
choice, then took the other side, did not find it, and either the finding sits inside the choice
(the other side never runs that code) or that path did not stop at a finding of its own (so it went
on past the branch). Otherwise it holds on every machine that gets there and is reported.

A branch whose other side ends the program (`if not torch.cuda.is_available(): sys.exit(...)`) and
an assert on a machine fact are what the program requires: they constrain the path, make no choice,
and take back earlier choices on the facts they mention.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Diagnostic
from pytea_ci.diagnostics.rules import DEVICE_MISMATCH, on_some_machines
from pytea_ci.models.machine import FACT_TEXT
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import MACHINE, symbols

Choice = tuple[str, bool]  # (canonical text of the condition, the side taken)
Made = tuple[int, str, bool, frozenset[str]]  # (position in the path's decisions, text, side, facts)

_EXITS = {"exit", "quit", "_exit", "abort"}


def choice_of(cond: Any, taken: bool) -> Choice:
    """The choice `taken` on `cond`, the same for `c` taken True and `not c` taken False."""
    a, b = repr(cond), repr(P.not_(cond))
    return (a, taken) if a <= b else (b, not taken)


def ends_program(block: list[ast.stmt]) -> bool:
    """A block that always leaves by `raise`, `sys.exit()`, `exit()` or `os._exit()`."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.Raise):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        f = last.value.func
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        return name in _EXITS
    return False


def is_guard(node: ast.AST | None) -> bool:
    """An `if` one side of which ends the program: the other side is what the program requires."""
    return isinstance(node, ast.If) and (ends_program(node.body) or ends_program(node.orelse))


def facts_of(cond: Any) -> frozenset[str]:
    return frozenset(s.name for s in symbols(cond) if s.kind == MACHINE)


@dataclass
class PathMachine:
    """The machine choices of one path, and the ones whose side it is running inside."""

    choices: list[Made] = field(default_factory=list)
    inside: list[frozenset[str]] = field(default_factory=list)  # per enclosing machine side: its choice texts

    def require(self, cond: Any) -> None:
        """The program requires `cond`: earlier choices on its facts are no guess any more."""
        facts = facts_of(cond)
        self.choices = [c for c in self.choices if not (c[3] & facts)]

    def branch(self, cond: Any, taken: bool, node: ast.AST | None, at: int | None) -> frozenset[str]:
        """A branch on a machine fact went `taken` (forked as decision number `at`, or decided: None);
        the choice texts its side runs inside."""
        facts = facts_of(cond)
        if is_guard(node):
            self.require(cond)
            return frozenset()
        if at is not None:
            text, side = choice_of(cond, taken)
            self.choices.append((at, text, side, facts))
            return frozenset({text})
        return frozenset(c[1] for c in self.choices if c[3] & facts)

    def within(self) -> frozenset[str]:
        return frozenset().union(*self.inside)


@dataclass(frozen=True)
class Found:
    """One path's finding: the path, its decisions, its machine choices, the choices it sits inside."""

    path: int
    trail: tuple[bool, ...]
    choices: tuple[Made, ...]
    inside: frozenset[str]


class MachineFindings:
    """Findings of paths with machine choices, resolved once all paths have run."""

    def __init__(self) -> None:
        self.pending: dict[tuple, tuple[Diagnostic, list[Found]]] = {}
        self.paths: list[tuple[int, tuple[bool, ...], bool]] = []  # (path id, decisions, stopped at a finding)
        self.dropped = 0  # findings that hold on some machines only
        self.started = 0

    def new_path(self) -> int:
        self.started += 1
        return self.started

    def add(self, d: Diagnostic, path: int, trail: tuple[bool, ...], m: PathMachine) -> None:
        self.pending.setdefault(d.key(), (d, []))[1].append(Found(path, trail, tuple(m.choices), m.within()))

    def path_done(self, path: int, trail: tuple[bool, ...], at_finding: bool) -> None:
        self.paths.append((path, trail, at_finding))

    def _avoided(self, finders: set[int], f: Found, made: Made) -> bool:
        """Machines that went the other way at `made` avoid the finding. When some of those paths made
        the same decisions after it as the finding's path (its mirrors), only they are evidence: a
        path that avoided it by a later decision of another kind (an input, a value not understood)
        says nothing about the machine."""
        at, text = made[0], made[1]
        others = [(q, trail, stopped) for q, trail, stopped in self.paths
                  if len(trail) > at and trail[:at] == f.trail[:at] and trail[at] != f.trail[at]]
        mirrors = [o for o in others if o[1][at + 1:len(f.trail)] == f.trail[at + 1:]]
        for q, _, stopped in mirrors or others:
            if q in finders:
                continue
            if text in f.inside or not stopped:
                return True
        return False

    def resolve(self, findings: dict[tuple, Diagnostic]) -> None:
        """Move the findings that hold whichever way the machine went into `findings`. A device
        mismatch (PT007) that only some machines meet is still reported, as a warning that says on
        which machines (DESIGN §3 "dtype and device")."""
        for key, (d, found) in self.pending.items():
            finders = {f.path for f in found}
            if key not in findings and any(not any(self._avoided(finders, f, c) for c in f.choices) for f in found):
                findings[key] = d
            elif key not in findings and d.rule in _ON_SOME_MACHINES and _possible(d, found[0]):
                findings[key] = _on_some_machines(d, found[0])
            elif key not in findings:
                self.dropped += 1
        self.pending.clear()


_ON_SOME_MACHINES = (DEVICE_MISMATCH.id,)


def _possible(d: Diagnostic, f: Found) -> bool:
    """A mismatch with a CUDA tensor on a path where CUDA is not available never happens: moving the
    tensor there raised first (a bare `.cuda()` is not a finding)."""
    no_cuda = any(facts == {"cuda_available"} and (text == "cuda_available != 0") != side
                  for _, text, side, facts in f.choices)
    return not (no_cuda and "cuda" in d.message)


def _on_some_machines(d: Diagnostic, f: Found) -> Diagnostic:
    """`d` as a warning that names the machine choices of the path that found it."""
    from dataclasses import replace

    from pytea_ci.diagnostics import Severity

    conds = []
    for _, text, side, facts in f.choices:
        named = [FACT_TEXT.get(x, x) for x in sorted(facts)]
        if len(named) == 1 and text in (f"{next(iter(facts))} != 0", f"{next(iter(facts))} == 0"):
            holds = side == text.endswith("!= 0")
            conds.append(named[0] if holds else f"not {named[0]}")
        else:
            conds.append(f"{text} is {side}")
    when = " and ".join(dict.fromkeys(conds)) or "on some machines"
    return replace(d, severity=Severity.WARNING, message=on_some_machines(d.message, when))
