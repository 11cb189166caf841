"""Findings that depend on the machine (DESIGN §3, "The machine is an input").

A path forks on a fact about the machine (`if torch.cuda.is_available():`, `if rank == 0:`) the way
it forks on any undecided condition, and remembers the side it took as a *machine choice*; a later
branch on the same fact is decided by it and runs *inside* that choice. A finding made on a path
with machine choices is held back until every path has run. It is dropped when, for one of its
choices, machines that went the other way avoid it: a path that made the same decisions up to that
choice, then took the other side, did not find it, and either the finding sits inside the choice
(the other side never runs that code) or that path did not stop at a finding of its own (so it went
on past the branch). Otherwise it holds on every machine that gets there and is reported.

The same holds for every other choice the analyzer could not make (issue 31): a branch, `in`, `==`,
truthiness, `is None` or `isinstance` on a value it does not understand (the result of code not
followed, a config not read, an unmodeled attribute, a comparison it cannot decide) is a *guess*,
remembered like a machine choice. A finding that a guess's other side avoids is not an error: it is
a PT002 warning that names the guess and where its value came from, or nothing at all when the guess
is only whether such a value is None or of some type (a library not followed returns what its caller
expects), or when the finding is a failing assert (the program itself says that side never happens).
A failing assert on a path with guesses is an error only when the other side of each of them has a
path that failed it too, itself proven past that guess: a guess whose other side was never followed
to an end proves nothing there (a loop that reads a value not understood until it runs out, cut by
a budget, is not the program's assert failing). A shape finding whose guesses' other sides budgets
cut stays an error (the guesses of a library's import and forward seldom touch the user's sizes).

A branch whose other side ends the program (`if not torch.cuda.is_available(): sys.exit(...)`) and
an assert on a machine fact are what the program requires: they constrain the path, make no choice,
and take back earlier choices on the facts they mention.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics import Diagnostic
from pytea_ci.diagnostics.rules import ASSERT_FAILS, DEVICE_MISMATCH, POSSIBLE_SHAPE_MISMATCH, on_a_choice, on_some_machines
from pytea_ci.diagnostics.diagnostic import Span
from pytea_ci.interp.coverage import opaque_origin, origin_of_value
from pytea_ci.models.machine import FACT_TEXT
from pytea_ci.models.values import Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import MACHINE, symbols

Choice = tuple[str, bool]  # (canonical text of the condition, the side taken)
Made = tuple[int, str, bool, frozenset[str]]  # (position in the path's decisions, text, side, facts)

_EXITS = {"exit", "quit", "_exit", "abort"}
GUESS = "?"  # the facts of a guess: a choice on a value not understood (no machine fact)
KIND_GUESS = "?kind"  # ... that is only whether the value is None or of some type


def choice_of(cond: Any, taken: bool) -> Choice:
    """The choice `taken` on `cond`, the same for `c` taken True and `not c` taken False."""
    a, b = repr(cond), repr(P.not_(cond))
    return (a, taken) if a <= b else (b, not taken)


def ends_program(block: list[ast.stmt]) -> bool:
    """A block that always leaves by `raise`, `sys.exit()`, `exit()` or `os._exit()`: also by an
    `if`/`elif`/`else` every side of which does (peft's "no module matched" guard raises one of three
    messages)."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.Raise):
        return True
    if isinstance(last, ast.If):
        return ends_program(last.body) and ends_program(last.orelse)
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        f = last.value.func
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        return name in _EXITS
    return False


def is_guard(node: ast.AST | None) -> bool:
    """An `if` one side of which ends the program: the other side is what the program requires."""
    return isinstance(node, ast.If) and (ends_program(node.body) or ends_program(node.orelse))


def side_going_on(node: ast.AST | None) -> bool | None:
    """The side of an `if` that goes on when exactly one of its sides ends the program (None: neither
    or both do, or not an `if`)."""
    if not isinstance(node, ast.If):
        return None
    body, other = ends_program(node.body), ends_program(node.orelse)
    return None if body == other else not body


