"""Library mode, interpreter side (DESIGN §3 "Library mode"): run one `nn.Module` with no entry point.

The module's file is run as an imported module (its `__main__` block is not), then a one-line
driver builds the module the way the target says (`LibraryTarget.construct`, which may use
`__pytea_dim__("dim")` for a positive symbolic integer) and calls it with symbolic inputs
(`library_inputs.py`). The semantic difference from entry-point mode is in `require`: a check that
fails for *some* inputs becomes part of the module's input contract (the path condition) instead
of a warning; one that fails for every input satisfying the contract so far is a finding as usual.
Which ranks the inputs have is not known: `library_verdict.py` runs every rank combination and
decides which failures are errors.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from pytea_ci.diagnostics import Diagnostic, Severity
from pytea_ci.diagnostics.modshapes import Layer
from pytea_ci.interp.interpreter import Interpreter, Shared
from pytea_ci.interp.library_inputs import LibraryTarget, make_input, positive
from pytea_ci.interp.runtime import PathEnd, Scope
from pytea_ci.models.torch.nn.module import is_module
from pytea_ci.models.values import Builtin, ClassVal, Instance, Unknown
from pytea_ci.shapes.dim import Dim, symbols
from pytea_ci.shapes.pred import Cond, Pred
from pytea_ci.shapes.tensor import Tensor, fmt_shape
from pytea_ci.solver import Verdict

RUN = "__pytea_run__"
DIM = "__pytea_dim__"
UNKNOWN_ARG = "__pytea_unknown__"
QUIET = ("PT010", "PT013")  # undecided checks join neither the contract nor the findings


@dataclass
class PathOutcome:
    """A path that ran `forward` to its end."""

    pc: list[Cond]
    inputs: list[Any]
    output: Any
    layers: list[tuple[int, Layer, Any, list[Any]]]  # (depth, row, output value, input values)
    model: Any


class LibraryShared(Shared):
    """What the paths of one rank combination share, on top of `Shared`."""

    def __init__(self, display_root: str) -> None:
        super().__init__(display_root)
        self.completed: list[PathOutcome] = []
        self.depth: dict[tuple, int] = {}  # finding key -> checks passed before it
        self.now = 0

    def add(self, d: Diagnostic) -> None:
        self.depth.setdefault(d.key(), self.now)
        Shared.add(self, d)


class LibraryInterpreter(Interpreter):
    """An interpreter whose may-fail checks on inputs join the contract (see the module docstring)."""

    shared: LibraryShared

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.target: LibraryTarget = self.options["library"]
        self.ranks: tuple[int, ...] = self.options["ranks"]
        self.active = False  # inside the driver's call (checks outside it are not the module's)
        self.passed = 0
        self.layers: list[tuple[int, Layer, Any, list[Any]]] = []
        self.stack: list[Instance] = []
        self.names: dict[int, str] = {}
        self.named: dict[str, Any] = {}  # jaxtyping names -> dims, shared across inputs

    def _global(self, name: str, scope: Scope, node: ast.AST | None = None) -> Any:
        if name == RUN:
            return Builtin(RUN, _run)
        if name == DIM:
            return Builtin(DIM, _dim)
        if name == UNKNOWN_ARG:
            return Builtin(UNKNOWN_ARG, lambda ctx, what: ctx.unknown(f"constructor argument {what}"))
        return super()._global(name, scope, node)

    def require(self, cond: Cond, op: str, message: str, rule: str = "PT001",
                operands: tuple[str, ...] = (), dims: tuple[tuple[str, object], ...] = ()) -> None:
        if not self.active:  # top-level code of the file: not what is checked here
            if self.decider.check(cond, self.pc).verdict is Verdict.FAILS:
                raise PathEnd()
            return
        outcome = self.decider.check(cond, self.pc)
        if outcome.verdict is Verdict.MAY_FAIL and isinstance(cond, Pred) and not self.expecting:
            if _promised(cond):
                self.emit("PT002", Severity.WARNING, f"{op}: {message} although the annotation allows any "
                          f"{', '.join(sorted(s.name for s in symbols(cond)))}", operands, dims,
                          outcome.counterexample)
            self.pc.append(cond)
        elif outcome.verdict is not Verdict.UNDECIDED:
            self.shared.now = self.passed
            super().require(cond, op, message, rule, operands, dims)
        self.passed += 1

    def emit(self, rule: str, sev: Severity, message: str, operands: tuple[str, ...] = (),
             dims: tuple[tuple[str, object], ...] = (), counterexample: dict[str, int] | None = None) -> None:
        if not self.active or rule in QUIET:
            return
        self.shared.now = self.passed
        super().emit(rule, sev, message, operands, dims, counterexample)

    def report_assert(self, node: ast.Assert) -> None:
        if not self.active:
            raise PathEnd()
        super().report_assert(node)

    def instantiate(self, cls: ClassVal, args: tuple, kwargs: dict) -> Any:
        """Under a script (`LibraryTarget.via`): the first instance of the target class the script
        builds is called with the symbolic inputs, and the path ends there."""
        inst = super().instantiate(cls, args, kwargs)
        if self.target.via and not self.active and cls.name == self.target.cls and is_module(inst):
            _run(self, inst)
            raise PathEnd()
        return inst

    # ----- the per-layer table ------------------------------------------------------------------
    def call_builtin(self, fn: Builtin, args: tuple, kwargs: dict) -> Any:
        if not self.active:
            return super().call_builtin(fn, args, kwargs)
        if fn.name.endswith(".__call__") and args and is_module(args[0]):
            return self._module_call(fn, args, kwargs)
        out = super().call_builtin(fn, args, kwargs)
        if isinstance(out, Tensor) and fn.name.startswith("torch.") and self._in_user_forward():
            ins = [a for a in args if isinstance(a, Tensor)]
            row = Layer(len(self.stack), fn.name.removeprefix("torch.").removeprefix("nn.functional."), "op",
                        [fmt_shape(a.shape) for a in ins], fmt_shape(out.shape))
            self.layers.append((len(self.stack), row, out, ins))
        return out

    def _in_user_forward(self) -> bool:
        return bool(self.stack) and not self.stack[-1].cls.native

    def _module_call(self, fn: Builtin, args: tuple, kwargs: dict) -> Any:
        m: Instance = args[0]
        slot = len(self.layers)
        self.stack.append(m)
        try:
            out = super().call_builtin(fn, args, kwargs)
        finally:
            self.stack.pop()
        ins = [a for a in args[1:] if isinstance(a, Tensor)]
        first = out[0] if isinstance(out, tuple) and out and isinstance(out[0], Tensor) else out
        row = Layer(len(self.stack), self.names.get(id(m), m.cls.name), m.cls.name,
                    [fmt_shape(a.shape) for a in ins],
                    fmt_shape(first.shape) if isinstance(first, Tensor) else "unknown", param_text(m))
        self.layers.insert(slot, (len(self.stack), row, first, ins))
        return out


def _promised(cond: Pred) -> bool:
    """Whether a size equality fails although every symbol in it comes from a jaxtyping annotation
    (which allows any value); bounds such as "at least the kernel size" are the contract's."""
    syms = symbols(cond)
    return cond.op in ("eq", "ne") and bool(syms) and all(s.note.startswith("annotated") for s in syms)


