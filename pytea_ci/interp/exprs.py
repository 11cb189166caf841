"""Expression evaluation (a mixin of the interpreter): one `ev_<NodeName>` method per node kind."""

from __future__ import annotations

import ast
import functools
import os
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.bulk import run_bulk
from pytea_ci.interp.coroutines import awaited
from pytea_ci.interp.eval_text import eval_text, is_plain_eval
from pytea_ci.interp.join import join
from pytea_ci.interp.ops import (BINOPS, CMPOPS, compare_dims, compare_seq, contains_term, dim_binop, is_concrete,
                                on_machine)
from pytea_ci.interp.runtime import FunctionVal, Scope, SideEnd, UserException, same_value
from pytea_ci.interp.unbound import check_bound, followed_statements, local_names
from pytea_ci.models.prim import is_number, number_kind
from pytea_ci.models import contents, ratios, registry
from pytea_ci.models.type_union import union_of
from pytea_ci.models.values import MISSING, SPREAD, Builtin, ClassVal, DType, EnumMember, Instance, KeysView, Namespace, Spread, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import ASSUMED_SIZE, INPUT, MACHINE, PInt, Sym, Term, dmax, is_dim, is_input_size
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.tensor import Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

_REFLECTED = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor"}
_ARITH = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow"}


def _arith_kind(name: str, a: Any, b: Any) -> "str | None":
    """The Python type of `a OP b` of two numbers (not both known): a float for `/` or a float operand,
    an int otherwise, but `int ** e` is a float for a negative `e` (not known when `e` is not known)."""
    if name == "truediv" or "float" in (number_kind(a), number_kind(b)):
        return "float"
    if name == "pow":
        return ("int" if b >= 0 else "float") if isinstance(b, int) and not isinstance(b, Term) else None
    return "int"