def guess_text(cond: Any, node: ast.AST | None, span: Span) -> tuple[str, bool] | None:
    """How a guess on `cond` (the test of `node`, at `span`) is named in a finding, with `{side}` for
    the side taken; and whether it is only whether a value not understood is None or of some type.
    None when the value is the command line's (`sys.argv`): the user chooses it, each side is a run."""
    test = node if isinstance(node, ast.expr) else getattr(node, "test", None) or getattr(node, "pattern", None)
    code = ast.unparse(test) if isinstance(test, ast.expr) else f"case {ast.unparse(test)}" if test else ""
    what = f"`{code}`" if code and len(code) <= 60 else "the condition"
    line = test.lineno if isinstance(test, (ast.expr, ast.pattern)) else span.line
    origin = origin_of_value(cond, span) if isinstance(cond, Unknown) else opaque_origin(cond, span)
    if origin is not None and origin.what.startswith("sys.argv"):
        return None
    src = f", which depends on {origin.what} at {origin.span.path}:{origin.span.line}" if origin else ""
    kind_only = isinstance(cond, Unknown) and cond.reason in _KIND_TESTS
    return f"{what} is {{side}} at {span.path}:{line}{src}", kind_only


_KIND_TESTS = ("identity of unknown", "isinstance")


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

    def guess(self, at: int, text: str, taken: bool, kind_only: bool, node: ast.AST | None) -> frozenset[str]:
        """A fork (decision number `at`) on a value not understood went `taken`; the choice its side
        runs inside."""
        if is_guard(node):  # the other side ends the program: no path goes on from there
            return frozenset()
        self.choices.append((at, text, taken, frozenset({KIND_GUESS if kind_only else GUESS})))
        return frozenset({text})

    def within(self) -> frozenset[str]:
        return frozenset().union(*self.inside)


@dataclass(frozen=True)
class Found:
    """One path's finding: the path, its decisions, its machine choices, the choices it sits inside."""

    path: int
    trail: tuple[bool, ...]
    choices: tuple[Made, ...]
    inside: frozenset[str]
    site: Span  # where the check that failed ran


@dataclass(frozen=True)
class Ran:
    """One finished path: its decisions, whether it stopped at a finding, the checks it passed, whether
    the program ran to its end, whether a budget cut it short."""

    path: int
    trail: tuple[bool, ...]
    stopped: bool
    passed: frozenset[Span]
    completed: bool
    cut: bool = False


