"""Library mode, interpreter side (DESIGN §3 "Library mode"): run one `nn.Module` with no entry point.

The module's file is run as an imported module (its `__main__` block is not), then a one-line
driver builds the module the way the target says (`LibraryTarget.construct`, which may use
`__pytea_dim__("dim")` for a positive symbolic integer, `protocol.py`) and calls it with symbolic inputs
(`inputs.py`). The semantic difference from entry-point mode is in `require`: a check that
fails for *some* inputs becomes part of the module's input contract (the path condition) instead
of a warning; one that fails for every input satisfying the contract so far is a finding as usual.
Which ranks the inputs have is not known: `verdict.py` runs every rank combination and
decides which failures are errors.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any, Collection

from pytea_ci.diagnostics import Diagnostic, Severity
from pytea_ci.diagnostics.rules import (DEVICE_MISMATCH, DTYPE_MISMATCH, NOTHING_CHECKED, POSSIBLE_SHAPE_MISMATCH,
                                       SHAPE_MISMATCH, UNDECIDED, Rule)
from pytea_ci.diagnostics.modshapes import Layer
from pytea_ci.interp.explore import run_path
from pytea_ci.interp.installed import Installed
from pytea_ci.interp.interpreter import Interpreter, Shared
from pytea_ci.interp.observe import NO_EDITOR, Editor
from pytea_ci.interp.runtime import PathEnd, UserException
from pytea_ci.interp.snapshot import MAX_CHECKPOINTS, Checkpoint, copy_state, find, restore, take
from pytea_ci.library import coincide, plausible, protocol, transpose
from pytea_ci.library.inputs import (CallerInput, InputSpec, LibraryTarget, Stated, below_stated, flat, image_size_of,
                                     keyed, letters, make_input, positive, tied_to_image)
from pytea_ci.library.protocol import (ATTR, DEFINED, DIM, GUESS, KEYED_ITEM, PASS, RESUMED, RUN, STAGES, UNKNOWN_ARG,
                                      at_line, resume_source)
from pytea_ci.library.targets import size_attribute
from pytea_ci.models.torch.nn.module import is_module
from pytea_ci.models.torch.nn.parameters import parameter_count
from pytea_ci.models.values import Builtin, ClassVal, Instance, Unknown
from pytea_ci.shapes.dim import Dim, Sym, symbols
from pytea_ci.shapes.pred import Cond, Pred
from pytea_ci.shapes.tensor import Tensor, fmt_shape
from pytea_ci.solver import Verdict

SEEDED = ("modules", "star_namespaces", "inexact", "unordered", "keepalive", "known_len", "cursors", "sym_count", "sym_names", "facts",
          "machine", "pc")  # the state an import snapshot hands on (`LibraryInterpreter._seed`)
IMPORT_STEPS = 30_000  # steps of one imported module's top-level code (with what it imports in turn)
QUIET = (UNDECIDED, NOTHING_CHECKED)  # undecided checks join neither the contract nor the findings


@dataclass
class PathOutcome:
    """A path that ran `forward` to its end."""

    pc: list[Cond]
    inputs: list[Any]
    output: Any
    layers: list[tuple[int, Layer, Any, list[Any]]]  # (depth, row, output value, input values)
    model: Any
    params: Dim | None = None  # the model's parameter count (None: not known)
    coincided: frozenset[Any] = frozenset()  # where only a coincidence of constructor arguments let it through
    unsure: frozenset[Any] = frozenset()  # where it assumed a check the solver could not decide


class ImportCut(Exception):
    """An imported module ran out of its steps (`LibraryInterpreter.run_module`); `level`: which import."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.level = level


