"""Attributes and items of abstract values: lookup through instances, classes, modules, tensors and
Python values, assignment to them, and subscripts (a mixin of the interpreter). Calls are `calls.py`'s,
iteration and the tracking of list lengths `sequences.py`'s."""

from __future__ import annotations

import ast
import os
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.escape import escape
from pytea_ci.interp.ops import is_concrete, tensor_method
from pytea_ci.interp.generated import replacement
from pytea_ci.interp.function_attrs import attr_of_bound_method, attr_of_function, attr_of_property
from pytea_ci.interp.runtime import (FunctionVal, ModuleVal, PathEnd, Scope, SuperVal,
                                     UserException)
from pytea_ci.interp.join import one_of
from pytea_ci.models import read_keys
from pytea_ci.models.importlib_ import run_time_code
from pytea_ci.models.attributes import may_be_found, no_slot_for
from pytea_ci.models.registry import get as registry_get
from pytea_ci.models.registry import get_property, lookup
from pytea_ci.models.values import (DELETED_GLOBALS, MISSING, OBJECT_IDS, lacks_attribute, plain_member, TENSOR_ATTRS_SET, BoundMethod, Builtin, ClassMethod, ClassVal, DType, EnumMember, Instance, KeysView, NamedTupleVal, Namespace, PropertyVal, SizeVal, StaticMethod, Unknown,
                                    ValuesIndices)
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import Term, dmin, is_dim
from pytea_ci.shapes.tensor import Origin, Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

TENSOR_METHOD = "tensor method"  # pytype of an unmodeled tensor method: calling it is a tensor operation
_PY_METHOD_TYPES = (list, dict, tuple, str, int, float, bool, set, frozenset, bytes)
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add", "discard"}
# methods whose answer (an item, a position, a count, whether it raises) depends on items a container holding
# only some of its items (inexact) may not show
_ITEM_DEPENDENT = {"pop", "popitem", "remove", "index", "count"}
_SHORT = 8  # a table this long or shorter, indexed by a size symbol, is followed entry by entry (`per_case`)
_SEQ_NAMES = {list: "list", str: "string"}  # CPython's IndexError text; a tuple's or a tuple subclass's: "tuple"


ARGV = "sys.argv"  # facts: the command line of this run once the program has read or set it (`--argv`)


