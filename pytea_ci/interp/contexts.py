"""`with` as CPython runs it: each manager's `__exit__` is looked up, `__enter__` called and its value
bound, the body run; then `__exit__` runs whichever way the body left — with `(None, None, None)` when it
ended normally or by `return`/`break`/`continue`, with the exception's class and value when it raised,
and an `__exit__` whose result is true suppresses that exception (the path goes on after the `with`).
Several items nest, the first outermost.

A `contextlib.contextmanager` generator (`GeneratorCM`) runs as CPython resumes it: its body up to the
`yield`, then — at the `yield` — the `with` body, with the yielded value bound; an exception of the
body is raised at the `yield` (the generator's own `try`/`except`/`finally` see it; one it swallows is
suppressed), and the code after the `yield` runs when the body is done."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import BreakSignal, ContinueSignal, FunctionVal, ReturnSignal, Scope, UserException
from pytea_ci.models.registry import get as registry_get
from pytea_ci.models.values import MISSING, ClassVal, GeneratorCM, Instance

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_SIGNALS = (ReturnSignal, BreakSignal, ContinueSignal)


def run_with(self: "Interpreter", items: list[ast.withitem], body: list[ast.stmt], scope: Scope,
             is_async: bool = False) -> None:
    """`with items: body`, the first item outermost; `async with` when `is_async` (`__aenter__` and
    `__aexit__`, their results awaited: interp/coroutines.py)."""
    if not items:
        self.exec_block(body, scope)
        return
    item, rest = items[0], items[1:]
    mgr = self.eval(item.context_expr, scope)

    def inner(value: Any) -> None:
        if item.optional_vars is not None:
            self.assign(item.optional_vars, value, scope)
        run_with(self, rest, body, scope, is_async)

    if isinstance(mgr, GeneratorCM) and isinstance(mgr.fn, FunctionVal) and not is_async:
        run_generator_cm(self, mgr, inner)
        return
    exit_fn = _exit_of(self, mgr, "__aexit__" if is_async else "__exit__")
    value = self.awaited(self.enter_context(mgr, "__aenter__")) if is_async else self.enter_context(mgr)

    def leave(*info: Any) -> Any:
        out = self.call(exit_fn, *info)
        return self.awaited(out) if is_async else out

    if exit_fn is None:
        inner(value)
        return
    try:
        inner(value)
    except UserException as e:
        if self.decide(leave(*_exc_info(self, e))):
            return  # `__exit__` returned a true value: the exception is suppressed
        raise
    except _SIGNALS:
        leave(None, None, None)
        raise
    leave(None, None, None)


def _exit_of(self: "Interpreter", mgr: Any, name: str) -> Any:
    if not isinstance(mgr, Instance):
        return None
    found = mgr.cls.lookup(name)
    return None if found is MISSING else self.bind_member(mgr, mgr.cls, found)


def _exc_info(self: "Interpreter", e: UserException) -> tuple[Any, Any, Any]:
    """`__exit__`'s (type, value, traceback) for an exception of the program."""
    if isinstance(e.value, Instance):
        return e.value.cls, e.value, None
    cls = e.value if isinstance(e.value, ClassVal) else registry_get(f"builtins.{e.kind}")
    if not isinstance(cls, ClassVal):
        cls = self.unknown(f"the class of a {e.kind}")
    return cls, self.unknown(f"a {e.kind} raised in a with block"), None


def run_generator_cm(self: "Interpreter", mgr: GeneratorCM, body: Callable[[Any], None]) -> None:
    """Run the generator; its first `yield` (in its own frame) runs the `with` body in the caller's
    context (frames, file, generator collections of the caller), then resumes it."""
    gen = mgr.fn
    assert isinstance(gen, FunctionVal)
    outer = (len(self.frames), len(self.yields), len(self.gen_reps), self.cur_path)
    pending: list[BaseException] = []
    entered = [False]

    def at_yield(value: Any) -> None:
        entered[0] = True
        saved = (self.frames[outer[0]:], self.yields[outer[1]:], self.gen_reps[outer[2]:], self.cur_path)
        del self.frames[outer[0]:], self.yields[outer[1]:], self.gen_reps[outer[2]:]
        self.cur_path = outer[3]
        try:
            body(value)
        except _SIGNALS as s:  # the generator resumes normally; the signal goes on after it
            pending.append(s)
        finally:
            self.frames.extend(saved[0])
            self.yields.extend(saved[1])
            self.gen_reps.extend(saved[2])
            self.cur_path = saved[3]

    self.cm_hooks.append((outer[0] + 1, at_yield))
    try:
        self.call(gen, *mgr.args, **mgr.kwargs)
    finally:
        self.cm_hooks.pop()
    if not entered[0]:
        raise UserException("RuntimeError")  # "generator didn't yield"
    if pending:
        raise pending[0]


def cm_yield(self: "Interpreter", value: Any) -> bool:
    """A `yield` of the innermost running contextmanager generator, in its own frame: runs the `with`
    body there (True); any other `yield` is collected as usual (False)."""
    if not self.cm_hooks:
        return False
    depth, hook = self.cm_hooks[-1]
    if depth != len(self.frames):
        return False
    self.cm_hooks[-1] = (-1, hook)  # only the first yield enters the body
    hook(value)
    return True
