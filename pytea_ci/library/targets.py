"""Library mode, driver side: which `nn.Module` classes to check alone, and how to build each.

Targets are the module classes (subclasses of `nn.Module`, directly or through other classes of
the analyzed files) defined in the analyzed files. Each is built (a) as the project's call sites
with literal arguments build it (each distinct one a configuration), or by a factory of its file
whose parameters all have defaults (`def resnet18(**kw): return ResNet(...)`); (b) otherwise with
its defaults, required integer-like parameters becoming positive symbols and others unknown.
`forward`'s parameters without a default are the inputs (`library/inputs.py`).
"""

from __future__ import annotations

import ast
import copy
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pytea_ci.driver import fs
from pytea_ci.driver.pysource import FileFacts
from pytea_ci.library import ast_index, forwarded, module_bases, protocol, sites
from pytea_ci.library.callers import MAX_CALLERS, caller_inputs
from pytea_ci.library.callers import factories as factories_of
from pytea_ci.library.inputs import CallerInput, InputSpec, LibraryTarget, dtype_of, parse_dims
from pytea_ci.library.rejects import none_defaults, rejects
from pytea_ci.diagnostics import grammar

MODES = ("auto", "always", "only", "never")
MAX_CONFIGS = 3  # constructions per module
_SEQUENTIAL = {"Sequential", "nn.Sequential", "torch.nn.Sequential"}
_INT_HINTS = ("dim", "size", "num", "head", "channel", "feature", "class", "hidden", "depth", "width", "len",
              "ch", "vocab", "embed", "stride", "patch", "kernel", "planes", "inp", "out")
_INT_PREFIXES = ("n_", "d_")  # at the start of a word only: `n_heads`, `d_model`, `max_n_tokens`; not `rnn_type`,
# `run_opts` (speechbrain's run options built as a size raised its AttributeError in 8 constructions)
# a name holding these is not a size whatever else it holds: `num_layers` (a count of stages, not a width), a
# weight (mmsegmentation's `CrossEntropyLoss(class_weight=None)`, per-class weights, built as a size became a 0-d
# tensor that `class_weight[c]` indexed: a false error)
_NOT_INTS = ("layers", "weight")
# a word ending the name that makes it a size: a low rank (`read_gate_rank`, `lora_rank`; not `rank_key` nor
# `low_rank_silu_gates`), a count of neurons (speechbrain's `lin_neurons`, `dnn_neurons`); before the narrowing of
# `n_`/`d_`, `read_gate_rank` was one only through its `d_` (x-transformers' GatedMultiResidual: 12 checks lost)
_INT_LAST_WORDS = ("rank", "neurons")
_TENSOR_ANN = {"Tensor", "torch.Tensor", "FloatTensor", "torch.FloatTensor", "LongTensor", "torch.LongTensor"}


@dataclass
class ClassInfo:
    path: str
    node: ast.ClassDef
    bases: list[str]
    methods: dict[str, ast.FunctionDef] = field(default_factory=dict)
    bound: module_bases.Bindings = field(default_factory=module_bases.Bindings)  # what its file's top level binds


def _name(node: ast.expr) -> str:
    return ast.unparse(node)


def _parse(path: str) -> ast.Module | None:
    try:
        return grammar.parse(fs.read(path), filename=path)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


Parse = Callable[[str], "ast.Module | None"]


_WORD = re.compile(rb"\w+")


