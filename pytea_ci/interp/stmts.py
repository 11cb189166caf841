"""Statement execution (a mixin of the interpreter): one `ex_<NodeName>` method per statement kind."""

from __future__ import annotations

import ast
import functools
from typing import TYPE_CHECKING, Any, Callable, cast

from pytea_ci.interp.branch_locals import branch_locals, numbers_join, tests_only
from pytea_ci.interp.contexts import run_with
from pytea_ci.interp.index_maps import length_setdefault
from pytea_ci.interp.ops import BINOPS, on_machine
from pytea_ci.interp.machine import ends_program, guess_text
from pytea_ci.interp.runtime import (MODULE_NOT_FOUND, SHAPE_ERROR, SHAPE_ERROR_BASES, BreakSignal, ContinueSignal,
                                     FunctionVal, PathEnd, ReturnSignal, Scope, SideEnd, UserException, same_value)
from pytea_ci.models.registry import get as registry_get
from pytea_ci.models.registry import stand_in_base
from pytea_ci.models.values import MISSING, OPAQUE, Builtin, ClassVal, Instance, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import is_dim
from pytea_ci.shapes.pred import Pred, opaque
from pytea_ci.shapes.tensor import Origin, Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


def assigned_names(body: list[ast.stmt]) -> set[str]:
    """Names bound anywhere in a block (not inside nested functions or classes)."""
    out: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
            continue
        if isinstance(n, ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


_BINDING = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith,
            ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Delete, ast.Global,
            ast.Nonlocal, ast.Return, ast.Break, ast.Continue, ast.Raise, ast.Try, ast.NamedExpr, ast.Yield,
            ast.YieldFrom, ast.Assert)


def effect_free(body: list[ast.stmt]) -> bool:
    """A block that binds no name and transfers no control (e.g. only prints and logging calls); one
    that ends the program (`sys.exit()`) transfers control."""
    return all(not isinstance(n, _BINDING) for stmt in body for n in ast.walk(stmt)) and not ends_program(body)


_PURE_CALLS = {"min", "max", "abs", "float", "int", "round", "str", "bool", "len", "item", "tolist"}


def bookkeeping(body: list[ast.stmt], own: frozenset[str] = frozenset()) -> bool:
    """A block of `name = expr` / `name += expr` (plain names, no calls but pure builtins and
    `.item()`; any value for a name only the block reads, `own`: `branch_locals`) and statements that
    bind nothing: what a training loop does to track its best loss and save its best checkpoint."""
    for stmt in body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if not all(isinstance(t, ast.Name) for t in targets) or stmt.value is None:
                return False
            if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) and t.id in own for t in targets):
                continue
            for n in ast.walk(stmt.value):
                if isinstance(n, ast.Call):
                    f = n.func
                    name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
                    if name not in _PURE_CALLS:
                        return False
                elif isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Yield, ast.YieldFrom, ast.Await)):
                    return False
        elif not effect_free([stmt]):
            return False
    return True


def expects_error(expr: ast.expr) -> bool:
    """`pytest.raises(...)`, `self.assertRaises(...)`, `assert_raises_regex(...)` and the like."""
    if isinstance(expr, ast.Call):
        f = expr.func
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        return "raises" in name.lower()
    return False


_SHAPE_WORDS = {"shape", "size", "ndim", "dim", "numel", "ndimension", "nelement"}


def about_shapes(test: ast.expr) -> bool:
    """An assert about tensor shapes (PT004 is for those; other asserts depend on values the
    analyzer only approximates, so a failing one just ends the path)."""
    for n in ast.walk(test):
        if isinstance(n, ast.Attribute) and n.attr in _SHAPE_WORDS:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len":
            return True
    return False


@functools.lru_cache(maxsize=1024)
def shape_names(fn: ast.AST) -> frozenset[str]:
    """Names a function binds to sizes (`b, t = x.size()`, `n = len(xs)`, `t2 = t + 1`): an assert on
    them is about shapes as much as one that spells `x.size(1)` out."""
    out: set[str] = set()
    while True:
        before = len(out)
        for n in _walk_own(fn):
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and n.value is not None and (
                    about_shapes(n.value) or mentions(n.value, out)):
                for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                    out |= _bound(t)
        if len(out) == before:
            return frozenset(out)