class LibraryShared(Shared):
    """What the paths of one rank combination share, on top of `Shared`: which module they check
    (`target`), the inputs' ranks or a caller's shapes, and the import snapshot they start from
    (`seed`). What differs between the targets and combinations sharing an import checkpoint lives
    here, not on the interpreter, whose attributes the checkpoint copies (`snapshot.py`)."""

    def __init__(self, display_root: str, target: LibraryTarget | None = None, ranks: tuple[int, ...] = (),
                 caller: CallerInput | None = None, seed: Checkpoint | None = None, editor: Editor = NO_EDITOR,
                 installed: Installed | None = None, given: "tuple[InputSpec, int] | None" = None) -> None:
        super().__init__(display_root, installed, editor=editor)
        self.target, self.ranks, self.caller, self.seed = target, ranks, caller, seed
        self.given = given  # an optional input of `forward` passed too (`LibraryTarget.optional`), with its choice
        self.rels: dict[str, str] = {}
        self.built: list[Checkpoint] = []  # the state where the module was built, per sequence of choices
        self.guessed = False  # the construction took a side of a branch on a value not understood
        self.undecided = False  # a check of the module the solver could not decide was assumed to hold
        self.completed: list[PathOutcome] = []
        self.depth: dict[tuple, int] = {}  # finding key -> checks passed before it
        self.now = 0
        self.ended = -1  # most checks passed by a path that ended otherwise (an exception): -1 none

    def add(self, d: Diagnostic) -> None:
        self.depth.setdefault(d.key(), self.now)
        Shared.add(self, d)