class Sources:
    """The project's files as target selection reads them: each read once, parsed (through `parse`,
    the run's shared parser) only when its text mentions the name looked for."""

    def __init__(self, files: "list[str] | Callable[[], list[str]]", parse: Parse = _parse) -> None:
        self._files, self._parse = files, parse  # a callable: listed when first needed
        self._text: dict[str, bytes] = {}
        self._trees: dict[str, ast.Module | None] = {}
        self.facts: dict[str, FileFacts] = {}  # what construction sites read of each file (sites.py)
        self._words: dict[bytes, list[str]] | None = None  # word -> the files that have it, in file order
        self.callers: dict[tuple[str, str, int], tuple[CallerInput, ...]] = {}  # (class, file, inputs) -> `_callers`

    @property
    def files(self) -> list[str]:
        if callable(self._files):
            self._files = self._files()
        return self._files

    def parse(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            self._trees[path] = self._parse(path)
        return self._trees[path]

    def mentioning(self, name: str) -> dict[str, ast.Module]:
        """The parsed files whose text has `name` as a word; each file's words are listed once, so a
        project of many modules costs its size, not its size times its modules."""
        if not name.isascii():  # a word of bytes is ASCII: search the text itself
            word = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
            return {p: t for p in self.files if word.search(self._read(p)) and (t := self.parse(p)) is not None}
        if self._words is None:
            self._words = {}
            for p in self.files:
                for w in set(_WORD.findall(self._read(p))):
                    self._words.setdefault(w, []).append(p)
        return {p: t for p in self._words.get(name.encode(), []) if (t := self.parse(p)) is not None}

    def _read(self, path: str) -> bytes:
        if path not in self._text:
            try:
                self._text[path] = fs.read(path)
            except OSError:
                self._text[path] = b""
        return self._text[path]


def classes_of(paths: list[str], parse: Parse = _parse) -> dict[str, list[ClassInfo]]:
    """Top-level classes of each file, by class name (the same name may occur in several files)."""
    out: dict[str, list[ClassInfo]] = {}
    root = os.path.commonpath([os.path.abspath(p) for p in paths]) if paths else ""
    project = module_bases.project_names([os.path.relpath(os.path.abspath(p), os.path.dirname(root)) for p in paths])
    for path in paths:
        tree = parse(path)
        bound = None
        for node in tree.body if tree else []:
            if isinstance(node, ast.ClassDef):
                bound = bound or module_bases.bindings(tree, project)
                methods = {m.name: m for m in node.body if isinstance(m, ast.FunctionDef)}
                out.setdefault(node.name, []).append(ClassInfo(path, node, [_name(b) for b in node.bases], methods,
                                                               bound))
    return out


def module_classes(classes: dict[str, list[ClassInfo]]) -> list[ClassInfo]:
    """The classes that are nn.Modules, directly or through other classes of the project (`module_bases.py`)."""
    return module_bases.module_classes(classes, {i.path: i.bound for infos in classes.values() for i in infos})


def _method(info: ClassInfo, name: str, classes: dict[str, list[ClassInfo]], seen: int = 0) -> ast.FunctionDef | None:
    """The method as found through the class's bases among the known classes."""
    if name in info.methods:
        return info.methods[name]
    for b in info.bases:
        for base in classes.get(b.rsplit(".", 1)[-1], []) if seen < 20 else []:
            found = _method(base, name, classes, seen + 1)
            if found is not None:
                return found
    return None


def _class_seen_from(path: str, found: list[ClassInfo]) -> ClassInfo | None:
    """The class among `found` (one name's) that a file at `path` means: its own, else the project's only one
    (a file listed twice lists its classes twice); None when several are candidates."""
    unique = list({(os.path.realpath(c.path), c.node.lineno): c for c in found}.values())
    unique = [c for c in unique if os.path.realpath(c.path) == os.path.realpath(path)] or unique
    return unique[0] if len(unique) == 1 else None


def _passed_through(info: ClassInfo, classes: dict[str, list[ClassInfo]]) -> list[ast.arg]:
    """The required parameters of what the class's `__init__` passes its `*args`/`**kwargs` to: `super()`'s
    `__init__` (the bases of the class defining it), or a project class called by name (one of that name)."""
    owner, seen = info, 0
    while "__init__" not in owner.methods and seen < 20:  # the class whose `__init__` it is: its `super()`
        nxt = [c for b in owner.bases for c in classes.get(b.rsplit(".", 1)[-1], [])]
        if not nxt:
            return []
        owner, seen = nxt[0], seen + 1
    init = owner.methods.get("__init__")
    if init is None:
        return []

    def init_of(found: ClassInfo | None) -> ast.FunctionDef | None:
        return None if found is None else _method(found, "__init__", classes)

    def base_init() -> ast.FunctionDef | None:
        return init_of(_class_seen_from(owner.path, [c for b in owner.bases for c in classes.get(b.rsplit(".", 1)[-1], [])]))

    def resolve(name: str) -> ast.FunctionDef | None:
        return init_of(_class_seen_from(owner.path, classes.get(name, [])))

    return forwarded.required(init, base_init, resolve) or []


def _components(outer: ClassInfo, classes: dict[str, list[ClassInfo]],
                config: "Callable[[str], ast.ClassDef | None]") -> Component:
    """Builds a module of the project a constructor parameter must be an instance of (the class of that name
    in `outer`'s file, else the only one of the project; with a `forward`; not `outer`) with its defaults,
    its symbols named after the parameter (`vit.dim`): one level deep (its own such parameters stay unknown).
    A configuration class is not built so: its defaults are placeholders its users replace (peft's
    `OFTConfig()` drives its layers into their own ValueErrors), so it stays a value not known."""
    def build(kind: str, param: str) -> tuple[str, list[str]] | None:
        found = _class_seen_from(outer.path, classes.get(kind, []))
        if kind == outer.node.name or found is None or _method(found, "forward", classes) is None:
            return None
        return _construction(kind, _method(found, "__init__", classes), frozenset(), True, config,
                             _passed_through(found, classes), None, param + ".")

    return build


def _is_sequential(info: ClassInfo, classes: dict[str, list[ClassInfo]], seen: int = 0) -> bool:
    if any(b.endswith("Sequential") for b in info.bases):
        return True
    return seen < 20 and any(_is_sequential(c, classes, seen + 1) for b in info.bases
                             for c in classes.get(b.rsplit(".", 1)[-1], []))


# ----- forward's inputs ------------------------------------------------------------------------------
def forward_inputs(fwd: ast.FunctionDef, tree: ast.Module | None = None) -> tuple[InputSpec, ...]:
    """`tree`: the class's file, whose aliases of torch (`import torch as th`) name a tensor annotation too
    (`obs: th.Tensor`, stable-baselines3's spelling throughout)."""
    aliases = _torch_aliases(tree)
    a = fwd.args
    params = (a.posonlyargs + a.args)[0 if _static(fwd) else 1:]  # `module(x)` calls a static forward(x)
    required = params[:len(params) - len(a.defaults)] if a.defaults else params
    specs: list[InputSpec] = []
    polymorphic, containers = _isinstance_checked(fwd), _containers(fwd)
    for p in required:
        ann = _unaliased(p.annotation, aliases)
        kind, dims, dtype = _annotation(ann)
        sequence = _tensor_sequence(ann)
        count, as_tuple = 0, False
        if p.arg in polymorphic and dims is None:  # `x[0]` if isinstance(x, tuple) else x: not always a tensor
            kind = "unknown"
        elif _tensor_mapping(ann):  # `tensordict: TensorDictBase`, `Dict[str, Tensor]`: tensors by key
            kind, dims, dtype = "mapping", None, None
        elif sequence is not None or (p.arg in containers and p.annotation is None):
            # `List[Tensor]`, `Tuple[Tensor, ...]`, or `hs[1]` of an input not annotated: a sequence of tensors, as
            # many as the annotation says, else as the code uses (`c2, c3, c4, c5 = features[-4:]`), at least 3
            kind, dims, dtype = "tensors", None, None
            count = sequence[0] if sequence is not None and sequence[0] else max(3, _items_used(fwd, p.arg))
            as_tuple = sequence is not None and sequence[1]
        index = sum(s.kind in ("tensor", "tensors") for s in specs)
        names = _stated_names(fwd, p.arg)
        specs.append(InputSpec(p.arg, kind, dims, dtype, index, None if names is None else len(names),
                               not_image=names is not None and len(names) >= 2 and not any(
                                   _spatial(n) for n in names[-2:]), count=count, as_tuple=as_tuple))
    if a.vararg is not None and not specs:
        # `forward(self, *tensors: Tensor)`: two tensors passed; `*args` not annotated so: none, a guess either way (a
        # call with none is no call of the module: `torch.cat(tensors)` of no tensors raised for "every input")
        tensors = _annotation(_unaliased(a.vararg.annotation, aliases))[0] == "tensor" and a.vararg.annotation is not None
        specs.append(InputSpec(a.vararg.arg, "tensors", index=0, count=2 if tensors else 0, star=True))
    return tuple(specs)


_SEQUENCES_OF = {"List": False, "list": False, "Sequence": False, "MutableSequence": False, "Iterable": False,
                 "Tuple": True, "tuple": True}


def _tensor_sequence(ann: ast.expr | None) -> tuple[int, bool] | None:
    """(how many, a tuple) of an annotation of a sequence of tensors: `List[Tensor]` (0: not said), `Tuple[Tensor,
    ...]`, `tuple[Tensor, Tensor]` (2); None for anything else."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if not isinstance(ann, ast.Subscript):
        return None
    wrapper = _name(ann.value).rsplit(".", 1)[-1]
    if wrapper not in _SEQUENCES_OF:
        return None
    parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
    items = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is Ellipsis)]
    if not items or any(_name(p) not in _TENSOR_ANN for p in items):
        return None
    fixed = _SEQUENCES_OF[wrapper] and len(items) == len(parts)
    return (len(items) if fixed else 0), _SEQUENCES_OF[wrapper]


_MAPPING_NAMES = {"TensorDictBase", "TensorDict", "TensorDictType"}
_MAPPINGS_OF = {"Dict", "dict", "Mapping", "MutableMapping"}


def _tensor_mapping(ann: ast.expr | None) -> bool:
    """An annotation of tensors by key: tensordict's `TensorDictBase`/`TensorDict` (stable-baselines3's `TensorDict`
    alias of `Dict[str, Tensor]` too), `Dict[str, Tensor]`, `Mapping[str, Tensor]` (also quoted)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return False
    if ann is None:
        return False
    if _name(ann).rsplit(".", 1)[-1] in _MAPPING_NAMES:
        return True
    if not (isinstance(ann, ast.Subscript) and _name(ann.value).rsplit(".", 1)[-1] in _MAPPINGS_OF):
        return False
    parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
    return len(parts) == 2 and _name(parts[1]) in _TENSOR_ANN