def mentions(expr: ast.AST, names: frozenset[str] | set[str]) -> bool:
    """Whether `expr` reads one of `names` (a name, or a dotted attribute such as `opt.n_classes`)."""
    return any(isinstance(x, (ast.Name, ast.Attribute)) and _dotted(x) in names for x in ast.walk(expr))


def _bound_value(scope: Scope, name: str) -> Any:
    """The value `name` has in `scope` (its function's locals, then the enclosing ones), or MISSING."""
    s: Scope | None = scope
    while s is not None:
        if name in s.locals:
            return s.locals[name]
        s = s.parent
    return scope.globals.get(name, MISSING)


def _size_like(v: Any) -> bool:
    """A size, a tuple of sizes (a shape), or a value not understood (which may be one)."""
    if isinstance(v, (tuple, list)):
        return any(_size_like(e) for e in v)
    return isinstance(v, Unknown) or is_dim(v)


def _dotted(e: ast.expr) -> str | None:
    if isinstance(e, ast.Name):
        return e.id
    inner = _dotted(e.value) if isinstance(e, ast.Attribute) else None
    return f"{inner}.{e.attr}" if inner is not None and isinstance(e, ast.Attribute) else None


def _bound(target: ast.expr) -> set[str]:
    """What an assignment to `target` binds: a name, or an attribute as its dotted text. `opt.n = len(xs)`
    makes `opt.n` a size, not `opt` (the object holding a size is no size: `assert opt.resume` is about
    the command line); `d[k] = n` binds nothing one can name."""
    if isinstance(target, (ast.Name, ast.Attribute)):
        return {d} if (d := _dotted(target)) is not None else set()
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_bound(e) for e in target.elts))
    return _bound(target.value) if isinstance(target, ast.Starred) else set()