class LibraryInterpreter(Interpreter):
    """An interpreter whose may-fail checks on inputs join the contract (see the module docstring)."""

    shared: LibraryShared
    checkpoint_first = True  # the import prefix is shared by every rank combination and target of a file
    registered_after_prefix = True  # its imports are those of any module of its package (shared by the run)
    provided_names = {  # the driver program's names (`protocol.py`), defined before the program's globals
        RUN: lambda it: Builtin(RUN, _run),
        DIM: lambda it: Builtin(DIM, _dim),
        STAGES: lambda it: Builtin(STAGES, _stages),
        RESUMED: lambda it: it.resumed,
        DEFINED: lambda it: Builtin(DEFINED, _defined),
        UNKNOWN_ARG: lambda it: Builtin(UNKNOWN_ARG, _unknown_arg),
        ATTR: lambda it: Builtin(ATTR, _config_attr),
        GUESS: lambda it: Builtin(GUESS, _guess),
        KEYED_ITEM: lambda it: Builtin(KEYED_ITEM, _keyed_item),
        PASS: lambda it: Builtin(PASS, _pass),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.import_limits: list[float] = []  # step limits of the imports running, outermost first
        self.resumed: Any = None  # the module of the construction checkpoint this path resumed from
        if self.shared.seed is not None:
            self._seed(self.shared.seed)
        self.defining = not self.target.via  # the file's own definitions run (decorators, registries)
        self.active = False  # inside the driver's call (checks outside it are not the module's)
        self.building = 0  # inside the construction of the target class: its checks are the module's
        self.guessed_lengths = False  # built with sizes per stage whose number is a guess (`protocol.STAGES`)
        # built with a stand-in for a callable argument (`protocol.STAND_IN`), or fed a list of tensors whose number
        # is a guess (`inputs.make_input`): what fails may be the guess's, so no finding of the path is reported
        self.guessing = False
        self.keyed: Any = None  # the driver's class of a mapping of tensors by key (`protocol.KEYED`), when an input is one
        self.passed = 0
        self.called = False  # the module was called with the inputs on this path (its forward ran)
        self.layers: list[tuple[int, Layer, Any, list[Any]]] = []
        self.stack: list[Instance] = []
        self.names: dict[int, str] = {}
        self.named: dict[str, Any] = {}  # jaxtyping names -> dims, shared across inputs
        self.free_sizes: list[Sym] = []  # input sizes a plausible input has at least 2 of (plausible.py)
        self.coincided: frozenset[Any] = frozenset()  # where this path passed a check only a coincidence of
        # constructor sizes meets (`coincide.py`)
        self.unsure: frozenset[Any] = frozenset()  # where it assumed a check the solver could not decide
        self.optional_left = False  # `forward` has an input defaulting to None not given (`coincide.optional_left`)
        self.operands: list[list[Tensor]] = []  # the tensors of each tensor operation running, innermost last
        self.image_size: Stated | None = None  # the inputs' last sizes the target is built for (`inputs.image_size_of`)

    def not_the_module_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """The driver's statements (`protocol.at_line`: placed at the target's line, with no columns)."""
        return [st for st in body if protocol.is_driver(st)]

    def _seed(self, seed: Checkpoint) -> None:
        """Start with the modules another file of the same folder imported (an import snapshot): a
        model package's files import the same layers, so each file pays only for what is new."""
        keep = {k: v for k, v in seed.state.items() if k in SEEDED}
        state, _ = copy_state(keep, {}, self)
        for k, v in state.items():
            setattr(self, k, v)

    # what differs between the targets and rank combinations that share an import checkpoint
    # (`snapshot.py` copies the instance's attributes): read from the shared object, never copied
    @property
    def target(self) -> LibraryTarget:
        assert self.shared.target is not None
        return self.shared.target

    @property
    def ranks(self) -> tuple[int, ...]:
        return self.shared.ranks

    def rel(self, path: str) -> str:
        """`Interpreter.rel`, memoized (it is asked for every statement's span)."""
        rels = self.shared.rels
        if path not in rels:
            rels[path] = super().rel(path)
        return rels[path]

    # ----- imports: a budget per imported module -----------------------------------------------
    def run_module(self, dotted: str, path: str) -> Any:
        """A project module imported by the module checked runs at most IMPORT_STEPS steps (with
        what it imports): past them it stays as defined so far, its other names unknown. A package
        whose `__init__` imports every model of the package (timm's) would otherwise use the whole
        budget before the module checked is even defined."""
        outer = self.import_limits[-1] if self.import_limits else float("inf")
        self.import_limits.append(min(outer, self.steps - self.charged + IMPORT_STEPS))  # statement steps
        level = len(self.import_limits)
        try:
            return super().run_module(dotted, path)
        except ImportCut as cut:
            if cut.level != level:
                raise
            what = f"import of {dotted} cut after {IMPORT_STEPS} steps (library mode)"
            self.shared.unmodeled[what] = self.shared.unmodeled.get(what, 0) + 1
            return self.modules[dotted]
        finally:
            self.import_limits.pop()

    def tick(self, node: ast.AST) -> None:
        super().tick(node)
        ran = self.steps - self.charged  # parses and copies of the state do not cut an import: statements do
        if self.import_limits and ran > self.import_limits[-1]:
            # the outermost import over its limit stops (an inner limit is never above an outer one)
            raise ImportCut(next(i for i, lim in enumerate(self.import_limits, 1) if ran > lim))

    @property
    def live(self) -> bool:
        """Whether a check is the module's: in its forward (the driver's call) or its construction."""
        return self.active or self.building > 0

    def choose(self, cond: Cond | None, node: ast.AST | None = None) -> bool:
        """The file's own definitions are import-time code: a branch on a value not understood takes
        its first side, as in an imported module (`Interpreter.choose`), instead of forking; """
        if self.defining and not self.target.via:  # machine facts included: they are not the module's
            return True
        if cond is None and not self.active and not self.target.via:
            # so is the construction, with one difference: a failure on such a path may be owed to
            # the side not taken, so it is never reported (`verdict.verdict`)
            self.shared.guessed = self.shared.guessed or not self.defining
            return True
        return super().choose(cond, node)

    def fork(self, cond: Cond, per_run: bool = False, blind: bool = False, guess: bool = False) -> bool:
        """A model's case whose other side it does not follow (`blind`: `chunk(2)` of a size not known gives
        fewer pieces for a size of 1) is not a case of the module's inputs when only degenerate inputs
        reach that side: the path assumes the side every plausible input takes (a failure after it then
        fails for every non-degenerate input, as a check that only degenerate inputs pass does)."""
        if blind and self.active and plausible.plausibly_holds(self, cond):
            self.pc.append(cond)
            return True
        return super().fork(cond, per_run, blind, guess)

    def require(self, cond: Cond, op: str, message: str, rule: Rule = SHAPE_MISMATCH,
                operands: tuple[str, ...] = (), dims: tuple[tuple[str, object], ...] = ()) -> None:
        if not self.live:  # top-level code of the file: not what is checked here
            if self.config.decider.check(cond, self.pc).verdict is Verdict.FAILS:
                raise PathEnd()
            return
        outcome = self.config.decider.check(cond, self.pc)
        if outcome.verdict is Verdict.MAY_FAIL and isinstance(cond, Pred) and not self.expecting:
            only = plausible.degenerate(self, cond) if self.active else None
            if only is not None:  # a contract only degenerate inputs satisfy: a finding (plausible.py)
                self.shared.now = self.passed
                self.emit(rule, Severity.ERROR, plausible.message(self.target.cls, *only, op, message), operands,
                          dims, outcome.counterexample)
                raise PathEnd()
            example = coincide.coincidence(self, cond, op)
            ones = plausible.unit_construction(self, cond) if example is None and coincide.general(self) else None
            if ones is not None:  # only a constructor size of 1 meets it (plausible.py)
                self.coincided |= {self.span}
                self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING,
                          plausible.unit_message(self.target.cls, ones, op, message), operands, dims,
                          outcome.counterexample)
            elif example is not None:  # only a coincidence of constructor arguments meets it (coincide.py)
                self.coincided |= {self.span}
                self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING,
                          coincide.message(self.target.cls, op, message, example), operands, dims,
                          outcome.counterexample)
            elif (axes := transpose.misplaced(self, cond, self.operands[-1] if self.operands else [])) is not None:
                self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING, f"{op}: {message} ({self.target.cls}: "
                          f"{transpose.MARK}: {axes})", operands, dims,
                          transpose.example(self, cond, outcome.counterexample))
            elif _promised(cond):
                self.emit(POSSIBLE_SHAPE_MISMATCH, Severity.WARNING, f"{op}: {message} although the annotation allows any "
                          f"{', '.join(sorted(s.name for s in symbols(cond)))}", operands, dims,
                          outcome.counterexample)
            self.pc.append(cond)
        elif outcome.verdict is Verdict.UNDECIDED and isinstance(cond, Pred) and not self.expecting:
            # the solver gave up (a nonlinear size): the check is assumed to hold, so the contract keeps
            # it (a contract without it would admit inputs torch rejects), and no failure of this rank
            # combination is "for every input" any more (`verdict._one`: incomplete)
            self.pc.append(cond)
            self.shared.undecided = True
            self.unsure |= {self.span}
        elif outcome.verdict is not Verdict.UNDECIDED:
            self.shared.now = self.passed
            super().require(cond, op, message, rule, operands, dims)
        self.passed += 1

    def emit(self, rule: Rule, sev: Severity, message: str, operands: tuple[str, ...] = (),
             dims: tuple[tuple[str, object], ...] = (), counterexample: dict[str, int] | None = None) -> None:
        if not self.live or rule in QUIET:
            return
        if self.guessing and sev is not Severity.NOTE:
            return  # the path's checks count, its failures may be the guess's (`guessing`): the path ends as it would
        if self.guessed_lengths and not self.active and sev is Severity.ERROR and rule not in (DTYPE_MISMATCH, DEVICE_MISMATCH):
            # the construction fails for the number of stages guessed: not the module's bug (a guessed number
            # of sizes changes sizes and ranks, never a dtype or a device)
            raise PathEnd()
        self.shared.now = self.passed
        super().emit(rule, sev, message, operands, dims, counterexample)

    def report_assert(self, node: ast.Assert) -> None:
        if not self.active:
            raise PathEnd()
        super().report_assert(node)

    def raise_unless(self, value: Any, kind: str, report: Any = None) -> None:
        """An assert of the construction that fails after the construction guessed a side of a branch on a value
        not understood (`choose`: stable-baselines3's `assert is_image_space(observation_space)`, where every
        test of a space library mode does not have took its first side) fails by the guess: it constrains the
        path instead of ending it (the program validates its arguments there; the module is built with ones it
        accepts), and nothing on the path is reported (`guessing`)."""
        guessed = kind == "AssertionError" and self.building > 0 and not self.active and self.shared.guessed \
            and not self.target.via
        try:
            super().raise_unless(value, kind, None if guessed else report)
        except UserException as e:
            if not guessed or e.kind != kind:
                raise
            self.guessing = True

    def instantiate(self, cls: ClassVal, args: tuple, kwargs: dict) -> Any:
        """Under a script (`LibraryTarget.via`): the first instance of the target class the script
        builds is called with the symbolic inputs, and the path ends there."""
        mine = not self.active and cls.name == self.target.cls
        if mine and not self.building:
            self.image_size = image_size_of(cls.lookup("__init__"), args, kwargs)
        self.building += mine
        try:
            inst = super().instantiate(cls, args, kwargs)
        finally:
            self.building -= mine
        if self.target.via and not self.active and cls.name == self.target.cls and is_module(inst):
            _run(self, inst)
            raise PathEnd()
        return inst

    # ----- the per-layer table ------------------------------------------------------------------
    def call_builtin(self, fn: Builtin, args: tuple, kwargs: dict) -> Any:
        if not self.active:
            return super().call_builtin(fn, args, kwargs)
        self.operands.append([a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)])
        try:
            if fn.name.endswith(".__call__") and args and is_module(args[0]):
                return self._module_call(fn, args, kwargs)
            out = super().call_builtin(fn, args, kwargs)
        finally:
            self.operands.pop()
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
                    fmt_shape(first.shape) if isinstance(first, Tensor) else "unknown", param_text(m, self.inexact))
        self.layers.insert(slot, (len(self.stack), row, first, ins))
        return out