class ExprMixin:
    def eval(self: "Interpreter", node: ast.expr, scope: Scope) -> Any:
        self.tick(node)
        meth = getattr(self, "ev_" + type(node).__name__, None)
        if meth is None:
            return self.unsupported(node)
        return meth(node, scope)

    def ev_Constant(self: "Interpreter", node: ast.Constant, scope: Scope) -> Any:
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool):
            return PInt(v, self.span_of(node), "literal")
        return v

    def ev_Name(self: "Interpreter", node: ast.Name, scope: Scope) -> Any:
        check_bound(self, node.id, scope)
        return self.lookup(node.id, scope, node)

    def ev_Attribute(self: "Interpreter", node: ast.Attribute, scope: Scope) -> Any:
        obj = self.eval(node.value, scope)
        with self.at(node):
            return self.getattr(obj, node.attr)

    def ev_Subscript(self: "Interpreter", node: ast.Subscript, scope: Scope) -> Any:
        obj = self.eval(node.value, scope)
        idx = self.eval(node.slice, scope)
        with self.at(node):
            return self.getitem(obj, idx)

    def ev_Slice(self: "Interpreter", node: ast.Slice, scope: Scope) -> Any:
        parts = [None if p is None else self.eval(p, scope) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def ev_Tuple(self: "Interpreter", node: ast.Tuple, scope: Scope) -> Any:
        return self.display(tuple, node.elts, scope)

    def ev_List(self: "Interpreter", node: ast.List, scope: Scope) -> Any:
        return self.display(list, node.elts, scope)

    def ev_Set(self: "Interpreter", node: ast.Set, scope: Scope) -> Any:
        try:
            return self.display(set, node.elts, scope)
        except TypeError:
            return self.unknown("set of unhashable values")

    def display(self: "Interpreter", kind: type, elts: list[ast.expr], scope: Scope) -> Any:
        """A tuple/list/set display; with a starred item of unknown length (`(*x.shape[-2:], d)` of a
        tensor of unknown rank) it holds some of its items and its length is not known."""
        if not any(isinstance(e, ast.Starred) for e in elts):
            return kind(self.eval_elts(elts, scope))
        out: list[Any] = []
        prefix: int | None = None  # how many items come before the first starred iterable not known
        for e in elts:
            if isinstance(e, ast.Starred):
                items = self.iterate(v := self.eval(e.value, scope))
                if items is None and prefix is None:
                    prefix = len(out)
                out.extend(items if items is not None else [self.derived("starred unknown iterable", v)])
            else:
                out.append(self.eval(e, scope))
        made = kind(out)
        if prefix is not None:
            self.mark_inexact(made)
            if kind is tuple and prefix:  # immutable: its first items stay where they are
                self.exact_prefix[id(made)] = prefix
        return made

    def eval_elts(self: "Interpreter", elts: list[ast.expr], scope: Scope, spread: bool = False) -> list[Any]:
        """The items of a display or the positional arguments of a call; a starred iterable whose items
        are not known ends them with an unknown, or (`spread`, a callee that takes them) gives a `Spread`
        of the representatives of a list built in a loop not followed one by one."""
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                items = self.iterate(v := self.eval(e.value, scope))
                if items is None and spread and isinstance(v, (list, tuple)) and v:
                    out.append(Spread(list(v), self.known_length(v)))
                    continue
                if items is None and spread and isinstance(v, Instance) and (reps := self.representatives(v)):
                    out.append(reps)  # `*self.layers` of a container of layers built in a loop
                    continue
                if items is None:
                    return out + [self.unknown("starred unknown iterable")]
                out.extend(items)
            else:
                out.append(self.eval(e, scope))
        return out

    def representatives(self: "Interpreter", v: Instance) -> Spread | None:
        """The representatives an object's iteration runs (`__iter__` of a container of layers built in a
        loop not followed one by one) as a `Spread`, with its `__len__` when that is a size; None when its
        iteration gives no representative or is followed item by item."""
        items, truncated = self.iteration_of(v)
        if not truncated or not items or any(isinstance(x, Unknown) for x in items):
            return None
        size = v.cls.lookup("__len__")
        n = self.call(self.bind_member(v, v.cls, size)) if size is not MISSING else None
        return Spread(list(items), n if is_dim(n) and not isinstance(n, bool) else None)

    def ev_Dict(self: "Interpreter", node: ast.Dict, scope: Scope) -> Any:
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            val = self.eval(v, scope)
            if k is None:
                if isinstance(val, dict):
                    out.update(val)
                else:
                    return self.unknown("dict unpacking")
                continue
            key = self.eval(k, scope)
            try:
                out[key] = val
            except TypeError:
                return self.unknown("unhashable dict key")
        return out

    def ev_JoinedStr(self: "Interpreter", node: ast.JoinedStr, scope: Scope) -> Any:
        """Concrete when every part is (`setattr(self, f"layer{i}", m)` names an attribute); else a
        string of unknown content."""
        parts = [v.value if isinstance(v, ast.Constant) else self.eval(v, scope) for v in node.values]
        texts = [p for p in parts if isinstance(p, str)]
        return "".join(texts) if len(texts) == len(parts) else self.unknown("f-string", pytype="str")

    def ev_FormattedValue(self: "Interpreter", node: ast.FormattedValue, scope: Scope) -> Any:
        v = self.eval(node.value, scope)
        spec = "" if node.format_spec is None else self.eval(node.format_spec, scope)
        if not isinstance(spec, str) or not (v is None or type(v) in (str, bool, float, int, PInt)):
            return self.unknown("f-string", pytype="str")
        try:
            plain = int(v) if type(v) is PInt else v
            shown = {115: str(plain), 114: repr(plain), 97: ascii(plain)}.get(node.conversion, plain)
            return format(shown, spec)
        except (ValueError, TypeError):
            return self.unknown("f-string", pytype="str")

    def ev_NamedExpr(self: "Interpreter", node: ast.NamedExpr, scope: Scope) -> Any:
        v = self.eval(node.value, scope)
        self.assign(node.target, v, scope)
        return v

    def ev_Lambda(self: "Interpreter", node: ast.Lambda, scope: Scope) -> Any:
        defaults = tuple(self.eval(d, scope) for d in node.args.defaults)
        kw = tuple(None if d is None else self.eval(d, scope) for d in node.args.kw_defaults)
        closure = scope if not scope.is_class and scope.locals is not scope.globals else None
        return FunctionVal(node, "<lambda>", closure, scope.globals, self.cur_path, defaults, kw)

    def ev_IfExp(self: "Interpreter", node: ast.IfExp, scope: Scope) -> Any:
        c = self.truth_of(self.eval(node.test, scope))
        if isinstance(c, bool):
            return self.eval(node.body if c else node.orelse, scope)
        if on_machine(c):  # a fact about the machine: each side on its own path, as a statement would
            choice = self.decide(c, node)
            with self.machine_side():
                return self.eval(node.body if choice else node.orelse, scope)
        if isinstance(c, Pred) and not self.is_opaque(c):  # decided by what this path already knows?
            can_t, can_f = self.config.decider.branch(c, self.pc)
            if can_t != can_f:
                return self.eval(node.body if can_t else node.orelse, scope)
            if can_t:  # both sides possible: each on its own path, as the statement `if` would
                return self.eval(node.body if self.decide(c, node) else node.orelse, scope)
        a = self.eval(node.body, scope)
        b = self.eval(node.orelse, scope)
        if a is b or (type(a) is type(b) and _safe_eq(a, b)):
            return a
        if (is_number(a) or isinstance(a, Pred)) and (is_number(b) or isinstance(b, Pred)):
            joined = join(self, [a, b])  # one of two numbers: an int symbol taking one of them, or a number of their kind
            if not isinstance(joined, Unknown) or joined.pytype is not None:
                return joined
        return self.derived("conditional expression", a, b)

    def ev_BoolOp(self: "Interpreter", node: ast.BoolOp, scope: Scope) -> Any:
        is_and = isinstance(node.op, ast.And)
        result: Any = None
        conds: list[Any] = []
        for i, e in enumerate(node.values):
            v = self.eval(e, scope)
            t = self.truth_of(v)
            if isinstance(t, bool):
                if t != is_and:  # short-circuit: `False and ...`, `True or ...`
                    return v if not conds else (P.and_(*conds, t) if is_and else P.or_(*conds, t))
                result = v
                continue
            if isinstance(t, Pred):
                conds.append(t)
                result = None
                continue
            if not conds and (decided := self.decided_by_rest(v, node.values[i + 1:], is_and, scope)) is not None:
                return decided
            return self.unknown("boolean operation on unknown")
        if conds:
            return P.and_(*conds) if is_and else P.or_(*conds)
        return result

    def decided_by_rest(self: "Interpreter", v: Any, rest: list[ast.expr], is_and: bool, scope: Scope) -> Any:
        """`b and <false>` / `b or <true>` of a bool `b` not known: False / True whatever `b` is (open_clip's
        `path.is_file() and path.suffix in exts` of a folder). CPython evaluates the rest only on one side of
        `b`: run it as such a side (a check failing there, or an exception, leaves it unknown, silently). None
        when `b` may be no bool or the rest does not decide."""
        if not (isinstance(v, Unknown) and v.pytype == "bool") or not rest:
            return None
        self.unsure_sides.append(None)
        try:
            for e in rest:
                w = self.eval(e, scope)
                if self.truth_of(w) is (not is_and):
                    return not is_and
                if not (type(w) is bool or isinstance(w, Unknown) and w.pytype == "bool"):
                    return None  # the value may be this operand's, which is no bool
        except (SideEnd, UserException):
            return None
        finally:
            self.unsure_sides.pop()
        return None

    def ev_UnaryOp(self: "Interpreter", node: ast.UnaryOp, scope: Scope) -> Any:
        v = self.eval(node.operand, scope)
        with self.at(node):
            return self.unary(type(node.op), v)

    def unary(self: "Interpreter", op: "type[ast.unaryop]", v: Any) -> Any:
        """`not v`, `-v`, `+v` or `~v` (op: the ast class), at the current span."""
        if op is ast.Not:
            t = self.truth_of(v)
            return P.not_(t) if isinstance(t, (bool, Pred)) else _as_bool(self.derived("not unknown", v))
        if isinstance(v, Tensor):
            return self.call_tensor_op(v, {ast.USub: "__neg__", ast.Invert: "__invert__", ast.UAdd: "__pos__"}[op], ())
        if isinstance(v, Term):
            return -v if op is ast.USub else (v if op is ast.UAdd else self.unknown("~dim"))
        if is_concrete(v):
            try:
                r = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x, ast.Invert: lambda x: ~x}[op](v)
            except Exception as e:
                raise UserException(type(e).__name__) from None
            return PInt(r, self.span, "computed") if isinstance(r, int) and not isinstance(r, bool) else r
        out = self.derived("unary operation", v)
        if isinstance(v, Unknown) and v.pytype in ("int", "float") and isinstance(out, Unknown):
            out.pytype = v.pytype  # `-x` of a number of unknown value: a number of the same kind
        elif isinstance(v, Unknown) and v.pytype == "bool" and op is not ast.Invert and isinstance(out, Unknown):
            out.pytype = "int"  # `-flag`: an int
        return out

    def unary_values(self: "Interpreter", op: str, a: Any) -> Any:
        return self.unary(_UNARY_NODES[op], a)

    def ev_BinOp(self: "Interpreter", node: ast.BinOp, scope: Scope) -> Any:
        a = self.eval(node.left, scope)
        b = self.eval(node.right, scope)
        with self.at(node):
            return self.binop(type(node.op), a, b, node)

    def binop(self: "Interpreter", op: type, a: Any, b: Any, node: ast.AST | None = None) -> Any:
        name, pyop = BINOPS[op]
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            if isinstance(a, Tensor):
                return self.call_tensor_op(a, f"__{name}__", (b,))
            return self.call_tensor_op(b, f"__r{name}__" if name in _REFLECTED else f"__{name}__", (a,))
        if isinstance(a, Unknown) or isinstance(b, Unknown):
            if name in ("or", "and") and (decided := _bool_bitop(name, a, b)) is not None:
                return decided  # `flag | (not exists(m))`: True or'ed with any bool is True
            if (bounded := contents.arith(name, a, b)) is not None:
                return bounded
            out = self.derived("operation on unknown", a, b)
            if name in _ARITH and is_number(a) and is_number(b):  # a number of unknown value stays a number
                out.pytype = _arith_kind(name, a, b)
                out.ratio = ratios.arith(name, a, b)  # `(n - k) / s + 1`: what int() makes a size of again
            return out
        if (isinstance(a, Term) or isinstance(b, Term)):
            if is_dim(a) and is_dim(b) and name in {"add", "sub", "mul", "floordiv", "mod"}:
                return dim_binop(name, a, b)
            if name == "pow" and is_dim(a) and isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 8:
                out_pow: Any = 1  # `patch_size ** 2`: a product of the size with itself, an int as CPython's
                for _ in range(b):
                    out_pow = dim_binop("mul", out_pow, a)
                return out_pow
            if name == "mul" and (repeated := self.repeated(a, b) if isinstance(b, Term) else self.repeated(b, a)) \
                    is not None:
                return repeated
            if name == "mul" and (isinstance(a, (tuple, list)) or isinstance(b, (tuple, list))):
                return self.unknown("sequence repeated a symbolic number of times")
            out = self.unknown(f"{name} on a symbolic value")
            if isinstance(out, Unknown) and name in _ARITH and is_number(a) and is_number(b):
                out.pytype = _arith_kind(name, a, b)  # `dim_head ** -0.5`: a float of unknown value, still a number
                out.ratio = ratios.arith(name, a, b)  # `math.ceil(d_model / 16)`, `int(dim * 4.0)`: a size again
            return out
        if isinstance(a, Pred) or isinstance(b, Pred):
            return self.unknown("arithmetic on a condition")
        if any(isinstance(v, KeysView) and id(v) in self.inexact for v in (a, b)):
            return self.unknown("set operation on the keys of a dict holding only some of its items")
        if not (is_concrete(a) and is_concrete(b)):
            if name == "add" and isinstance(a, (list, tuple)) and isinstance(b, type(a)):
                return self.concatenated((a, b), a + b)  # type: ignore[operator]
            if name == "mul" and isinstance(a, (list, tuple)) and isinstance(b, int):
                return self.same_exactness(a, a * b)
            if name == "mul" and isinstance(b, (list, tuple)) and isinstance(a, int):
                return self.same_exactness(b, b * a)
            if name == "or" and (union := union_of(a, b)) is not None:
                return union  # `list | tuple`, `int | None` (PEP 604)
            return self.user_binop(name, a, b)
        if name == "pow" and isinstance(b, int) and b > 4096:
            return self.unknown("huge power")
        if name in ("mul", "lshift") and isinstance(a, (int, str, list, tuple)) and isinstance(b, int) and abs(b) > 10**7 and not isinstance(a, int):
            return self.unknown("huge repetition")
        try:
            r = pyop(a, b)
        except Exception as e:
            raise UserException(type(e).__name__) from None
        if isinstance(r, (list, tuple)):  # a sequence built from one holding only some of its items
            return self.same_exactness(b, self.same_exactness(a, r))
        if isinstance(r, int) and not isinstance(r, bool):
            if abs(r) > 10**30:
                return self.unknown("huge integer")
            return PInt(r, self.span_of(node) if node is not None else self.span, "computed")
        return r

    def user_binop(self: "Interpreter", name: str, a: Any, b: Any) -> Any:
        """Operators on instances of user classes dispatch to their dunder methods."""
        from pytea_ci.models.values import MISSING, Instance

        for obj, other, dunder in ((a, b, f"__{name}__"), (b, a, f"__r{name}__")):
            if isinstance(obj, Instance):
                method = obj.cls.lookup(dunder)
                if method is not MISSING:
                    return self.call(self.bind_member(obj, obj.cls, method), other)
        return self.unknown(f"operator {name} on values not understood")

    def ev_Compare(self: "Interpreter", node: ast.Compare, scope: Scope) -> Any:
        left = self.eval(node.left, scope)
        parts: list[Any] = []
        for op, rnode in zip(node.ops, node.comparators):
            right = self.eval(rnode, scope)
            with self.at(node):
                r = self.compare(op, left, right)
            t = self.truth_of(r) if not isinstance(r, Tensor) else r
            if len(node.ops) == 1:
                return r
            if isinstance(t, bool) and not t:
                return False
            if isinstance(t, (bool, Pred)):
                parts.append(t)
            else:
                return self.unknown("chained comparison")
            left = right
        return P.and_(*parts)

    def compare(self: "Interpreter", op: ast.cmpop, a: Any, b: Any) -> Any:
        if isinstance(op, (ast.Is, ast.IsNot)):
            if isinstance(a, Unknown) or isinstance(b, Unknown):
                return _as_bool(self.derived("identity of unknown", a, b))
            same = self.identity(a, b)
            return same if isinstance(op, ast.Is) else (not same if isinstance(same, bool) else P.not_(same))
        if isinstance(op, (ast.In, ast.NotIn)):
            found = self.membership(a, b)
            self.membership_seen(a, b)
            return found if isinstance(op, ast.In) or not isinstance(found, bool) else not found
        name, pyop = CMPOPS[type(op)]
        if self.partial(a) or self.partial(b):
            return self.compare_partial(name, a, b)
        if isinstance(a, Tensor) or isinstance(b, Tensor):
            if isinstance(a, Tensor):
                return self.call_tensor_op(a, f"__{name}__", (b,))
            flipped = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}.get(name, name)
            return self.call_tensor_op(b, f"__{flipped}__", (a,))
        if isinstance(a, Instance) or isinstance(b, Instance):
            r = self.rich_compare(name, a, b)
            if r is not None and r is not NotImplemented:
                return r
            if r is NotImplemented and name in ("eq", "ne") and all(isinstance(v, Instance) or _by_identity(v) or is_concrete(v) or is_dim(v)
                                            for v in (a, b)):
                return (a is b) == (name == "eq")  # every `__eq__` found declined: identity
        if is_dim(a) and is_dim(b):
            return compare_dims(name, a, b)
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and (contains_term(a) or contains_term(b)):
            return compare_seq(name, tuple(a), tuple(b))
        if (decided := contents.compare(name, a, b)) is not None:
            return decided  # a float known within bounds (an element of `torch.linspace`)
        if is_concrete(a) and is_concrete(b):
            try:
                return bool(pyop(a, b))
            except TypeError:
                raise UserException("TypeError") from None
        if name in ("eq", "ne") and (_by_identity(a) and _by_identity(b) or isinstance(a, _NAMED) and isinstance(b, _NAMED)):
            same = a is b or (isinstance(a, Namespace) and a == b)  # a module, a modeled class: one object
            return same if name == "eq" else not same
        if name in ("eq", "ne") and None is not _family(a) != _family(b) is not None:
            return name == "ne"  # a list is never equal to a number, whatever their items
        return self.derived("comparison of unknown values", a, b)

    def rich_compare(self: "Interpreter", name: str, a: Any, b: Any) -> Any:
        """An instance's own comparison method (`__eq__`, `__lt__`, ...; a dataclass's generated ones),
        then the other operand's reflected one; `!=` without `__ne__` inverts `__eq__`. NotImplemented
        when the methods found all declined (then `==` is identity), None when none was found (a class
        with a base not followed, a str-mixin Enum: not known)."""
        declined = False
        for x, y, op in ((a, b, name), (b, a, _SWAPPED[name])):
            method = x.cls.lookup(f"__{op}__") if isinstance(x, Instance) else MISSING
            if method is not MISSING:
                r = self.call(self.bind_member(x, x.cls, method), y)
                if r is not None:
                    return r
                declined = True  # `return NotImplemented` (the builtin is None here)
        if name == "ne":
            r = self.rich_compare("eq", a, b)
            if r is None or r is NotImplemented:
                return r
            return not r if isinstance(r, bool) else self.derived("!= of a comparison", r)
        return NotImplemented if declined else None  # (an order comparison CPython refuses may come from a decorator not followed: unknown)

    def compare_values(self: "Interpreter", op: str, a: Any, b: Any) -> Any:
        return self.compare(_CMP_NODES[op](), a, b)

    def repeated(self: "Interpreter", seq: Any, n: Any) -> Any:
        """`seq * n` for a symbolic integer `n` (`[PAD] * (pad_size - len(tokens))`): as CPython, the items
        `n` times over, none for `n <= 0`; here one copy of them as representatives of a list (tuple) of
        `len(seq) * max(n, 0)` items. None when `seq` is no list or tuple of known items or `n` no size."""
        if not isinstance(seq, (list, tuple)) or id(seq) in self.inexact or not is_dim(n):
            return None
        if not seq:
            return type(seq)()
        count = n if self.holds(P.ge(n, 0)) else dmax(n, 0)  # the path may say (`if pad_size > len(tokens)`)
        return self.sized_items(type(seq)(seq), dim_binop("mul", len(seq), count))

    def binary_values(self: "Interpreter", op: str, a: Any, b: Any) -> Any:
        return self.binop(_BIN_NODES[op], a, b)

    def identity(self: "Interpreter", a: Any, b: Any) -> Any:
        """`a is b`: decided for singletons and objects, but for equal strings, numbers, tuples and
        bytes Python leaves it to the implementation (interning, small-int caches): a fact of the
        machine that runs it, named after the test's place, so no finding rests on its answer. An enum
        member is a singleton (never the same object as a plain int or str; one member read back from
        two caches is two objects here, so not decided)."""
        if isinstance(a, EnumMember) or isinstance(b, EnumMember):
            if a is b or not (isinstance(a, EnumMember) and isinstance(b, EnumMember)):
                return a is b
            return self.identity_fact() if a.identity_key() == b.identity_key() else False
        if is_dim(a) and is_dim(b) and not isinstance(a, bool) and not isinstance(b, bool):
            return P.and_(P.eq(a, b), self.identity_fact())  # ints (concrete or symbolic): equal at least
        if isinstance(a, _VALUE_TYPES) and type(a) is type(b) and same_value(a, b):
            return self.identity_fact()
        # dtypes are singletons, and so is what a namespace names (`type(x) is torch.Tensor`)
        return a is b or (a is None and b is None) or (isinstance(a, (DType, Namespace)) and a == b)

    def identity_fact(self: "Interpreter") -> Pred:
        where = self.span
        stem = "".join(c if c.isalnum() else "_" for c in os.path.basename(where.path).split(".")[0])
        fact = Sym(f"identity_{stem}_{where.line}_{where.col}", MACHINE, 0, 1, where,
                   "the identity of equal values, which Python leaves to the implementation")
        return P.ne(fact, 0)  # type: ignore[return-value]

    def ev_Call(self: "Interpreter", node: ast.Call, scope: Scope) -> Any:
        if self.extends_lazily(node, scope):
            return None
        fn = self.eval(node.func, scope)
        args = self.eval_elts(node.args, scope, isinstance(fn, ClassVal) and fn.lookup(SPREAD) is True)
        kwargs: dict[str, Any] = {}
        for kw in node.keywords:
            v = self.eval(kw.value, scope)
            if kw.arg is None:
                if isinstance(v, dict) and all(isinstance(k, str) for k in v):
                    kwargs.update(v)
                elif isinstance(fn, FunctionVal):  # e.g. `cli(**overrides_from_argv)`: still run it
                    kwargs.update({p: self.derived("keyword from an unknown mapping", v)
                                   for p in _named_params(fn.node, len(args)) if p not in kwargs})
                else:
                    return self.unknown("**kwargs of unknown mapping")
            else:
                kwargs[kw.arg] = v
        if fn is SUPER_MARK:
            return self.make_super(scope, args)
        if fn is registry.get("builtins.globals") and not args and getattr(node.func, "id", None) == "globals":
            return scope.globals  # `globals()[name]`: the module's namespace itself
        if fn is registry.get("builtins.locals") and not args and getattr(node.func, "id", None) == "locals":
            # `kwargs = dict(locals())` in a constructor (configs by prefix): a function's own variables, as
            # CPython's snapshot; a module's or a class body's namespace itself
            return self.function_locals(scope) if scope.func is not None else scope.locals
        if is_plain_eval(self, fn, node, args, kwargs):  # `eval(args.layers)`: the expression the text holds
            return eval_text(self, args[0], node, scope)
        with self.at(node):
            return self.call(fn, *args, **kwargs)

    def function_locals(self: "Interpreter", scope: Scope) -> dict[str, Any]:
        """CPython's `locals()` in a function: its bound variables, then its free variables with a value
        (sorted by name, as CPython's compiler orders them): an enclosing function's variables it reads, and
        `__class__`, the class a method that uses `super()` or `__class__` is defined in (dalle2's
        `del self._locals['__class__']` after `self._locals = locals()`)."""
        out = dict(scope.locals)
        fn = scope.func
        assert fn is not None
        free: dict[str, Any] = {}
        wants_class, names = free_names(fn.node)
        if wants_class and fn.owner is not None and "__class__" not in out:
            free["__class__"] = fn.owner
        own = local_names(fn.node, followed_statements(self)) | parameter_names(fn.node)
        for name in names - own:
            s = scope.parent
            while s is not None and s.func is not None and not s.is_class:
                if name in s.locals:
                    free[name] = s.locals[name]
                    break
                s = s.parent
        for name in sorted(free):
            out.setdefault(name, free[name])
        return out

    def ev_ListComp(self: "Interpreter", node: ast.ListComp, scope: Scope) -> Any:
        # the list itself, not a copy: it carries the "inexact" mark when iterations were left out
        return self.comprehension(node.generators, scope, lambda s: [self.eval(node.elt, s)], (node.elt,), "list")

    def extends_lazily(self: "Interpreter", node: ast.Call, scope: Scope) -> bool:
        """`ys.extend(f(ys[-1]) for m in blocks)`, a generator that reads the list it extends: CPython's
        `list.extend` takes the generator's items one by one, so each item sees the ones appended before it
        (ultralytics' HGBlock chains its blocks so). Run so, and say whether it was."""
        f = node.func
        if not (isinstance(f, ast.Attribute) and f.attr == "extend" and isinstance(f.value, ast.Name)
                and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp)):
            return False
        gen, name = node.args[0], f.value.id
        if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(gen)):
            return False
        target = self.eval(f.value, scope)
        if type(target) is not list or id(target) in self.inexact:
            return False

        def produce(s: Scope) -> list[Any]:
            target.append(self.eval(gen.elt, s))
            return []

        with self.at(node):
            out = self.comprehension(gen.generators, scope, produce)
        self.note_mutation(target)
        if id(out) in self.inexact:  # representatives of the generator's items: so are the items appended
            self.mark_inexact(target)
        return True

    def ev_GeneratorExp(self: "Interpreter", node: ast.GeneratorExp, scope: Scope) -> Any:
        return self.ev_ListComp(node, scope)  # type: ignore[arg-type]

    def ev_SetComp(self: "Interpreter", node: ast.SetComp, scope: Scope) -> Any:
        out = self.ev_ListComp(node, scope)  # type: ignore[arg-type]
        try:
            if id(out) in self.unordered:  # added in an order not known: iterated in one not known
                return self.unordered_set(out)
            return self.same_exactness(out, set(out))
        except TypeError:
            return self.unknown("set of unhashable values")

    def ev_DictComp(self: "Interpreter", node: ast.DictComp, scope: Scope) -> Any:
        out = self.comprehension(node.generators, scope, lambda s: [(self.eval(node.key, s), self.eval(node.value, s))],
                                 (node.key, node.value), "dict")
        try:
            if id(out) in self.unordered:  # every key, inserted in an order not known
                return self.unordered_dict(dict(out))
            return self.same_exactness(out, dict(out))
        except TypeError:
            return self.unknown("unhashable dict key")

    def comprehension(self: "Interpreter", gens: list[ast.comprehension], scope: Scope, produce: Any,
                      parts: tuple[ast.expr, ...] = (), kind: str = "") -> Any:
        inner = Scope(scope.globals, dict(), scope if not scope.is_class else scope.parent)
        if scope.locals is scope.globals:
            inner.parent = None
        first_source = self.eval(gens[0].iter, scope)
        if parts and (done := run_bulk(self, gens, scope, inner, first_source, parts, kind)) is not None:
            return done  # over plain data, at once (interp/bulk.py)
        results: list[Any] = []
        inexact = [False]
        unordered = [False]  # a generator ran items in an order not known (interp/unordered.py)
        count: list[Any] = []  # how many items the first generator yields, when known
        first: list[Any] = []  # where the items the first generator runs with sit among all of them
        kept = [0, False]  # items every filter surely kept; whether the first generator's items were cut short

        def loop(i: int) -> None:
            if i == len(gens):
                results.extend(produce(inner))
                return
            g = gens[i]
            source = first_source if i == 0 else self.eval(g.iter, inner)
            if i == 0:
                count.append(self.source_count(source))
            with self.at(g.iter):
                shuffled = self.shuffled(source)  # every item, in an order not known: each mapped, the result unordered
                items, truncated = (shuffled, False) if shuffled is not None else self.loop_items(source)
            unordered[0] |= shuffled is not None
            if i == 0:
                first.append(self.item_positions(source, len(items)))
                if isinstance(source, Unknown) and truncated and (count[0] is None or id(source) in self.unknown_len):
                    # over a value not understood: as many items as `len()` of it says, at least the
                    # representatives the body runs with (as for a list built in a loop not followed)
                    count[0] = self.unknown_length(source, lo=len(items))
                    at_least = P.ge(count[0], len(items))
                    if not isinstance(at_least, bool):
                        self.pc.append(at_least)
            inexact[0] |= truncated
            kept[1] |= truncated
            for item in items:
                self.assign(g.target, item, inner)
                ok, sure = True, True
                for cond in g.ifs:
                    t = self.truth_of(self.eval(cond, inner))
                    if isinstance(t, bool):
                        ok = ok and t
                    else:
                        inexact[0], sure = True, False  # kept or not depending on data
                        if truncated and isinstance(t, Pred):
                            # the item stands for every item of data: the kept ones satisfy the filter (as on
                            # the side of an `if` in a loop that keeps it); what is computed of it again later
                            # (`len(p.split(" "))`, one value per text) is bounded so
                            self.pc.append(t)
                if ok:
                    kept[0] += sure
                    loop(i + 1)

        loop(0)
        if unordered[0] and not inexact[0]:
            return self.unordered_list(results)
        if inexact[0]:
            self.inexact.add(id(results))
            self.keepalive.append(results)
            if len(gens) == 1 and not gens[0].ifs and count and count[0] is not None:
                self.known_len[id(results)] = count[0]  # one item per iteration; only the items are representatives
                if first and first[0] is not None and len(first[0]) == len(results):
                    self.rep_positions[id(results)] = first[0]
            elif len(gens) == 1 and gens[0].ifs and not kept[1]:
                # every item was run, some kept by a filter not decided: between the ones surely kept and all
                # of them (CPython keeps none of the others on some runs)
                self.known_len[id(results)] = self.fresh("len", lo=kept[0], hi=len(results),
                                                         note="items a filter not decided keeps")
            elif len(gens) == 1 and count and count[0] is not None and is_input_size(count[0]):
                # the items of data the filter keeps: how many is as much an input of the run as the data's count
                self.known_len[id(results)] = self.fresh("len", kind=INPUT, lo=0, note="items a filter keeps of "
                                                         f"data read at run time {ASSUMED_SIZE}")
        return results

    def ev_Starred(self: "Interpreter", node: ast.Starred, scope: Scope) -> Any:
        return self.eval(node.value, scope)

    def ev_Await(self: "Interpreter", node: ast.Await, scope: Scope) -> Any:
        value = self.eval(node.value, scope)
        with self.at(node):
            return awaited(self, value)

    def awaited(self: "Interpreter", value: Any) -> Any:
        return awaited(self, value)

    def ev_Yield(self: "Interpreter", node: ast.Yield, scope: Scope) -> Any:
        value = None if node.value is None else self.eval(node.value, scope)
        self.yield_value(value)
        return self.unknown("sent value")

    def ev_YieldFrom(self: "Interpreter", node: ast.YieldFrom, scope: Scope) -> Any:
        """Each item of the iterable, none of an empty one; of an iterable whose length is not known,
        representatives, and the generator's items become representatives (an unknown count, never one)."""
        items, truncated = self.loop_items(self.eval(node.value, scope))
        for it in items:
            self.yield_value(it)
        if truncated:
            self.note_representatives()
        return self.unknown("yield from")


