"""`contextvars.ContextVar` as one thread of the program sees it: `set` returns a `Token`, `get` the
value last set (else the default), `reset(token)` restores the value before that `set` (transformers 5
collects a forward pass's outputs in one; `token is None` then stays known)."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import MISSING, Instance


@native_class("contextvars.Token", identity_eq=True)
class Token:
    pass


@native_class("contextvars.ContextVar", identity_eq=True)
class ContextVar:
    def init(ctx: Ctx, self: Instance, name: Any, *, default: Any = MISSING) -> None:
        self.attrs.update(name=name, _default=default, _value=MISSING)

    def get(ctx: Ctx, self: Instance, default: Any = MISSING) -> Any:
        for value in (self.attrs.get("_value", MISSING), default, self.attrs.get("_default", MISSING)):
            if value is not MISSING:
                return value
        ctx.user_error("LookupError", "ContextVar.get")
        return None

    def set(ctx: Ctx, self: Instance, value: Any) -> Any:
        token = Instance(Token, {"var": self, "old_value": self.attrs.get("_value", MISSING)})  # type: ignore[arg-type]
        self.attrs["_value"] = value
        return token

    def reset(ctx: Ctx, self: Instance, token: Any) -> Any:
        if isinstance(token, Instance) and token.attrs.get("var") is self:
            self.attrs["_value"] = token.attrs["old_value"]
        else:
            self.attrs["_value"] = ctx.unknown("ContextVar reset with a token not understood")
        return None