def _unknown_arg(ctx: LibraryInterpreter, what: Any) -> Any:
    return ctx.unknown(f"constructor argument {what}")


def _promised(cond: Pred) -> bool:
    """Whether a size equality fails although every symbol in it comes from a jaxtyping annotation
    (which allows any value); bounds such as "at least the kernel size" are the contract's."""
    syms = symbols(cond)
    return cond.op in ("eq", "ne") and bool(syms) and all(s.note.startswith("annotated") for s in syms)


def _config_attr(ctx: LibraryInterpreter, name: Any, attr: Any) -> Any:
    """An attribute of a configuration object nobody built (`protocol.CONFIG`): a positive symbol when
    named as a size, else unknown."""
    if isinstance(attr, str) and size_attribute(attr):
        return positive(ctx, f"{name}.{attr}", f"constructor argument {name}.{attr}")
    return ctx.unknown(f"constructor argument {name}.{attr}")


def _guess(ctx: LibraryInterpreter) -> None:
    ctx.guessing = True


def _keyed_item(ctx: LibraryInterpreter, name: Any, key: Any, rank: Any) -> Any:
    """The tensor under `key` of a mapping input (`protocol.KEYED`): of rank `rank`, sizes of its own."""
    ctx.guessing = True
    label = "_".join(map(str, key)) if isinstance(key, tuple) else str(key)
    if not isinstance(rank, int):
        return ctx.unknown(f"item {label} of input {name}")
    return Tensor(tuple(positive(ctx, f"{c}_{label}", f"dimension {i} of item {label} of input {name}")
                        for i, c in enumerate(letters(rank))), None, dense=None)