_SWAPPED = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
_CMP_NODES: dict[str, type] = {**{name: node for node, (name, _) in CMPOPS.items()}, "in": ast.In}
_BIN_NODES = {name: node for node, (name, _) in BINOPS.items()}
_UNARY_NODES: "dict[str, type[ast.unaryop]]" = {"neg": ast.USub, "pos": ast.UAdd, "invert": ast.Invert, "not": ast.Not}


class _SuperMark:
    """What the name `super` evaluates to; the call needs the caller's scope, so it is special."""


SUPER_MARK = _SuperMark()


# values whose identity Python does not define (`'a' is 'a'`, `() is ()` depend on the implementation)
_VALUE_TYPES = (str, bytes, float, complex, tuple, frozenset)


_NAMED = (ClassVal, Builtin, Namespace)  # `type(out) == tuple`, `type(x) == torch.Tensor`


def _by_identity(v: Any) -> bool:
    """Objects whose equality is identity unless their class says otherwise (instances without
    `__eq__`, classes, functions, modules)."""
    from pytea_ci.interp.runtime import FunctionVal, ModuleVal
    from pytea_ci.models.registry import IDENTITY_EQ
    from pytea_ci.models.values import MISSING, Instance

    if isinstance(v, Instance):  # a native class's rule is its own (models/registry.py, native_class)
        return v.cls.lookup("__eq__") is MISSING and v.cls.lookup(IDENTITY_EQ) is not False
    return isinstance(v, (ClassVal, FunctionVal, ModuleVal, Namespace)) or v is None


