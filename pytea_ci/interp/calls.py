"""Calls of abstract values (a mixin of the interpreter): models of library APIs with their coverage
and origins, user functions and classes (argument binding, frames, generators, decorators), context
managers and `super()`."""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.contexts import cm_yield
from pytea_ci.interp.coroutines import handed_over, is_coroutine_function
from pytea_ci.interp.coverage import first_origin, origin_of_value
from pytea_ci.interp.escape import escape, handed
from pytea_ci.interp.installed import PackageBudget
from pytea_ci.interp.ops import tensor_method
from pytea_ci.interp.runtime import (THROUGH_UNKNOWN, BudgetExceeded, FunctionVal, PathEnd, ReturnSignal, Scope,
                                     SuperVal, UserException, same_value)
from pytea_ci.interp.stmts import raised_as
from pytea_ci.models.call_facets import after_call, before_call, is_tensor_op, of_tensor_library, reads_data
from pytea_ci.models.registry import lookup
from pytea_ci.models.values import (MISSING, Awaitable, BoundMethod, Builtin, ClassMethod, ClassVal, Instance, IterVal,
                                    Namespace, SizeVal, StaticMethod, Unknown,
                                    ValuesIndices)
from pytea_ci.shapes.tensor import Origin, Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter
from pytea_ci.interp.objects import TENSOR_METHOD, descriptor_method


def recursion_on_unknowns(frames: list[tuple[Any, ...]], fn: FunctionVal, args: tuple, kwargs: dict) -> bool:
    """A call of a function already running whose arguments say nothing more than the running call's:
    each is the same value, or a value not understood there and here (a walk down a folder listing,
    a tree read from a file). How deep CPython recurses then depends on data the analyzer does not
    know, so the call is not followed (its result is not known) instead of being recursed into, at
    full cost, until the depth budget ends the path."""
    running = next((frame[2] for frame in reversed(frames) if getattr(frame[1], "node", None) is fn.node), None)
    if running is None or len(running[0]) != len(args) or running[1].keys() != kwargs.keys():
        return False
    pairs = [*zip(running[0], args), *((running[1][k], v) for k, v in kwargs.items())]
    if any(not same_value(old, new) and not (isinstance(old, Unknown) and isinstance(new, Unknown))
           for old, new in pairs):
        return False
    return any(isinstance(new, Unknown) for _, new in pairs)


def _operands(args: tuple, kwargs: dict) -> list[Any]:
    """Arguments, one level into lists and tuples."""
    out: list[Any] = []
    for v in (*args, *kwargs.values()) if kwargs else args:
        if isinstance(v, (list, tuple)):
            out.extend(v)
        else:
            out.append(v)
    return out


def _shape_origin(operands: list[Any], span: Any) -> Origin | None:
    """The origin of the first tensor operand of unknown shape, or None."""
    for x in operands:
        if isinstance(x, Tensor) and x.shape is None:
            return origin_of_value(x, span)
    return None


def _opaque_operand(operands: list[Any]) -> bool:
    """An operand not understood that could be a tensor (strings, floats and bools cannot)."""
    return any(isinstance(x, Unknown) and x.pytype not in ("str", "float", "bool") for x in operands)


_SEQUENCES = (tuple, list, ValuesIndices, SizeVal)  # results whose items get origins (not named tuples)
_CARRIERS = (Unknown, Tensor, tuple, list)


def _result_origin(out: Any) -> Origin | None:
    """What made a tensor operation's result not understood (None: the operation computed it)."""
    if isinstance(out, Unknown) and out.pytype is None or isinstance(out, Tensor) and out.shape is None:
        return out.origin
    return None