def _pass(ctx: LibraryInterpreter, name: Any, args: Any) -> Any:
    """The call of a stand-in for a callable constructor argument (`protocol.STAND_IN`): an identity of its
    first argument when that is a tensor or a sequence (a residual branch's block keeps its input's shape),
    else a value not known."""
    first = args[0] if isinstance(args, tuple) and args else None
    if isinstance(first, (Tensor, list, tuple)):
        return first
    return ctx.unknown(f"constructor argument {name} called")


def _defined(ctx: LibraryInterpreter) -> None:
    ctx.defining = False


def _dim(ctx: LibraryInterpreter, name: Any) -> Any:
    return positive(ctx, str(name), f"constructor argument {name}")


def _stages(ctx: LibraryInterpreter, name: Any, n: Any) -> Any:
    """Sizes per stage (`protocol.STAGES`): their number is a guess, so the construction's failures are not reported."""
    ctx.guessed_lengths = True
    return tuple(positive(ctx, f"{name}{i}", f"constructor argument {name}{i}") for i in range(int(n)))


def _run(ctx: LibraryInterpreter, model: Any, keyed: Any = None) -> None:
    """The driver's call: name the submodules, build the inputs, call the module, keep the outcome. A
    container (a `Sequential` or `ModuleList` subclass) its construction leaves empty is not run: the
    project fills it afterwards (`block.add_module(...)`), which the construction alone does not show."""
    if not is_module(model) or _built_empty(model):
        return None
    built = ctx.shared.built
    if ctx.resumed is None and len(built) < MAX_CHECKPOINTS and not any(cp.choices == ctx.decisions() for cp in built):
        built.append(take(ctx, {"model": model, "guessed": ctx.shared.guessed}))  # the other combinations start here
    ctx.names = submodule_names(model)
    ctx.keyed = keyed
    caller = ctx.shared.caller
    if caller is not None:  # the shapes a call site of the project passes (verdict.run_module)
        inputs: list[Any] = [Tensor(shape, spec.dtype, dense=None)  # dense or sparse: the caller's
                             for spec, shape in zip(ctx.target.inputs, caller.shapes)]
    else:
        inputs = [tied_to_image(make_input(ctx, spec, rank), spec, ctx.image_size)
                  for spec, rank in zip(ctx.target.inputs, ctx.ranks)]
        if inputs and below_stated(inputs[0], ctx.target.inputs[0], ctx.image_size):
            raise PathEnd()  # a rank the module's statement of its first input rules out: not an input of it
    given = ctx.shared.given
    extra = {given[0].name: make_input(ctx, *given)} if given is not None else {}
    ctx.free_sizes = plausible.free_sizes(flat(inputs) + list(extra.values()), ctx.named, ctx.target.unit_sizes)
    ctx.optional_left = coincide.optional_left(model, ctx.target)
    ctx.active = ctx.called = True
    ctx.stack = []
    args = [a for spec, v in zip(ctx.target.inputs, inputs) for a in (v if spec.star else [v])]  # `*args` spread
    try:
        out = ctx.call(model, *args, **extra)
    finally:
        ctx.active = False
    ctx.shared.completed.append(PathOutcome(list(ctx.pc), inputs, out, list(ctx.layers), model,
                                                 param_count(model, ctx.inexact), ctx.coincided, ctx.unsure))
    return None


