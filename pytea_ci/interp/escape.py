"""What escapes into code not followed may change there (DESIGN §3, "What escapes is havocked").

An object handed to code the analyzer does not follow — a call of something not understood (a
third-party function, an API not modeled, a method of an unknown object such as an RPC handle's
`rref.rpc_async().run_episode(self.agent_rref, ...)`), a function or bound method given to such code as
a callback or a thread target, a call cut by the recursion budget — may be changed there, then or later
(the code may keep it). So at such a call, for everything reachable from what it was handed:

* a list or set becomes of unknown length and holds, besides the items it had (representatives now),
  an unknown item put there by the code not followed;
* a dict may hold keys the analysis does not know (a missing key is not an error any more);
* an instance of a class of the program: each attribute its class's own methods assign outside
  `__init__` becomes unknown (the code not followed may call those methods: callbacks, RPC);
* a class of the program handed over itself: it may have attributes of any name now
  (`models.attributes.class_lacks` decides absence no more);
* a function: the containers and instances its free names refer to are reached, and the names it
  rebinds (`global`, `nonlocal`) become unknown.

Reachable means through list/tuple/dict/set items, instance attributes, a bound method's receiver, a
function's free names and what an `Unknown` *holds*: the result of such a call holds what it was
handed (`RRef(self)` holds `self`; `Thread(target=self.run)` holds `self`), and so does every value
computed from it, so handing on `self.agent_rref` or calling `thread.join()` reaches `self` again.

Models say themselves what an API changes: nothing escapes through a modeled call. Instances of
modeled classes (layers, optimizers) keep what their models know. Each value made unknown names the
call it escaped to.
"""

from __future__ import annotations

import ast
import functools
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.runtime import FunctionVal, Scope
from pytea_ci.models.values import MISSING, OPAQUE, BoundMethod, ClassMethod, ClassVal, Instance, PropertyVal, StaticMethod, Unknown
from pytea_ci.shapes.dim import UNKNOWN
from pytea_ci.shapes.tensor import Origin

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_MAX_OBJECTS = 400  # objects visited per escape: a bound, so one call never costs more than this
_MAX_HOLDS = 16  # objects an Unknown remembers
_CONSTRUCTION = frozenset({"__init__", "__post_init__", "__new__", "__init_subclass__"})
ESCAPED = "changed by code not followed"  # reason of the item a havocked list gets


def _holdable(v: Any) -> bool:
    return isinstance(v, (list, dict, set, Instance, FunctionVal, BoundMethod)) or (
        isinstance(v, Unknown) and bool(v.holds)) or (isinstance(v, tuple) and any(_holdable(x) for x in v))


def handed(*values: Any) -> tuple[Any, ...]:
    """The objects of the program among `values` (arguments, a callee) that a result may refer to."""
    out: list[Any] = []
    seen: set[int] = set()
    for v in values:
        for x in (v.holds if isinstance(v, Unknown) else (v,)):
            if _holdable(x) and id(x) not in seen and len(out) < _MAX_HOLDS:
                seen.add(id(x))
                out.append(x)
    return tuple(out)


def escape(interp: "Interpreter", values: tuple[Any, ...], what: str) -> None:
    """Everything reachable from `values` was handed to `what`, code not followed: forget what it may
    change. Functions handed over stay registered (`interp.callbacks`): code not followed may call
    them later (`@trainer.on(...)` then `trainer.run()`), so every later escape reaches them again."""
    for v in values:
        if isinstance(v, ClassVal) and not v.native:
            v.ns[OPAQUE] = True  # a class handed over may be given attributes of any name there
        if isinstance(v, Unknown):
            interp.unknown_len.pop(id(v), None)  # code not followed may add or remove its items
    if not any(_holdable(v) for v in values) and not interp.callbacks:
        return
    origin = Origin(interp.span, f"may be changed by {what}, which is not followed")
    todo: list[Any] = [*values, *interp.callbacks]
    seen: set[int] = set()
    while todo and len(seen) < _MAX_OBJECTS:
        v = todo.pop()
        if id(v) in seen or not _holdable(v) and not isinstance(v, tuple):
            continue
        seen.add(id(v))
        todo.extend(_havoc_one(interp, v, origin))