class CallMixin:
    inherit: Origin | None  # the Interpreter's: origin of the unknown operand of the model being called
    model_name: str  # the Interpreter's: the model being called

    def attempt(self: "Interpreter", catch: "str | tuple[str, ...]", fn: Any, /, *args: Any) -> tuple[bool, Any]:
        try:
            return True, self.call(fn, *args)
        except UserException as e:
            if not raised_as(e, (catch,) if isinstance(catch, str) else catch):
                raise
            return False, None

    def call(self: "Interpreter", fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(fn, BoundMethod):
            if self.shared.installed is not None and isinstance(fn.self_val, ClassVal):  # what a package's source cannot give
                out = self.shared.installed.class_method(self, fn.self_val, getattr(fn.func, "name", ""), args, kwargs)
                if out is not MISSING:
                    return out
            return self.call(fn.func, fn.self_val, *args, **kwargs)
        if isinstance(fn, FunctionVal):
            return self.call_own(fn, args, kwargs)
        if isinstance(fn, Builtin):
            return self.call_builtin(fn, args, kwargs)
        if isinstance(fn, ClassVal):
            installed = self.shared.installed
            pkg = installed.entered(self, fn) if installed is not None else None
            if installed is not None and pkg is not None:  # a class of an installed package, under its budget
                return installed.enter(self, pkg, lambda: self.instantiate(fn, args, kwargs), (*args, *kwargs.values()))
            return self.instantiate(fn, args, kwargs)
        if isinstance(fn, Instance):
            m = fn.cls.lookup("__call__")
            if m is MISSING:
                return self.unknown_call(f"call of {fn.cls.name} instance", None, args, kwargs)
            return self.call(self.bind_member(fn, fn.cls, m), *args, **kwargs)
        if isinstance(fn, (StaticMethod, ClassMethod)):
            return self.call(fn.func, *args, **kwargs)
        if isinstance(fn, Namespace):
            ctor = lookup(f"{fn.qualname}.__new__")  # a modeled class kept as a namespace (torch.Tensor)
            if isinstance(ctor, Builtin):
                return self.call_builtin(ctor, args, kwargs)
            before_call(self.facts, fn.qualname, args, kwargs)  # an API not modeled may still place tensors
            return self.unknown_call(f"call of {fn.qualname}", None, args, kwargs, api=True)
        return self.unknown_call("call of unknown callable", fn, args, kwargs)

    def unknown_call(self: "Interpreter", reason: str, fn: Any, args: tuple, kwargs: dict, api: bool = False) -> Unknown:
        """The result of calling something not understood. With tensor arguments it is a tensor operation
        not checked (disabled by what made the callable); code handed to it is a launcher not followed,
        unless it is wrapped: the first argument of a call whose result is kept (`g = w(f)`, `@w`)."""
        origin = origin_of_value(fn, self.span) if isinstance(fn, Unknown) else None
        out = Unknown(reason, None, origin) if origin is not None else self.unknown(reason, api)
        given = (*args, *kwargs.values(), fn)
        escape(self, given, out.origin.what if out.origin is not None else reason)
        out.holds = handed(*given)  # what was handed to it, it may keep (interp/escape.py)
        operands = _operands(args, kwargs)
        if any(isinstance(x, Tensor) for x in operands) or (isinstance(fn, Unknown) and fn.pytype == TENSOR_METHOD):
            self.shared.coverage.op(self.span, out.origin)
        handed_over(self, operands, out.origin.what if out.origin is not None else reason)
        code = next((x for x in operands if isinstance(x, (FunctionVal, BoundMethod))), None)
        if code is not None and not (args and args[0] is code and self.span != self.discarded):
            name = getattr(getattr(code, "func", code), "name", "a function")
            made_by = out.origin.what if out.origin is not None else reason
            self.shared.coverage.end("launcher", self.span, f"{name}() is handed to {made_by}, which is not followed")
        return out

    def call_builtin(self: "Interpreter", fn: Builtin, args: tuple, kwargs: dict) -> Any:
        operands = _operands(args, kwargs)
        tensor_op = is_tensor_op(fn.name)
        if tensor_op:
            self.shared.coverage.library_used = True
        skipped = _shape_origin(operands, self.span) if tensor_op else None
        if skipped is not None:
            self.shared.coverage.op(self.span, skipped)
        saved = self.inherit, self.model_name
        self.inherit = inherited = first_origin(operands, self.span, 1)
        self.model_name = fn.name
        try:
            out = self.run_model(fn, args, kwargs)
        except (PathEnd, UserException):  # a check failed: the operation was checked
            if tensor_op and skipped is None and any(isinstance(x, Tensor) for x in operands):
                self.shared.coverage.op(self.span, None)
            raise
        finally:
            self.inherit, self.model_name = saved
        self.sites_passed.add(self.span)  # the model ran here without ending the path (interp/machine.py)
        if isinstance(out, (Unknown, Tensor, tuple, list, IterVal)):
            out = self.with_origin(out, fn.name, inherited)
            if inherited is None and of_tensor_library(fn.name):
                self.note_gave_up(fn.name, out)
        if tensor_op and skipped is None and (isinstance(out, Tensor) or _opaque_operand(operands)
                                              or any(isinstance(x, Tensor) for x in operands)):
            self.shared.coverage.op(self.span, None if reads_data(fn.name) else _result_origin(out))
        return out

    def with_origin(self: "Interpreter", out: Any, name: str, inherited: Origin | None, depth: int = 2) -> Any:
        """A model's result not understood gets an origin: the operands' first, else born here (also
        inside the tuples and lists it returns or iterates, `depth` levels down)."""
        if isinstance(out, Unknown) and out.origin is None:
            made = Unknown(out.reason, out.pytype, inherited or Origin(self.span, f"{name}: {out.reason}"))
            made.bounds, made.ratio = out.bounds, out.ratio
            return made
        if isinstance(out, Tensor) and out.shape is None and out.origin is None:
            return dataclasses.replace(out, origin=inherited or Origin(self.span, f"{name} result of unknown shape"))
        items = out.items if isinstance(out, IterVal) else out
        if depth and type(items) in _SEQUENCES and any(isinstance(x, _CARRIERS) for x in items):
            new = [self.with_origin(x, name, inherited, depth - 1) if isinstance(x, _CARRIERS) else x for x in items]
            if any(a is not b for a, b in zip(new, items)):
                if isinstance(out, IterVal):
                    out.items = new
                elif isinstance(out, tuple):
                    return type(out)(new)
                else:
                    out[:] = new
        return out

    def note_gave_up(self: "Interpreter", name: str, out: Any) -> None:
        """A model of a tensor library that answered "not understood" to known arguments: unmodeled."""
        o = _result_origin(out)
        if o is not None and o.span == self.span:
            key = name if o.what.startswith(name) else f"{name}: {o.what}"
            self.shared.unmodeled[key] = self.shared.unmodeled.get(key, 0) + 1

    def run_model(self: "Interpreter", fn: Builtin, args: tuple, kwargs: dict) -> Any:
        try:
            before_call(self.facts, fn.name, args, kwargs)
            # the facets the model declared: devices, dtype origins, layout, value ranges
            return after_call(self, fn.name, fn.fn(self, *args, **kwargs), args, kwargs)
        except (UserException, ReturnSignal):
            raise
        except Exception as e:  # a model that does not handle these arguments
            if isinstance(e, (PathEnd, BudgetExceeded, PackageBudget)) or self.config.strict:
                raise
            return self.unknown(f"model {fn.name} gave up: {type(e).__name__}", api=True)

    def instantiate(self: "Interpreter", cls: ClassVal, args: tuple, kwargs: dict) -> Any:
        factory = cls.lookup("__new_value__")  # a modeled `__new__` (named tuples, enums): the whole construction
        if isinstance(factory, Builtin):
            return self.call_builtin(factory, args, kwargs)
        init = cls.lookup("__init__")
        cov = self.shared.coverage
        key = self.module_key(cls)
        cov.building += key is not None
        try:
            inst = self.new_instance(cls, args, kwargs)
            if not isinstance(inst, Instance) or cls not in inst.cls.mro():
                return inst  # as `type.__call__`: `__init__` runs only on an instance of the class
            if init is not MISSING:
                self.call(init, inst, *args, **kwargs)
        finally:
            cov.building -= key is not None
        if key is not None and not cov.building:  # built by the program, not as a part of another module
            cov.modules_built.add(key)
        return inst

    def new_instance(self: "Interpreter", cls: ClassVal, args: tuple, kwargs: dict) -> Any:
        """`cls.__new__(cls, *args, **kwargs)` where the program's own class defines `__new__` (implicitly a
        static method; a `@classmethod` one gets the class twice, as CPython's `type.__call__` binds it),
        else a new instance (`object.__new__`)."""
        owner = next((c for c in cls.mro() if "__new__" in c.ns), None)
        if owner is None or owner.native:
            return Instance(cls)
        new = owner.ns["__new__"]
        if isinstance(new, ClassMethod):
            return self.call(new.func, cls, cls, *args, **kwargs)
        return self.call(new.func if isinstance(new, StaticMethod) else new, cls, *args, **kwargs)

    def module_key(self: "Interpreter", cls: ClassVal) -> tuple[str, str] | None:
        """(file as shown, class name) of a project `nn.Module` class, for the coverage records."""
        if cls.native or not cls.is_subclass_of("torch.nn.Module"):
            return None
        path = next((v.path for v in cls.ns.values() if isinstance(v, FunctionVal)), None)
        return (self.rel(path), cls.name) if path else None

    def call_own(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict, run_async: bool = False) -> Any:
        """Call a function of the program; `run_async`: run an `async def`'s body (it is awaited)."""
        if self.inherit is None and not self.model_name:
            return self.call_function(fn, args, kwargs, run_async)
        saved = self.inherit, self.model_name
        self.inherit, self.model_name = None, ""  # the program's own code mints its own origins
        try:
            return self.call_function(fn, args, kwargs, run_async)
        finally:
            self.inherit, self.model_name = saved

    def call_function(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict, run_async: bool = False) -> Any:
        if not run_async and is_coroutine_function(fn):
            return Awaitable(fn, args, kwargs)  # its body runs when it is awaited (interp/coroutines.py)
        installed = self.shared.installed
        pkg = installed.entered(self, fn) if installed is not None else None
        if installed is not None and pkg is not None:  # entering an installed package: under its budget
            return installed.enter(self, pkg, lambda: self.run_function(fn, args, kwargs), (*args, *kwargs.values()))
        return self.run_function(fn, args, kwargs)

    def run_function(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict) -> Any:
        over = self.shared.installed.overlay(self, fn) if self.shared.installed is not None else None
        if over is not None:  # a function of an installed package with a model
            return self.call_builtin(over, args, kwargs)
        if len(self.frames) >= self.config.budget.recursion:
            self.soft_budget("recursion depth")
            escape(self, (*args, *kwargs.values()), f"{fn.name}() past the recursion depth budget")
            return self.unknown("recursion depth")
        if recursion_on_unknowns(self.frames, fn, args, kwargs):
            what = f"{fn.name}() called again on values not understood (how deep it recurses is not known)"
            escape(self, (*args, *kwargs.values()), what)
            return self.unknown(what)
        scope = Scope(fn.globals, {}, fn.closure, func=fn)
        try:
            self.bind_args(fn, scope, args, kwargs)
        except TypeError:
            if THROUGH_UNKNOWN not in fn.attrs:
                raise UserException("TypeError") from None
            # what a decorator not understood returned may take other arguments (`as_validated_field`
            # makes a validator a field factory taking `default=`): its result is not known, not a TypeError
            escape(self, (*args, *kwargs.values()), f"{fn.name}() through a decorator not understood")
            return self.derived(f"{fn.name}() through a decorator not understood", fn.attrs[THROUGH_UNKNOWN])
        if fn.node.args.args and args:
            scope.self_arg = args[0]
            if fn.name == "forward" and isinstance(args[0], Instance):
                self.shared.coverage.forward_reached(self.module_key(args[0].cls), args[1:], kwargs, self.span)
        node = fn.node
        self.frames.append((self.span, fn, (args, kwargs)))
        saved_path = self.cur_path
        self.cur_path = fn.path
        if fn.is_generator:
            self.yields.append([])
            self.gen_reps.append([len(self.frames), False, 0, self.rep_depth])
        depth = len(self.gen_reps)
        try:
            if isinstance(node, ast.Lambda):
                return self.eval(node.body, scope)
            try:
                self.exec_block(node.body, scope)
            except ReturnSignal as r:
                if not fn.is_generator:
                    return r.value
            if fn.is_generator:
                return self.generator_result()
            return None
        finally:
            if fn.is_generator and len(self.gen_reps) == depth:  # left by an exception: drop its collection
                self.yields.pop()
                self.gen_reps.pop()
            self.frames.pop()
            self.cur_path = saved_path

    def generator_result(self: "Interpreter") -> Any:
        """What a generator yielded, collected eagerly; when a loop of its body ran representative
        iterations (a long range, a loader, a value not understood), its items are representatives too."""
        items = self.yields.pop()
        _, reps, certain, _ = self.gen_reps.pop()
        return IterVal(items, truncated=True, certain=certain) if reps else items

    def yield_value(self: "Interpreter", value: Any) -> None:
        if cm_yield(self, value):  # a contextmanager's yield: the `with` body runs there
            return
        if self.yields:
            self.yields[-1].append(value)
            if self.gen_reps and self.gen_reps[-1][3] == self.rep_depth:
                self.gen_reps[-1][2] += 1  # not inside a loop's representative iteration: every run yields it

    def note_representatives(self: "Interpreter") -> None:
        """A loop ran representatives of its iterations: if it is a generator's own, so are its items."""
        if self.gen_reps and self.gen_reps[-1][0] == len(self.frames):
            self.gen_reps[-1][1] = True

    def bind_args(self: "Interpreter", fn: FunctionVal, scope: Scope, args: tuple, kwargs: dict) -> None:
        a = fn.node.args
        positional = [p.arg for p in a.posonlyargs + a.args]
        values: dict[str, Any] = {}
        for name, v in zip(positional, args):
            values[name] = v
        extra = list(args[len(positional):])
        if extra and a.vararg is None:
            raise TypeError("too many positional arguments")
        rest_kw: dict[str, Any] = {}
        kwonly = [p.arg for p in a.kwonlyargs]
        for k, v in kwargs.items():
            if (k in positional and k not in [p.arg for p in a.posonlyargs]) or k in kwonly:
                if k in values:
                    raise TypeError(f"multiple values for {k}")
                values[k] = v
            elif a.kwarg is not None:
                rest_kw[k] = v
            else:
                raise TypeError(f"unexpected keyword {k}")
        defaults = dict(zip(positional[len(positional) - len(fn.defaults):], fn.defaults))
        for name in positional:
            if name not in values:
                if name not in defaults:
                    raise TypeError(f"missing argument {name}")
                values[name] = defaults[name]
        for p, d, declared in zip(a.kwonlyargs, fn.kw_defaults, a.kw_defaults):
            if p.arg not in values:
                if declared is None:  # no default in the source (a default of None is a default)
                    raise TypeError(f"missing keyword argument {p.arg}")
                values[p.arg] = d
        if a.vararg is not None:
            values[a.vararg.arg] = tuple(extra)
        if a.kwarg is not None:
            values[a.kwarg.arg] = rest_kw
        scope.locals.update(values)
        if self.shared.editor.recorder is not None:
            for p in a.posonlyargs + a.args + a.kwonlyargs:
                self.shared.editor.binding(self.span_of(p), p.arg, values.get(p.arg))

    def apply_decorator(self: "Interpreter", dec: Any, fn: Any) -> Any:
        if isinstance(dec, Unknown):  # unknown decorators call through; they may register it (a callback)
            escape(self, (fn,), dec.origin.what if dec.origin is not None else "a decorator not understood")
            if isinstance(fn, FunctionVal):  # it may also have changed the signature (calls.py, `call_function`)
                fn.attrs[THROUGH_UNKNOWN] = dec
            return fn
        result = self.call(dec, fn)
        return fn if isinstance(result, Unknown) else result

    def init_subclass(self: "Interpreter", cls: ClassVal, kwargs: dict[str, Any]) -> Any:
        """What creating a class runs after its body: the class hook of a modeled base (a model of
        what its metaclass does: NamedTuple fields, Enum members), then the nearest user
        `__init_subclass__` (implicitly a classmethod; registries use it). Before them, as `type.__new__`
        does, each descriptor of the body learns its owner and name (`__set_name__`)."""
        for name, v in list(cls.ns.items()):
            set_name = descriptor_method(v, "__set_name__")
            if set_name is not None:
                self.call(self.bind_member(v, v.cls, set_name), cls, name)
        for c in cls.mro()[1:]:
            hook = c.ns.get("__class_hook__")
            if isinstance(hook, Builtin):
                return self.call_builtin(hook, (cls,), kwargs)
        for c in cls.mro()[1:]:
            found = c.ns.get("__init_subclass__")
            if isinstance(found, (FunctionVal, ClassMethod)):
                self.call(getattr(found, "func", found), cls, **kwargs)
                break
        return cls

    def enter_context(self: "Interpreter", mgr: Any, name: str = "__enter__") -> Any:
        if isinstance(mgr, Instance):
            enter = mgr.cls.lookup(name)
            if enter is not MISSING:
                return self.call(self.bind_member(mgr, mgr.cls, enter))
            return mgr if name == "__enter__" else self.unknown(f"{name} of {mgr.cls.name} not found")
        if isinstance(mgr, Unknown):  # what it gives is computed from it: its origin (a temporary file's)
            return self.derived("context manager value", mgr)
        return self.unknown("context manager value")

    def make_super(self: "Interpreter", scope: Scope, args: list) -> Any:
        if len(args) == 2 and isinstance(args[0], ClassVal):
            return SuperVal(args[0], args[1])
        s: Scope | None = scope
        while s is not None and s.func is None:
            s = s.parent
        if s is None or s.func is None or s.func.owner is None:
            return self.unknown("super() outside a method")
        return SuperVal(s.func.owner, s.self_arg)

    def call_tensor_op(self: "Interpreter", t: Tensor, name: str, args: tuple) -> Any:
        m = tensor_method(t, name)
        if m is None:
            lib = "numpy.ndarray" if t.lib == "numpy" else "torch.Tensor"
            return self.unknown_call(f"{lib}.{name}", None, (t, *args), {}, api=True)
        return self.call_builtin(m, (t,) + tuple(args), {})