def _items_used(fwd: ast.FunctionDef, name: str) -> int:
    """How many items `forward` needs of its sequence `name`: by literal indices (`xs[2]`: 3, `xs[-4]`: 4), slices
    (`xs[-4:]`: 4, `xs[1:]`: 2) and unpacking (`a, b = xs`: 2)."""
    need = 0
    for n in ast.walk(fwd):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == name:
            for t in n.targets:
                if isinstance(t, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in t.elts):
                    need = max(need, len(t.elts))
        if not (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name):
            continue
        # (bound, items it needs when it is k >= 0): an index or a slice's start needs one item past it
        bounds = [(n.slice.lower, 1), (n.slice.upper, 0)] if isinstance(n.slice, ast.Slice) else [(n.slice, 1)]
        for b, past in bounds:
            k = _int_constant(b)
            if k is not None:
                need = max(need, k + past if k >= 0 else -k)
    return min(need, 8)


def _int_constant(e: ast.expr | None) -> int | None:
    """The value of a literal integer (`2`, `-4`), else None."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        k = _int_constant(e.operand)
        return -k if k is not None else None
    if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    return None


_SPATIAL = ("h", "w", "height", "width", "hh", "ww", "ih", "iw", "img_h", "img_w", "rows", "cols")


def _spatial(name: str) -> bool:
    """Whether a name `forward` gives a size reads as a height or a width (`h`, `W`, `height`, `img_w`)."""
    low = name.lower()
    return low in _SPATIAL or low.startswith(("h_", "w_")) or low.endswith(("_h", "_w", "height", "width"))


def _stated_names(fwd: ast.FunctionDef, name: str) -> list[str] | None:
    """The names `forward` unpacks its input `name`'s shape to, where it says so in one statement:
    `b, c, h, w = x.shape` (or `x.size()`), `b, n, _, d, h = *x.shape, self.heads` (the names, less the
    other items of the tuple; a target that is not a plain name as `?`); their number is the input's rank."""
    def is_shape(e: ast.expr) -> bool:
        if isinstance(e, ast.Call) and not e.args and not e.keywords:
            e = e.func  # `x.size()`
        return isinstance(e, ast.Attribute) and e.attr in ("shape", "size") and \
            isinstance(e.value, ast.Name) and e.value.id == name

    for node in ast.walk(fwd):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)):
            continue
        names = node.targets[0].elts
        if any(isinstance(t, ast.Starred) for t in names):
            continue
        ids = [t.id if isinstance(t, ast.Name) else "?" for t in names]
        if is_shape(node.value):
            return ids
        if isinstance(node.value, ast.Tuple):
            stars = [e for e in node.value.elts if isinstance(e, ast.Starred)]
            if len(stars) == 1 and is_shape(stars[0].value):
                at = node.value.elts.index(stars[0])  # each item before the starred shape takes one name
                return ids[at:at + len(names) - (len(node.value.elts) - 1)]
    return None