def _havoc_one(interp: "Interpreter", v: Any, origin: Origin) -> list[Any]:
    """Forget what code not followed may change in `v` itself; return what is reachable from it."""
    if isinstance(v, list):
        if not any(isinstance(x, Unknown) and x.reason == ESCAPED for x in v):
            v.append(Unknown(ESCAPED, None, origin))
        interp.note_mutation(v)
        interp.mark_inexact(v)
        interp.known_len[id(v)] = interp.fresh("len", kind=UNKNOWN, lo=0, note=origin.what)
        return list(v)
    if isinstance(v, (set, dict)):
        interp.note_mutation(v)
        interp.mark_inexact(v)
        if isinstance(v, dict):
            interp.escaped.add(id(v))
        return list(v.values()) if isinstance(v, dict) else list(v)
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, Unknown):
        return list(v.holds)
    if isinstance(v, (BoundMethod, FunctionVal)) and len(interp.callbacks) < _MAX_HOLDS \
            and all(c is not v for c in interp.callbacks):
        interp.callbacks.append(v)
    if isinstance(v, BoundMethod):
        return [v.self_val, v.func]
    if isinstance(v, FunctionVal):
        return _function(interp, v, origin)
    if isinstance(v, Instance) and not v.cls.native:
        interp.escaped.add(id(v))  # it may hold attributes of any name now (`Interpreter.fully_known`)
        for name in _changed_by_methods(v.cls):
            if name in v.attrs or _class_value(v.cls, name):
                v.attrs[name] = Unknown(f"attribute {name} {ESCAPED}", None, origin)
        return list(v.attrs.values())
    return []


def _class_value(cls: ClassVal, name: str) -> bool:
    """A plain class attribute (a default the instance's methods may shadow), not a method."""
    found = cls.lookup(name)
    return found is not MISSING and not isinstance(found, (FunctionVal, StaticMethod, ClassMethod, PropertyVal))


def _changed_by_methods(cls: ClassVal) -> frozenset[str]:
    """Attributes the program's methods of `cls` (along its MRO) assign outside construction."""
    out: set[str] = set()
    for c in cls.mro():
        if c.native:
            continue
        for name, member in c.ns.items():
            fn = getattr(member, "func", getattr(member, "fget", member))
            if name not in _CONSTRUCTION and isinstance(fn, FunctionVal):
                out |= _assigned_attrs(fn.node)
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def _assigned_attrs(node: ast.AST) -> frozenset[str]:
    """`x.attr` targets assigned in a function (any receiver: a static method may name it `self` too)."""
    out: set[str] = set()
    for n in ast.walk(node):
        targets = n.targets if isinstance(n, ast.Assign) else (
            [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else [])
        for t in targets:
            out |= {x.attr for x in ast.walk(t) if isinstance(x, ast.Attribute) and isinstance(x.ctx, ast.Store)}
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def _free_names(node: ast.AST) -> tuple[frozenset[str], frozenset[str]]:
    """Names a function reads that it does not bind, and names it rebinds under `global`/`nonlocal`."""
    bound = {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}
    stores = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    outer = {name for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)) for name in n.names}
    loads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return frozenset(loads - bound - (stores - outer)), frozenset(outer & stores)


def _function(interp: "Interpreter", fn: FunctionVal, origin: Origin) -> list[Any]:
    """The objects a function handed to code not followed reaches by its free names; the names it
    rebinds in enclosing scopes become unknown."""
    free, rebound = _free_names(fn.node)
    out: list[Any] = []
    for name in sorted(free | rebound):
        home = _home(fn, name)
        if home is None:
            continue
        if name in rebound:
            home[name] = Unknown(f"name {name} {ESCAPED}", None, origin)
        elif _holdable(home[name]) and not isinstance(home[name], FunctionVal):
            out.append(home[name])
    return out


def _home(fn: FunctionVal, name: str) -> "dict[str, Any] | None":
    """The dict (an enclosing function's locals, else the module's globals) that binds `name`."""
    s: Scope | None = fn.closure
    while s is not None:
        if name in s.locals:
            return s.locals
        s = s.parent
    return fn.globals if name in fn.globals else None