_FAMILIES = {list: "list", tuple: "tuple", dict: "dict", set: "set", frozenset: "set", str: "str", bytes: "bytes",
             int: "number", PInt: "number", float: "number", bool: "number", complex: "number", type(None): "None"}


def _family(v: Any) -> str | None:
    """The builtin kind of `v` whose values only ever equal values of the same kind (a list is never
    equal to a tuple or a number); None for anything else (instances, which define their own `==`)."""
    return "number" if isinstance(v, Term) else _FAMILIES.get(type(v))


def _as_bool(u: Unknown) -> Unknown:
    """A bool of unknown value (`not x`, `x is None` are bools whatever x is)."""
    u.pytype = "bool"
    return u


def _bool_bitop(name: str, a: Any, b: Any) -> Any:
    """`|` / `&` of a known bool and a bool of unknown value, when the known one decides it (or is
    the identity: the unknown bool itself); None otherwise."""
    for known_side, other in ((a, b), (b, a)):
        if isinstance(known_side, bool) and isinstance(other, Unknown) and other.pytype == "bool":
            if known_side == (name == "or"):
                return known_side  # True | b, False & b
            return other  # False | b, True & b
    return None


def _named_params(fn: "ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda", n_positional: int) -> list[str]:
    """Parameters a call with an unknown `**mapping` may set: the named ones not given positionally
    (each becomes unknown; a `**kwargs` parameter of the callee gets what is known, `{}` here)."""
    a = fn.args
    positional = [p.arg for p in a.posonlyargs + a.args][n_positional:]
    return positional + [p.arg for p in a.kwonlyargs]


def _safe_eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) if not isinstance(a, (Tensor, Term)) else a == b
    except Exception:
        return False


@functools.lru_cache(maxsize=1024)
def free_names(fn: ast.AST) -> tuple[bool, frozenset[str]]:
    """(whether `fn` or a function nested in it reads `super` or `__class__`, the names they read): the
    candidates for `fn`'s free variables (nested class bodies are their own `__class__`'s)."""
    names: set[str] = set()
    wants_class = False
    stack: list[ast.AST] = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            names.add(n.id)
            wants_class = wants_class or n.id in ("super", "__class__")
        if isinstance(n, ast.ClassDef):
            stack.extend(n.decorator_list)
            stack.extend(n.bases)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return wants_class, frozenset(names)


def parameter_names(fn: ast.AST) -> frozenset[str]:
    a = fn.args  # type: ignore[attr-defined]
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x is not None)]
    return frozenset(p.arg for p in params)