class StmtMixin:
    naming: "tuple[str, Any] | None"  # (variable, span of the expression) while an assignment is evaluated
    discarded: Any  # the span of the call an expression statement drops the result of (a launcher: calls.py)

    def exec_block(self: "Interpreter", body: list[ast.stmt], scope: Scope) -> None:
        for stmt in body:
            self.exec(stmt, scope)

    def exec(self: "Interpreter", node: ast.stmt, scope: Scope) -> None:
        self.tick(node)
        meth = getattr(self, "ex_" + type(node).__name__, None)
        if meth is None:
            self.unsupported(node)
            return
        try:
            meth(node, scope)
        except UserException as e:
            if e.stmt is None:  # where the program raised, for the coverage figures
                e.stmt, e.span = node, self.span_of(node)
            raise

    def ex_Expr(self: "Interpreter", node: ast.Expr, scope: Scope) -> None:
        saved, self.discarded = self.discarded, self.span_of(node.value)
        self.length_default = len(self.frames) if length_setdefault(node.value) else -1
        try:
            self.eval(node.value, scope)
        finally:
            self.discarded = saved
            self.length_default = -1

    def ex_Pass(self: "Interpreter", node: ast.Pass, scope: Scope) -> None:
        return None

    def ex_Assign(self: "Interpreter", node: ast.Assign, scope: Scope) -> None:
        target = node.targets[0]
        if isinstance(target, ast.Name) and len(node.targets) == 1:
            self.naming = (target.id, self.span_of(node.value))
        self.length_default = len(self.frames) if length_setdefault(node.value) else -1
        try:
            value = self.eval(node.value, scope)
        finally:
            self.naming = None
            self.length_default = -1
        if self.config.options.get("symbolic_args"):
            value = _declared_at(self, node, value)
        for t in node.targets:
            self.assign(t, value, scope)

    def ex_AnnAssign(self: "Interpreter", node: ast.AnnAssign, scope: Scope) -> None:
        if scope.is_class and isinstance(node.target, ast.Name):
            # the field list of dataclasses and NamedTuples; the annotation's text is enough (ClassVar, InitVar)
            scope.locals.setdefault("__annotations__", {})[node.target.id] = ast.unparse(node.annotation)
        if node.value is not None:
            self.assign(node.target, self.eval(node.value, scope), scope)

    def ex_AugAssign(self: "Interpreter", node: ast.AugAssign, scope: Scope) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            cur = self.lookup(target.id, scope, target)
        else:
            cur = self.eval(ast.fix_missing_locations(_load(target)), scope)
        rhs = self.eval(node.value, scope)
        with self.at(node):
            if isinstance(cur, list) and isinstance(node.op, ast.Add):
                items = self.iterate(rhs)
                if items is None:
                    self.mark_inexact(cur)
                else:
                    cur.extend(items)
                    self.note_mutation(cur)
                return
            if isinstance(cur, Tensor):
                result = self.call_tensor_op(cur, f"__i{BINOPS[type(node.op)][0]}__", (rhs,))
            else:
                result = self.binop(type(node.op), cur, rhs, node)
        self.assign(target, result, scope)

    def ex_Delete(self: "Interpreter", node: ast.Delete, scope: Scope) -> None:
        for t in node.targets:
            self.delete(t, scope)

    def ex_Global(self: "Interpreter", node: ast.Global, scope: Scope) -> None:
        scope.global_names.update(node.names)

    def ex_Nonlocal(self: "Interpreter", node: ast.Nonlocal, scope: Scope) -> None:
        scope.nonlocal_names.update(node.names)

    def ex_If(self: "Interpreter", node: ast.If, scope: Scope) -> None:
        self.last_membership = None
        cond = self.eval(node.test, scope)
        if self.is_opaque(cond) and effect_free(node.body) and effect_free(node.orelse):
            # A data-dependent branch that binds nothing (logging, printing): run both sides on
            # this path instead of doubling the paths. A side may not be taken: a check failing in it
            # is a warning naming the condition, and that side ends there (interpreter `require`)
            text = guess_text(cond, node, self.span_of(node))
            with self.one_side():
                for taken, body in ((True, node.body), (False, node.orelse)):
                    self.unsure_sides.append(text[0].format(side="true" if taken else "false") if text else "")
                    try:
                        self.exec_block(body, scope)
                    except SideEnd:
                        pass
                    finally:
                        self.unsure_sides.pop()
            return
        own = branch_locals(node, scope.func.node if scope.func is not None else None) \
            if self.is_opaque(cond) else frozenset()
        if self.is_opaque(cond) and bookkeeping(node.body, own) and bookkeeping(node.orelse, own) \
                and self.join_branches(node, scope, own):
            return
        if self.join_constants(node, cond, scope):  # (loops.py)
            return
        if self.pkg.stack and self.shared.installed is not None and self.is_opaque(cond):
            side = self.shared.installed.guard_side(node)  # inside an installed package: its guards are assumed to pass
            if side is not None:
                self.exec_block(node.body if side else node.orelse, scope)
                return
        choice = self.decide(cond, node)
        with self.machine_side(), self.absent_side(node, choice):
            self.exec_block(node.body if choice else node.orelse, scope)

    def join_branches(self: "Interpreter", node: ast.If, scope: Scope, own: frozenset[str] = frozenset()) -> bool:
        """Both sides of a data-dependent bookkeeping branch (`if loss < best: best = loss`) on this
        path, their bindings joined: equal values stay, scalars that differ become unknown; the names
        only the branch reads (`own`) are not bound after it. When a side binds an int, a tensor or an
        object differently, nothing is bound and the caller forks."""
        names = sorted(assigned_names(node.body) | assigned_names(node.orelse))
        if any(n in scope.nonlocal_names for n in names):
            return False  # bound in an enclosing function: fork rather than track that scope here
        home = {n: scope.globals if n in scope.global_names else scope.locals for n in names}
        before = {n: home[n].get(n, MISSING) for n in names}

        def run(block: list[ast.stmt]) -> dict[str, Any] | None:
            try:
                self.exec_block(block, scope)
                return {n: home[n].get(n, MISSING) for n in names}
            except (UserException, PathEnd):
                return None  # a side that raises or fails: fork, so the other side goes on
            finally:
                for n in names:  # back to the state before the branch
                    if before[n] is MISSING:
                        home[n].pop(n, None)
                    else:
                        home[n][n] = before[n]

        with self.one_side():
            a = run(node.body)
            b = run(node.orelse) if a is not None else None
        if a is None or b is None:
            return False
        joined: dict[str, Any] = {}
        for n in names:
            if n in own:
                continue  # nothing after the branch reads it
            if same_value(a[n], b[n]):
                joined[n] = a[n]
            elif numbers_join(a[n], b[n], n in tests_only(scope.func.node if scope.func is not None else None)):
                kinds = {"int" if isinstance(v, int) and not isinstance(v, bool) else type(v).__name__
                         for v in (a[n], b[n]) if v is not MISSING and not isinstance(v, Unknown)}
                kinds |= {v.pytype or "" for v in (a[n], b[n]) if isinstance(v, Unknown)}  # "": of no known type
                joined[n] = self.unknown(f"{n}: set on one side of a data-dependent branch",
                                         pytype=(kinds.pop() or None) if len(kinds) == 1 else None)
            else:
                return False
        for n, v in joined.items():
            if v is not MISSING:
                home[n][n] = v
        return True

    def ex_Return(self: "Interpreter", node: ast.Return, scope: Scope) -> None:
        raise ReturnSignal(None if node.value is None else self.eval(node.value, scope))

    def ex_Break(self: "Interpreter", node: ast.Break, scope: Scope) -> None:
        raise BreakSignal()

    def ex_Continue(self: "Interpreter", node: ast.Continue, scope: Scope) -> None:
        raise ContinueSignal()

    def ex_FunctionDef(self: "Interpreter", node: ast.FunctionDef, scope: Scope) -> None:
        defaults = tuple(self.eval(d, scope) for d in node.args.defaults)
        kw = tuple(None if d is None else self.eval(d, scope) for d in node.args.kw_defaults)
        closure = None if scope.is_class or scope.locals is scope.globals else scope
        if scope.is_class:
            closure = scope.parent
        fn: Any = FunctionVal(node, node.name, closure, scope.globals, self.cur_path, defaults, kw)
        if scope.is_class and isinstance(scope.locals.get("__qualname__"), str):
            fn.qualname = f"{scope.locals['__qualname__']}.{node.name}"
        if scope.defined is not None:
            scope.defined.append(fn)
        for dec in reversed(node.decorator_list):
            d = self.eval(dec, scope)
            with self.at(dec):
                fn = self.apply_decorator(d, fn)
        self.bind_name(node.name, fn, scope)

    ex_AsyncFunctionDef = ex_FunctionDef

    def ex_ClassDef(self: "Interpreter", node: ast.ClassDef, scope: Scope) -> None:
        bases = []
        opaque: list[str] = []  # the bases not followed (`str` in `class Kind(str, Enum)`), by name when known
        for b in node.bases:
            v = self.eval(b, scope)
            if isinstance(v, Builtin) and v.name in ("builtins.dict", "collections.OrderedDict"):
                v = registry_get("builtins.dict.__base__", v)  # `class Output(OrderedDict)` keeps items
            elif isinstance(v, Builtin) and v.name == "builtins.property":
                v = registry_get("builtins.property.__base__", v)  # `class classproperty(property)`
            if _names_api(v):
                v = stand_in_base(v.reason) or v  # `class M(nn.Transformer)`: an nn.Module all the same
            if isinstance(v, ClassVal):
                bases.append(v)
            else:
                opaque.append(v.name if isinstance(v, Builtin) else "")
        ns: dict[str, Any] = {"__module__": scope.globals.get("__name__"), "__qualname__": node.name}
        body = Scope(scope.globals, ns, scope if not scope.is_class and scope.locals is not scope.globals else None,
                     is_class=True, defined=[])
        self.exec_block(node.body, body)
        if "__doc__" not in ns:  # the compiler's docstring (None under `python -OO`: not known), else None
            # unless a decorator or a metaclass may write one (`@dataclass`, NamedTuple, Enum: by version)
            plain = not node.decorator_list and not opaque and all(_doc_kept(b) for b in bases)
            none = plain and ast.get_docstring(node, clean=False) is None
            ns["__doc__"] = None if none else self.unknown("class docstring")
        own = ns.pop("__qualname__", node.name)  # as `type.__new__`: the class's, not an attribute of its instances
        qual = f"{scope.globals.get('__name__', '')}.{node.name}"
        cls = ClassVal(node.name, tuple(bases), ns, qual, own_qualname=own if isinstance(own, str) else node.name)
        if opaque:
            ns["__opaque_base__"] = True
            ns["__opaque_bases__"] = tuple(opaque)
        if any(k.arg == "metaclass" and not (isinstance(k.value, ast.Name) and k.value.id == "type")
               for k in node.keywords):
            ns[OPAQUE] = True  # a metaclass not followed may give the class attributes of any name
        for v in ns.values():
            target = getattr(v, "func", v) if not isinstance(v, FunctionVal) else v
            if isinstance(target, FunctionVal):
                target.owner = cls
            if hasattr(v, "fget") and isinstance(v.fget, FunctionVal):
                v.fget.owner = cls
        for f in body.defined or ():  # a method a decorator wrapped (`functools.wraps`): its `super()` too
            f.owner = f.owner or cls
        body.defined = None
        kwargs = {k.arg: self.eval(k.value, scope) for k in node.keywords if k.arg not in (None, "metaclass")}
        with self.at(node):
            val: Any = self.init_subclass(cls, kwargs)
        for dec in reversed(node.decorator_list):
            d = self.eval(dec, scope)
            with self.at(dec):
                val = self.apply_decorator(d, val)
        self.bind_name(node.name, val, scope)

    def ex_Import(self: "Interpreter", node: ast.Import, scope: Scope) -> None:
        if self.shared.installed is not None and self.shared.installed.deferred(self, node, scope):
            return  # a followed package's import its module's code reads only in functions (packages/lazy.py)
        for alias in node.names:
            with self.at(node):
                mod = self.import_module(alias.name, scope, node)
                if alias.asname:
                    self.bind_name(alias.asname, mod, scope)
                else:
                    top = alias.name.split(".")[0]
                    self.bind_name(top, self.import_module(top, scope, node), scope)

    def ex_ImportFrom(self: "Interpreter", node: ast.ImportFrom, scope: Scope) -> None:
        if node.module == "__future__" and not node.level:
            return  # a compiler directive (`from __future__ import annotations`), not an API not modeled
        if self.shared.installed is not None and self.shared.installed.deferred(self, node, scope):
            return  # a followed package's re-export, run when one of its names is used (packages/lazy.py)
        with self.at(node):
            self.import_from(node, scope)

    def ex_With(self: "Interpreter", node: "ast.With | ast.AsyncWith", scope: Scope) -> None:
        if not any(expects_error(item.context_expr) for item in node.items):
            run_with(self, node.items, node.body, scope, isinstance(node, ast.AsyncWith))
            return
        for item in node.items:
            value = self.enter_context(self.eval(item.context_expr, scope))
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value, scope)
        # `with pytest.raises(...)`: an error inside is what the code wants; it ends the block only.
        self.expecting += 1
        try:
            self.exec_block(node.body, scope)
        except UserException:
            pass
        finally:
            self.expecting -= 1

    ex_AsyncWith = ex_With

    def ex_Raise(self: "Interpreter", node: ast.Raise, scope: Scope) -> None:
        exc = None if node.exc is None else self.eval(node.exc, scope)
        kind = "Exception"
        if isinstance(exc, ClassVal):
            kind = exc.name
        elif isinstance(exc, Instance):
            kind = exc.cls.name
        raise UserException(kind, exc)

    def ex_Try(self: "Interpreter", node: ast.Try, scope: Scope) -> None:
        catches = any(self.handler_matches(h, UserException(SHAPE_ERROR), scope) for h in node.handlers)
        imports = any(self.handler_matches(h, UserException(MODULE_NOT_FOUND), scope) for h in node.handlers)
        try:
            try:
                self.expecting += catches
                self.catching_import += imports
                try:
                    self.exec_block(node.body, scope)
                finally:
                    self.expecting -= catches
                    self.catching_import -= imports
            except UserException as e:
                for h in node.handlers:
                    if self.handler_matches(h, e, scope):
                        if h.name:
                            self.bind_name(h.name, e.value if e.value is not None else self.caught(e), scope)
                        self.exec_block(h.body, scope)
                        break
                else:
                    raise
            else:
                self.exec_block(node.orelse, scope)
        finally:
            if node.finalbody:
                self.exec_block(node.finalbody, scope)

    ex_TryStar = ex_Try

    def caught(self: "Interpreter", e: UserException) -> Any:
        """What `except ... as name` binds for an exception the analyzer raised itself: an instance of the
        builtin class with CPython's `args` where they are known (`str(e)` of a KeyError is its key's repr),
        else a value not known."""
        cls = registry_get(f"builtins.{e.kind}")
        if e.args_known is None or not isinstance(cls, ClassVal):
            return self.unknown("exception")
        return Instance(cls, {"args": e.args_known})

    def handler_matches(self: "Interpreter", h: ast.ExceptHandler, e: UserException, scope: Scope) -> bool:
        if h.type is None:
            return True
        t = self.eval(h.type, scope)
        kinds = t if isinstance(t, tuple) else (t,)
        for k in kinds:
            if not isinstance(k, ClassVal):
                return True  # unknown exception class: assume it matches
            if k.name in ("BaseException", e.kind) or (k.name == "Exception" and e.kind not in _NOT_EXCEPTIONS):
                return True
            if e.value is not None and isinstance(e.value, (Instance, ClassVal)):
                cls = e.value.cls if isinstance(e.value, Instance) else e.value
                if k in cls.mro():
                    return True
            if _builtin_subclass(e.kind, k.name):
                return True
        return False

    def sizes_named(self: "Interpreter", test: ast.expr, names: frozenset[str], scope: Scope) -> bool:
        """Whether `test` reads one of `names` (bound to sizes somewhere in its function) that holds a
        size here: `times`, later `repeat(times, ' -> b', b=batch)`, is None where e2-tts asserts
        `not (exists(times) ^ self.cond_on_time)`, which says nothing about shapes. A dotted name, or one
        not bound yet, counts as the function's text says."""
        for x in ast.walk(test):
            if isinstance(x, (ast.Name, ast.Attribute)) and (d := _dotted(x)) in names:
                v = _bound_value(scope, d) if isinstance(x, ast.Name) else MISSING
                if v is MISSING or _size_like(v):
                    return True
        return False

    def ex_Assert(self: "Interpreter", node: ast.Assert, scope: Scope) -> None:
        """An assert constrains the path: what it states is assumed from here on. One that can never
        hold is PT004 when it is about shapes and decided without unknowns or machine facts; any
        other failing assert is the program raising AssertionError (the path ends, recorded)."""
        value = self.eval(node.test, scope)
        code = scope.func.node if scope.func is not None else self.shared.asts.get(scope.globals.get("__file__", ""))
        shapes = about_shapes(node.test) or (code is not None and self.sizes_named(node.test, shape_names(code), scope))
        with self.at(node):
            self.raise_unless(value, "AssertionError", (lambda: self.report_assert(node)) if shapes else None)

    def raise_unless(self: "Interpreter", value: Any, kind: str, report: "Callable[[], None] | None" = None) -> None:
        """`if not value: raise kind()` as the program states it (an assert, `torch._assert`, `torch._check`):
        what it states is assumed from here on; when it can never hold, `report` (a finding, when the
        statement is about shapes and decided without machine facts) and then the program raises `kind`.
        A statement about shapes (one with a `report`) is a shape check the program makes, counted as one.
        A value not understood is assumed, nothing learnt from it."""
        cond = self.truth_of(value)
        machine = on_machine(cond)
        unknown = _undecidable(value, cond)
        if report is not None:
            skipped = (value.origin if isinstance(value, Unknown) else None) or Origin(self.span, "a size not understood")
            self.shared.coverage.op(self.span, skipped if unknown else None)
        if unknown:
            return
        if isinstance(cond, Pred):
            can_true, can_false = self.config.decider.branch(cond, self.pc)
            if can_true and can_false:
                self.pc.append(cond)
            if machine and can_true and self.config.decider.branch(cond, [])[1]:
                self.machine.require(cond)  # the program requires it (not a tautology): no guess
            cond = can_true
        if cond is False:
            if report is not None and not machine:
                report()
            raise UserException(kind)


