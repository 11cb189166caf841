"""Library mode: how the project's own construction sites build a module (issue 19, item 5), read from
the source without running it.

A site `Net(args.hidden, NUM_CLASSES, kernel=3)` becomes a construction library mode can rebuild in the
class's own module: each argument is *known* when it is a literal, or an expression over literals,
names bound once (in the site's function or at the top of its file) to known values, `args.x` where
`args = parser.parse_args()` and `--x` has a default in the same file (what the script does when run
without arguments), `cfg["key"]` of a dictionary display never changed, and calls of pure builtins or
of the class's own module's functions and classes (`make_layers(CFGS["A"])`, `GPTConfig(n_layer=2)`).
Anything else (a data set's `len(vocab)`, a function's parameter, a value that is changed later) is
*unknown*: a positive symbol when the parameter is an integer (annotated `int`, an integer default, a
size-like name, or `len(...)`), else an unknown value — never a guess. Values are written out (inlined),
so the construction runs in the class's module (`library/verdict.driver_tree`) whatever the
site's file holds. What each file binds and its argparse defaults are read by `driver/pysource.py`.
"""

from __future__ import annotations

import ast
import builtins
import copy
import os
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pytea_ci.driver.pysource import FileFacts
from pytea_ci.library import protocol

_PURE = {"int", "float", "bool", "str", "tuple", "list", "dict", "set", "frozenset", "len", "max", "min", "abs",
         "round", "sum", "sorted", "range", "pow", "divmod", "zip", "enumerate", "reversed", "any", "all"}
_PURE_MODULES = {"math", "torch", "torch.nn", "nn", "torch.nn.functional", "functools", "operator"}
_READ_ONLY = {"get", "keys", "values", "items", "copy", "index", "count"}
_MUTABLE = (ast.Dict, ast.List, ast.Set, ast.Call)  # values whose contents a later statement may change
MAX_DEPTH = 12  # names followed through other names


@dataclass(frozen=True)
class Site:
    """One construction site, as library mode rebuilds it."""

    construct: str  # evaluated in the class's module
    raw: str  # the call as written (`callers` matches its callers' constructions on it)
    label: str
    unknown: tuple[str, ...]  # the parameters given a symbol or an unknown value
    known: int  # the arguments given a value


class _Unknown(Exception):
    pass


def _root(origin: str) -> str:
    return origin.split(".")[0] if not origin.startswith(".") else origin


