"""Calls, attributes, items and iteration over abstract values (a mixin of the interpreter)."""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.coverage import first_origin, origin_of_value
from pytea_ci.interp.escape import escape, handed
from pytea_ci.interp.installed import PackageBudget
from pytea_ci.interp.ops import is_concrete, tensor_method
from pytea_ci.interp.function_attrs import attr_of_bound_method, attr_of_function, attr_of_property
from pytea_ci.interp.runtime import (BudgetExceeded, FunctionVal, ModuleVal, PathEnd, ReturnSignal, Scope, SuperVal,
                                     UserException)
from pytea_ci.interp.join import one_of
from pytea_ci.models import read_keys
from pytea_ci.models.call_facets import after_call, before_call, is_tensor_op, of_tensor_library, reads_data
from pytea_ci.models.registry import get as registry_get
from pytea_ci.models.registry import get_property, lookup
from pytea_ci.models.values import (MISSING, BoundMethod, Builtin, ClassMethod, ClassVal, DType, Instance, IterVal,
                                    NamedTupleVal, Namespace, PropertyVal, RangeVal, SizeVal, StaticMethod, Unknown,
                                    ValuesIndices)
from pytea_ci.shapes.dim import ITERATION, Dim, PInt, Sym, Term, dmax, is_dim
from pytea_ci.shapes.tensor import Origin, Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

TENSOR_METHOD = "tensor method"  # pytype of an unmodeled tensor method: calling it is a tensor operation


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


_PY_METHOD_TYPES = (list, dict, tuple, str, int, float, bool, set, frozenset, bytes)
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add", "discard"}