def _undecidable(value: Any, cond: Any) -> bool:
    return isinstance(value, Unknown) or (isinstance(cond, Pred) and opaque(cond))


_LOOKUP_ERRORS = {"IndexError", "KeyError"}
_NOT_EXCEPTIONS = {"SystemExit", "KeyboardInterrupt", "GeneratorExit"}  # BaseException, not Exception
_ARITH = {"ZeroDivisionError", "OverflowError", "FloatingPointError"}


def _doc_kept(base: ClassVal) -> bool:
    """Whether a subclass of `base` gets its `__doc__` from its own body only: `base`'s classes are the
    program's (no other metaclass), `object`, torch's modules or builtin exceptions."""
    return all(not c.native and OPAQUE not in c.ns or c.name == "object" or c.qualname.startswith("torch.nn.")
               or c.is_subclass_of("builtins.BaseException") for c in base.mro())


def _names_api(v: Any) -> bool:
    """An Unknown that is the name of an API not modeled (born as one: its reason is the name)."""
    return isinstance(v, Unknown) and v.origin is not None and v.origin.what == v.reason


def raised_as(e: UserException, names: tuple[str, ...]) -> bool:
    """Whether `except <one of names>:` catches `e` (a builtin exception's own bases, or a class of the
    program deriving from one: `class Missing(IndexError)`)."""
    if e.kind in names or any(_builtin_subclass(e.kind, n) for n in names):
        return True
    cls = e.value.cls if isinstance(e.value, Instance) else e.value
    return isinstance(cls, ClassVal) and any(c.name in names for c in cls.mro())