class Resolver:
    """Rewrites one site's argument into an expression over literals and names of the class's module."""

    def __init__(self, own: FileFacts, here: FileFacts, chain: list[ast.FunctionDef | ast.AsyncFunctionDef],
                 site: ast.Call) -> None:
        self.own, self.here, self.chain, self.site = own, here, chain, site
        self.own_module = os.path.splitext(os.path.basename(own.path))[0]

    def value(self, node: ast.expr, depth: int = 0) -> ast.expr:
        """The argument rewritten (raises `_Unknown`)."""
        if depth > MAX_DEPTH:
            raise _Unknown
        if isinstance(node, ast.Name):
            return self._name(node.id, depth)
        if isinstance(node, ast.Attribute):
            return self._attribute(node, depth)
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        if isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.BinOp, ast.UnaryOp, ast.BoolOp,
                             ast.Compare, ast.IfExp, ast.Subscript, ast.Slice, ast.Starred, ast.JoinedStr,
                             ast.FormattedValue)):
            out = copy.copy(node)
            for field, old in ast.iter_fields(node):
                if isinstance(old, ast.expr):
                    setattr(out, field, self.value(old, depth))
                elif isinstance(old, list):
                    setattr(out, field, [self.value(x, depth) if isinstance(x, ast.expr) else x for x in old])
            return out
        raise _Unknown

    # ----- names: a value bound once, or a name the class's module binds to the same thing ---------------
    def _name(self, name: str, depth: int) -> ast.expr:
        for i, fn in enumerate(reversed(self.chain)):
            scope = self.here.scope(fn)
            if name in scope.values:
                if i > 0:
                    raise _Unknown  # bound in an enclosing function: a closure, not followed
                return self._bound(name, scope.values[name], fn.body, self.here, depth)
        if name in self.here.module.values and name not in self.here.defs and name not in self.here.imports:
            return self._bound(name, self.here.module.values[name], self.here.tree.body, self.here, depth)
        return self._reference(name)

    def _bound(self, name: str, value: ast.expr | None, where: list[ast.stmt], facts: FileFacts,
               depth: int) -> ast.expr:
        if value is None:
            raise _Unknown
        if isinstance(value, _MUTABLE) and _changed(name, where, self.site):
            raise _Unknown
        if facts is not self.here:
            return Resolver(facts, facts, [], self.site).value(value, depth + 1)
        return self.value(value, depth + 1)

    def _reference(self, name: str) -> ast.expr:
        """A function, class or import the class's module binds as the site's file does."""
        here, own = self.here, self.own
        if name in here.defs or name in here.imports or name in here.module.values:
            if here is own and (name in own.defs or name in own.imports):
                return ast.Name(name, ast.Load())
            origin = here.imports.get(name, "")
            if origin.split(".")[-2:-1] == [self.own_module] and origin.endswith("." + name):
                return self._in_own(name)
            if origin and own.imports.get(name) == origin and _root(origin) in _PURE_MODULES:
                return ast.Name(name, ast.Load())
            raise _Unknown
        if hasattr(builtins, name) and name not in own.module.values:
            return ast.Name(name, ast.Load())
        raise _Unknown

    def _in_own(self, name: str) -> ast.expr:
        """A name the site's file imports from the class's module: that module's own binding."""
        own = self.own
        if name in own.defs or name in own.imports:
            return ast.Name(name, ast.Load())
        if name in own.module.values:
            return self._bound(name, own.module.values[name], own.tree.body, own, 0)
        raise _Unknown

    # ----- attributes: parsed options, a module's names -----------------------------------------------
    def _attribute(self, node: ast.Attribute, depth: int) -> ast.expr:
        base = node.value
        if isinstance(base, ast.Name) and self._parsed_options(base.id):
            default = self.here.options.get(node.attr)
            if default is None:
                raise _Unknown
            return Resolver(self.here, self.here, [], self.site).value(default, depth + 1)
        if isinstance(base, ast.Name) and base.id in self.here.imports and not self._local(base.id):
            origin = self.here.imports[base.id]
            if origin.split(".")[-1] == self.own_module:  # `import model as m; m.WIDTH`
                return self._in_own(node.attr)
        return ast.Attribute(self.value(base, depth), node.attr, ast.Load())

    def _local(self, name: str) -> bool:
        return any(name in self.here.scope(fn).values for fn in self.chain)

    def _parsed_options(self, name: str) -> bool:
        """Whether `name` is bound once to `parser.parse_args()` (or to a call of a function of this file
        that returns it) in the site's scope."""
        scope = next((self.here.scope(fn) for fn in reversed(self.chain) if name in self.here.scope(fn).values),
                     self.here.module)
        value = scope.values.get(name)
        if not isinstance(value, ast.Call) or value.args or value.keywords:
            return False
        if isinstance(value.func, ast.Attribute) and value.func.attr == "parse_args":
            return True
        if isinstance(value.func, ast.Name) and value.func.id in self.here.defs:
            fn = next((n for n in self.here.tree.body if isinstance(n, ast.FunctionDef) and n.name == value.func.id),
                      None)
            returns = [r.value for r in ast.walk(fn) if isinstance(r, ast.Return)] if fn is not None else []
            return bool(returns) and all(isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute)
                                         and r.func.attr == "parse_args" and not r.args for r in returns)
        return False

    # ----- calls: pure builtins, the class's module's functions and classes ---------------------------
    def _call(self, node: ast.Call, depth: int) -> ast.expr:
        f = node.func
        if isinstance(f, ast.Name):
            func = self._reference(f.id) if not self._local(f.id) else None
            if func is None or (f.id not in self.own.defs and f.id not in _PURE and not self._pure_import(f.id)):
                raise _Unknown
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and self._pure_import(f.value.id):
            func = ast.Attribute(self._reference(f.value.id), f.attr, ast.Load())
        elif isinstance(f, ast.Attribute) and f.attr in _READ_ONLY:
            func = ast.Attribute(self.value(f.value, depth), f.attr, ast.Load())
        else:
            raise _Unknown
        args = [self.value(a, depth) for a in node.args]
        keywords = [ast.keyword(k.arg, self.value(k.value, depth)) for k in node.keywords]
        return ast.Call(func, args, keywords)

    def integer(self, node: ast.expr, depth: int = 0) -> bool:
        """Whether an argument not known is an integer all the same: `len(...)`, `int(...)`, or a name
        bound once to one."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("len", "int"):
            return not self._local(node.func.id) and node.func.id not in self.here.module.values
        if isinstance(node, ast.Name) and depth < MAX_DEPTH:
            scopes = [self.here.scope(fn) for fn in reversed(self.chain)] + [self.here.module]
            scope = next((sc for sc in scopes if node.id in sc.values), None)
            value = scope.values[node.id] if scope is not None else None
            return value is not None and self.integer(value, depth + 1)
        return False

    def _pure_import(self, name: str) -> bool:
        origin = self.here.imports.get(name, "")
        return bool(origin) and _root(origin) in _PURE_MODULES and not self._local(name)


def _changed(name: str, body: list[ast.stmt], site: ast.Call) -> bool:
    """Whether a container or object bound to `name` may be changed outside the site: an item or
    attribute stored, a method other than a reading one called, or the value passed on or aliased."""
    inside = {id(n) for n in ast.walk(site)}
    parents: dict[int, ast.AST] = {}
    for st in body:
        for p in ast.walk(st):
            for c in ast.iter_child_nodes(p):
                parents[id(c)] = p
    for st in body:
        for n in ast.walk(st):
            if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)) or id(n) in inside:
                continue
            top: ast.AST = n
            while isinstance(parents.get(id(top)), (ast.Subscript, ast.Attribute)) and \
                    getattr(parents[id(top)], "value", None) is top:
                top = parents[id(top)]
            if not _reads(top, parents.get(id(top)), parents):
                return True
    return False


def _reads(top: ast.AST, parent: ast.AST | None, parents: dict[int, ast.AST]) -> bool:
    """Whether this use of the name (`top`: the name with the items and attributes read from it) leaves
    the value as it is: a store or a changing method does not, nor passing the whole value on (a function
    may change it) or aliasing it; an item passed on is taken as read."""
    if isinstance(top, (ast.Subscript, ast.Attribute)) and not isinstance(top.ctx, ast.Load):
        return False
    if isinstance(top, ast.Attribute) and isinstance(parent, ast.Call) and parent.func is top:
        return top.attr in _READ_ONLY
    if isinstance(parent, ast.Starred) or isinstance(parent, ast.keyword) and parent.arg is None:
        return True  # unpacked: copied
    call = parents.get(id(parent)) if isinstance(parent, ast.keyword) else parent
    if isinstance(call, ast.Call) and top is not call.func:  # passed on
        return not isinstance(top, ast.Name) or isinstance(call.func, ast.Name) and call.func.id in _PURE
    return not isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr, ast.Return, ast.Yield, ast.keyword,
                                   ast.Lambda, ast.Tuple, ast.List, ast.Set, ast.Dict))  # aliased


# ----- sites -----------------------------------------------------------------------------------------
def _params(init: ast.FunctionDef | None) -> tuple[list[ast.arg], dict[str, tuple[ast.arg, ast.expr | None]]]:
    """`__init__`'s positional parameters (after `self`) and every named one with its default."""
    if init is None:
        return [], {}
    a = init.args
    positional = (a.posonlyargs + a.args)[1:]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    named = {p.arg: (p, d) for p, d in zip(positional, defaults)}
    named.update({p.arg: (p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults)})
    return positional, named