class MachineFindings:
    """Findings of paths with machine choices, resolved once all paths have run."""

    def __init__(self) -> None:
        self.pending: dict[tuple, tuple[Diagnostic, list[Found]]] = {}
        self.paths: list[Ran] = []
        self.dropped = 0  # findings that hold on some machines only
        self.started = 0

    def new_path(self) -> int:
        self.started += 1
        return self.started

    def add(self, d: Diagnostic, path: int, trail: tuple[bool, ...], m: PathMachine, site: Span) -> None:
        self.pending.setdefault(d.key(), (d, []))[1].append(Found(path, trail, tuple(m.choices), m.within(), site))

    def path_done(self, ran: "Ran") -> None:
        self.paths.append(ran)

    def _others(self, trail: tuple[bool, ...], at: int) -> list[Ran]:
        """The finished paths that made the decisions of `trail` before `at`, then the other one."""
        return [r for r in self.paths if len(r.trail) > at and r.trail[:at] == trail[:at] and r.trail[at] != trail[at]]

    def _avoided(self, finders: set[int], f: Found, made: Made) -> bool:
        """Machines that went the other way at `made` avoid the finding. When some of those paths made
        the same decisions after it as the finding's path (its mirrors), only they are evidence: a
        path that avoided it by a later decision of another kind (an input, a value not understood)
        says nothing about the machine. A path is evidence when the finding sits inside the choice
        (that path never runs its code), when it passed the finding's site without it (the check held
        there, whatever stopped it later), or, for a machine choice, when it did not stop at a finding
        of its own; for a guess, when the program ran to its end (a path an assert or an exception
        ended may never have got there)."""
        at, text = made[0], made[1]
        others = self._others(f.trail, at)
        mirrors = [r for r in others if r.trail[at + 1:len(f.trail)] == f.trail[at + 1:]]
        guess = bool(made[3] & {GUESS, KIND_GUESS})
        for r in mirrors or others:
            if r.path in finders:
                continue
            if text in f.inside or f.site in r.passed or (r.completed if guess else not r.stopped):
                return True
        return False

    def _proven(self, found: dict[int, Found], f: Found, after: int, seen: dict[tuple[int, int], bool]) -> bool:
        """Whether the finding of `f` holds whichever way each of its guesses from decision `after` on
        went: the other side of each has a path that found it too, itself proven past that guess, or
        one the program itself ended (raised, or ruled out). A guess whose other side only budgets
        cut, or that was never followed (a loop that reads a value not understood until it runs out),
        proves nothing: the finding only rests on it."""
        key = (f.path, after)
        if key not in seen:
            seen[key] = False  # a cycle proves nothing
            seen[key] = all(any(self._proven(found, found[r.path], made[0] + 1, seen) if r.path in found
                                else not (r.cut or r.completed) for r in self._others(f.trail, made[0]))
                            for made in f.choices if made[0] >= after and made[3] & {GUESS, KIND_GUESS})
        return seen[key]

    def resolve(self, findings: dict[tuple, Diagnostic]) -> None:
        """Move the findings that hold whichever way the machine went, and whichever way every guess
        went, into `findings`. A device mismatch (PT007) that only some machines meet is still
        reported, as a warning that says on which machines (DESIGN §3 "dtype and device"); a finding
        that only a guess decides is a warning that names it (module docstring); a failing assert that
        rests on a guess whose other side was never followed is nothing (`_proven`)."""
        for key, (d, found) in self.pending.items():
            if key in findings:
                continue
            by_path = {f.path: f for f in found}
            seen: dict[tuple[int, int], bool] = {}
            avoided = [[c for c in f.choices if self._avoided(set(by_path), f, c)] for f in found]
            proven = [self._proven(by_path, f, 0, seen) for f in found]
            kept = self._kept(d, found, avoided, proven)
            if kept is None:
                self.dropped += 1
            else:
                findings[key] = kept
        self.pending.clear()

    def _kept(self, d: Diagnostic, found: list[Found], avoided: list[list[Made]], proven: list[bool]) -> Diagnostic | None:
        """What is reported of `d`, found on `found` whose choices in `avoided` the other way avoids
        and whose guesses are `proven` (or not)."""
        program_says = d.rule == ASSERT_FAILS.id  # the program's own assert: what it says, not a shape finding
        if any(not a and (p or not program_says) for a, p in zip(avoided, proven)):
            return d
        guessed = [(f, a) for f, a in zip(found, avoided) if a and all(c[3] & {GUESS, KIND_GUESS} for c in a)]
        if not any(avoided):  # an assert that fails only on guesses never followed the other way
            return None
        if not guessed:  # every path that found it chose the machine
            return _on_some_machines(d, found[0]) if d.rule in _ON_SOME_MACHINES and _possible(d, found[0]) else None
        named = [(f, a) for f, a in guessed if any(GUESS in c[3] for c in a)]
        if not named:  # only whether a value not understood is None or of some type: nothing
            return None
        if d.rule == ASSERT_FAILS.id:  # the program asserts that side of the guess never happens
            return None
        return _on_a_guess(d, [c for c in named[0][1] if GUESS in c[3]])


_ON_SOME_MACHINES = (DEVICE_MISMATCH.id,)


def _possible(d: Diagnostic, f: Found) -> bool:
    """A mismatch with a CUDA tensor on a path where CUDA is not available never happens: moving the
    tensor there raised first (a bare `.cuda()` is not a finding)."""
    no_cuda = any(facts == {"cuda_available"} and (text == "cuda_available != 0") != side
                  for _, text, side, facts in f.choices)
    return not (no_cuda and "cuda" in d.message)


def _on_a_guess(d: Diagnostic, guesses: list[Made]) -> Diagnostic:
    """`d` as a PT002 warning made on one side of the guesses in `guesses`, which it names."""
    from dataclasses import replace

    from pytea_ci.diagnostics import Severity

    when = " and ".join(dict.fromkeys(text.replace("{side}", str(side)) for _, text, side, _ in guesses))
    rule = POSSIBLE_SHAPE_MISMATCH.id if d.severity is Severity.ERROR else d.rule
    return replace(d, rule=rule, severity=Severity.WARNING, message=on_a_choice(d.message, when))


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
