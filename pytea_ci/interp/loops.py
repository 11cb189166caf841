"""Loops (a mixin of the interpreter): `for` loops over their representative items, `while` loops,
generation loops, loop summaries, joined branches.

A `while` loop is followed iteration by iteration while its condition is decided. One whose
condition depends on data (`while len(edges) < n:` over randomly kept items, `while not converged:`)
runs its body twice, then is *cut*: the names and object fields its iterations change are widened to
what any number of iterations could leave — a value that moved by the same step in every iteration
followed (a counter, a sequence growing by one token) becomes `start + trips * step` for one unknown
trip count shared by the loop, anything else a fresh unknown — lists it grew get an unknown length,
and, as the loop leaves only through its condition (no `break`), the negated condition over the
widened values joins the path condition (`len(edges) >= n`) when it can be evaluated once more
without effects, and its `else` runs. The symbols made here are of the *unknown* kind: a check on
them is an error only when it fails for every value (DESIGN §3), so an approximation never produces
a finding of its own.

A `while True:` is cut the same way when the data decides its end: once an iteration went on past a choice
not decided (rejection sampling left by a `break`), and, in a generator's own frame, after two iterations
when only an exception leaves it (an endless batch stream: the generator's items are collected eagerly, so
those two stand for every item and nothing after the loop runs).

A `for` over a long concrete range whose carried tensor changes shape (a generation loop) is followed
one by one (`later_indices`, `shapes_grew`); a side of a data-dependent branch run on a path that may
not take it makes the lists it extends of unknown length (`one_side`).
"""

from __future__ import annotations

import ast
import contextlib
from typing import TYPE_CHECKING, Any, Iterator

from pytea_ci.diagnostics.budgets import STEPS_PER_LOOP
from pytea_ci.interp.appends import appended_once, length_bound, may_grow
from pytea_ci.interp.branch_locals import constant_choice
from pytea_ci.interp.coroutines import async_items
from pytea_ci.interp.runtime import BreakSignal, ContinueSignal, ReturnSignal, Scope, same_value
from pytea_ci.interp.stmts import assigned_names
from pytea_ci.models.values import MISSING, Instance, RangeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import UNKNOWN, Dim, PInt, Sym, Term
from pytea_ci.shapes.pred import Cond, Pred, opaque
from pytea_ci.shapes.tensor import Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_FOLLOWED = 2  # iterations run on an undecided condition before the loop is cut
# A `for` over a concrete range longer than the unroll bound runs representatives of its iterations;
# when a tensor it carries grows (a generation loop), it is followed one by one up to this many.
_GROWTH_UNROLL = 256


def _int(v: Any) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, Term)


def _step(values: list[Any]) -> "int | None":
    """The constant difference between consecutive ints/dims, else None."""
    steps = {values[i + 1] - values[i] for i in range(len(values) - 1)}
    if len(steps) == 1 and isinstance(step := steps.pop(), int):
        return int(step)
    return None


def _pure(test: ast.expr) -> bool:
    """A condition that can be evaluated once more without effects (no calls but `len`, sizes, ...)."""
    from pytea_ci.interp.stmts import _PURE_CALLS, _SHAPE_WORDS

    for n in ast.walk(test):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
            if name not in _PURE_CALLS and name not in _SHAPE_WORDS:
                return False
        elif isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def own_break(body: list[ast.stmt]) -> bool:
    """A `break` of this loop (not of a loop nested in it, not in a nested function)."""
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Break):
            return True
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While)):
            todo.extend(n.orelse)  # a break in a nested loop's else leaves this loop
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _own(body: list[ast.stmt], kinds: tuple[type, ...]) -> bool:
    """A node of `kinds` in `body` outside nested functions and classes (a `yield`, a `return` of its function)."""
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, kinds):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def endless(node: ast.While) -> bool:
    """`while True:` with no `break` or `return` of its own: only an exception leaves it."""
    return isinstance(node.test, ast.Constant) and bool(node.test.value) and not own_break(node.body) \
        and not _own(node.body, (ast.Return,))