def _placeholder(name: str, param: tuple[ast.arg, ast.expr | None] | None, counted: bool, int_like: bool) -> str:
    """An argument not known: a positive symbol for an integer parameter, else an unknown value."""
    p, default = param if param is not None else (None, None)
    ann = ast.unparse(p.annotation) if p is not None and p.annotation is not None else ""
    if ann:
        integer = ann == "int"
    elif default is not None:
        integer = isinstance(default, ast.Constant) and type(default.value) is int
    else:
        integer = int_like or counted
    return protocol.dim(name) if integer else protocol.unknown(name)


def site(call: ast.Call, cls: str, init: ast.FunctionDef | None, resolver: Resolver, where: str,
         int_like: Callable[[str], bool]) -> Site | None:
    """The construction of one call site (None when its arguments' structure is not known: `*rest`, `**cfg`
    not known, an argument past the parameters)."""
    positional, named = _params(init)
    parts: list[str] = []
    unknown: list[str] = []
    known = 0
    items: list[tuple[str | None, ast.expr, bool]] = [(None, a, False) for a in call.args]
    items += [(k.arg, k.value, True) for k in call.keywords]
    after_star = False
    for i, (key, node, is_kw) in enumerate(items):
        star = isinstance(node, ast.Starred) or (is_kw and key is None)
        try:
            value = resolver.value(node.value if isinstance(node, ast.Starred) else node)
            text = ast.unparse(value)
            parts.append(("**" if is_kw else "*") + text if star else f"{key}={text}" if is_kw else text)
            known += 1
        except _Unknown:
            pname = key if is_kw else positional[i].arg if i < len(positional) and not after_star else None
            if star or pname is None:
                return None
            unknown.append(pname)
            holder = _placeholder(pname, named.get(pname), resolver.integer(node), int_like(pname))
            parts.append(f"{key}={holder}" if is_kw else holder)
        after_star = after_star or (star and not is_kw)
    construct = f"{cls}({', '.join(parts)})"
    raw = f"{cls}({', '.join([ast.unparse(a) for a in call.args] + [f'{k.arg}={ast.unparse(k.value)}' for k in call.keywords])})"
    shown = construct
    for n in unknown:
        shown = shown.replace(protocol.dim(n), n).replace(protocol.unknown(n), f"<{n}>")
    label = f"{shown if len(shown) <= 100 else raw if len(raw) <= 100 else raw[:97] + '...'} at {where}:{call.lineno}"
    return Site(construct, raw, label, tuple(unknown), known)


