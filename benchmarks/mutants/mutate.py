"""Mutation operators modelled on real PyTorch bugs, applied only where a torch run went.

Each operator walks a subject file's AST and proposes edits (byte spans of the original text and
their replacement); only nodes whose enclosing statement's first line was executed by the
original run (originals.py) are candidates. A recipe keeps the operator, the file, the edits
(line/col spans, old/new text); a recipe whose result does not compile is dropped.

    python benchmarks/mutants/mutate.py             # (re)writes mutants.json; a new mutant has no label
    python benchmarks/mutants/mutate.py SUBJECT ...  # redraw only these subjects added after stop 32
"""
from __future__ import annotations

import ast
import json
import os
import random
import sys
from collections.abc import Callable, Iterator

from common import CACHE, MUTANTS_JSON, SUBJECTS, apply_edits, load_mutants, save_json, subject_root
from subjects import MODULES, SCRIPTS

SEED = 3206
STOP32 = {s.name for s in [*MODULES, *SCRIPTS]}  # drawn from one stream, in this order
PER_OP = 2  # mutants per (subject, operator), drawn at random from the candidates
PER_SUBJECT = 6

SIZED = {"Linear": (0, 1), "Conv1d": (0, 1), "Conv2d": (0, 1), "Conv3d": (0, 1), "ConvTranspose1d": (0, 1),
         "ConvTranspose2d": (0, 1), "ConvTranspose3d": (0, 1), "BatchNorm1d": (0,), "BatchNorm2d": (0,),
         "BatchNorm3d": (0,), "LayerNorm": (0,), "GroupNorm": (1,), "Embedding": (0, 1), "LSTM": (0, 1),
         "GRU": (0, 1), "RNN": (0, 1), "LSTMCell": (0, 1), "GRUCell": (0, 1), "InstanceNorm2d": (0,),
         "MultiheadAttention": (0,), "Bilinear": (0, 2)}
SIZE_KW = {"in_features", "out_features", "in_channels", "out_channels", "num_features", "normalized_shape",
           "embedding_dim", "num_embeddings", "input_size", "hidden_size", "num_channels", "embed_dim"}