def _dim(ctx: LibraryInterpreter, name: Any) -> Any:
    return positive(ctx, str(name), f"constructor argument {name}")


def _run(ctx: LibraryInterpreter, model: Any) -> None:
    """The driver's call: name the submodules, build the inputs, call the module, keep the outcome."""
    if not is_module(model):
        return None
    ctx.names = submodule_names(model)
    inputs = [make_input(ctx, spec, rank) for spec, rank in zip(ctx.target.inputs, ctx.ranks)]
    ctx.active = True
    ctx.stack = []
    try:
        out = ctx.call(model, *inputs)
    finally:
        ctx.active = False
    ctx.shared.completed.append(PathOutcome(list(ctx.pc), inputs, out, list(ctx.layers), model))
    return None


def submodule_names(root: Instance) -> dict[int, str]:
    """id(submodule) -> its dotted attribute path ("features.0"), the root's being its class name."""
    names: dict[int, str] = {id(root): root.cls.name}
    todo: list[tuple[str, Any]] = [("", root)]
    while todo:
        prefix, m = todo.pop(0)
        for k, v in list(m.attrs.items()):
            for name, sub in _children(prefix.rstrip(".") if k.startswith("_") else f"{prefix}{k}", v):
                if id(sub) not in names:
                    names[id(sub)] = name
                    todo.append((name + ".", sub))
    return names


def _children(name: str, v: Any) -> list[tuple[str, Instance]]:
    if is_module(v):
        return [(name, v)]
    if isinstance(v, (list, tuple)):
        return [(f"{name}.{i}".lstrip("."), x) for i, x in enumerate(v) if is_module(x)]
    if isinstance(v, dict):
        return [(f"{name}.{k}".lstrip("."), x) for k, x in v.items() if is_module(x)]
    return []


def param_count(m: Instance, seen: set[int] | None = None) -> Dim | None:
    """Elements of the weight/bias tensors of a module and its submodules (None: some not known)."""
    seen = set() if seen is None else seen
    if id(m) in seen:
        return 0
    seen.add(id(m))
    total: Dim = 0
    for k, v in m.attrs.items():
        if isinstance(v, Tensor) and k in ("weight", "bias"):
            n = v.numel()
            if n is None:
                return None
            total = total + n
        for _, sub in _children(k, v):
            n2 = param_count(sub, seen)
            if n2 is None:
                return None
            total = total + n2
    return total


def param_text(m: Instance) -> str:
    n = param_count(m)
    return "" if n is None or isinstance(n, Unknown) else repr(n)