def _builtin_subclass(kind: str, name: str) -> bool:
    if kind == SHAPE_ERROR:
        return name in SHAPE_ERROR_BASES
    if name == "LookupError":
        return kind in _LOOKUP_ERRORS
    if name == "ArithmeticError":
        return kind in _ARITH
    if name == "NameError":
        return kind == "UnboundLocalError"
    if name == "OSError":
        return kind in {"FileNotFoundError", "PermissionError", "IOError"}
    if name == "ImportError":
        return kind == MODULE_NOT_FOUND
    return False


def _walk_own(fn: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _load(target: ast.expr) -> ast.expr:
    """A copy of an assignment target usable as a load expression."""
    import copy

    t = copy.deepcopy(target)
    for n in ast.walk(t):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()  # type: ignore[attr-defined]
    return t


_ = P  # predicates are used through truth()/decide()


def _declared_at(it: "Interpreter", node: ast.Assign, value: Any) -> Any:
    """The value assigned at a `file:line` the configuration declares symbolic (`[tool.pytea-ci.symbolic]`)."""
    from pytea_ci.models.random_ import declared

    span = it.span_of(node)
    table = it.config.options["symbolic_args"]
    for key in (f"{span.path}:{span.line}", f"{span.path.rsplit('/', 1)[-1]}:{span.line}"):
        if key in table:
            target = node.targets[0]
            name = target.id if isinstance(target, ast.Name) else "value"
            return declared(cast(Any, it), name, table[key], f"the value at {key} (declared symbolic)")
    return value