LAYER = {"Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "MaxPool2d", "AvgPool2d", "MaxPool1d", "AvgPool1d"}
LAYER_KW = {"kernel_size", "stride", "padding", "dilation"}
DIM_POS = {"cat": 1, "stack": 1, "softmax": 1, "log_softmax": 1, "unsqueeze": 1, "squeeze": 1, "flatten": 1,
           "chunk": 2, "split": 2, "sum": 1, "mean": 1, "argmax": 1, "cumsum": 1}
SWAP = {"Linear", "Conv1d", "Conv2d", "Embedding", "view", "reshape", "permute", "matmul", "mm", "bmm",
        "cross_entropy", "nll_loss", "mse_loss", "binary_cross_entropy", "repeat", "expand", "LSTM", "GRU",
        "ConvTranspose2d", "transpose", "masked_fill", "where"}
CASTS = {"long", "float", "double", "half", "int", "bool"}
DTYPES_LONG = {"long", "int64", "int", "int32"}


def name_of(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


class Ctx:
    """One file: its bytes, AST, statement of every node, executed lines."""

    def __init__(self, text: bytes, executed: set[int]) -> None:
        self.text = text
        self.lines = text.split(b"\n")
        self.tree = ast.parse(text)
        self.executed = executed
        self.stmt: dict[int, ast.stmt] = {}
        self.func: dict[int, ast.AST] = {}
        self.cls_method: dict[int, str] = {}
        self._index(self.tree, None, None, "")

    def _index(self, node: ast.AST, stmt: ast.stmt | None, func: ast.AST | None, method: str) -> None:
        for child in ast.iter_child_nodes(node):
            s = child if isinstance(child, ast.stmt) else stmt
            f = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else func
            m = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else method
            if s is not None:
                self.stmt[id(child)] = s
            self.func[id(child)] = f if f is not None else self.tree
            self.cls_method[id(child)] = m
            self._index(child, s, f, m)

    def ran(self, node: ast.AST) -> bool:
        s = self.stmt.get(id(node))
        if s is None or isinstance(s, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            return False
        return s.lineno in self.executed

    def seg(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text.decode(), node) or ""

    def edit(self, node: ast.AST, new: str) -> dict:
        return self.span(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, new)  # type: ignore[attr-defined]

    def span(self, line: int, col: int, end_line: int, end_col: int, new: str) -> dict:
        old = b"\n".join(self.lines[line - 1:end_line])
        start = col
        stop = len(old) - len(self.lines[end_line - 1]) + end_col
        old_text = old[start:stop].decode()
        new += "\n" * (old_text.count("\n") - new.count("\n"))  # keep every later line where it was
        return {"line": line, "col": col, "end_line": end_line, "end_col": end_col, "old": old_text, "new": new}

    def calls(self) -> Iterator[ast.Call]:
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Call) and self.ran(n):
                yield n


def _plus_one(ctx: Ctx, node: ast.expr) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return str(node.value + 1)
    text = ctx.seg(node)
    simple = isinstance(node, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.Constant))
    return f"{text} + 1" if simple else f"({text}) + 1"


def _int(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _receiver(call: ast.Call) -> ast.expr | None:
    if isinstance(call.func, ast.Attribute) and not (isinstance(call.func.value, ast.Name)
                                                     and call.func.value.id in ("torch", "F", "nn", "np")):
        return call.func.value
    if call.args and isinstance(call.func, ast.Attribute):
        return call.args[0]  # torch.flatten(x, 1) -> x
    if call.args and isinstance(call.func, ast.Name):
        return call.args[0]  # rearrange(x, ...) -> x
    return None


def op_ctor_size(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        pos = SIZED.get(name_of(c.func))
        if pos is None:
            continue
        for i in pos:
            if i < len(c.args) and not isinstance(c.args[i], ast.Starred):
                yield [ctx.edit(c.args[i], _plus_one(ctx, c.args[i]))]
        for k in c.keywords:
            if k.arg in SIZE_KW:
                yield [ctx.edit(k.value, _plus_one(ctx, k.value))]


def op_layer_arg(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func)
        if n not in LAYER:
            continue
        first = 2 if n.startswith("Conv") else 0
        for a in c.args[first:first + 3]:
            if _int(a) is not None:
                yield [ctx.edit(a, str(_int(a) + 1))]  # type: ignore[operator]
        for k in c.keywords:
            if k.arg in LAYER_KW and _int(k.value) is not None:
                yield [ctx.edit(k.value, str(_int(k.value) + 1))]  # type: ignore[operator]


def _other_dim(d: int) -> str:
    return str(d + 1) if d >= 0 else str(d - 1)


def op_dim_arg(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        for k in c.keywords:
            if k.arg in ("dim", "axis", "start_dim") and _int(k.value) is not None:
                yield [ctx.edit(k.value, _other_dim(_int(k.value)))]  # type: ignore[arg-type]
        n = name_of(c.func)
        if n in DIM_POS and not any(k.arg in ("dim", "axis") for k in c.keywords):
            method = isinstance(c.func, ast.Attribute) and _receiver(c) is c.func.value
            i = DIM_POS[n] - (1 if method else 0)
            if i < len(c.args) and _int(c.args[i]) is not None:
                yield [ctx.edit(c.args[i], _other_dim(_int(c.args[i])))]  # type: ignore[arg-type]


def op_swap_args(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func)
        if n not in SWAP and "loss" not in n.lower() and "criterion" not in n.lower():
            continue
        args = [a for a in c.args if not isinstance(a, ast.Starred)]
        if len(args) >= 2 and len(args) == len(c.args):
            a, b = ctx.seg(args[0]), ctx.seg(args[1])
            if a != b and "\n" not in a + b:
                yield [ctx.edit(args[0], b), ctx.edit(args[1], a)]
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult) and ctx.ran(n):
            a, b = ctx.seg(n.left), ctx.seg(n.right)
            if a != b and "\n" not in a + b:
                yield [ctx.edit(n.left, b), ctx.edit(n.right, a)]


def _drop_call(ctx: Ctx, names: set[str]) -> Iterator[list[dict]]:
    for c in ctx.calls():
        if name_of(c.func) in names:
            r = _receiver(c)
            if r is not None:
                yield [ctx.edit(c, ctx.seg(r))]


def op_drop_reshape(ctx: Ctx) -> Iterator[list[dict]]:
    yield from _drop_call(ctx, {"view", "reshape", "flatten"})


def op_drop_permute(ctx: Ctx) -> Iterator[list[dict]]:
    yield from _drop_call(ctx, {"permute", "transpose", "t"})


def op_drop_unsqueeze(ctx: Ctx) -> Iterator[list[dict]]:
    yield from _drop_call(ctx, {"unsqueeze", "squeeze"})
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Subscript) and ctx.ran(n):
            idx = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            if any(isinstance(e, ast.Constant) and e.value is None for e in idx):
                yield [ctx.edit(n, ctx.seg(n.value))]


def op_drop_einops(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func)
        if n in ("rearrange", "reduce", "repeat") and isinstance(c.func, ast.Name) and len(c.args) >= 2 \
                and isinstance(c.args[1], ast.Constant) and isinstance(c.args[1].value, str):
            yield [ctx.edit(c, ctx.seg(c.args[0]))]
        elif n == "Rearrange":
            yield [ctx.edit(c, "nn.Identity()")]


def op_width_consistent(ctx: Ctx) -> Iterator[list[dict]]:
    """An int width given to several layer constructors, changed everywhere in one place: its
    assignment, or every equal literal among the size arguments in one function."""
    uses: dict[str, int] = {}
    for c in ctx.calls():
        if name_of(c.func) in SIZED:
            for a in c.args:
                if isinstance(a, ast.Name):
                    uses[a.id] = uses.get(a.id, 0) + 1
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Assign) and ctx.ran(n) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and uses.get(n.targets[0].id, 0) >= 2 and _int(n.value) is not None and _int(n.value) > 1:  # type: ignore[operator]
            yield [ctx.edit(n.value, str(_int(n.value) * 2))]  # type: ignore[operator]
    by_func: dict[int, list[ast.expr]] = {}
    for c in ctx.calls():
        pos = SIZED.get(name_of(c.func), ())
        for i in pos:
            if i < len(c.args) and _int(c.args[i]) is not None and _int(c.args[i]) > 1:  # type: ignore[operator]
                by_func.setdefault(id(ctx.func[id(c)]), []).append(c.args[i])
    for lits in by_func.values():
        for v in sorted({_int(a) for a in lits}):  # type: ignore[type-var]
            same = [a for a in lits if _int(a) == v]
            if len(same) >= 2:
                yield [ctx.edit(a, str(v * 2)) for a in same]  # type: ignore[operator]


def op_dtype_drop(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func)
        r = _receiver(c)
        if isinstance(c.func, ast.Attribute) and r is c.func.value and (
                (n in CASTS and not c.args and not c.keywords)
                or (n in ("to", "type") and len(c.args) == 1 and "torch." in ctx.seg(c.args[0])
                    and "device" not in ctx.seg(c.args[0]))):
            yield [ctx.edit(c, ctx.seg(r))]
        for i, k in enumerate(c.keywords):
            if k.arg == "dtype":
                prev = (c.args + [kk.value for kk in c.keywords[:i]])
                if prev:
                    p = max(prev, key=lambda e: (e.end_lineno, e.end_col_offset))
                    yield [ctx.span(p.end_lineno, p.end_col_offset, k.value.end_lineno, k.value.end_col_offset, "")]  # type: ignore[arg-type]


def op_dtype_add(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func).lower()
        if ("loss" in n or "criterion" in n or n in ("cross_entropy", "nll_loss")) and len(c.args) >= 2:
            yield [ctx.edit(c.args[1], f"{ctx.seg(c.args[1])}.float()" if isinstance(c.args[1], (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) else f"({ctx.seg(c.args[1])}).float()")]
        if ("emb" in n or n in ("wte", "tok_emb", "encoder", "embed")) and len(c.args) == 1:
            yield [ctx.edit(c.args[0], f"({ctx.seg(c.args[0])}).float()")]
        for k in c.keywords:
            if k.arg == "dtype" and name_of(k.value) in DTYPES_LONG:
                yield [ctx.edit(k.value, "torch.float32")]
        if name_of(c.func) == "long" and isinstance(c.func, ast.Attribute) and not c.args:
            yield [ctx.edit(c, f"{ctx.seg(c.func.value)}.float()")]


def op_drop_to_device(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        n = name_of(c.func)
        if isinstance(c.func, ast.Attribute) and ((n == "to" and len(c.args) == 1 and "device" in ctx.seg(c.args[0]))
                                                  or (n == "cuda" and not c.args)):
            yield [ctx.edit(c, ctx.seg(c.func.value))]


LABEL_NAMES = ("y", "label", "labels", "target", "targets", "y_pos", "y_neg")


def op_dataset_label(ctx: Ctx) -> Iterator[list[dict]]:
    for n in ast.walk(ctx.tree):
        if not ctx.ran(n):
            continue
        if isinstance(n, ast.Return) and ctx.cls_method.get(id(n)) == "__getitem__" and isinstance(n.value, ast.Tuple) \
                and len(n.value.elts) >= 2:
            e = n.value.elts[-1]
            yield [ctx.edit(e, _plus_one(ctx, e))]
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id in LABEL_NAMES and ctx.cls_method.get(id(n)) not in ("forward", "__init__"):
            yield [ctx.edit(n.value, _plus_one(ctx, n.value))]


def _has_len(node: ast.AST) -> bool:
    return any(isinstance(x, ast.Call) and name_of(x.func) == "len" for x in ast.walk(node))


def op_dataset_length(ctx: Ctx) -> Iterator[list[dict]]:
    for n in ast.walk(ctx.tree):
        if not ctx.ran(n):
            continue
        if isinstance(n, ast.Return) and ctx.cls_method.get(id(n)) == "__len__" and n.value is not None:
            yield [ctx.edit(n.value, _plus_one(ctx, n.value))]
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Sub, ast.FloorDiv)) and _has_len(n) \
                and ctx.cls_method.get(id(n)) not in ("forward", "__init__"):
            yield [ctx.edit(n, f"{ctx.seg(n)} + 1")]


def op_loader_batch_size(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        if name_of(c.func) == "DataLoader":
            for k in c.keywords:
                if k.arg == "batch_size":
                    yield [ctx.edit(k.value, _plus_one(ctx, k.value))]
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Dict) and ctx.ran(n):
            for key, v in zip(n.keys, n.values):
                if isinstance(key, ast.Constant) and key.value == "batch_size":
                    yield [ctx.edit(v, _plus_one(ctx, v))]


def op_loader_drop_last(ctx: Ctx) -> Iterator[list[dict]]:
    for c in ctx.calls():
        if name_of(c.func) != "DataLoader" or not (c.args or c.keywords):
            continue
        kw = [k for k in c.keywords if k.arg == "drop_last"]
        if kw and isinstance(kw[0].value, ast.Constant):
            yield [ctx.edit(kw[0].value, str(not kw[0].value.value))]
        elif not kw:
            last = max([*c.args, *[k.value for k in c.keywords]], key=lambda e: (e.end_lineno, e.end_col_offset))
            yield [ctx.span(last.end_lineno, last.end_col_offset, last.end_lineno, last.end_col_offset,  # type: ignore[arg-type]
                            ", drop_last=True")]


OPERATORS: dict[str, Callable[[Ctx], Iterator[list[dict]]]] = {
    "ctor_size": op_ctor_size, "layer_arg": op_layer_arg, "dim_arg": op_dim_arg, "swap_args": op_swap_args,
    "drop_reshape": op_drop_reshape, "drop_permute": op_drop_permute, "drop_unsqueeze": op_drop_unsqueeze,
    "drop_einops": op_drop_einops, "width_consistent": op_width_consistent, "dtype_drop": op_dtype_drop,
    "dtype_add": op_dtype_add, "drop_to_device": op_drop_to_device, "dataset_label": op_dataset_label,
    "dataset_length": op_dataset_length, "loader_batch_size": op_loader_batch_size,
    "loader_drop_last": op_loader_drop_last,
}


def candidates(subject_name: str, executed: dict[str, list[int]]) -> list[dict]:
    subject = SUBJECTS[subject_name]
    out = []
    for rel, lines in sorted(executed.items()):
        if not lines:
            continue
        with open(os.path.join(subject_root(subject), rel), "rb") as f:
            text = f.read()
        ctx = Ctx(text, set(lines))
        for op, fn in OPERATORS.items():
            seen = set()
            for edits in fn(ctx):
                key = json.dumps(edits, sort_keys=True)
                if key in seen or any(e["old"] == e["new"] for e in edits):
                    continue
                seen.add(key)
                try:
                    compile(apply_edits(text, edits), rel, "exec")
                except (SyntaxError, ValueError):
                    continue
                out.append({"subject": subject_name, "op": op, "file": rel, "edits": edits})
    return out


def _draw(rng: random.Random, name: str, lines: dict[str, list[int]]) -> list[dict]:
    """At most PER_OP mutants per operator and PER_SUBJECT in all, every operator with candidates first."""
    cands = candidates(name, lines)
    by_op: dict[str, list[dict]] = {}
    for c in cands:
        by_op.setdefault(c["op"], []).append(c)
    picked = []
    for op in sorted(by_op):
        picked += rng.sample(by_op[op], min(PER_OP, len(by_op[op])))
    rng.shuffle(picked)
    # keep every operator that has candidates before a second mutant of any operator
    firsts = {}
    for m in picked:
        firsts.setdefault(m["op"], m)
    rest = [m for m in picked if firsts[m["op"]] is not m]
    chosen = list(firsts.values())[:PER_SUBJECT] + rest[:max(0, PER_SUBJECT - len(firsts))]
    out = []
    for i, m in enumerate(sorted(chosen, key=lambda m: (m["op"], m["file"], m["edits"][0]["line"]))):
        m["id"] = f"{name}#{i}"
        out.append(m)
    print(f"{name:36} candidates={len(cands):4} ops={len(by_op):2} chosen={len(chosen)}")
    return out


def _recipe(m: dict) -> dict:
    return {k: v for k, v in m.items() if k != "label"}


def main(argv: list[str]) -> int:
    """No argument: draw every subject (the stop-32 subjects from one stream seeded SEED, in their order, as
    at stop 32; each later subject from its own stream seeded `SEED/name`, so adding subjects changes no
    earlier mutant). With subject names (later subjects only): redraw those, keep every other mutant as it is.
    A mutant whose recipe is unchanged keeps its label."""
    with open(os.path.join(CACHE, "originals.json")) as f:
        originals = json.load(f)
    old = load_mutants() if os.path.exists(MUTANTS_JSON) else {"mutants": []}
    bad = [n for n in argv if n not in SUBJECTS or n in STOP32]
    if bad:
        raise SystemExit(f"not a subject added after stop 32: {', '.join(bad)}")
    kept: dict[str, list[dict]] = {}
    for m in old["mutants"]:
        kept.setdefault(m["subject"], []).append(m)
    labels = {m["id"]: (_recipe(m), m["label"]) for m in old["mutants"] if "label" in m}
    rng = random.Random(SEED)
    mutants = []
    for name in SUBJECTS:
        if argv and name not in argv:
            mutants += kept.get(name, [])
            continue
        orig = originals[name]
        if not orig["inputs"]:
            continue
        drawn = _draw(rng if name in STOP32 else random.Random(f"{SEED}/{name}"), name, orig["lines"])
        for m in drawn:
            recipe, label = labels.get(m["id"], (None, None))
            if recipe == m:
                m["label"] = label
        mutants += drawn
    doc = {k: v for k, v in old.items() if k != "mutants"}
    doc.update({"seed": SEED, "per_op": PER_OP, "per_subject": PER_SUBJECT, "mutants": mutants})
    save_json(MUTANTS_JSON, doc)
    print(len(mutants), "mutants,", sum("label" not in m for m in mutants), "without a label")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
