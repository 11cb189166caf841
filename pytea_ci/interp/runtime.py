"""Interpreter-only runtime values and control-flow signals."""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pytea_ci.diagnostics import Span
from pytea_ci.models.values import ClassVal
from pytea_ci.shapes.tensor import Tensor


@dataclass(eq=False)
class Scope:
    """Variables of one module, class body or function activation."""

    globals: dict[str, Any]
    locals: dict[str, Any]
    parent: "Scope | None" = None  # enclosing function scope, for closures
    is_class: bool = False
    global_names: set[str] = field(default_factory=set)
    nonlocal_names: set[str] = field(default_factory=set)
    func: "FunctionVal | None" = None
    self_arg: Any = None
    # of a class body while it runs: the functions written in it, whose `__class__` cell (zero-argument
    # `super()`) is the class, whatever their decorators bind the name to
    defined: "list[FunctionVal] | None" = None


# key of `FunctionVal.attrs`: the decorator not understood the function went through (its result may
# take other arguments than the function's own)
THROUGH_UNKNOWN = "__pytea_through_unknown_decorator__"


@dataclass(eq=False)
class FunctionVal:
    # what `isinstance` in the models reads (they cannot import this module): a Python function or lambda
    python_function: ClassVar[bool] = True
    node: "ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda"
    name: str
    closure: Scope | None
    globals: dict[str, Any]
    path: str
    # tuples, as CPython's `__defaults__`: never changed in place, so a copy of the state (snapshot.py) shares
    # them (an import defines thousands of functions; two lists each were most of a checkpoint's objects)
    defaults: tuple[Any, ...] = ()
    kw_defaults: tuple[Any, ...] = ()
    owner: ClassVal | None = None
    qualname: str = ""  # `Class.method` when defined in a class body (read by decorators: `fn.__qualname__`)
    # the function's `__dict__` (`fn.x = 1`, functools.wraps), made when first asked for (`attrs`): most of the
    # thousands of functions an import defines never have one, and a copy of the state (snapshot.py) copied an
    # empty dict for each (5,031 of a torchrl checkpoint's 17.3k objects)
    own_attrs: dict[str, Any] | None = None

    @property
    def attrs(self) -> dict[str, Any]:
        if self.own_attrs is None:
            self.own_attrs = {}
        return self.own_attrs

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    @property
    def is_generator(self) -> bool:
        """Whether calling it makes a generator: its own body yields. Asked when it is called, not when
        it is defined (an import defines thousands of functions and a run calls a few of them)."""
        return not isinstance(self.node, ast.Lambda) and yields(self.node)


@functools.lru_cache(maxsize=1 << 16)
def yields(fn: ast.AST) -> bool:
    """Whether a function's own body yields (memoized per node: a function is called on every path)."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return False


@dataclass(eq=False)
class ModuleVal:
    name: str
    path: str
    globals: dict[str, Any]
    stopped: str = ""  # why its import stopped early (an exception it raised), when it did


@dataclass(eq=False)
class SuperVal:
    owner: ClassVal
    self_val: Any


class ReturnSignal(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class BreakSignal(Exception):
    pass


class ContinueSignal(Exception):
    pass


class PathEnd(Exception):
    """This path stops here (a definite shape error was reported, or a budget was reached)."""


class SideEnd(Exception):
    """A side of a branch on a value not understood, run on a path that may not take it, stops here (a
    check failed in it: a warning, not a definite error; stmts.ex_If)."""


class BudgetExceeded(Exception):
    module: str | None = None  # the innermost module being imported when the budget was reached

    def __init__(self, budget: str, span: Span | None) -> None:
        super().__init__(budget)
        self.budget = budget
        self.span = span


MODULE_NOT_FOUND = "ModuleNotFoundError"  # an import the environment named with --python cannot satisfy
SHAPE_ERROR = "ShapeError"  # what a failing tensor op raises: torch's RuntimeError, IndexError, ValueError, ...
SHAPE_ERROR_BASES = frozenset({"RuntimeError", "IndexError", "ValueError", "TypeError", "LookupError"})


class UserException(Exception):
    """A Python exception raised inside the analyzed program (by `raise` or by a failing builtin).
    `kind` SHAPE_ERROR: a tensor op failed; any handler of one of SHAPE_ERROR_BASES catches it.
    `stmt`/`span`: the innermost statement it was raised in (set as it leaves that statement)."""

    stmt: ast.stmt | None = None
    span: Span | None = None

    def __init__(self, kind: str, value: Any = None, args: tuple[Any, ...] | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.value = value
        self.args_known = args  # a builtin exception's `args` where every Python gives the same (`KeyError(key)`)


def raised_text(e: UserException) -> str:
    """`AssertionError raised by `assert torch.cuda.is_available()``: what the program raised, and the statement."""
    kind = "a shape error" if e.kind == SHAPE_ERROR else e.kind
    if e.stmt is None:
        return f"{kind} was raised"
    text = ast.unparse(e.stmt).splitlines()[0]
    text = text if len(text) <= 80 else text[:77] + "..."
    return f"{kind} raised by `{text}`"


def same_value(a: Any, b: Any) -> bool:
    """The same value for the analysis: one object, or equal plain values, shapes or tensors."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b) if isinstance(a, (int, float, str, bool, type(None), Tensor, tuple)) else False
    except Exception:
        return False