Chain = list[ast.FunctionDef | ast.AsyncFunctionDef]


def calls(tree: ast.Module, callee: Callable[[ast.Call], str], cls: str) -> Iterator[tuple[ast.Call, Chain, str]]:
    """The calls of `cls` in `tree`, each with its enclosing functions (outermost first) and the class
    whose body holds it ("" at the top level or in a plain function); calls in a class body outside its
    methods and in lambdas are left out. The tree is walked once per `callee`, for every class."""
    per_callee = _CALLS.setdefault(tree, {})
    by_name = per_callee.get(callee)
    if by_name is None:
        by_name = per_callee[callee] = {}
        for call, chain, owner in _all_calls(tree):
            by_name.setdefault(callee(call), []).append((call, chain, owner))
    return iter(by_name.get(cls, ()))


_CALLS: "weakref.WeakKeyDictionary[ast.Module, dict[Callable[[ast.Call], str], dict[str, list[tuple[ast.Call, Chain, str]]]]]" = \
    weakref.WeakKeyDictionary()


def _all_calls(tree: ast.Module) -> Iterator[tuple[ast.Call, Chain, str]]:
    todo: list[tuple[ast.AST, Chain, str, bool]] = [(tree, [], "", False)]
    while todo:
        node, chain, owner, in_class_body = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                todo.append((child, chain + [child], owner, False))
            elif isinstance(child, ast.ClassDef):
                todo.append((child, chain, child.name, True))
            elif not isinstance(child, ast.Lambda):
                if isinstance(child, ast.Call) and not in_class_body:
                    yield child, chain, owner
                todo.append((child, chain, owner, in_class_body))