def optional_inputs(fwd: ast.FunctionDef, first: int, tree: ast.Module | None = None) -> tuple[InputSpec, ...]:
    """`forward`'s parameters that default to None and that it uses as tensors: annotated as a tensor
    (`Optional[Tensor]`, `Tensor | None`), or unannotated with an attribute of `torch.Tensor` read on
    them (`targets.view(-1)`) or passed to a function of torch (`F.cross_entropy(logits, targets)`:
    `tree`, the file, says which names are torch's), never tested with `isinstance` nor used as a
    sequence. `first`: the index the first of them has among the tensor inputs."""
    a = fwd.args
    params = a.posonlyargs + a.args
    with_default = list(zip(params[len(params) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    skip = _isinstance_checked(fwd) | _containers(fwd)
    used = _tensor_uses(fwd, _torch_names(tree) if tree is not None else {"torch"})
    out: list[InputSpec] = []
    for p, d in with_default:
        if not (isinstance(d, ast.Constant) and d.value is None) or p.arg in skip:
            continue
        ann = _optional_of(_unaliased(p.annotation, _torch_aliases(tree)))
        kind, dims, dtype = _annotation(ann)
        if kind != "tensor" or (ann is None and p.arg not in used):
            continue
        out.append(InputSpec(p.arg, kind, dims, dtype, first + len(out)))
    return tuple(out)


def _torch_aliases(tree: ast.Module | None) -> set[str]:
    """The names a file binds to the torch package itself (`import torch as th`: th), other than `torch`."""
    if tree is None:
        return set()
    return {al.asname for node in ast_index.imports(tree) if isinstance(node, ast.Import)
            for al in node.names if al.name == "torch" and al.asname and al.asname != "torch"}


def _unaliased(ann: ast.expr | None, aliases: set[str]) -> ast.expr | None:
    """`ann` with each `alias.X` of torch read as `torch.X` (inside `Optional[...]` and `X | None` too)."""
    if ann is None or not aliases:
        return ann

    class _Swap(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.copy_location(ast.Name("torch", node.ctx), node) if node.id in aliases else node

    return _Swap().visit(copy.deepcopy(ann))


def _torch_names(tree: ast.Module) -> set[str]:
    """The names a file binds to torch or one of its modules (`torch`, `F`, `nn`)."""
    out = set()
    for node in ast_index.imports(tree):
        if isinstance(node, ast.Import):
            out |= {(al.asname or al.name).split(".")[0] for al in node.names if al.name.split(".")[0] == "torch"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "torch" and not node.level:
            out |= {al.asname or al.name for al in node.names}
    return out


def _tensor_uses(fwd: ast.FunctionDef, torch_names: set[str]) -> set[str]:
    """Names `forward` uses as tensors: an attribute of `torch.Tensor` read on them, or passed to a
    function of torch."""
    out = set()
    for n in ast.walk(fwd):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and _tensor_attr(n.attr):
            out.add(n.value.id)
        elif isinstance(n, ast.Call) and _name(n.func).split(".")[0] in torch_names:
            out |= {x.id for x in n.args + [k.value for k in n.keywords] if isinstance(x, ast.Name)}
    return out


def _optional_of(ann: ast.expr | None) -> ast.expr | None:
    """`T` of `Optional[T]` / `T | None` / `Union[T, None]`; other annotations as they are."""
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        sides = [ann.left, ann.right]
        rest = [x for x in sides if not (isinstance(x, ast.Constant) and x.value is None)]
        return rest[0] if len(rest) == 1 else ann
    if isinstance(ann, ast.Subscript) and _name(ann.value).rsplit(".", 1)[-1] in ("Optional", "Union"):
        parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        rest = [x for x in parts if not (isinstance(x, ast.Constant) and x.value is None)]
        return rest[0] if len(rest) == 1 else ann
    return ann


def _tensor_attr(name: str) -> bool:
    """Whether `torch.Tensor` has this attribute or method (as the models declare it)."""
    from pytea_ci.models import registry

    qual = f"torch.Tensor.{name}"
    return not name.startswith("_") and (registry.get(qual) is not None or registry.get_property(qual) is not None)


def _static(fn: ast.FunctionDef) -> bool:
    """Declared `@staticmethod` (yolov5's activations): no `self` among its parameters."""
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)


def _isinstance_checked(fwd: ast.FunctionDef) -> set[str]:
    """Parameters whose type `forward` tests (`isinstance(x, tuple)`): a tensor input is one case."""
    return {n.args[0].id for n in ast.walk(fwd) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == "isinstance" and n.args and isinstance(n.args[0], ast.Name)}


def _containers(fwd: ast.FunctionDef) -> set[str]:
    """Names `forward` uses as a sequence of inputs: items taken by a literal index or by a loop's
    variable (`hs[0]`, `inp[i]`), or unpacked into several names (`x, lengths = inputs`). An input of
    one tensor is one case (its first rows); a list of tensors of different shapes is another, so a
    failure with a tensor there is no failure "for every input" (speechbrain's CNN14PSI, Tacotron2)."""
    loop_vars = {t.id for n in ast.walk(fwd) if isinstance(n, (ast.For, ast.comprehension))
                 for t in ast.walk(n.target) if isinstance(t, ast.Name)}
    out: set[str] = set()
    for n in ast.walk(fwd):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and (
                (isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, int))
                or (isinstance(n.slice, ast.Name) and n.slice.id in loop_vars)):
            out.add(n.value.id)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and any(
                isinstance(t, (ast.Tuple, ast.List)) for t in n.targets):
            out.add(n.value.id)
    return out


def _annotation(ann: ast.expr | None) -> tuple[str, tuple[str, ...] | None, str | None]:
    """(kind, jaxtyping dims, dtype) of a parameter's annotation."""
    if ann is None or _name(ann) in _TENSOR_ANN:
        return "tensor", None, None
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):  # a quoted annotation
        try:
            return _annotation(ast.parse(ann.value, mode="eval").body)
        except SyntaxError:
            return "unknown", None, None
    if _name(ann) == "int":
        return "int", None, None
    if isinstance(ann, ast.Subscript):
        wrapper = _name(ann.value).rsplit(".", 1)[-1]
        parts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        texts = [p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)]
        if wrapper == "TensorType" and texts:
            return "tensor", tuple(texts), None
        if len(parts) == 2 and len(texts) == 1 and wrapper in _JAXTYPING:
            return "tensor", parse_dims(texts[0]), dtype_of(wrapper)
    return "unknown", None, None


_JAXTYPING = {"Float", "Float32", "Float64", "Int", "Int64", "Long", "Integer", "Bool", "Shaped", "Num", "Real"}


# ----- construction ---------------------------------------------------------------------------------
def _imports(tree: ast.Module, own: str, cls: str) -> bool:
    """Whether a file imports the class's module (`from models import Block`, `import models`)."""
    mod = os.path.splitext(os.path.basename(own))[0]
    for node in ast_index.imports(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == mod:
            if any(a.name in (cls, "*") for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[-1] == mod for a in node.names):
            return True
    return False


@dataclass(frozen=True)
class Config:
    """One way to build a module: `construct` (evaluated in its module) or `via` (a script run as
    `__main__`, whose first instance of the class is checked); `raw`: the call as written at its site."""

    construct: str
    label: str
    raw: str = ""
    via: str = ""
    partial: bool = False  # some arguments are symbols or unknown values


def call_sites(cls: str, own: str, trees: dict[str, ast.Module], root: str, init: ast.FunctionDef | None = None,
               modules: frozenset[str] = frozenset(), facts: dict[str, FileFacts] | None = None,
               passed: set[str] | None = None, owners: set[str] | None = None) -> list[Config]:
    """How the calls `cls(...)` in the class's file (`own`) and the project files importing it build it
    (`sites.py`), in file order, each distinct construction once. A site inside a module class
    (`modules`: their names) is its parent's business unless every argument is known; a site nothing
    of which is known, in a script, makes the script a way to build it. `passed` collects the
    parameters some site gives (by keyword, or by position when `init` says which); `owners` the module
    classes some site is inside."""
    facts = {} if facts is None else facts  # per file, shared by the classes of one `targets` call

    def of(path: str, tree: ast.Module) -> FileFacts:
        if path not in facts:
            facts[path] = FileFacts(path, tree)
        return facts[path]

    own_tree = trees.get(own)
    own_facts = of(own, own_tree if own_tree is not None else ast.Module([], []))
    out: dict[str, Config] = {}
    for path, tree in sorted(trees.items()):
        if path != own and not _imports(tree, own, cls):
            continue
        here = of(path, tree)
        rel = os.path.relpath(path, root)
        for call, chain, owner in sorted(sites.calls(tree, _callee, cls), key=lambda c: (c[0].lineno, c[0].col_offset)):
            if passed is not None:
                passed |= _given(call, init)
            if owners is not None and owner in modules:
                owners.add(owner)
            found = sites.site(call, cls, init, sites.Resolver(own_facts, here, chain, call), rel, _int_name)
            if found is not None and found.known == len(call.args) + len(call.keywords):
                out.setdefault(found.construct, Config(found.construct, found.label, found.raw))
            elif found is not None and found.known and owner not in modules:
                out.setdefault(found.construct, Config(found.construct, found.label, found.raw, partial=True))
            elif _is_script(tree):  # run the script: the instance it builds is checked
                out.setdefault(f"@{path}", Config("", f"{rel}:{call.lineno}, as the script builds it", via=path))
    return list(out.values())


def _given(call: ast.Call, init: ast.FunctionDef | None) -> set[str]:
    """The parameters of `init` that `call` gives."""
    names = {k.arg for k in call.keywords if k.arg is not None}
    if init is not None:
        params = (init.args.posonlyargs + init.args.args)[1:]
        names |= {p.arg for p, _ in zip(params, [a for a in call.args if not isinstance(a, ast.Starred)])}
    return names


def _is_script(tree: ast.Module) -> bool:
    """A file with an `if __name__ == "__main__":` block."""
    return any(isinstance(n, ast.If) and "__main__" in ast.unparse(n.test) for n in tree.body)


def _callee(node: ast.Call) -> str:
    """The called name; `nn.X(...)`, `torch.X(...)` are torch's, never a project class."""
    f = node.func
    if isinstance(f, ast.Attribute) and _name(f.value).split(".")[0] not in ("nn", "torch", "F"):
        return f.attr
    return f.id if isinstance(f, ast.Name) else ""


def factories(cls: str, tree: ast.Module, rel: str, sites_: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """Functions of the class's own file that return `cls(...)` and can be called without arguments,
    but those that return one of the constructions `sites_` already has (`def senet18(): return
    SENet(Block, [2, 2, 2, 2])` builds what its own call site builds: checking both doubled the cost)."""
    out = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_"):
            continue
        a = fn.args
        if len(a.args) + len(a.posonlyargs) > len(a.defaults) or any(d is None for d in a.kw_defaults):
            continue
        returned = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and isinstance(n.value, ast.Call)
                    and _callee(n.value) == cls]
        if returned and not (len(returned) == 1 and ast.unparse(returned[0]) in sites_):
            out.append((f"{fn.name}()", f"{fn.name}() at {rel}:{fn.lineno}"))
    return out


Component = Callable[[str, str], "tuple[str, list[str]] | None"]


def defaults(cls: str, init: ast.FunctionDef | None, given: frozenset[str] = frozenset(),
             first_self: bool = True, config: "Callable[[str], ast.ClassDef | None] | None" = None,
             through: "list[ast.arg] | None" = None, component: Component | None = None,
             called: frozenset[str] = frozenset()) -> tuple[str, str]:
    """`cls(...)` with its defaults; required parameters, and those defaulting to None that some site
    of the project gives (`given`: `Interpolate2d(scale_factor=scale)` in a parent's `__init__`, not a
    construction library mode can rebuild, still says that None, "not given", is not how the project
    builds it), become symbols (integer-like) or unknown. `first_self`: `init` is a method (its first
    parameter is not passed), not a factory function. `config(name)`: the project's dataclass of that
    name, when a required parameter is annotated with one (`args: ModelArgs`): it is built with its own
    defaults, its required fields symbols or unknown in turn. `through`: the required parameters of what
    `init` passes its `*args`/`**kwargs` to (library/forwarded.py), given as keywords the same way.
    `component(name, param)`: a project class a required parameter must be an instance of (annotated
    `vit: ViT`, or `assert isinstance(vit, ViT)`), built the same way with its symbols named `vit.dim`.
    `called`: the required parameters the class calls (`called_params`): a stand-in callable each
    (`protocol.STAND_IN`: an identity whose path reports nothing), else unknown."""
    construct, syms = _construction(cls, init, given, first_self, config, through, component, "", called)
    return construct, f"symbolic {', '.join(syms)}" if syms else "defaults"


def _construction(cls: str, init: ast.FunctionDef | None, given: frozenset[str], first_self: bool,
                  config: "Callable[[str], ast.ClassDef | None] | None", through: "list[ast.arg] | None",
                  component: Component | None, prefix: str,
                  called: frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """`defaults`' construction and its symbols, each named `prefix` + its parameter."""
    if init is None:
        return f"{cls}()", []
    extra = optional_sizes(init, frozenset(), first_self)
    a = init.args
    params = (a.posonlyargs + a.args)[1 if first_self else 0:]
    required = params[:len(params) - len(a.defaults)] if a.defaults else params
    required += [p for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None]
    optional = list(zip(params[len(params) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    required += [_as_int(p) if p.arg in extra else p for p, d in optional
                 if p.arg in given and isinstance(d, ast.Constant) and d.value is None]
    required += through or []
    args, syms = [], []
    read = {n.value.id for n in ast.walk(init) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    sequences = _sequences(init)
    instances = _instances_of(init)
    for p in required:
        name = prefix + p.arg
        made = _config_value(p, config) if not prefix else None
        kind = _class_of(p, instances) if component is not None else None
        built = component(kind, name) if kind is not None and component is not None else None
        if made is not None:
            args.append(f"{p.arg}={made[0]}")
            syms += made[1]
        elif built is not None:
            args.append(f"{p.arg}={built[0]}")
            syms += built[1]
        elif p.annotation is None and p.arg in sequences and _int_like(p) or int_sequence(p.annotation):
            # `depth=(2, 2)`, `channels: Sequence[int]`: one size per stage, as many as a guess
            n = _stages(init)
            args.append(f"{p.arg}={protocol.stages(name, n)}")
            syms += [f"{name}{i}" for i in range(n)]
        elif _int_like(p):
            args.append(f"{p.arg}={protocol.dim(name)}")
            syms.append(name)
        elif p.annotation is None and p.arg in read:  # `config.n_embd`: a configuration object, its sizes symbols
            args.append(f"{p.arg}={protocol.config(name)}")
            syms.append(f"{name}.*")
        elif p.arg in called:  # `Residual(fn)`: an identity stands in for the callable (`protocol.STAND_IN`)
            args.append(f"{p.arg}={protocol.stand_in(name)}")
        else:
            args.append(f"{p.arg}={protocol.unknown(name)}")
    return f"{cls}({', '.join(args)})", syms


def called_params(info: ClassInfo, init: ast.FunctionDef | None) -> frozenset[str]:
    """The parameters of `init` the class calls: stored as an attribute (`self.fn = fn`) that a method of the class
    calls (`self.fn(x)`), as a wrapper does with the block it wraps (`Residual(fn)`, `PreNorm(dim, fn)`)."""
    if init is None:
        return frozenset()
    params = {p.arg for p in init.args.posonlyargs + init.args.args + init.args.kwonlyargs}
    stored: dict[str, str] = {}  # attribute -> parameter
    for n in ast.walk(init):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in params:
            for t in n.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    stored[t.attr] = n.value.id
    calls = {n.func.attr for n in ast.walk(info.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    return frozenset(stored[a] for a in calls if a in stored)


def _instances_of(init: ast.FunctionDef) -> dict[str, str]:
    """The parameters `init` asserts to be instances of a class named in it (`assert isinstance(vit, ViT)`,
    the first of a tuple): parameter -> class name."""
    out: dict[str, str] = {}
    for n in ast.walk(init):
        if isinstance(n, ast.Assert):
            for c in ast.walk(n.test):
                if isinstance(c, ast.Call) and _name(c.func) == "isinstance" and len(c.args) == 2 \
                        and isinstance(c.args[0], ast.Name):
                    kinds = c.args[1].elts if isinstance(c.args[1], ast.Tuple) else [c.args[1]]
                    if kinds and isinstance(kinds[0], ast.Name):
                        out.setdefault(c.args[0].id, kinds[0].id)
    return out


def _class_of(p: ast.arg, instances: dict[str, str]) -> str | None:
    """The class a parameter is annotated with (a bare name) or asserted an instance of."""
    ann = p.annotation
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str) and ann.value.isidentifier():
        return ann.value
    if isinstance(ann, ast.Name):
        return ann.id
    return instances.get(p.arg)


_SEQUENCE_TYPES = {"Sequence", "List", "list", "Tuple", "tuple", "MutableSequence"}


def int_sequence(ann: ast.expr | None) -> bool:
    """An annotation of a sequence of ints: `Sequence[int]`, `list[int]`, `Tuple[int, ...]` (also quoted, and
    `typing.`/`collections.abc.` qualified)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return False
    if not isinstance(ann, ast.Subscript) or _name(ann.value).rsplit(".", 1)[-1] not in _SEQUENCE_TYPES:
        return False
    item = ann.slice
    if isinstance(item, ast.Tuple):  # `Tuple[int, ...]`; a fixed `Tuple[int, int]` is as long as it says
        if len(item.elts) != 2 or not (isinstance(item.elts[1], ast.Constant) and item.elts[1].value is Ellipsis):
            return False
        item = item.elts[0]
    return _name(item) == "int"


def _sequences(init: ast.FunctionDef) -> set[str]:
    """The parameters `__init__` needs to be sequences: asserted to be a tuple or list (`assert isinstance(depth,
    tuple)`), or whose length it takes, which it iterates or indexes (`len(depths)`, `zip(dims, depths)`,
    `for d in depths`, `depths[i]`). Named as a size, they are sizes per stage, not one size: a symbol there
    fails the assertion or the iteration, and nothing of the module is checked."""
    params = {p.arg for p in init.args.posonlyargs + init.args.args + init.args.kwonlyargs}
    out: set[str] = set()

    def name(e: ast.expr) -> str | None:
        return e.id if isinstance(e, ast.Name) and e.id in params else None

    for n in ast.walk(init):
        if isinstance(n, ast.Assert):
            for c in ast.walk(n.test):
                if isinstance(c, ast.Call) and _name(c.func) == "isinstance" and len(c.args) == 2 and name(c.args[0]) \
                        and all(_name(t) in ("tuple", "list") for t in (c.args[1].elts if isinstance(c.args[1], ast.Tuple)
                                                                        else [c.args[1]])):
                    out.add(c.args[0].id)  # type: ignore[attr-defined]
        elif isinstance(n, ast.Call) and _name(n.func) in ("len", "zip", "enumerate"):
            out |= {x for a in n.args if (x := name(a))}
        elif isinstance(n, (ast.For, ast.comprehension)) and name(n.iter):
            out.add(n.iter.id)  # type: ignore[attr-defined]
        elif isinstance(n, ast.Subscript) and name(n.value):
            out.add(n.value.id)  # type: ignore[attr-defined]
    return out


def _stages(init: ast.FunctionDef) -> int:
    """How many sizes a per-stage parameter gets: as many as the longest tuple or list its `__init__` has as a
    default (`dims=(64, 128, 256, 512)`: four stages), else 2."""
    lengths = [len(d.elts) for d in init.args.defaults + [k for k in init.args.kw_defaults if k is not None]
               if isinstance(d, (ast.Tuple, ast.List)) and d.elts]
    return max(lengths, default=2)


def optional_sizes(init: ast.FunctionDef | None, given: frozenset[str] = frozenset(),
                   first_self: bool = True) -> frozenset[str]:
    """The parameters of `init` defaulting to None that no site of the project gives (`given`) and that are
    integers when given: annotated `int` (`Optional[int]`, `int | None`), or unannotated and named as a
    size (`num_classes=None`, `dim_out=None`) and never called by `init` (`norm_layer(dim)`: a class). A
    library's users give them (a classifier head, an output width): library mode builds the module with
    them given as well, as positive symbols, so the layers only they build are checked too."""
    if init is None:
        return frozenset()
    a = init.args
    params = (a.posonlyargs + a.args)[1 if first_self else 0:]
    optional = list(zip(params[len(params) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    called = {n.func.id for n in ast.walk(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    out = set()
    for p, d in optional:
        if not (isinstance(d, ast.Constant) and d.value is None) or p.arg in given or p.arg in called:
            continue
        if (p.annotation is None and _int_like(p)) or \
                (p.annotation is not None and _optional_of(p.annotation) is not p.annotation and _int_like(_as_int(p))):
            out.add(p.arg)
    return frozenset(out)


def _as_int(p: ast.arg) -> ast.arg:
    """`p` with `Optional[int]` / `int | None` read as `int` (given, it is an int)."""
    return ast.arg(p.arg, _optional_of(p.annotation)) if p.annotation is not None else p


def _config_value(p: ast.arg, config: "Callable[[str], ast.ClassDef | None] | None") -> tuple[str, list[str]] | None:
    """`ModelArgs(d_model=<symbol>, ...)` for a parameter annotated with the project's dataclass: its
    fields without a default (or with a placeholder default, `_later`), as `defaults` builds a
    constructor's required parameters; None otherwise."""
    ann = p.annotation
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str) and ann.value.isidentifier():
        ann = ast.Name(ann.value)
    node = config(ann.id) if config is not None and isinstance(ann, ast.Name) else None
    if node is None or node.bases:  # (a base's fields would come first, not read here)
        return None
    args, syms = [], []
    for f in node.body:
        if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name) and (f.value is None or _later(f)) \
                and not _name(f.annotation).startswith(("ClassVar", "typing.ClassVar")):
            name = f.target.id
            if _int_like(ast.arg(name, f.annotation)):
                args.append(f"{name}={protocol.dim(name)}")
                syms.append(name)
            else:
                args.append(f"{name}={protocol.unknown(name)}")
    return f"{node.name}({', '.join(args)})", syms


def _later(f: ast.AnnAssign) -> bool:
    """An int field whose default is a negative literal (`vocab_size: int = -1  # defined later by the
    tokenizer`): a placeholder the program replaces before building, never a size it builds with."""
    v = f.value
    return _name(f.annotation) == "int" and isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub) \
        and isinstance(v.operand, ast.Constant) and isinstance(v.operand.value, int)


def dataclass_named(classes: dict[str, list[ClassInfo]], path: str) -> "Callable[[str], ast.ClassDef | None]":
    """The project's `@dataclass` class of a name, as the file at `path` sees it: its own, else the only one."""
    def find(name: str) -> ast.ClassDef | None:
        found = [i for i in classes.get(name, []) if any(_name(d).split("(")[0].endswith("dataclass")
                                                        for d in i.node.decorator_list)]
        own = [i for i in found if i.path == path]
        pick = own or (found if len(found) == 1 else [])
        return pick[0].node if pick else None

    return find


def _int_name(name: str) -> bool:
    return _int_like(ast.arg(name))


_NOT_SIZES = ("drop", "rate", "prob", "eps", "std", "scale", "momentum", "temp", "init", "bias")


def size_attribute(name: str) -> bool:
    """Whether an attribute of a configuration object is named as a size (`n_embd`, `vocab_size`), not
    as a probability, a scale or a flag (`dropout`, `layer_norm_eps`, `bias`)."""
    low = name.lower()
    return not name.startswith("_") and _int_name(name) and not any(w in low for w in _NOT_SIZES)


def _int_like(p: ast.arg) -> bool:
    if p.annotation is not None:
        return _name(p.annotation) == "int"
    name = p.arg.lower()
    return name in ("n", "d", "k", "h", "c") or (any(h in name for h in _INT_HINTS) or any(
        name.startswith(h) or "_" + h in name for h in _INT_PREFIXES)
        or name.rsplit("_", 1)[-1] in _INT_LAST_WORDS) and not any(w in name for w in _NOT_INTS)


@dataclass
class Targets:
    targets: list[LibraryTarget] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "file.py::Cls: why"
    parts: set[str] = field(default_factory=set)  # module classes some other module class builds


def targets(files: list[str], project: "list[str] | Callable[[], list[str]]", root: str, only: set[str] | None = None,
            parse: Parse = _parse, context: list[str] | None = None,
            keep: Callable[[str, str], bool] | None = None) -> Targets:
    """The library-mode targets among the module classes of `files` (`project`: where call sites
    are looked for, in the files that mention the class, or a callable listing them when needed; `only`: class names to keep, None for all;
    `context`: the files whose classes may be bases of theirs, default `project`; `keep(path, class)`:
    which of them to build targets for, default all)."""
    sources = Sources(project, parse)
    classes = classes_of(list(dict.fromkeys(files + (sources.files if context is None else context))), sources.parse)
    wanted = {os.path.abspath(f) for f in files}
    out = Targets()
    found = module_classes(classes)
    names = frozenset(i.node.name for i in found)
    for info in sorted(found, key=lambda i: (i.path, i.node.lineno)):
        if info.path not in wanted or (only is not None and info.node.name not in only):
            continue
        if keep is not None and not keep(info.path, info.node.name):
            continue
        out.targets.extend(_build(info, classes, sources, root, out, names))
    for path in sorted(wanted):
        tree = sources.parse(path)
        for fn in sequential_factories(tree) if tree is not None else []:
            if (only is None or fn.name in only) and (keep is None or keep(path, fn.name)) \
                    and not _called(fn.name, sources.mentioning(fn.name)):
                construct, label = defaults(fn.name, fn, first_self=False)
                out.targets.append(LibraryTarget(path, fn.name, fn.lineno, construct, f"{fn.name}() with {label}",
                                                 (InputSpec("input"),)))
    return out  # file by file: the targets of a file share its import checkpoint (verdict.py)


def sequential_factories(tree: ast.Module) -> list[ast.FunctionDef]:
    """Top-level functions of a file that build the model it defines as an `nn.Sequential` and return it
    (`def MLPMixer(*, dim, depth, ...): return nn.Sequential(...)`): a module without a class of its own,
    checked alone like one (its parameters are the constructor's)."""
    out = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_") or fn.decorator_list:
            continue
        returns = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return)]
        if returns and all(isinstance(r, ast.Call) and _name(r.func) in _SEQUENTIAL for r in returns):
            out.append(fn)
    return out


def _called(name: str, trees: dict[str, ast.Module]) -> bool:
    """Whether some file of the project calls `name` (then a caller builds it: not a model nobody uses)."""
    return any(True for tree in trees.values() for _ in sites.calls(tree, _callee, name))


def _callers(name: str, path: str, own: ast.Module | None, n: int, sources: Sources,
             root: str) -> tuple[CallerInput, ...]:
    """The inputs of `n` tensors the project's call sites pass to `name` of `path`, in the files that
    mention it or one of its file's factories (once per run)."""
    key = (name, path, n)
    if key not in sources.callers:
        trees = sources.mentioning(name)
        for f in sorted(factories_of(own, name)) if own is not None else []:
            trees = {**sources.mentioning(f), **trees}
        sources.callers[key] = caller_inputs(name, trees, root, n, path)
    return sources.callers[key]


def _called_first(configs: list[Config], callers: tuple[CallerInput, ...]) -> list[Config]:
    """The constructions some project call site passes inputs to first (they are evidence, the others
    contracts), with those built through a factory of the class's file (`net = ResNet18()`, which
    builds what a site in the factory builds: a construction of its own, as written)."""
    def called(c: Config) -> bool:
        return any(k.construct in (c.construct, c.raw) for k in callers)

    extra = {k.construct: Config(k.construct, f"{k.construct} at {k.rel}:{k.line}") for k in callers
             if not any(k.construct in (c.construct, c.raw) for c in configs)}
    return list(extra.values()) + [c for c in configs if called(c)] + [c for c in configs if not called(c)]


def _build(info: ClassInfo, classes: dict[str, list[ClassInfo]], sources: Sources, root: str,
           out: Targets, modules: frozenset[str] = frozenset()) -> list[LibraryTarget]:
    name, rel = info.node.name, os.path.relpath(info.path, root)
    fwd = _method(info, "forward", classes)
    optional: tuple[InputSpec, ...] = ()
    if fwd is not None:
        inputs = forward_inputs(fwd, sources.parse(info.path))
        optional = optional_inputs(fwd, sum(s.kind == "tensor" for s in inputs), sources.parse(info.path))
    elif _is_sequential(info, classes):
        inputs = (InputSpec("input"),)
    else:
        out.skipped.append(f"{rel}::{name}: no forward")
        return []
    own = sources.parse(info.path)
    init = _method(info, "__init__", classes)
    given: set[str] = set()
    owners: set[str] = set()
    found = call_sites(name, info.path, sources.mentioning(name), root, init, modules, sources.facts, given, owners)
    if owners - {name}:
        out.parts.add(f"{info.path}::{name}")
    known = frozenset(c.construct for c in found if not c.via and not c.partial)
    made = [Config(src, label) for src, label in (factories(name, own, rel, known) if own else [])]
    # sites whose every argument is known, the file's factories, then the sites with symbols in them
    configs = [c for c in found if not c.via and not c.partial] + made + [c for c in found if c.partial]
    callers = _callers(name, info.path, own, len(inputs), sources, root) \
        if inputs and all(i.kind == "tensor" for i in inputs) else ()
    configs = _called_first(configs, callers)
    if not configs:  # else the scripts that build it, then the defaults (a script may not get that far)
        config, through = dataclass_named(classes, info.path), _passed_through(info, classes)
        part = _components(info, classes, config)
        called = called_params(info, init)
        extra = optional_sizes(init, frozenset(given))
        nones = none_defaults(init) - given
        # the defaults, unless `__init__` rejects them outright while it takes the sizes given (rejects.py)
        plain = [] if extra and rejects(init, nones) and not rejects(init, nones - extra) else \
            [Config(*defaults(name, init, frozenset(given), config=config, through=through, component=part,
                              called=called))]
        configs = [c for c in found if c.via] + plain
        if extra:  # and with the integers that default to None given: the layers only they build are checked
            configs.append(Config(*defaults(name, init, frozenset(given) | extra, config=config, through=through,
                                            component=part, called=called)))
    units = tuple(sorted({(i, len(shape), p) for k in callers for i, shape in enumerate(k.shapes)
                          for p, size in enumerate(shape) if size == 1}))
    return [LibraryTarget(info.path, name, info.node.lineno, c.construct, c.label, inputs, c.via,
                          tuple(k for k in callers if k.construct in (c.construct, c.raw))[:MAX_CALLERS], units,
                          optional)
            for c in configs[:MAX_CONFIGS]]