class ObjectMixin:
    inherit: Origin | None  # the Interpreter's: origin of the unknown operand of the model being called
    model_name: str  # the Interpreter's: the model being called

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
        if isinstance(obj, Unknown):
            if obj.pytype == "str":  # a text never changes: one value per method call (models/unknown_text.py)
                p = get_property(f"builtins.Text.{name}")
                return p.fn(self, obj) if p is not None else self.derived(f"attribute {name}", obj)
            self.unknown_len.pop(id(obj), None)  # a method of it (`append`, `pop`) may change how many items it has
        elif (p := get_property(f"builtins.{type(obj).__name__}.{name}")) is not None:
            return p.fn(self, obj)  # a value of the models' own kinds (`(int | None).__args__`)
        return self.derived(f"attribute {name}", obj)

    def attr_of_enum_member(self: "Interpreter", obj: EnumMember, name: str) -> Any:
        """A member of an int- or str-valued enum (`Kind.SDPA.value`): its name and value, what its
        class defines (methods, properties), else what the int or str has (`.upper()`)."""
        if name in ("name", "_name_"):
            return obj.name
        if name in ("value", "_value_"):
            return plain_member(obj)
        if obj.owner is not None:
            if name == "__class__":
                return obj.owner
            found = obj.owner.lookup(name)
            if found is not MISSING and (not name.startswith("__") or isinstance(found, FunctionVal)):
                return self.bind_member(obj, obj.owner, found)
        return self.attr_of_python_value(plain_member(obj), name)

    def attr_of_instance(self: "Interpreter", obj: Instance, name: str) -> Any:
        """`obj.name`: through the class's own `__getattribute__` when it defines one in Python (a
        config's `attribute_map` aliases, `hidden_size` read as `n_embd`), with `__getattr__` when that
        raises AttributeError, as CPython's slot does; else the plain lookup."""
        hook = obj.cls.lookup("__getattribute__")
        if not isinstance(hook, FunctionVal) or name == "__class__":
            return self.plain_attr(obj, name)
        try:
            return self.call(self.bind_member(obj, obj.cls, hook), name)
        except UserException as e:
            getter = obj.cls.lookup("__getattr__")
            if e.kind != "AttributeError" or getter is MISSING:
                raise
            return self.call(self.bind_member(obj, obj.cls, getter), name)

    def plain_attr(self: "Interpreter", obj: Instance, name: str, fallback: bool = True) -> Any:
        """The instance's attributes, then its class's, then (`fallback`: `obj.name` as CPython's slot
        does it) the class's `__getattr__`. Without `fallback` it is `object.__getattribute__(obj, name)`,
        which never calls `__getattr__`: a `__getattr__` ending in `super().__getattribute__(key)` (monai's
        layer factories) recursed until the recursion budget for every name it did not hold."""
        found = obj.cls.lookup(name)
        get = descriptor_method(found, "__get__")
        if get is not None and (name not in obj.attrs or descriptor_method(found, "__set__") is not None):
            return self.call(self.bind_member(found, found.cls, get), obj, obj.cls)  # a descriptor's value
        if name in obj.attrs:
            return obj.attrs[name]
        if name == "__class__":
            return obj.cls
        if name == "__dict__" and not any("__slots__" in c.ns for c in obj.cls.mro()):
            return obj.attrs  # (with `__slots__` an instance may have no `__dict__`: not known below)
        if found is not MISSING:
            return self.bind_member(obj, obj.cls, found)
        # `__getattr__` is asked only where the lookup is sure to find nothing (`__hash__` is `object`'s,
        # `with_traceback` an exception's; a base the analyzer does not list may hold any name)
        getter = obj.cls.lookup("__getattr__") if fallback and not may_be_found(obj.cls, name) else MISSING
        if getter is not MISSING:
            return self.call(getter, obj, name)
        if self.fully_known(obj) and not (name.startswith("__") and name.endswith("__")):
            # as CPython: a `try: ... except AttributeError:` goes on there (special names stay not known:
            # the interpreter's own protocol probes, `__iter__`, `__len__`, ask for them here)
            raise UserException("AttributeError")
        out = self.unknown(f"attribute {obj.cls.name}.{name}", api=obj.cls.native)
        if obj.cls.lookup("__opaque_base__") is True:
            out.holds = (obj,)  # a method inherited from a base not followed: calling it hands it `obj`
        return out

    def fully_known(self: "Interpreter", obj: Instance) -> bool:
        """Whether every attribute `obj` can have is known: its classes are all the program's (no base the
        analyzer models or does not follow, which may hold attributes of its own), and it was never handed
        to code not followed (which may have set attributes of any name)."""
        return id(obj) not in self.escaped and "__opaque__" not in obj.attrs \
            and all(not c.native or c.name == "object" for c in obj.cls.mro()) \
            and obj.cls.lookup("__opaque_base__") is MISSING

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
        get = descriptor_method(found, "__get__")
        if get is not None:
            return self.call(self.bind_member(found, found.cls, get), None, obj)
        if found is MISSING:
            base = registry_get("builtins.object")  # every class ends with `object`, the root of every base list
            roots = (base,) if isinstance(base, ClassVal) and obj is not base else ()
            order = tuple(obj.mro())
            special = {"__name__": obj.name, "__qualname__": obj.own_qualname or obj.name, "__dict__": obj.ns,
                       "__mro__": order if set(roots) <= set(order) else order + roots,
                       "__bases__": obj.bases or roots}
            if name == "mro":
                return Builtin(f"{obj.name}.mro", lambda ctx: list(special["__mro__"]))
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
            if self.shared.installed is not None:
                self.shared.installed.all_names(self, obj)
            return obj.globals
        if self.shared.installed is not None:  # a late import of the module binds it (not its submodule)
            late = self.shared.installed.late_global(self, obj.globals, name)
            if late is not None or name in obj.globals:
                return late
        sub = self.try_submodule(obj, name)
        if sub is None and self.shared.installed is not None:  # an installed package's lazy exports
            sub = self.shared.installed.module_attr(self, obj, name)
        if sub is None and obj.stopped:  # not defined because the module's import stopped before it
            return self.unknown(f"{obj.name}.{name}, not defined: {obj.stopped}")
        return sub if sub is not None else self.unknown(f"{obj.name}.{name}")

    def attr_of_namespace(self: "Interpreter", obj: Namespace, name: str) -> Any:
        qual = f"{obj.qualname}.{name}"
        if qual == "sys.modules":  # the interpreter's own table of the program's modules
            return self.module_table()
        if qual == "sys.argv" and (ARGV in self.facts or isinstance(self.option("argv"), list)):
            if ARGV not in self.facts:  # --argv: the command line, one list for the run (the program may change it)
                self.facts[ARGV] = [os.path.relpath(os.path.realpath(self.config.entry), self.config.root),
                                    *self.option("argv")]
            return self.facts[ARGV]
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
        if lacks_attribute(obj, name):
            raise UserException("AttributeError")  # `(x, y).flatten(1)`: CPython's tuple has no such attribute
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
            put = descriptor_method(prop, "__set__")
            if put is not None:  # a data descriptor of the class: its `__set__` stores the value
                self.call(self.bind_member(prop, prop.cls, put), obj, value)
                return
            if isinstance(prop, PropertyVal):
                if isinstance(prop.fset, (FunctionVal, BoundMethod)):
                    self.call(prop.fset, obj, value)
                return
            if obj.cls.lookup("__frozen__") is True:  # a frozen dataclass (attrs class): its error is an AttributeError
                err = obj.cls.lookup("__frozen_error__")
                err = err if isinstance(err, ClassVal) else registry_get("dataclasses.FrozenInstanceError")
                raise UserException("FrozenInstanceError", Instance(err) if isinstance(err, ClassVal) else None)
            if no_slot_for(obj.cls, name):
                raise UserException("AttributeError")
            setter = obj.cls.lookup("__setattr__")
            if isinstance(setter, FunctionVal):
                self.call(setter, obj, name, value)
                return
            obj.attrs[name] = value
        elif isinstance(obj, ClassVal):
            obj.ns[name] = replacement(self, obj, name, value)  # a method made at run time: generated.py
        elif isinstance(obj, ModuleVal):
            obj.globals[name] = value
        elif isinstance(obj, FunctionVal):
            obj.attrs[name] = value
        elif isinstance(obj, Tensor):  # not kept on the value; `getattr(t, name, default)` is then unknown
            self.facts.setdefault(TENSOR_ATTRS_SET, set()).add(name)
        elif isinstance(obj, Namespace) and obj.qualname == "sys" and name == "argv":
            self.facts[ARGV] = value  # `sys.argv = [...]`: what the program reads from then on

    # ----- items --------------------------------------------------------------------------------
    def made_module(self: "Interpreter", table: dict[Any, Any], name: Any) -> bool:
        """Whether `table[name]` (missing) is a module the program made at run time: `table` is
        `sys.modules` (a table of modules only), `name`'s package is a module of it whose source was
        followed, and no file on the search path is module `name` (a submodule of a package on disk that
        has no file: only code run at run time can have made it)."""
        if not isinstance(name, str) or "." not in name or not table:
            return False
        parent = table.get(name.rpartition(".")[0])
        return isinstance(parent, ModuleVal) and bool(parent.path) and all(isinstance(v, ModuleVal) for v in table.values()) \
            and self.find_module_file(name) is None

    def getitem(self: "Interpreter", obj: Any, idx: Any) -> Any:
        if isinstance(obj, Tensor):
            return self.call_tensor_op(obj, "__getitem__", (idx,))
        if isinstance(obj, (list, tuple, str)):
            if (head := self.prefix_of_representatives(obj, idx)) is not None:
                return head
            if isinstance(idx, int) or (isinstance(idx, slice) and is_concrete((idx.start, idx.stop, idx.step))):
                if isinstance(idx, int) and id(obj) in self.inexact and not isinstance(obj, str):
                    return self.rep_item(obj, idx)  # its items are representatives
                try:
                    item = self.same_exactness(obj, obj[idx]) if isinstance(idx, slice) else obj[idx]
                    if isinstance(obj, SizeVal):  # the check of `x.shape[i]` held here (machine.py: evidence)
                        self.sites_passed.add(self.span)
                    return item
                except IndexError:
                    if isinstance(obj, SizeVal) and isinstance(idx, int) and not self.expecting:
                        self.report_rank_index(len(obj), idx)
                    raise UserException("IndexError", args=(f"{_SEQ_NAMES.get(type(obj), 'tuple')} index out of range",)) from None
                except TypeError:
                    raise UserException("TypeError") from None
            if not isinstance(obj, str) and not isinstance(idx, slice):
                out = one_of(self, list(obj), "index with an unknown position")
                if not self.picks_per_case(obj, idx, out):
                    return out
                n = len(obj)
                return self.per_case(idx, [((k, k - n), obj[k]) for k in range(n)], "IndexError",
                                     f"{_SEQ_NAMES.get(type(obj), 'tuple')} index out of range")
            if isinstance(idx, slice) and not isinstance(obj, str) and (part := self.sliced(obj, idx)) is not None:
                return part
            return self.unknown("index with an unknown position")
        if isinstance(obj, dict):
            if hasattr(obj, "__missing__") and not is_concrete(idx) and not any(k is idx for k in obj):
                return self.derived("item of a Counter at a key not known", idx)  # its default, or an item
            if (numbered := self.index_value(obj, idx)) is not None:
                return numbered  # a position in a table numbered by its length (index_maps.py)
            try:
                return obj[idx]
            except KeyError:
                if is_concrete(idx) and is_concrete(list(obj.keys())) and id(obj) not in self.inexact:
                    raise UserException("KeyError", args=(idx,)) from None
                if id(obj) in self.escaped:
                    if self.made_module(obj, idx):
                        return run_time_code(self.span, f"module {idx!r} of sys.modules, made at run time")
                    return self.unknown(f"dict item {idx!r}, which code not followed may have set")
                out = self.some_value(list(obj.values()), "dict item")
                if not self.picks_per_case(obj, idx, out) \
                        or not all(isinstance(k, int) and not isinstance(k, bool) for k in obj):
                    return out
                return self.per_case(idx, [((k,), v) for k, v in obj.items()], "KeyError", idx)
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
            if obj.item_type or obj.pytype == "str":  # an item of a text's `split()`, a character: a text
                keyed.pytype = "str"
            return keyed  # one value per key path of a document read at run time
        out = self.derived("subscript", obj, idx)
        if isinstance(obj, Unknown) and isinstance(out, Unknown) and not isinstance(idx, slice) and obj.item_type:
            out.pytype = obj.item_type  # `words[0]` of a text's `split()`: a text
        elif isinstance(obj, Unknown) and isinstance(out, Unknown) and obj.pytype == "str":
            out.pytype = "str"  # a character or a slice of a text
        if isinstance(obj, Unknown) and isinstance(out, Unknown) and obj.pytype == "str" and isinstance(idx, slice) \
                and idx.step is None and idx.start in (None, 0) and is_dim(idx.stop) and id(obj) in self.unknown_len \
                and self.holds(P.ge(idx.stop, 0)):
            # `text[:k]` of a text whose length was taken: min(its length, k) characters, as CPython's
            out.pytype = "str"
            self.unknown_len[id(out)] = (out, dmin(self.unknown_len[id(obj)][1], idx.stop))
        return out

    def prefix_of_representatives(self: "Interpreter", obj: Any, idx: Any) -> "list[Any] | tuple[Any, ...] | None":
        """`xs[:k]` of a list holding representatives of its items whose length is known (`f.readlines()`, a
        comprehension over data): the same representatives, min(len(xs), k) of them, as CPython's slice (k at
        least 0); None for any other subscript."""
        if not (isinstance(obj, (list, tuple)) and isinstance(idx, slice) and id(obj) in self.inexact
                and id(obj) in self.known_len and idx.start in (None, 0) and idx.step is None and is_dim(idx.stop)
                and not isinstance(idx.stop, bool) and self.holds(P.ge(idx.stop, 0))):
            return None
        out = type(obj)(obj)
        self.mark_inexact(out)
        self.known_len[id(out)] = dmin(self.known_len[id(obj)], idx.stop)
        return out

    def rep_item(self: "Interpreter", obj: "list[Any] | tuple[Any, ...]", idx: int) -> Any:
        """`obj[idx]` of a list holding only representatives of its items: not known, but one value until
        the list changes, of the Python type every representative has (a text, when all are texts)."""
        memo = self.rep_items.setdefault(id(obj), {})
        if idx not in memo:
            out = memo[idx] = self.derived("item of a list whose length is not known", *obj)
            kinds = {v.pytype if isinstance(v, Unknown) else type(v).__name__ if isinstance(v, str) else None for v in obj}
            if len(kinds) == 1 and isinstance(out, Unknown):
                out.pytype = kinds.pop()
            self.keepalive.append(obj)
        return memo[idx]

    def report_rank_index(self: "Interpreter", rank: int, idx: int) -> None:
        """`x.shape[i]` / `x.size()[i]` past the tensor's rank: an IndexError on every run that gets here."""
        from pytea_ci.diagnostics import Severity
        from pytea_ci.diagnostics.rules import INVALID_ARGUMENT, shape_index

        self.emit(INVALID_ARGUMENT, Severity.ERROR, INVALID_ARGUMENT.message(f"shape[{idx}]", shape_index(idx, rank)))
        raise PathEnd()

    def picks_per_case(self: "Interpreter", table: Any, idx: Any, joined: Any) -> bool:
        """Whether `table[idx]` is followed entry by entry (`per_case`): a size symbol picks from a short
        table known exactly, whose items did not join into one value (`joined`)."""
        return isinstance(joined, Unknown) and isinstance(idx, Term) and is_dim(idx) \
            and id(table) not in self.inexact and 0 < len(table) <= _SHORT

    def per_case(self: "Interpreter", idx: Any, cases: list[tuple[tuple[int, ...], Any]], error: str,
                 arg: Any) -> Any:
        """The item a size symbol picks from a short table whose items are of different kinds (library
        mode's `spatial_dims` in `(nn.Conv1d, nn.Conv2d, nn.Conv3d)[dim - 1]` or `{1: ..., 2: ...}[dim]`):
        one path per entry the symbol may pick (the positions or keys that select it), each a case of the
        inputs, so a failure in some cases only is not an error (`require`); a symbol outside the table
        is CPython's IndexError or KeyError."""
        for at, item in cases:
            if self.fork(P.or_(*[P.eq(idx, k) for k in at]), per_run=True):
                return item
        raise UserException(error, args=(arg,))

    def some_value(self: "Interpreter", values: list[Any], what: str) -> Any:
        """One of `values`, not knowing which: a fresh int when they are all ints, the common value
        when they are all equal, else Unknown."""
        if values and all(is_dim(v) for v in values):
            return self.fresh("item")
        if values and all(_same_value(values[0], v) for v in values):
            return values[0]
        return self.unknown(what)

    def delete(self: "Interpreter", target: ast.expr, scope: Scope) -> None:
        """`del target`: a name is unbound; an item or an attribute goes as below; each of a tuple of them."""
        if isinstance(target, ast.Name):
            if scope.locals.pop(target.id, MISSING) is not MISSING and scope.locals is scope.globals:
                # a global deleted on this path: reading it before it is bound again is CPython's NameError
                self.facts[DELETED_GLOBALS] = self.facts.get(DELETED_GLOBALS, frozenset()) | {
                    (scope.globals.get("__name__"), target.id)}
        elif isinstance(target, ast.Subscript):
            obj, idx = self.eval(target.value, scope), self.eval(target.slice, scope)
            with self.at(target):
                self.delitem(obj, idx)
        elif isinstance(target, ast.Attribute):
            self.delattr(self.eval(target.value, scope), target.attr)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self.delete(t, scope)

    def delitem(self: "Interpreter", obj: Any, idx: Any) -> None:
        """`del obj[idx]`: a list or dict loses the item (CPython's IndexError / KeyError where it is known
        to be missing); an object's own `__delitem__` runs. A position or key not known, or a list holding
        only representatives of its items, leaves the container of unknown length and content."""
        if isinstance(obj, list):
            if id(obj) not in self.inexact and (isinstance(idx, int) and not isinstance(idx, bool) or
                                                isinstance(idx, slice) and is_concrete((idx.start, idx.stop, idx.step))):
                try:
                    del obj[idx]
                except (IndexError, TypeError) as e:
                    raise UserException(type(e).__name__) from None
            else:
                self.mark_inexact(obj)
            self.note_mutation(obj)
        elif isinstance(obj, dict):
            if is_concrete(idx) and isinstance(idx, Hashable) and idx in obj:
                del obj[idx]
            elif is_concrete(idx) and is_concrete(list(obj.keys())) and id(obj) not in self.inexact:
                raise UserException("KeyError")
            else:
                self.mark_inexact(obj)
            self.note_mutation(obj)
        elif isinstance(obj, Instance):
            m = obj.cls.lookup("__delitem__")
            if m is not MISSING:
                self.call(self.bind_member(obj, obj.cls, m), idx)
            else:
                escape(self, (obj,), "`del` of an item")

    def delattr(self: "Interpreter", obj: Any, name: str) -> None:
        """`del obj.name`: the attribute goes (the class's own `__delattr__` when it has one)."""
        if isinstance(obj, Instance):
            m = obj.cls.lookup("__delattr__")
            if m is not MISSING:
                self.call(self.bind_member(obj, obj.cls, m), name)
            else:
                obj.attrs.pop(name, None)
        elif isinstance(obj, (ClassVal, ModuleVal)):
            (obj.ns if isinstance(obj, ClassVal) else obj.globals).pop(name, None)
        elif isinstance(obj, FunctionVal):
            obj.attrs.pop(name, None)

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
            if self.store_numbered(obj, idx, value, lambda: obj.__setitem__(idx, value)):
                return
            try:
                new = idx not in obj
                obj[idx] = value
            except TypeError:
                if is_concrete(idx):  # a list as a key: CPython's TypeError
                    raise UserException("TypeError") from None
                self.mark_inexact(obj)  # a key not understood (`d[path.stem] = cfg`): which key is not known
                new = False
            self.note_mutation(obj, free=new)
        elif isinstance(obj, Instance):
            m = obj.cls.lookup("__setitem__")
            if m is not MISSING:
                self.call(self.bind_member(obj, obj.cls, m), idx, value)


