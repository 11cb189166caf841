"""`asyncio` as far as it runs the program's coroutines to their end (interp/coroutines.py): `asyncio.run`
and an event loop's `run_until_complete` await their argument, `asyncio.gather` is awaited as the list
of its parts' results (each awaited in order), `asyncio.sleep` gives its `result`, `asyncio.wait_for`
is its awaitable. Tasks (`asyncio.create_task`) are not modeled: a coroutine handed to one is counted as
not followed."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Awaitable, Instance


@model("asyncio.run", "asyncio.runners.run")
def run(ctx: Ctx, main: Any, *, debug: Any = None, **kwargs: Any) -> Any:
    return ctx.awaited(main)


@model("asyncio.gather")
def gather(ctx: Ctx, *aws: Any, return_exceptions: Any = False) -> Any:
    return Awaitable(parts=aws)


@model("asyncio.sleep")
def sleep(ctx: Ctx, delay: Any, result: Any = None) -> Any:
    return Awaitable(value=result)


@model("asyncio.wait_for")
def wait_for(ctx: Ctx, aw: Any, timeout: Any = None) -> Any:
    return aw


@native_class("asyncio.AbstractEventLoop", identity_eq=True)
class AbstractEventLoop:
    def run_until_complete(ctx: Ctx, self: Instance, future: Any) -> Any:
        return ctx.awaited(future)

    def close(ctx: Ctx, self: Instance) -> Any:
        return None


@model("asyncio.get_event_loop", "asyncio.new_event_loop", "asyncio.get_running_loop")
def get_event_loop(ctx: Ctx) -> Any:
    return Instance(AbstractEventLoop, {})  # type: ignore[arg-type]


@model("asyncio.set_event_loop")
def set_event_loop(ctx: Ctx, loop: Any) -> Any:
    return None
