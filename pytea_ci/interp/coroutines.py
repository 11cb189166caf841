"""`async def`, `await`, `async for` and `async with` followed as their synchronous meaning (issue 31
item 7).

Calling an `async def` (not an async generator) runs nothing: it gives an `Awaitable`, whose body runs
where it is awaited (`await coro`, `asyncio.run(coro)`, an event loop's `run_until_complete`), once — a
second `await` of the same coroutine is CPython's RuntimeError. A coroutine never awaited never runs
(CPython only warns), so nothing in it is reached. An async generator is collected as a generator is
(interp/calls.py): `async for` iterates its items. An object with `__aiter__` is iterated by awaiting its
`__anext__` until StopAsyncIteration, up to the loop budget (further items are not known); its items are
taken before the body runs, as a generator's are. `async with` calls and awaits `__aenter__` and
`__aexit__` where `with` calls `__enter__` and `__exit__` (interp/contexts.py).

A coroutine handed to code not followed (`asyncio.create_task`, an event loop not modeled) may run
there: every call in its body is reached and not checked, that hand-over named as the origin — the way
a statement not followed is counted (`Interpreter.unsupported`)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics import Span
from pytea_ci.interp.runtime import FunctionVal, UserException
from pytea_ci.models.values import MISSING, Awaitable, Instance, IterVal, Unknown
from pytea_ci.shapes.tensor import Origin

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


def is_coroutine_function(fn: FunctionVal) -> bool:
    """An `async def` whose call gives a coroutine (an async generator's call is collected instead)."""
    return isinstance(fn.node, ast.AsyncFunctionDef) and not fn.is_generator


def awaited(interp: "Interpreter", v: Any) -> Any:
    """The value of `await v`."""
    if isinstance(v, Awaitable):
        if v.parts is not None:  # asyncio.gather: each part awaited in order, their results in a list
            return [awaited(interp, p) for p in v.parts]
        if v.fn is None:
            return v.value
        if v.awaited:
            raise UserException("RuntimeError")  # cannot reuse already awaited coroutine
        v.awaited = True
        return interp.call_own(v.fn, v.args, v.kwargs, run_async=True)
    if isinstance(v, Unknown):
        return interp.derived("await of a value not understood", v)
    return interp.unknown("await of an object not modeled as awaitable")


def async_items(interp: "Interpreter", source: Any) -> Any:
    """What `async for` iterates over `source`: an async generator's items as they are, else the results
    of awaiting `__anext__` of what `__aiter__` returns, until StopAsyncIteration."""
    if not isinstance(source, Instance) or (aiter := source.cls.lookup("__aiter__")) is MISSING:
        return source
    it = interp.call(interp.bind_member(source, source.cls, aiter))
    anext = it.cls.lookup("__anext__") if isinstance(it, Instance) else MISSING
    if anext is MISSING:
        return interp.derived("async iteration not followed", it)
    items: list[Any] = []
    for _ in range(interp.config.budget.unroll):
        try:
            items.append(awaited(interp, interp.call(interp.bind_member(it, it.cls, anext))))
        except UserException as e:
            if e.kind != "StopAsyncIteration":
                raise
            return items
    return IterVal(items, truncated=True)  # more items than followed one by one: these are representatives


def handed_over(interp: "Interpreter", operands: list[Any], to: str) -> None:
    """Coroutines among `operands` go to `to`, code not followed, which may run them: every call in their
    bodies is reached, not checked (module docstring)."""
    for co in operands:
        if not (isinstance(co, Awaitable) and isinstance(co.fn, FunctionVal) and not co.awaited):
            continue
        origin = Origin(interp.span, f"coroutine {co.fn.name}() handed to {to}, which is not followed")
        path = interp.rel(co.fn.path)
        body = co.fn.node.body if isinstance(co.fn.node, ast.AsyncFunctionDef) else []
        for call in (n for stmt in body for n in ast.walk(stmt) if isinstance(n, ast.Call)):
            span = Span(path, call.lineno, call.col_offset, call.end_lineno, call.end_col_offset)
            interp.shared.coverage.op(span, origin)