def _same_value(a: Any, b: Any) -> bool:
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:
        return False


def _py_method(name: str) -> Any:
    """A Builtin body calling a real method of a concrete Python value (pure for immutable types)."""

    def run(ctx: Any, obj: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "setdefault" and isinstance(obj, dict) and len(args) == 2 and not kwargs \
                and (numbered := ctx.setdefault_numbered(obj, *args)) is not None:
            return numbered  # a table numbered by its length stays one (index_maps.py)
        if isinstance(obj, (list, dict, set)) and name in _MUTATORS:
            before = ctx.known_length(obj) if isinstance(obj, list) and name == "extend" else None
            ctx.note_mutation(obj, free=name in ("append", "add", "extend") and not isinstance(obj, dict),
                              grew=name == "append" and isinstance(obj, list))
            if isinstance(obj, list) and name == "extend":
                items = ctx.iterate(args[0]) if args else []
                if items is None and id(obj) not in ctx.inexact and (every := ctx.shuffled(args[0])) is not None:
                    obj.extend(every)  # all of them, in an order not known: so is the list then
                    ctx.mark_unordered(obj)
                    return None
                if items is None:
                    if isinstance(args[0], (list, tuple)):  # its representatives (and origins) are this list's too
                        added = ctx.known_length(args[0])
                        obj.extend(args[0])
                        ctx.concatenated((obj, args[0]), obj, [before, added])
                        return None
                    ctx.mark_inexact(obj)
                    return None
                obj.extend(items)
                return None
        if isinstance(obj, (list, dict, set)) and id(obj) in ctx.inexact and name in _ITEM_DEPENDENT \
                and not (isinstance(obj, dict) and name == "pop" and args and not _key_unsure(ctx, obj, args[0])):
            ctx.mark_inexact(obj)  # one item fewer, or not: a known length is forgotten
            if name == "remove":
                return None  # CPython's ValueError only when no item is equal: not known here
            return ctx.unknown(f"{type(obj).__name__}.{name} of a container holding only some of its items")
        if (found := _order_unknown(ctx, obj, name, args)) is not None:
            return found
        if isinstance(obj, (list, tuple)) and name in ("count", "index", "remove") and any(isinstance(x, Term) for x in obj):
            # an item not known (a size symbol) may equal what is looked for, or not: Python's `==` of the
            # analyzer's symbol says neither
            if name == "remove":
                ctx.mark_inexact(obj)
            return ctx.unknown(f"{type(obj).__name__}.{name} among items not known")
        if isinstance(obj, dict) and name in _KEYED and args and _key_unsure(ctx, obj, args[0]):
            if name != "get":  # `pop`/`setdefault` of a key that may or may not be there
                ctx.mark_inexact(obj)
                return ctx.unknown(f"dict.{name} of a key not known")
            # one of its values, or the default: ids of a vocabulary (`vocab.get(token, vocab[UNK])`) are ints
            return ctx.some_value([*obj.values(), args[1] if len(args) > 1 else None], "dict.get of a key not known")
        if not isinstance(obj, (list, dict, set)) and not (is_concrete(args) and is_concrete(kwargs)):
            return ctx.unknown(f"{type(obj).__name__}.{name} with unknown arguments")
        try:
            result = getattr(obj, name)(*args, **kwargs)
        except Exception as e:
            if is_concrete(obj) and is_concrete(args) and id(obj) not in ctx.inexact:
                raise UserException(type(e).__name__) from None
            return ctx.unknown(f"{type(obj).__name__}.{name}")
        if isinstance(result, (type({}.keys()), type({}.items()))):  # set operators kept; inexact with the dict
            view = KeysView(result)
            return ctx.same_items(obj, view) if id(obj) not in ctx.unordered else ctx.unordered_list(view, KeysView)
        if isinstance(result, type({}.values())):
            return ctx.same_items(obj, list(result)) if id(obj) not in ctx.unordered else ctx.unordered_list(list(result))
        if isinstance(obj, dict) and id(obj) in ctx.unordered and isinstance(result, dict) and name == "copy":
            return ctx.unordered_dict(result)
        return result

    return run


_KEYED = ("get", "pop", "setdefault")  # dict methods that look a key up
_BY_ORDER = {"pop", "popitem", "most_common", "index", "__iter__", "__reversed__"}  # what a container's order decides


def _order_unknown(ctx: Any, obj: Any, name: str, args: tuple[Any, ...]) -> Any:
    """A method whose answer depends on an order not known (interp/unordered.py): `s.pop()` of a set of
    strings, `d.popitem()` of a dict made from one, `" ".join(set(words))`: not known (a container it takes
    an item from holds only some of its items after it). None when the order does not matter."""
    unordered = (isinstance(obj, (set, frozenset)) and not ctx.order_fixed(obj) or id(obj) in ctx.unordered) \
        and name in _BY_ORDER and not (isinstance(obj, dict) and name == "pop")
    if not unordered and (isinstance(obj, (set, frozenset)) or  # set algebra: the same items whatever the order
                          not any(ctx.shuffled(a) is not None for a in args if isinstance(a, (set, frozenset, list, tuple, dict)))):
        return None
    if name in _MUTATORS | {"popitem"} and isinstance(obj, (list, dict, set)):
        ctx.mark_inexact(obj)
    return ctx.unknown(f"{type(obj).__name__}.{name} of items in an order not known")


def _key_unsure(ctx: Any, d: dict[Any, Any], key: Any) -> bool:
    """Whether looking `key` up in `d` may find what Python's own lookup of the analyzer's values does
    not: `key` is not there as itself, and it or one of the dict's keys is a value not known (two
    command-line strings not known may be equal), but for the ids of objects this path took: the same
    object's id is one value, and two objects alive at once have different ids (`builtins.id_`)."""
    try:
        if key in d:
            return False
    except TypeError:
        return True
    ids = {id(i) for _, i in ctx.facts.get(OBJECT_IDS, ())}
    if id(key) in ids:  # an object's id, among ids of other objects and keys that are no int (never equal to it)
        return any(id(k) not in ids if not is_concrete(k) else isinstance(k, (int, float, complex)) for k in d)
    return not is_concrete(key) or any(not is_concrete(k) for k in d)


def descriptor_method(found: Any, name: str) -> Any:
    """`__get__`/`__set__`/`__set_name__` of a class attribute that is an instance of a user class
    (a descriptor), or None."""
    if not isinstance(found, Instance) or found.cls.native:
        return None
    method = found.cls.lookup(name)
    return method if isinstance(method, (FunctionVal, Builtin)) else None  # (Builtin: a modeled base's, `property`'s)


_ATTR_HANDLERS: list[tuple[type, Any]] = [
    (EnumMember, ObjectMixin.attr_of_enum_member), (Instance, ObjectMixin.attr_of_instance), (Tensor, ObjectMixin.attr_of_tensor),
    (ClassVal, ObjectMixin.attr_of_class), (ModuleVal, ObjectMixin.attr_of_module),
    (Namespace, ObjectMixin.attr_of_namespace), (SuperVal, ObjectMixin.attr_of_super),
    (Builtin, ObjectMixin.attr_of_builtin), (ValuesIndices, ObjectMixin.attr_of_values_indices),
    (NamedTupleVal, ObjectMixin.attr_of_named_tuple), (FunctionVal, attr_of_function),
    (PropertyVal, attr_of_property), (BoundMethod, attr_of_bound_method),
]