class LoopMixin:
    @contextlib.contextmanager
    def one_side(self: "Interpreter") -> Iterator[None]:
        """A side of a data-dependent branch run on a path that may not take it (both sides joined on
        one path): a list it extends in place holds items the other side lacks, so its length
        becomes unknown (the items stay, as representatives)."""
        self.loop_mutations.append(set())
        try:
            yield
        finally:
            grown = self.loop_mutations.pop()
            for lst in grown:
                self.inexact.add(lst)
                self.known_len.pop(lst, None)
            if self.loop_mutations:
                self.loop_mutations[-1] |= grown

    def ex_While(self: "Interpreter", node: ast.While, scope: Scope) -> None:
        from pytea_ci.interp.stmts import assigned_names

        names: list[Any] = sorted(assigned_names(node.body)) + sorted(_fields(node.body))
        history: list[dict[Any, Any]] = []  # the names (and `obj.attr` fields) before each iteration followed
        lengths: list[dict[int, int]] = []  # and the lengths of the lists they hold
        count, assumed, cut = 0, False, False
        # a generator's own `while True:` that yields and is left only by an exception (an endless batch
        # stream): CPython runs it only as far as its consumer takes items, so the eager collection (calls.py)
        # follows two iterations and cuts the rest, its items becoming representatives of every item
        forever = bool(self.gen_reps) and self.gen_reps[-1][0] == len(self.frames) and endless(node) \
            and _own(node.body, (ast.Yield, ast.YieldFrom))
        # `while True:` left by a `break` the data decides (rejection sampling: draw until the item is not a
        # positive one): each iteration forks into leaving and going on, so, like a loop whose condition the
        # data decides, it is cut once an iteration went on past a choice not decided (two paths leave it: the
        # first iteration's break, and the cut one with what the iterations change widened)
        by_data = isinstance(node.test, ast.Constant) and bool(node.test.value) and own_break(node.body)
        went_on: list[bool] = []  # per iteration followed: whether the path made an undecided choice in it
        entered = False  # the first iteration's condition was decided true: at least one iteration runs
        self.loop_mutations.append(set())
        try:
            while True:
                cond = self.eval(node.test, scope)
                t = self.truth_of(cond)
                if isinstance(t, Unknown) or self.is_opaque(cond) or (isinstance(t, Pred) and count >= _FOLLOWED):
                    if count >= _FOLLOWED:
                        cut = True
                        break
                    assumed = True  # a condition not understood: the body is run as if it held
                elif not self.decide(cond, node):
                    self.exec_block(node.orelse, scope)
                    break
                elif forever and count >= _FOLLOWED or by_data and went_on and went_on[-1]:
                    cut = True
                    break
                entered = entered or (count == 0 and not assumed)
                count += 1
                if count > self.config.budget.loop_iterations:
                    self.budget_hit("loop iterations", node)
                history.append(_state(scope, names))
                lengths.append(_list_lengths(scope))
                self.rep_depth += assumed  # an iteration run as if its condition held: some runs have none
                choices = len(self.trail)
                try:
                    self.exec_block(node.body, scope)
                except ContinueSignal:
                    pass
                except BreakSignal:
                    break
                finally:
                    self.rep_depth -= assumed
                    went_on.append(len(self.trail) > choices)
        finally:
            mutated = self.loop_mutations.pop()
        if not cut:
            if self.loop_mutations:
                self.loop_mutations[-1] |= mutated
            return
        history.append(_state(scope, names))
        lengths.append(_list_lengths(scope))
        self.note_representatives()
        with self.at(node):
            trips = self.fresh("trips", kind=UNKNOWN, lo=0 if assumed else count, note="iterations of a while loop")
            self.widen_loop(names, history, lengths, mutated, trips, scope)
        if forever:
            raise ReturnSignal(None)  # nothing after an endless loop runs: the generator's items are its yields
        if own_break(node.body):
            return  # left by its condition or by a break: neither the condition's negation nor `else` is sure
        if _pure(node.test):  # the loop leaves only when its condition fails
            t = self.truth_of(self.eval(node.test, scope))
            if isinstance(t, Pred):
                self.pc.append(P.not_(t))
                if entered and isinstance(bound := self.length_at_exit(node, scope, lengths), Pred):
                    self.pc.append(bound)
        self.exec_block(node.orelse, scope)

    def length_at_exit(self: "Interpreter", node: ast.While, scope: Scope, lengths: list[dict[int, int]]) -> "Cond | None":
        """`len(rows) <= n` after `while len(rows) < n:` left by its condition, when the body appends to
        `rows` at most once per iteration (appends.length_bound) and the iterations followed grew it by
        0 or 1 items each (no alias of it grown elsewhere in the body)."""
        found = length_bound(node.test, node.body, assigned_names(node.body) | {f[0] for f in _fields(node.body)})
        if found is None:
            return None
        size, bound, slack = found
        lst = _base(scope, _len_name(size))
        seen = [ls.get(id(lst)) for ls in lengths]
        if not isinstance(lst, list) or None in seen or any(b - a not in (0, 1) for a, b in zip(seen, seen[1:])):  # type: ignore[operator]
            return None
        n, k = self.eval(size, scope), self.eval(bound, scope)
        return P.le(n, k + slack) if _int(n) and _int(k) else None

    def widen_loop(self: "Interpreter", names: list[Any], history: list[dict[Any, Any]],
                   lengths: list[dict[int, int]], mutated: set[int], trips: Sym, scope: Scope) -> None:
        """Bind each name (and set each field) the followed iterations changed to what any number of
        them could leave, and give the lists they grew an unknown length (`start + trips * step` when
        it grew by the same number of items every time)."""
        for n in names:
            seen = [h[n] for h in history if h[n] is not MISSING]
            if len(seen) == len(history) and all(same_value(seen[0], v) for v in seen[1:]):
                continue
            what = n if isinstance(n, str) else ".".join(n)
            if seen and len(seen) < len(history) and all(_int(v) for v in seen) \
                    and all(h[n] is MISSING for h in history[:len(history) - len(seen)]):
                # an int first bound inside the loop (`j = randint(0, n_items)` of a rejection loop): after
                # it, one of the ints an iteration leaves, not a value not understood
                value = self.fresh(what, kind=UNKNOWN, lo=None, note="an int a while loop's iterations leave")
            else:
                value = self.widened(what, seen if len(seen) == len(history) else [], trips)
            if isinstance(n, str):
                scope.locals[n] = value
            elif isinstance(obj := _base(scope, n[0]), Instance):
                obj.attrs[n[1]] = value
        self.grown_in_loop(mutated)
        for lst in mutated:
            seen_len = [ls.get(lst) for ls in lengths]
            step = _step(seen_len) if all(x is not None for x in seen_len) and lst not in self.inexact else None
            self.inexact.add(lst)
            start = seen_len[0]
            self.known_len[lst] = start + trips * step if step is not None and start is not None else \
                self.fresh("len", kind=UNKNOWN, lo=0, note="items of a list grown in a while loop")

    def widened(self: "Interpreter", name: str, seen: list[Any], trips: Sym | None) -> Any:
        """What a loop variable holding `seen` (from the start, one value per iteration) may hold
        after any number of iterations (`trips`: their count; None: a size that moved is fresh)."""
        if seen and all(_int(v) for v in seen) and trips is not None:
            step = _step(seen)
            return seen[0] + trips * step if step is not None else self.fresh(name, kind=UNKNOWN, lo=None)
        if seen and all(isinstance(v, Tensor) and v.shape is not None and len(v.shape) == len(seen[0].shape)
                        for v in seen):
            dims = []
            for column in zip(*(v.shape for v in seen)):
                step = _step(list(column))
                if step is not None and (trips is not None or step == 0):
                    dims.append(column[0] + trips * step if trips is not None else column[0])
                elif self.unchanged(column):  # `x = block(x) + x` over a ModuleList: [N, max(D, dim)] is [N, D]
                    dims.append(column[0])
                else:
                    dims.append(self.fresh(name, kind=UNKNOWN))
            dtypes = {v.dtype for v in seen}
            return seen[-1].with_shape(tuple(dims), dtypes.pop() if len(dtypes) == 1 else None)
        return self.unknown(f"loop variable {name} widened (changes across iterations)")

    def unchanged(self: "Interpreter", column: tuple[Any, ...]) -> bool:
        """Whether every size a loop variable's dimension took in the iterations followed is its first
        one on this path (what the path assumes implies it: a residual block's `max(D, dim)` once its
        `Linear` asked `D == dim`): the same step of zero the concrete case has, so what any number of
        iterations leaves is that size too."""
        first = column[0]
        return all(isinstance(d, (int, Term)) and not isinstance(d, bool) for d in column) and all(
            d is first or self.holds(P.eq(first, d)) for d in column[1:])

    def join_constants(self: "Interpreter", node: ast.If, cond: Any, scope: Scope) -> bool:
        """An `if`/`elif` chain on a size that may go either way on this path and only picks constants that are
        no sizes (`constant_choice`: CaiT's `init_eps` by the layer's depth): run on one path, each name bound
        to its constant when every side gives the same one, else to a value not known of its type. Forking
        there multiplied the paths by the sides for every layer a loop builds and spent the module's budget."""
        t = self.truth_of(cond)
        sides = constant_choice(node) if isinstance(t, Pred) and not opaque(t) else None
        tested = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        if sides is None or any(n not in scope.locals and n not in scope.globals for n in tested) \
                or not all(self.config.decider.branch(t, self.pc)):
            return False  # (a name not bound: CPython raises NameError in a test this does not run)
        joined: dict[str, Any] = {}
        for name in sorted({n for side in sides for n in side}):
            if name in scope.global_names or name in scope.nonlocal_names:
                return False
            values = [side.get(name, scope.locals.get(name, MISSING)) for side in sides]
            if any(v is MISSING or not (v is None or isinstance(v, (float, str, bool))) for v in values):
                return False  # unbound before on a side that does not bind it, or a value that may be a size
            kinds = {type(v).__name__ for v in values}
            joined[name] = values[0] if all(same_value(values[0], v) for v in values) else \
                self.unknown(f"{name}: one of {len(set(map(repr, values)))} constants a branch on a size picks",
                             pytype=kinds.pop() if len(kinds) == 1 else None)
        scope.locals.update(joined)
        return True

    def later_indices(self: "Interpreter", source: Any) -> "list[Any] | None":
        """The indices of a concrete range after its first two, when few enough to follow one by one."""
        if not (isinstance(source, RangeVal) and all(isinstance(v, int) for v in (source.start, source.stop, source.step))):
            return None
        rng = range(int(source.start), int(source.stop), int(source.step))
        if len(rng) > min(_GROWTH_UNROLL, self.config.budget.loop_iterations):
            return None
        return [PInt(i, self.span, "loop index") for i in rng[2:]]

    def shapes_grew(self: "Interpreter", names: set[str], before: dict[str, Any], scope: Scope) -> bool:
        """A tensor the last iteration carried over (bound before it and rebound in it) changed shape."""
        return any(isinstance(a := before.get(n), Tensor) and isinstance(b := scope.locals.get(n), Tensor)
                   and a.shape is not None and b.shape is not None and a.shape != b.shape for n in names)

    def ex_For(self: "Interpreter", node: "ast.For | ast.AsyncFor", scope: Scope) -> None:
        source = self.eval(node.iter, scope)
        with self.at(node.iter):
            if isinstance(node, ast.AsyncFor):
                source = async_items(self, source)
            view = self.iter_view(source)
            items, truncated = self.loop_items(view)
        # (a long loop followed one by one may still be cut by its cost, `run_loop`: its lists too); the items
        # counted are those iterated (a wrapper's `__iter__`, `tqdm(data)`: its view)
        count: Dim | None = len(items)
        if truncated:
            count = self.known_length(view)
            count = self.known_length(source) if count is None else count
        grown = self.grown_lists(node, scope, count) if truncated or len(items) > self.config.budget.unroll else {}
        exact_before = {name: len(lst) for name, (lst, _) in grown.items() if id(lst) not in self.inexact}
        # representatives that follow one another: the first two of a long concrete range (its first,
        # second and last index), of a list a range loop grew...; before a later one the loop-carried
        # values are widened
        at = self.item_positions(view, len(items)) if truncated else None
        consecutive = _leading_run(at) if at is not None else 1
        rest = self.later_indices(source) if consecutive == 2 and isinstance(source, RangeVal) else None
        every = truncated and self.shuffled(view) is not None  # all of its items, in an order not known
        self.run_loop(node, scope, items, truncated, lambda item: self.assign(node.target, item, scope), consecutive,
                      rest, every)
        if id(view) in self.cursors:  # an iterator `next()` took from: the loop used up what it had left, or
            self.cursors[id(view)] = -1  # broke out somewhere (its position is no longer followed)
        for name, (lst, length) in grown.items():
            if scope.locals.get(name) is lst and id(lst) in self.inexact:
                self.known_len[id(lst)] = length  # one item per iteration: only the items are representatives
                if at is not None and name in exact_before:
                    m = exact_before[name]
                    self.rep_positions[id(lst)] = tuple(range(m)) + tuple(m + p for p in at)

    def iter_view(self: "Interpreter", source: Any) -> Any:
        """What a `for` loop iterates: the result of an object's `__iter__` (a ModuleList's
        representative layers with their positions), else the value itself."""
        if isinstance(source, Instance):
            it = source.cls.lookup("__iter__")
            if it is not MISSING:
                return self.call(self.bind_member(source, source.cls, it))
        return source

    def grown_lists(self: "Interpreter", node: "ast.For | ast.AsyncFor", scope: Scope,
                    count: "Dim | None") -> dict[str, tuple[list, int]]:
        """Lists of known length the loop appends to once per iteration (`count` iterations), with their length
        after it."""
        out: dict[str, tuple[list, int]] = {}
        for name in appended_once(node.body) if count is not None else ():
            lst = scope.locals.get(name)
            n = self.known_length(lst) if isinstance(lst, list) else None
            if count is not None and n is not None:
                out[name] = (lst, n + count)  # type: ignore[assignment]
        return out

    ex_AsyncFor = ex_For

    def run_loop(self: "Interpreter", node: "ast.For | ast.AsyncFor | ast.While", scope: Scope, items: list[Any],
                 truncated: bool, bind: Any, consecutive: int = 1, rest: "list[Any] | None" = None,
                 every: bool = False) -> None:
        """Run the body once per item. When `truncated`, the items are representatives of the
        iterations: only the first `consecutive` of them follow one another, so before any later
        one (and after the loop) the names the iterations changed are widened — a value carried
        over from a representative is not the value the real previous iteration left. `rest`: the
        items after the consecutive ones when every iteration can be followed (a concrete range),
        which they are when a tensor the iterations carry changed its shape (a growing sequence).
        `every`: the items are all of the source's, in an order not known (a set, a folder's listing): a dict
        the body only stores new keys in, a set it adds to and a list it appends to hold what CPython's
        would, in an order not known (`order_free`), instead of only some of their items."""
        begun = self.steps
        costly = begun + self.config.budget.loop_steps if not truncated and len(items) > self.config.budget.unroll else None
        site = (self.span.path, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), len(items))
        if costly is not None and site in self.shared.costly_loops:
            costly = begun  # an earlier path followed this loop at that cost: this one weighs it from its start
        names = assigned_names(node.body) if truncated or costly is not None else set()
        if truncated:
            self.note_representatives()
        start = {n: scope.locals.get(n, MISSING) for n in names}
        chose = len(self.trail)  # the choices this path had made before the loop
        before: dict[str, Any] = {}
        items = list(items)
        self.loop_mutations.append(set())
        kept_from = len(self.keepalive)
        self.order_free.append({})
        broke = False
        representatives = bool(truncated)  # (`truncated` may end inside: every later iteration followed)
        self.rep_depth += representatives
        try:
            for k, item in enumerate(items):
                if costly is not None and 2 <= k < len(items) - 1 and self.steps > costly and \
                        self.outruns((self.steps - begun) * (len(items) - k) // k) and \
                        not self.shapes_grew(names, before, scope):
                    self.summarise_rest(node, len(items), k)
                    items[k:], truncated, consecutive, costly = items[-1:], True, k, None  # the last stands for the rest
                    item = items[k]
                    representatives = True
                    self.rep_depth += 1
                if truncated and k == consecutive and rest is not None and self.shapes_grew(names, before, scope):
                    items[k:], truncated = rest, False  # follow every iteration: exact again
                    item = items[k]
                if truncated and k >= consecutive:
                    with self.at(node):  # the loop is where its variables change, not the enclosing statement
                        self.widen_changed(names, (start, before), scope)
                before = {n: scope.locals.get(n, MISSING) for n in names}
                if bind is not None:
                    bind(item)
                try:
                    self.exec_block(node.body, scope)
                except ContinueSignal:
                    pass
                except BreakSignal:
                    broke = True
                    break
        finally:
            mutated = self.loop_mutations.pop()
            free = self.order_free.pop()
            self.rep_depth -= representatives
        if costly is not None and not truncated and self.steps - begun > self.config.budget.loop_steps:
            self.shared.costly_loops.add(site)  # a later path replaying it weighs it at once
        if truncated:
            with self.at(node):
                self.widen_changed(names, (start, before), scope)
                if len(self.trail) > chose:
                    self.widen_unfollowed(names, start, scope)
            made = {id(o): o for o in self.keepalive[kept_from:]} if every and not broke else {}
            self.grown_in_loop(mutated)
            for lst in mutated:
                if free.get(lst) and lst in made and not isinstance(made[lst], list):
                    self.unordered.add(lst)  # every key (item), in an order not known
                    continue
                if free.get(lst) and lst in made:
                    self.unordered.add(lst)  # every item appended, in an order not known; how many: not known
                self.inexact.add(lst)
            for name in may_grow(node.body):  # grown by iterations the representatives stand for
                grown = scope.locals.get(name)
                if isinstance(grown, list):
                    self.inexact.add(id(grown))
        elif self.loop_mutations:
            self.loop_mutations[-1] |= mutated
        if not broke:
            self.exec_block(node.orelse, scope)

    def outruns(self: "Interpreter", projected: int) -> bool:
        """Whether the rest of a loop, at the cost of its items so far, would take more than half of the
        steps this path (and the entry point) has left: followed one by one, it would leave the model
        after it unanalyzed."""
        budget = self.config.budget
        entry_left = budget.entry_steps - self.shared.pot(self.command) - self.steps
        # the paths the replayed choices still owe replay this loop too: this path's part of what the entry has left
        left = min(budget.steps - self.steps, entry_left // (1 + self.shared.paths_pending))
        return projected > left // 2

    def summarise_rest(self: "Interpreter", node: ast.AST, total: int, done: int) -> None:
        """A loop over a long known sequence (the lines of a data file, a vocabulary) whose items have cost
        `loop_steps` and whose rest would take more than half of the steps left (`outruns`): the items after
        the `done` followed are summarised by the last one, after widening what the iterations change (as
        a long range's loop does), so data preparation does not use up the entry's budget before the
        model. Noted (PT011)."""
        self.note_representatives()
        with self.at(node):
            self.soft_budget(f"{STEPS_PER_LOOP} ({total} items: {done} followed, the rest summarised)")

    def widen_changed(self: "Interpreter", names: set[str], earlier: tuple[dict[str, Any], ...], scope: Scope) -> None:
        """Names whose value differs from one they had earlier (MISSING: not bound then) become unknown;
        a tensor of the same rank in every state it was bound in keeps that rank, its sizes that differ
        fresh (of the unknown kind): the batch a loader loop leaves, full or the short last one."""
        for n in names:
            now = scope.locals.get(n, MISSING)
            was = [e.get(n, MISSING) for e in earlier]
            if now is MISSING or all(same_value(None if v is MISSING else v, now) for v in was):
                continue
            seen = [v for v in (*was, now) if v is not MISSING]
            same_rank = isinstance(now, Tensor) and now.shape is not None and all(
                isinstance(v, Tensor) and v.shape is not None and len(v.shape) == len(now.shape) for v in seen)
            scope.locals[n] = self.widened(n, seen, None) if same_rank else \
                self.unknown(f"loop variable {n} widened (changes across iterations)")

    def widen_unfollowed(self: "Interpreter", names: set[str], start: dict[str, Any], scope: Scope) -> None:
        """After a loop of representatives in which this path made a choice, names the body assigns that still
        hold their value from before the loop become unknown: the representatives took one side, the
        iterations they stand for may take the other and assign them (a `continue` on a blank line leaves an
        embedding width at its start value -1 on this path only)."""
        for n in names:
            now = scope.locals.get(n, MISSING)
            if now is not MISSING and start.get(n, MISSING) is not MISSING and same_value(start[n], now):
                scope.locals[n] = self.unknown(f"{n}: a value an iteration not followed may have set")


def _leading_run(positions: tuple[int, ...]) -> int:
    """How many of the first items follow one another (positions 4, 5, 6, 19 -> 3)."""
    n = 1
    while n < len(positions) and positions[n] == positions[n - 1] + 1:
        n += 1
    return n


def _fields(body: list[ast.stmt]) -> set[tuple[str, str]]:
    """`name.attr` targets the body assigns (`self.steps += 1`), outside nested functions."""
    out: set[tuple[str, str]] = set()
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                out |= {(x.value.id, x.attr) for x in ast.walk(t)
                        if isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name)}
        todo.extend(ast.iter_child_nodes(n))
    return out


def _len_name(e: ast.expr) -> str:
    """`len(name)` -> name (length_bound has checked the form)."""
    assert isinstance(e, ast.Call) and isinstance(e.args[0], ast.Name)
    return e.args[0].id


def _base(scope: Scope, name: str) -> Any:
    return scope.locals.get(name, scope.globals.get(name))


def _state(scope: Scope, names: list[Any]) -> dict[Any, Any]:
    """The values of the names and of the `obj.attr` fields of instances."""
    out: dict[Any, Any] = {}
    for n in names:
        if isinstance(n, str):
            out[n] = scope.locals.get(n, MISSING)
        else:
            obj = _base(scope, n[0])
            out[n] = obj.attrs.get(n[1], MISSING) if isinstance(obj, Instance) else MISSING
    return out


def _list_lengths(scope: Scope) -> dict[int, int]:
    return {id(v): len(v) for v in scope.locals.values() if isinstance(v, list)}