def _built_empty(model: Instance) -> bool:
    layers = model.attrs.get("__layers__")
    return isinstance(layers, list) and not layers and not model.cls.native


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


def param_count(m: Instance, inexact: Collection[int] = ()) -> Dim | None:
    """The parameter count of a module (None: not known), as models/torch/nn/parameters.py declares it."""
    return parameter_count(m, inexact)


def param_text(m: Instance, inexact: Collection[int] = ()) -> str:
    n = param_count(m, inexact)
    return "" if n is None or isinstance(n, Unknown) or "Unknown(" in repr(n) else repr(n)


def resume(interp: Interpreter, tree: ast.Module, name: str) -> None:
    """Run one path: from a copy of the state where the module was built when a rank combination
    already got there with the same choices (only the inputs differ), else the whole program."""
    assert isinstance(interp, LibraryInterpreter)
    shared = interp.shared
    before = (len(shared.completed), len(shared.findings))
    cp = find(shared.built, interp.config.forced)
    if cp is None:
        run_path(interp, tree, name)
    else:
        saved = restore(interp, cp)
        interp.resumed = saved["model"]
        shared.guessed = shared.guessed or saved["guessed"]
        run_path(interp, ast.Module(at_line(resume_source(keyed(interp.target)), interp.target.line), []), name)
    added = list(shared.findings.values())[before[1]:]  # a coincidence warning (coincide.py) is no end of the path
    if (interp.passed or interp.called) and before[0] == len(shared.completed) and interp.budget_note is None \
            and all(coincide.MARK in d.message for d in added):
        shared.ended = max(shared.ended, interp.passed)  # called, neither completed nor a finding: raised