class ObjectMixin:
    inherit: Origin | None  # the Interpreter's: origin of the unknown operand of the model being called
    model_name: str  # the Interpreter's: the model being called

    # ----- attributes -------------------------------------------------------------------------
    def getattr(self: "Interpreter", obj: Any, name: str) -> Any:
        for kind, handler in _ATTR_HANDLERS:
            if isinstance(obj, kind):
                return handler(self, obj, name)
        if isinstance(obj, _PY_METHOD_TYPES) and not isinstance(obj, Term):
            return self.attr_of_python_value(obj, name)
        if isinstance(obj, Term):
            return self.unknown(f"int.{name}")
        if isinstance(obj, DType) and (dp := get_property(f"builtins.DType.{name}")) is not None:
            return dp.fn(self, obj)  # `x.dtype.is_floating_point`
        return self.derived(f"attribute {name}", obj)

    def attr_of_instance(self: "Interpreter", obj: Instance, name: str) -> Any:
        if name in obj.attrs:
            return obj.attrs[name]
        if name == "__class__":
            return obj.cls
        if name == "__dict__":
            return obj.attrs
        found = obj.cls.lookup(name)
        if found is not MISSING:
            return self.bind_member(obj, obj.cls, found)
        getter = obj.cls.lookup("__getattr__")
        if getter is not MISSING:
            return self.call(getter, obj, name)
        out = self.unknown(f"attribute {obj.cls.name}.{name}", api=obj.cls.native)
        if obj.cls.lookup("__opaque_base__") is True:
            out.holds = (obj,)  # a method inherited from a base not followed: calling it hands it `obj`
        return out

    def attr_of_tensor(self: "Interpreter", obj: Tensor, name: str) -> Any:
        lib = "numpy.ndarray" if obj.lib == "numpy" else "torch.Tensor"
        p = get_property(f"{lib}.{name}")
        if p is not None:
            return p.fn(self, obj)
        m = tensor_method(obj, name)
        return BoundMethod(obj, m) if m is not None else self.unknown(f"{lib}.{name}", api=True, pytype=TENSOR_METHOD)

    def attr_of_values_indices(self: "Interpreter", obj: ValuesIndices, name: str) -> Any:
        if name in obj.fields:
            return obj[obj.fields.index(name)]
        return self.attr_of_python_value(obj, name)

    def attr_of_named_tuple(self: "Interpreter", obj: NamedTupleVal, name: str) -> Any:
        fields = obj.cls.lookup("_fields")
        if isinstance(fields, tuple) and name in fields and fields.index(name) < len(obj):
            return obj[fields.index(name)]
        if name == "__class__":
            return obj.cls
        found = obj.cls.lookup(name)
        if found is not MISSING:
            return self.bind_member(obj, obj.cls, found)
        return self.attr_of_python_value(obj, name)

    def attr_of_class(self: "Interpreter", obj: ClassVal, name: str) -> Any:
        found = obj.lookup(name)
        if found is MISSING:
            special = {"__name__": obj.name, "__qualname__": obj.name, "__dict__": obj.ns,
                       "__mro__": tuple(obj.mro()), "__bases__": obj.bases}
            return special[name] if name in special else self.unknown(f"class attribute {obj.name}.{name}")
        if isinstance(found, ClassMethod):
            return BoundMethod(obj, found.func)
        if isinstance(found, StaticMethod):
            return found.func
        return found

    def attr_of_module(self: "Interpreter", obj: ModuleVal, name: str) -> Any:
        if name in obj.globals:
            return obj.globals[name]
        if name == "__dict__":
            if self.installed is not None:
                self.installed.all_names(self, obj)
            return obj.globals
        sub = self.try_submodule(obj, name)
        if sub is None and self.installed is not None:  # an installed package's lazy exports
            sub = self.installed.module_attr(self, obj, name)
        return sub if sub is not None else self.unknown(f"{obj.name}.{name}")

    def attr_of_namespace(self: "Interpreter", obj: Namespace, name: str) -> Any:
        qual = f"{obj.qualname}.{name}"
        if qual == "sys.modules":  # the interpreter's own table of the program's modules
            return self.module_table()
        found = lookup(qual)
        if isinstance(found, Unknown) and found.origin is None:  # a modeled constant not understood
            return Unknown(found.reason, found.pytype, Origin(self.span, found.reason or qual))
        return self.unknown(qual, api=True) if found is MISSING else found

    def attr_of_super(self: "Interpreter", obj: SuperVal, name: str) -> Any:
        mro = obj.self_val.mro() if isinstance(obj.self_val, ClassVal) else (
            obj.self_val.cls.mro() if isinstance(obj.self_val, (Instance, NamedTupleVal)) else obj.owner.mro())
        for c in mro[mro.index(obj.owner) + 1:] if obj.owner in mro else []:
            if name in c.ns:
                return self.bind_member(obj.self_val, c, c.ns[name])
        base = registry_get("builtins.object")  # every class ends with `object`: its `__setattr__`, ...
        if isinstance(base, ClassVal) and name in base.ns and name != "__init__":
            return self.bind_member(obj.self_val, base, base.ns[name])
        return self.unknown(f"super().{name}")

    def attr_of_builtin(self: "Interpreter", obj: Builtin, name: str) -> Any:
        p = get_property(f"{obj.name}.{name}")
        return p.fn(self, obj) if p is not None else self.unknown(f"{obj.name}.{name}")

    def attr_of_python_value(self: "Interpreter", obj: Any, name: str) -> Any:
        p = get_property(f"builtins.{type(obj).__name__}.{name}")
        if p is not None:
            return p.fn(self, obj)
        if hasattr(obj, name) and not name.startswith("_"):
            return BoundMethod(obj, Builtin(f"{type(obj).__name__}.{name}", _py_method(name)))
        return self.unknown(f"{type(obj).__name__}.{name}")

    def bind_member(self: "Interpreter", obj: Any, cls: ClassVal, found: Any) -> Any:
        if isinstance(found, (FunctionVal, Builtin)):
            return BoundMethod(obj, found)
        if isinstance(found, StaticMethod):
            return found.func
        if isinstance(found, ClassMethod):
            return BoundMethod(obj.cls if isinstance(obj, Instance) else cls, found.func)
        if isinstance(found, PropertyVal):
            return self.call(found.fget, obj)
        return found

    def setattr(self: "Interpreter", obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, Instance):
            prop = obj.cls.lookup(name)
            if isinstance(prop, PropertyVal):
                if isinstance(prop.fset, (FunctionVal, BoundMethod)):
                    self.call(prop.fset, obj, value)
                return
            if obj.cls.lookup("__frozen__") is True:  # a frozen dataclass
                raise UserException("FrozenInstanceError")
            setter = obj.cls.lookup("__setattr__")
            if isinstance(setter, FunctionVal):
                self.call(setter, obj, name, value)
                return
            obj.attrs[name] = value
        elif isinstance(obj, ClassVal):
            obj.ns[name] = value
        elif isinstance(obj, ModuleVal):
            obj.globals[name] = value

    # ----- items --------------------------------------------------------------------------------
    def getitem(self: "Interpreter", obj: Any, idx: Any) -> Any:
        if isinstance(obj, Tensor):
            return self.call_tensor_op(obj, "__getitem__", (idx,))
        if isinstance(obj, (list, tuple, str)):
            if isinstance(idx, int) or (isinstance(idx, slice) and is_concrete((idx.start, idx.stop, idx.step))):
                if isinstance(idx, int) and id(obj) in self.inexact:  # its items are representatives
                    return self.derived("item of a list whose length is not known", *obj)
                try:
                    return self.same_exactness(obj, obj[idx]) if isinstance(idx, slice) else obj[idx]
                except IndexError:
                    if isinstance(obj, SizeVal) and isinstance(idx, int) and not self.expecting:
                        self.report_rank_index(len(obj), idx)
                    raise UserException("IndexError") from None
                except TypeError:
                    raise UserException("TypeError") from None
            if not isinstance(obj, str) and not isinstance(idx, slice):
                return one_of(self, list(obj), "index with an unknown position")
            return self.unknown("index with an unknown position")
        if isinstance(obj, dict):
            try:
                return obj[idx]
            except KeyError:
                if is_concrete(idx) and is_concrete(list(obj.keys())) and id(obj) not in self.inexact:
                    raise UserException("KeyError") from None
                if id(obj) in self.escaped:
                    return self.unknown(f"dict item {idx!r}, which code not followed may have set")
                return self.some_value(list(obj.values()), "dict item")
            except TypeError:
                return self.unknown("dict item with unhashable key")
        if isinstance(obj, Instance):
            m = obj.cls.lookup("__getitem__")
            if m is not MISSING:
                return self.call(self.bind_member(obj, obj.cls, m), idx)
            return self.unknown(f"{obj.cls.name}[...]")
        if isinstance(obj, ClassVal):
            members = obj.lookup("__members__")  # Enum["NAME"]
            if isinstance(members, dict):
                return members[idx] if idx in members else self.unknown(f"{obj.name}[...]")
            return obj  # typing generics such as List[int]
        if isinstance(obj, Unknown) and (keyed := read_keys.subscript(self, obj, idx)) is not None:
            return keyed  # one value per key path of a document read at run time
        return self.derived("subscript", obj, idx)

    def report_rank_index(self: "Interpreter", rank: int, idx: int) -> None:
        """`x.shape[i]` / `x.size()[i]` past the tensor's rank: an IndexError on every run that gets here."""
        from pytea_ci.diagnostics import Severity
        from pytea_ci.diagnostics.rules import INVALID_ARGUMENT, shape_index
        from pytea_ci.interp.runtime import PathEnd

        self.emit(INVALID_ARGUMENT, Severity.ERROR, INVALID_ARGUMENT.message(f"shape[{idx}]", shape_index(idx, rank)))
        raise PathEnd()

    def some_value(self: "Interpreter", values: list[Any], what: str) -> Any:
        """One of `values`, not knowing which: a fresh int when they are all ints, the common value
        when they are all equal, else Unknown."""
        if values and all(is_dim(v) for v in values):
            return self.fresh("item")
        if values and all(_same_value(values[0], v) for v in values):
            return values[0]
        return self.unknown(what)

    def setitem(self: "Interpreter", obj: Any, idx: Any, value: Any) -> None:
        if isinstance(obj, Tensor):
            self.call_tensor_op(obj, "__setitem__", (idx, value))
        elif isinstance(obj, list):
            if isinstance(idx, int) and not isinstance(idx, bool) or isinstance(idx, slice) and is_concrete((idx.start, idx.stop, idx.step)):
                try:
                    obj[idx] = value
                except (IndexError, TypeError) as e:
                    raise UserException(type(e).__name__) from None
                self.note_mutation(obj)
            else:
                self.mark_inexact(obj)
        elif isinstance(obj, dict):
            try:
                obj[idx] = value
            except TypeError:
                pass
        elif isinstance(obj, Instance):
            m = obj.cls.lookup("__setitem__")
            if m is not MISSING:
                self.call(self.bind_member(obj, obj.cls, m), idx, value)

    # ----- calls --------------------------------------------------------------------------------
    def call(self: "Interpreter", fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(fn, BoundMethod):
            if self.installed is not None and isinstance(fn.self_val, ClassVal):  # what a package's source cannot give
                out = self.installed.class_method(self, fn.self_val, getattr(fn.func, "name", ""), args, kwargs)
                if out is not MISSING:
                    return out
            return self.call(fn.func, fn.self_val, *args, **kwargs)
        if isinstance(fn, FunctionVal):
            if self.inherit is None and not self.model_name:
                return self.call_function(fn, args, kwargs)
            saved = self.inherit, self.model_name
            self.inherit, self.model_name = None, ""  # the program's own code mints its own origins
            try:
                return self.call_function(fn, args, kwargs)
            finally:
                self.inherit, self.model_name = saved
        if isinstance(fn, Builtin):
            return self.call_builtin(fn, args, kwargs)
        if isinstance(fn, ClassVal):
            installed = self.installed
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
        not checked (disabled by what made the callable); code handed to it is a launcher not followed."""
        origin = origin_of_value(fn, self.span) if isinstance(fn, Unknown) else None
        out = Unknown(reason, None, origin) if origin is not None else self.unknown(reason, api)
        given = (*args, *kwargs.values(), fn)
        escape(self, given, out.origin.what if out.origin is not None else reason)
        out.holds = handed(*given)  # what was handed to it, it may keep (interp/escape.py)
        operands = _operands(args, kwargs)
        if any(isinstance(x, Tensor) for x in operands) or (isinstance(fn, Unknown) and fn.pytype == TENSOR_METHOD):
            self.shared.coverage.op(self.span, out.origin)
        code = next((x for x in operands if isinstance(x, (FunctionVal, BoundMethod))), None)
        if code is not None:
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
            return Unknown(out.reason, out.pytype, inherited or Origin(self.span, f"{name}: {out.reason}"))
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
            if isinstance(e, (PathEnd, BudgetExceeded, PackageBudget)) or self.strict:
                raise
            return self.unknown(f"model {fn.name} gave up: {type(e).__name__}", api=True)

    def instantiate(self: "Interpreter", cls: ClassVal, args: tuple, kwargs: dict) -> Any:
        factory = cls.lookup("__new_value__")  # a modeled `__new__` (named tuples, enums): the whole construction
        if isinstance(factory, Builtin):
            return self.call_builtin(factory, args, kwargs)
        inst = Instance(cls)
        init = cls.lookup("__init__")
        cov = self.shared.coverage
        key = self.module_key(cls)
        cov.building += key is not None
        try:
            if init is not MISSING:
                self.call(init, inst, *args, **kwargs)
        finally:
            cov.building -= key is not None
        if key is not None and not cov.building:  # built by the program, not as a part of another module
            cov.modules_built.add(key)
        return inst

    def module_key(self: "Interpreter", cls: ClassVal) -> tuple[str, str] | None:
        """(file as shown, class name) of a project `nn.Module` class, for the coverage records."""
        if cls.native or not cls.is_subclass_of("torch.nn.Module"):
            return None
        path = next((v.path for v in cls.ns.values() if isinstance(v, FunctionVal)), None)
        return (self.rel(path), cls.name) if path else None

    def call_function(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict) -> Any:
        installed = self.installed
        pkg = installed.entered(self, fn) if installed is not None else None
        if installed is not None and pkg is not None:  # entering an installed package: under its budget
            return installed.enter(self, pkg, lambda: self.run_function(fn, args, kwargs), (*args, *kwargs.values()))
        return self.run_function(fn, args, kwargs)

    def run_function(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict) -> Any:
        over = self.installed.overlay(self, fn) if self.installed is not None else None
        if over is not None:  # a function of an installed package with a model
            return self.call_builtin(over, args, kwargs)
        if len(self.frames) >= self.budget.recursion:
            self.soft_budget("recursion depth")
            escape(self, (*args, *kwargs.values()), f"{fn.name}() past the recursion depth budget")
            return self.unknown("recursion depth")
        scope = Scope(fn.globals, {}, fn.closure, func=fn)
        try:
            self.bind_args(fn, scope, args, kwargs)
        except TypeError:
            raise UserException("TypeError") from None
        if fn.node.args.args and args:
            scope.self_arg = args[0]
        node = fn.node
        self.frames.append((self.span, fn))
        saved_path = self.cur_path
        self.cur_path = fn.path
        if fn.is_generator:
            self.yields.append([])
            self.gen_reps.append([len(self.frames), False])
        depth = len(self.gen_reps)
        try:
            if isinstance(node, ast.Lambda):
                return self.eval(node.body, scope)
            try:
                self.exec_block(node.body, scope)
            except ReturnSignal as r:
                if not fn.is_generator:
                    self._returned(fn, args, kwargs)
                    return r.value
            if fn.is_generator:
                return self.generator_result()
            self._returned(fn, args, kwargs)
            return None
        finally:
            if fn.is_generator and len(self.gen_reps) == depth:  # left by an exception: drop its collection
                self.yields.pop()
                self.gen_reps.pop()
            self.frames.pop()
            self.cur_path = saved_path

    def _returned(self: "Interpreter", fn: FunctionVal, args: tuple, kwargs: dict) -> None:
        if fn.name == "forward" and args and isinstance(args[0], Instance):
            self.shared.coverage.forward_returned(self.module_key(args[0].cls), args[1:], kwargs, self.span)

    def generator_result(self: "Interpreter") -> Any:
        """What a generator yielded, collected eagerly; when a loop of its body ran representative
        iterations (a long range, a loader, a value not understood), its items are representatives too."""
        items = self.yields.pop()
        _, reps = self.gen_reps.pop()
        return IterVal(items, truncated=True) if reps else items

    def yield_value(self: "Interpreter", value: Any) -> None:
        if self.yields:
            self.yields[-1].append(value)

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
        if self.editor.recorder is not None:
            for p in a.posonlyargs + a.args + a.kwonlyargs:
                self.editor.binding(self.span_of(p), p.arg, values.get(p.arg))

    def apply_decorator(self: "Interpreter", dec: Any, fn: Any) -> Any:
        if isinstance(dec, Unknown):  # unknown decorators call through; they may register it (a callback)
            escape(self, (fn,), dec.origin.what if dec.origin is not None else "a decorator not understood")
            return fn
        result = self.call(dec, fn)
        return fn if isinstance(result, Unknown) else result

    def init_subclass(self: "Interpreter", cls: ClassVal, kwargs: dict[str, Any]) -> Any:
        """What creating a class runs after its body: the class hook of a modeled base (a model of
        what its metaclass does: NamedTuple fields, Enum members), then the nearest user
        `__init_subclass__` (implicitly a classmethod; registries use it)."""
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

    def enter_context(self: "Interpreter", mgr: Any) -> Any:
        if isinstance(mgr, Instance):
            enter = mgr.cls.lookup("__enter__")
            if enter is not MISSING:
                return self.call(self.bind_member(mgr, mgr.cls, enter))
            return mgr
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

    # ----- iteration ----------------------------------------------------------------------------
    def loop_items(self: "Interpreter", v: Any) -> tuple[list[Any], bool]:
        """The values a `for` loop body runs with, and whether iterations were left out. A value
        iterated an unknown number of times is never iterated zero times for certain: with no
        representative item, the body runs once with an item not known (DESIGN §3)."""
        items, truncated = self.iteration_of(v)
        if truncated and not items:
            items = [self.derived("an item of an iteration not followed", v)]
        return items, truncated

    def iteration_of(self: "Interpreter", v: Any) -> tuple[list[Any], bool]:
        if isinstance(v, IterVal):
            return v.items, v.truncated
        if isinstance(v, RangeVal):
            return self.range_items(v)
        if isinstance(v, (list, tuple)):
            inexact = id(v) in self.inexact
            return list(v), inexact
        if isinstance(v, (str, bytes)):
            return list(v), False  # characters; the ints of a bytes value (`list(s.encode())`)
        if isinstance(v, (set, frozenset)):
            return list(v), id(v) in self.inexact
        if isinstance(v, dict):
            return list(v.keys()), id(v) in self.inexact
        if isinstance(v, Instance):
            it = v.cls.lookup("__iter__")
            if it is not MISSING:
                return self.iteration_of(self.call(self.bind_member(v, v.cls, it)))
            return [self.unknown(f"iteration over {v.cls.name}")], True
        if isinstance(v, Tensor):
            return self.iteration_of(self.call_tensor_op(v, "__iter__", ()))
        if isinstance(v, ClassVal) and isinstance(members := v.lookup("__members__"), dict):
            return list(members.values()), False  # the members of an Enum
        return [self.derived("iteration over unknown", v)], True

    def range_items(self: "Interpreter", r: RangeVal) -> tuple[list[Any], bool]:
        if all(isinstance(x, int) for x in (r.start, r.stop, r.step)):
            rng = range(int(r.start), int(r.stop), int(r.step))
            n = len(rng)
            if n <= self.budget.unroll:
                return [PInt(i, self.span, "loop index") for i in rng], False
            return [PInt(rng[0], self.span, "loop index"), PInt(rng[1], self.span, "loop index"),
                    PInt(rng[-1], self.span, "loop index")], True
        i = self.fresh("i", kind=ITERATION, lo=None, note="loop index")
        self.pc.append(_le(r.start, i))
        self.pc.append(_lt(i, r.stop))
        return [i], True

    def iterate(self: "Interpreter", v: Any) -> "list[Any] | None":
        if isinstance(v, (list, tuple, dict, set, frozenset)) and id(v) in self.inexact:
            return None
        items, truncated = self.loop_items(v)
        return None if truncated else items

    def known_length(self: "Interpreter", v: Any) -> "Dim | None":
        """The number of items of a list, tuple or concrete range, also of a list holding only
        representatives of its items (a comprehension over a long range); None when not known."""
        if isinstance(v, RangeVal) and all(isinstance(x, int) for x in (v.start, v.stop, v.step)) and v.step:
            return len(range(int(v.start), int(v.stop), int(v.step)))
        if isinstance(v, RangeVal) and v.step == 1 and is_dim(v.start) and is_dim(v.stop):
            n = v.stop - v.start  # a symbolic stop (`range(random.randint(3, 5))`): stop - start items, at least 0
            low = v.stop.lo if isinstance(v.stop, Sym) and isinstance(v.start, int) else None
            return n if low is not None and low >= v.start else dmax(n, 0)
        if isinstance(v, (list, tuple)):
            return self.known_len.get(id(v)) if id(v) in self.inexact else len(v)
        return None

    def length_of(self: "Interpreter", lst: "list[Any] | tuple[Any, ...]") -> Dim:
        """The length of a list or tuple; of one built over iterations left out, a symbol (at least
        its representatives), the same one until the list changes."""
        n = self.known_length(lst)
        if n is None:
            n = self.fresh("len", lo=len(lst), note="items of a list built in a loop not followed to its end")
            self.known_len[id(lst)] = n
        return n

    def mark_inexact(self: "Interpreter", lst: Any) -> None:
        """A list, tuple, dict or set that holds only some of its items (built over iterations
        left out): its length is not known, and a missing key or index is not an error."""
        self.known_len.pop(id(lst), None)
        self.rep_positions.pop(id(lst), None)
        self.inexact.add(id(lst))
        self.keepalive.append(lst)

    def same_exactness(self: "Interpreter", source: Any, made: Any) -> Any:
        """`made` (built from `source`), marked inexact when `source` is."""
        if id(source) in self.inexact:
            self.mark_inexact(made)
        return made

    def same_items(self: "Interpreter", source: Any, made: Any) -> Any:
        """`made`, a copy of the items of `source`: inexact, with the same known length, when `source` is."""
        if id(source) in self.inexact:
            n, at = self.known_len.get(id(source)), self.rep_positions.get(id(source))
            self.mark_inexact(made)
            if n is not None:
                self.known_len[id(made)] = n
            if at is not None:
                self.rep_positions[id(made)] = at
        return made

    def sized_items(self: "Interpreter", made: Any, n: Dim) -> Any:
        """`made`, representatives of a list of `n` items: inexact, with known length `n`."""
        self.mark_inexact(made)
        self.known_len[id(made)] = n
        return made

    def item_positions(self: "Interpreter", source: Any, count: int) -> "tuple[int, ...] | None":
        """Where the `count` representative items a loop over `source` runs with sit among all of its
        items (a long concrete range: its first, second and last), when known."""
        if isinstance(source, RangeVal) and all(isinstance(x, int) for x in (source.start, source.stop, source.step)):
            n = len(range(int(source.start), int(source.stop), int(source.step)))
            return (0, 1, n - 1) if count == 3 and n > 3 else None
        if isinstance(source, (list, tuple)):
            at = self.rep_positions.get(id(source)) if id(source) in self.inexact else tuple(range(len(source)))
            return at if at is not None and len(at) == count else None
        if isinstance(source, IterVal) and source.indices is not None and all(isinstance(i, int) for i in source.indices):
            return tuple(source.indices) if len(source.indices) == count else None
        return None

    def positions(self: "Interpreter", lst: Any) -> "tuple[int, ...] | None":
        """Positions of the items of an inexact list among all of its items, when known."""
        return self.rep_positions.get(id(lst))

    def note_mutation(self: "Interpreter", lst: Any) -> None:
        self.known_len.pop(id(lst), None)  # a list changed after it was built: its known length is gone
        self.rep_positions.pop(id(lst), None)
        if self.loop_mutations and isinstance(lst, list):
            self.loop_mutations[-1].add(id(lst))
            self.keepalive.append(lst)


def _le(a: Any, b: Any) -> Any:
    from pytea_ci.shapes.pred import le

    return le(a, b)


def _lt(a: Any, b: Any) -> Any:
    from pytea_ci.shapes.pred import lt

    return lt(a, b)


def _same_value(a: Any, b: Any) -> bool:
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:
        return False


def _py_method(name: str) -> Any:
    """A Builtin body calling a real method of a concrete Python value (pure for immutable types)."""

    def run(ctx: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(obj, list) and name in _MUTATORS:
            ctx.note_mutation(obj)
            if name in ("append", "insert") or is_concrete(args) or name != "extend":
                pass
            if name == "extend":
                items = ctx.iterate(args[0]) if args else []
                if items is None:
                    if isinstance(args[0], (list, tuple)):
                        obj.extend(args[0])  # its representatives (and their origins) are this list's too
                    ctx.mark_inexact(obj)
                    return None
                obj.extend(items)
                return None
        if not isinstance(obj, (list, dict, set)) and not (is_concrete(args) and is_concrete(kwargs)):
            return ctx.unknown(f"{type(obj).__name__}.{name} with unknown arguments")
        try:
            result = getattr(obj, name)(*args, **kwargs)
        except Exception as e:
            if is_concrete(obj) and is_concrete(args):
                raise UserException(type(e).__name__) from None
            return ctx.unknown(f"{type(obj).__name__}.{name}")
        if isinstance(result, (type({}.keys()), type({}.values()), type({}.items()))):
            return list(result)
        return result

    return run


_ATTR_HANDLERS: list[tuple[type, Any]] = [
    (Instance, ObjectMixin.attr_of_instance), (Tensor, ObjectMixin.attr_of_tensor),
    (ClassVal, ObjectMixin.attr_of_class), (ModuleVal, ObjectMixin.attr_of_module),
    (Namespace, ObjectMixin.attr_of_namespace), (SuperVal, ObjectMixin.attr_of_super),
    (Builtin, ObjectMixin.attr_of_builtin), (ValuesIndices, ObjectMixin.attr_of_values_indices),
    (NamedTupleVal, ObjectMixin.attr_of_named_tuple), (FunctionVal, attr_of_function),
    (PropertyVal, attr_of_property), (BoundMethod, attr_of_bound_method),
]
