"""The API oracle table: test cases keyed by the fully-qualified name they exercise.

- CASES: (name, setup, expr) run with real torch/numpy/einops and with pytea-ci (tests/oracle/test_api_table.py).
  `expr` may also be an augmented assignment (`a += b`), whose result is its target.
- RECORDED: (name, setup, expr, expected) for libraries not installable beside torch 2.13 here (torchvision;
  PIL through torchvision's ToTensor; PIL rows through NumPy are CASES, run where Pillow is installed):
  expected is the result shape or "error", from the libraries' documented behaviour.
- EXEMPT: name -> (reason, fixture snippet) for APIs without a shape effect that cannot fail on shapes.
Most rows are generated from the element-wise tables of pytea_ci/models/torch/elementwise.py.
scripts/gen_api_fixtures.py writes tests/fixtures/api/*.py from the same rows.
"""

from __future__ import annotations

from pytea_ci.models.numpy_.math import DISTRIBUTIONS, UFUNCS
from pytea_ci.models.torch.elementwise import BINARY, DUNDERS, UNARY

Case = tuple[str, str, str]
CASES: list[Case] = []
RECORDED: list[tuple[str, str, str, object]] = []


def add(name: str, setup: str, *exprs: str) -> None:
    for e in exprs:
        CASES.append((name, setup, e))


# ----- element-wise binary ops (generated) ------------------------------------------------------------------
_INT_OPS = {"bitwise_and", "bitwise_or", "bitwise_xor"}
_NO_INPLACE = {"eq", "ne", "lt", "le", "gt", "ge", "maximum", "minimum"}


def _operands(op: str, a: tuple[int, ...], b: tuple[int, ...]) -> str:
    if op in _INT_OPS:
        return f"a = torch.randint(0, 5, {a})\nb = torch.randint(0, 5, {b})\n"
    return f"a = torch.rand({a}) + 0.5\nb = torch.rand({b}) + 0.5\n"


OK_SHAPES, BAD_SHAPES = ((2, 3), (3,)), ((2, 3), (4,))
for _op in BINARY:
    for _shapes in (OK_SHAPES, BAD_SHAPES):
        add(f"torch.{_op}", _operands(_op, *_shapes), f"torch.{_op}(a, b)")
        add(f"torch.Tensor.{_op}", _operands(_op, *_shapes), f"a.{_op}(b)")
        if _op not in _NO_INPLACE and not _op.startswith("logical") and _op not in ("fmax", "fmin"):
            add(f"torch.Tensor.{_op}_", _operands(_op, *_shapes), f"a.{_op}_(b)")
    if _op not in _NO_INPLACE and not _op.startswith("logical") and _op not in ("fmax", "fmin"):
        add(f"torch.Tensor.{_op}_", _operands(_op, (3,), (2, 3)), f"a.{_op}_(b)")  # the target cannot grow

SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floor_divide": "//", "remainder": "%", "pow": "**",
          "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "logical_and": "&",
          "logical_or": "|", "logical_xor": "^"}
NP_FUNCS = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide",
            "true_divide": "true_divide", "power": "power", "maximum": "maximum", "minimum": "minimum"}


def _dunder_cases(lib: str, name: str, op: str, reflected: bool) -> None:
    sym = SYMBOL[op]
    boolean = op.startswith("logical")
    if lib == "torch":
        mk = (lambda s: f"torch.rand({s}) > 0.5") if boolean else (lambda s: f"torch.rand({s}) + 0.5")
    else:
        mk = (lambda s: f"np.random.rand(*{s}) > 0.5") if boolean else (lambda s: f"np.random.rand(*{s}) + 0.5")
    if name.startswith("__i"):
        for a, b in (((2, 3), (3,)), ((2, 3), (4,)), ((3,), (2, 3))):
            add(f"{lib}.{name}", f"a = {mk(a)}\nb = {mk(b)}\n", f"a {sym}= b")
    elif reflected:
        scalar = "True" if boolean else "2"
        add(f"{lib}.{name}", f"a = {mk((2, 3))}\n", f"{scalar} {sym} a")
    else:
        for a, b in (OK_SHAPES, BAD_SHAPES):
            add(f"{lib}.{name}", f"a = {mk(a)}\nb = {mk(b)}\n", f"a {sym} b")


for _name, (_op, _refl) in DUNDERS.items():
    _dunder_cases("torch", f"Tensor.{_name}", _op, _refl)
    if _op in SYMBOL:
        _dunder_cases("numpy", f"ndarray.{_name}", _op, _refl)
for _npf in NP_FUNCS:
    for _a, _b in (OK_SHAPES, BAD_SHAPES):
        add(f"numpy.{_npf}", f"a = np.random.rand(*{_a}) + 0.5\nb = np.random.rand(*{_b}) + 0.5\n", f"np.{_npf}(a, b)")

# ----- element-wise unary ops (generated) -------------------------------------------------------------------
UNARY_ARGS = {"clamp": "min=0.1", "clip": "min=0.1", "clamp_min": "0.1", "clamp_max": "0.9", "clamp_": "min=0.1",
              "fill_": "0.5"}
UNARY_INPUT = {"bitwise_not": "torch.randint(0, 5, (2, 3))", "logical_not": "torch.rand(2, 3) > 0.5",
               "bernoulli": "torch.rand(2, 3)", "bernoulli_": "torch.rand(2, 3)", "random_": "torch.zeros(2, 3)",
               "logit": "torch.rand(2, 3) * 0.5 + 0.25",
               "retain_grad": "torch.rand(2, 3, requires_grad=True) * 2"}
# Tensor methods not callable on this machine's tensors (no CUDA, dense tensors, no such method): exempt below.
UNARY_SKIP = {"cuda", "pin_memory", "coalesce", "add_noise"}
_TORCH_FN = {"relu", "sigmoid", "tanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "abs", "neg",
             "negative", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
             "atanh", "floor", "ceil", "round", "trunc", "frac", "sign", "sgn", "square", "reciprocal", "erf", "erfc",
             "erfinv", "logical_not", "bitwise_not", "isnan", "isinf", "isfinite", "nan_to_num", "clamp", "clip",
             "clamp_min", "clamp_max", "selu", "celu", "logit", "sigmoid_", "deg2rad", "rad2deg", "positive",
             "conj", "detach", "clone", "bernoulli", "relu_", "clamp_", "abs_", "neg_", "exp_", "sqrt_", "tanh_",
             "round_", "floor_", "ceil_", "sign_", "fill_", "zero_", "log_", "lgamma", "digamma", "i0", "sinc"}
_TORCH_ONLY = {"selu", "celu"}
_F_ONLY = {"silu", "gelu", "softplus", "mish", "hardswish", "hardsigmoid", "relu6", "elu", "leaky_relu"}
for _op in UNARY:
    if _op in UNARY_SKIP:
        continue
    x = UNARY_INPUT.get(_op, "torch.rand(2, 3) + 0.5")
    args = UNARY_ARGS.get(_op, "")
    if _op in _F_ONLY:
        add(f"torch.Tensor.{_op}", f"x = {x}\n", f"F.{_op}(x{', ' + args if args else ''})")
        continue
    if _op not in _TORCH_ONLY:
        add(f"torch.Tensor.{_op}", f"x = {x}\n", f"x.{_op}({args})")
    if _op in _TORCH_FN and not _op.endswith("_") or _op in ("relu_", "sigmoid_"):
        add(f"torch.Tensor.{_op}", f"x = {x}\n", f"torch.{_op}(x{', ' + args if args else ''})")
for _d, _x in (("__neg__", "-x"), ("__pos__", "+x"), ("__abs__", "abs(x)"), ("__invert__", "~(x > 0.5)")):
    add(f"torch.Tensor.{_d}", "x = torch.rand(2, 3)\n", _x)

# ----- hand-written rows: tensor methods and attributes ------------------------------------------------------
X23 = "x = torch.randn(2, 3)\n"
X234 = "x = torch.randn(2, 3, 4)\n"
add("torch.Tensor.T", X23, "x.T")
add("torch.Tensor.mT", X234, "x.mT", "x.mH", "x.mT.view(2, 12)", "torch.zeros(4).mT")
add("torch.Tensor.H", X23, "x.H", "x.H.view(6)", "torch.zeros(2, 3, 4).H")
add("torch.Tensor.shape", X23, "torch.zeros(x.shape[2])", "torch.zeros(x.size()[-3])")
add("torch.Tensor.data", X23, "x.data")
add("torch.Tensor.device", X23, "torch.zeros(2, device=x.device)")
add("torch.Tensor.dim", X23, "torch.zeros(x.dim())")
add("torch.Tensor.dtype", X23, "torch.zeros(3, dtype=x.dtype)")
add("torch.Tensor.shape", X23, "torch.zeros(x.shape[1])", "torch.zeros(x.shape[-2])")
add("torch.Tensor.size", X23, "torch.zeros(x.size(1))", "torch.zeros(x.size(2))", "torch.zeros(x.size())")
add("torch.Tensor.ndim", X23, "torch.zeros(x.ndim)")
add("torch.Tensor.numel", X23, "torch.zeros(x.numel())")
add("torch.Tensor.is_cuda", X23, "torch.zeros(int(x.is_cuda) + 1)")
add("torch.Tensor.is_sparse", X23, "torch.zeros(int(x.is_sparse) + 1)")  # (more: tests/oracle/test_layouts.py)
add("torch.Tensor.layout", X23, "torch.zeros(int(x.layout == torch.strided) + 1)", "torch.zeros(int(x.layout == torch.sparse_coo) + 2)")
add("torch.layout", X23, "torch.zeros(int(isinstance(x.layout, torch.layout)) + 1)")
add("torch.Tensor.item", "x = torch.tensor([3])\n", "torch.zeros(x.item())")
add("torch.Tensor.tolist", X23, "torch.tensor(x.tolist())")
add("torch.Tensor.numpy", X23, "x.numpy().reshape(3, 2)", "x.numpy().reshape(4, 2)")
add("torch.Tensor.to", X23, "x.to(torch.float64)", "x.to('cpu')")
add("torch.Tensor.type_as", X23 + "i = torch.ones(5, dtype=torch.long)\n", "i.type_as(x)")
add("torch.Tensor.view", X234, "x.view(6, 4)", "x.view(-1, 5)", "x.view(2, -1)")
add("torch.Tensor.view_as", X234 + "z = torch.zeros(4, 6)\nw = torch.zeros(5, 5)\n", "x.view_as(z)", "x.view_as(w)")
add("torch.Tensor.reshape", X234, "x.reshape(4, -1)", "x.reshape(5, -1)")
add("torch.Tensor.repeat", X23, "x.repeat(2, 1, 3)", "x.repeat(2)")
add("torch.Tensor.expand", "x = torch.randn(3, 1)\n", "x.expand(2, 3, 4)", "x.expand(4, 4)", "x.expand(size=(2, 3, 4))",
    "x.expand(size=(4, 4))")
add("torch.broadcast_tensors", "a = torch.randn(3, 1)\nb = torch.randn(4)\nc = torch.randn(2, 1, 1)\n",
    "torch.broadcast_tensors(a, b)[0]", "torch.broadcast_tensors(a, b)[1]", "torch.broadcast_tensors(a, b, c)[2]",
    "torch.broadcast_tensors(a, torch.randn(2))[0]", "torch.broadcast_tensors(c, torch.randn(3, 5))[1]")
add("torch.broadcast_to", "x = torch.randn(3, 1)\n", "torch.broadcast_to(x, (2, 3, 4))", "torch.broadcast_to(x, (4, 4))",
    "x.broadcast_to((3, 5))", "x.broadcast_to((-1, 2))", "torch.broadcast_to(x, (2,))")
add("torch.Tensor.expand_as", "x = torch.randn(3, 1)\nz = torch.zeros(2, 3, 4)\nw = torch.zeros(4, 4)\n",
    "x.expand_as(z)", "x.expand_as(w)")
add("torch.Tensor.new_full", X23, "x.new_full((4, 5), 1.0)")
add("torch.Tensor.new_tensor", X23, "x.new_tensor([[1.0, 2.0]])")
add("torch.Tensor.new_zeros", X23, "x.new_zeros(4, 5)", "x.new_zeros((2,))")
add("torch.Tensor.masked_fill_", X23 + "m = torch.rand(3) > 0.5\nn = torch.rand(4) > 0.5\n",
    "x.masked_fill_(m, 0.0)", "x.masked_fill_(n, 0.0)")
for _conv in ("bool", "byte", "int", "long", "short", "half", "double", "float", "bfloat16"):
    add(f"torch.Tensor.{_conv}", X23, f"x.{_conv}()")
add("torch.Tensor.backward", "x = torch.randn(2, 3, requires_grad=True)\nl = (x * 2).sum()\n", "l.backward()")

# ----- creation ------------------------------------------------------------------------------------------------
add("torch.arange", "", "torch.arange(5)", "torch.arange(1, 10, 2)", "torch.arange(0, 1, 0.25)", "torch.arange(end=5)",
    "torch.arange(2, end=7).reshape(5, 1)", "torch.arange(start=1, end=9, step=2).reshape(3, 2)")
add("torch.full", "", "torch.full((2, 3), 7.0)")
add("torch.eye", "", "torch.eye(3)", "torch.eye(3, 5)")
add("torch.randn", "", "torch.randn(2, 3)", "torch.randn((4,))")
add("torch.rand", "", "torch.rand(2, 3)", "torch.rand([])", "(torch.rand(4) < 0.0).long()")
add("torch.randint", "", "torch.randint(0, 5, (2, 3))", "torch.randint(5, (4,))")
add("torch.tensor", "", "torch.tensor([[1, 2, 3], [4, 5, 6]])", "torch.tensor(3.0)")
add("torch.linspace", "", "torch.linspace(0, 1, 7)")
add("torch.randperm", "", "torch.randperm(6)")
add("torch.zeros_like", X23, "torch.zeros_like(x)")
add("torch.LongTensor", "", "torch.LongTensor([1, 2, 3])", "torch.LongTensor(2, 3).view(5)")
for _kind in ("Double", "Half", "BFloat16", "Int", "Short", "Char", "Byte", "Bool"):  # legacy types (issue 22)
    add(f"torch.{_kind}Tensor", "", f"torch.{_kind}Tensor(2, 3)", f"torch.{_kind}Tensor([1, 0, 1]).view(3, 1)",
        f"torch.{_kind}Tensor(2, 3).view(4)")
add("torch.Tensor.char", X23, "x.char()", "x.char().view(3, 2)", "x.char().view(4)")
add("torch.Tensor.type", X23, "x.type(torch.float64)", "x.type(torch.LongTensor).view(6)", "x.type('torch.IntTensor').view(4)")
add("torch.FloatTensor", "", "torch.FloatTensor([1, 2, 3])", "torch.FloatTensor((2, 3))", "torch.FloatTensor(2, 3)",
    "torch.FloatTensor(torch.Size([2, 3]))", "torch.FloatTensor([1, 2, 3]).view(2, 3)")
for _check in ("_assert", "_check", "_check_index", "_check_value", "_check_type"):  # models/torch/checks.py
    add(f"torch.{_check}", X23, f"torch.{_check}(x.shape[0] == 2, 'rows') or x.view(6)",
        f"torch.{_check}(x.size(1) > 0, 'cols') or x @ torch.randn(3, 4)")
add("torch.autograd.Variable", X23, "torch.autograd.Variable(x) @ torch.randn(3, 4)",
    "torch.autograd.Variable(x, requires_grad=True) @ torch.randn(4, 3)")
add("torch.nn.DataParallel", X23, "nn.DataParallel(nn.Linear(3, 4))(x)", "nn.DataParallel(nn.Linear(4, 4))(x)",
    "nn.DataParallel(nn.Linear(3, 4)).module(x)")
_GRADS = "m = nn.Linear(3, 4)\nm(torch.randn(2, 3)).sum().backward()\n"
for _name in ("utils.weight_norm", "utils.spectral_norm", "utils.parametrizations.weight_norm",
              "utils.parametrizations.spectral_norm", "utils.parametrizations.orthogonal"):
    add(f"torch.nn.{_name}", "x = torch.randn(2, 3)\n", f"nn.{_name}(nn.Linear(3, 4))(x)",
        f"nn.{_name}(nn.Linear(5, 4))(x)")
add("torch.nn.utils.remove_weight_norm", "x = torch.randn(2, 3)\n",
    "nn.utils.remove_weight_norm(nn.utils.weight_norm(nn.Linear(3, 4)))(x)",
    "nn.utils.remove_weight_norm(nn.utils.weight_norm(nn.Linear(5, 4)))(x)")
add("torch.nn.utils.remove_spectral_norm", "x = torch.randn(2, 3)\n",
    "nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(3, 4)))(x)",
    "nn.utils.remove_spectral_norm(nn.utils.spectral_norm(nn.Linear(5, 4)))(x)")
add("torch.nn.utils.clip_grad_norm_", _GRADS, "nn.utils.clip_grad_norm_(m.parameters(), 1.0).expand(3)",
    "nn.utils.clip_grad_value_(m.parameters(), 1.0) is None and torch.zeros(2)",
    "nn.utils.clip_grad_norm_(m.parameters(), 1.0).view(2)")
add("torch.Size", X23, "torch.zeros(torch.Size([2, 5]))")
add("torch.is_tensor", X23, "torch.zeros(2) if torch.is_tensor(x) else x")

# ----- reductions, sorting ---------------------------------------------------------------------------------------
for _r in ("sum", "std", "max", "argmax", "all", "softmax"):
    _x = "x = torch.rand(2, 3, 4) > 0.5\n" if _r == "all" else X234
    add(f"torch.{_r}", _x, f"torch.{_r}(x, dim=1)", f"torch.{_r}(x, dim=3)")
add("torch.sum", X234, "torch.sum(x)", "x.sum((0, 2))", "x.sum(-1, keepdim=True)")
add("torch.mean", X234, "torch.mean(x)", "x.mean((0, 2))", "x.mean(-1, keepdim=True) + torch.zeros(2, 3, 1)", "x.mean(dim=3)")
# activations declared one by one (their CPU kernels take floating dtypes only: models/torch/elementwise.py)
for _a in ("celu", "elu", "gelu", "hardsigmoid", "hardswish", "leaky_relu", "logsigmoid", "mish", "rrelu", "selu", "silu",
           "softplus"):
    add(f"torch.nn.functional.{_a}", X234, f"F.{_a}(x).view(24)", f"F.{_a}(x).view(5, 5)")
add("torch.nn.functional.leaky_relu_", X234, "F.leaky_relu_(x.clone()).view(24)", "F.leaky_relu_(x.clone()).view(25)")
add("torch.nn.functional.gumbel_softmax", X234, "F.gumbel_softmax(x, dim=1).view(24)", "F.gumbel_softmax(x, dim=3)")
add("torch.nanmean", X234, "torch.nanmean(x, 1).view(8)", "x.nanmean(3)")
add("torch.logsumexp", X234, "torch.logsumexp(x, 1).view(8)", "torch.logsumexp(x, 3)")
add("torch.cumsum", X234, "torch.cumsum(x, 1)", "x.cumsum(-1) + torch.zeros(2, 3, 4)", "x.cumsum(3)")
# torch's argument parser takes numpy's `axis=` for `dim=` (models/registry.py `_axis_alias`)
add("torch.cumsum", X234, "torch.cumprod(x, axis=0)", "x.cumsum(axis=3)", "torch.softmax(x, axis=2)",
    "torch.cat([x, x], axis=1)", "torch.stack([x, x], axis=3)", "x.argmax(axis=1)", "x.unsqueeze(axis=0)",
    "x.mean(axis=2).view(6)", "torch.cumsum(x, axis=1).view(5)")
add("torch.quantile", X234 + "q = torch.tensor([0.1, 0.9])\n", "x.quantile(0.5)", "x.quantile(0.5, keepdim=True)",
    "torch.quantile(x, 0.5, dim=1) + torch.zeros(2, 4)", "x.quantile(q, dim=-1, keepdim=True) + torch.zeros(2, 2, 3, 1)",
    "x.quantile(q) + torch.zeros(2)", "x.quantile(0.5, dim=3)", "x.quantile(torch.ones(2, 2) * 0.5)")
add("torch.count_nonzero", X234, "torch.count_nonzero(x)", "x.count_nonzero(2) + torch.zeros(2, 3)", "x.count_nonzero(3)")
add("torch.max", X234 + "z = torch.randn(3, 4)\nw = torch.randn(5, 4)\n", "torch.max(x, z)", "torch.max(x, w)")
add("torch.amax", X234, "torch.amax(x, dim=1)", "x.amax(dim=(0, 2)) + torch.zeros(3)", "torch.amax(x, dim=3)")
add("torch.median", X234, "torch.median(x)", "torch.median(x, dim=1)[0] + torch.zeros(2, 4)", "x.median(dim=3)")
# NumPy's `keepdims`: torch's argument parser takes it as `keepdim` (pytorchcv's heatmap block, `max(dim=2, keepdims=True)`)
add("torch.max", X234, "torch.cat((x.max(dim=2, keepdims=True)[0], x), dim=2)", "x.max(dim=2, keepdims=True)[0].view(6)")
add("torch.std", X234, "x.std(dim=1, keepdims=True) + torch.zeros(2, 1, 4)")
add("torch.argmax", X234, "x.argmax(dim=0, keepdims=True).view(12)", "x.argmax(dim=0, keepdims=True).view(1, 12, 1)")
add("torch.all", X234, "(x > 0).all(dim=2, keepdims=True).view(6)")
add("torch.sort", X234, "torch.sort(x, dim=1)[0]", "torch.sort(x, dim=-4)[0]")
add("torch.argsort", X234, "torch.argsort(x, dim=2)", "torch.argsort(x, dim=3)")
add("torch.topk", X234, "torch.topk(x, 2, dim=1)[0]", "torch.topk(x, 5, dim=1)[0]", "torch.topk(x, 2, dim=5)[0]")
add("torch.norm", X234, "torch.norm(x)", "torch.norm(x, dim=1)")
add("torch.unique", "x = torch.tensor([1, 2, 2, 3])\n", "torch.unique(x)")
add("torch.nonzero", X23, "torch.nonzero(x)")
add("torch.bincount", "x = torch.tensor([1, 2, 2, 3])\n", "torch.bincount(x)")
add("torch.multinomial", "p = torch.rand(2, 5)\n", "torch.multinomial(p, 3)", "torch.multinomial(p, 6)")
add("torch.dist", "a = torch.randn(2, 3)\nb = torch.randn(3)\nc = torch.randn(4)\n", "torch.dist(a, b)", "torch.dist(a, c)")
add("torch.diff", X234, "torch.diff(x, dim=1)")

# ----- shape ops -------------------------------------------------------------------------------------------------
add("torch.cat", "a = torch.randn(2, 3)\nb = torch.randn(4, 3)\n", "torch.cat([a, b])", "torch.cat([a, b], dim=1)")
add("torch.stack", "a = torch.randn(2, 3)\nb = torch.randn(2, 3)\nc = torch.randn(3, 3)\n", "torch.stack([a, b], 1)",
    "torch.stack([a, c])")
add("torch.hstack", "a = torch.randn(2, 3)\nb = torch.randn(2, 5)\nc = torch.randn(3, 3)\n", "torch.hstack([a, b])",
    "torch.hstack([a, c])")
add("torch.vstack", "a = torch.randn(2, 3)\nb = torch.randn(4, 3)\nc = torch.randn(2, 4)\n", "torch.vstack([a, b])",
    "torch.vstack([a, c])")
add("torch.chunk", "x = torch.randn(7, 3)\n", "torch.chunk(x, 3)[2]", "torch.chunk(x, 3, dim=2)[0]")
add("torch.split", "x = torch.randn(7, 3)\n", "torch.split(x, 3)[2]", "torch.split(x, [3, 4])[1]", "torch.split(x, [3, 3])[1]")
add("torch.Tensor.real", "z = torch.polar(torch.ones(2, 3), torch.zeros(2, 3))\n", "z.real", "z.real.view(6)",
    "z.real.view(5)", "torch.zeros(2, 3).real.view(6)", "torch.stack([z.real, z.imag], dim=-1).view(2, 6)")
add("torch.Tensor.imag", "z = torch.polar(torch.ones(2, 3), torch.zeros(2, 3))\n", "z.imag", "z.imag.view(3, 2)",
    "z.imag.view(4)")
add("torch.Tensor.split", "x = torch.randn(7, 3)\n", "x.split(3)[2]", "x.split(split_size=[3, 4], dim=0)[1]",
    "x.split([3, 3])[1]", "x.split(split_size=2, dim=1)[1]")
add("torch.unbind", X234, "torch.unbind(x, 1)[0]", "torch.unbind(x, 3)[0]")
add("torch.gather", X23 + "i = torch.zeros(2, 2, dtype=torch.long)\nj = torch.zeros(2, 2, 2, dtype=torch.long)\n",
    "torch.gather(x, 1, i)", "torch.gather(x, 1, j)")
add("torch.scatter", X23 + "i = torch.zeros(2, 2, dtype=torch.long)\ns = torch.ones(2, 2)\nj = torch.zeros(2, 2, 2, dtype=torch.long)\n",
    "torch.scatter(x, 1, i, s)", "torch.scatter(x, 1, j, s)")
add("torch.index_select", X23 + "i = torch.tensor([0, 2])\n", "torch.index_select(x, 1, i)", "torch.index_select(x, 2, i)")
add("torch.masked_fill", X23 + "m = torch.rand(3) > 0.5\nn = torch.rand(4) > 0.5\n", "torch.masked_fill(x, m, 0.0)",
    "torch.masked_fill(x, n, 0.0)")
add("torch.masked_select", X23 + "m = torch.rand(3) > 0.5\nn = torch.rand(4) > 0.5\n", "torch.masked_select(x, n)")
add("torch.narrow", X234, "torch.narrow(x, 1, 1, 2)", "torch.narrow(x, 1, 2, 2)")
add("torch.select", X234, "torch.select(x, 1, 2)", "torch.select(x, 1, 3)")
add("torch.movedim", X234, "torch.movedim(x, 0, 2)", "torch.movedim(x, 0, 3)")
add("torch.permute", X234, "torch.permute(x, (2, 0, 1))", "torch.permute(x, (2, 0))")
add("torch.reshape", X234, "torch.reshape(x, (6, 4))", "torch.reshape(x, (5, -1))")
add("torch.transpose", X234, "torch.transpose(x, 0, 2)", "torch.transpose(x, 0, 3)")
add("torch.squeeze", "x = torch.randn(2, 1, 4)\n", "torch.squeeze(x)", "torch.squeeze(x, 1)", "torch.squeeze(x, 3)")
add("torch.unsqueeze", X23, "torch.unsqueeze(x, 2)", "torch.unsqueeze(x, 3)")
add("torch.flatten", X234, "torch.flatten(x, 1)", "torch.flatten(x, 3)")
add("torch.unflatten", X234, "torch.unflatten(x, 2, (2, 2))", "torch.unflatten(x, 2, (3, 2))")
add("torch.flip", X234, "torch.flip(x, (0, 2))", "torch.flip(x, (3,))")
add("torch.fliplr", X23, "torch.fliplr(x)", "torch.fliplr(torch.randn(3))")
add("torch.roll", X234, "torch.roll(x, 1, 2)", "torch.roll(x, 1, 3)")
add("torch.tile", X23, "torch.tile(x, (2, 2))", "torch.tile(x, (2, 1, 1))")
add("torch.repeat_interleave", X23, "torch.repeat_interleave(x, 2, dim=1)", "torch.repeat_interleave(x, 2)")
add("torch.flipud", X23, "torch.flipud(torch.randn(3))", "torch.flipud(torch.tensor(1.0))")
add("torch.tril", X23, "torch.tril(x)", "torch.tril(torch.randn(3))")
add("torch.diag", X23, "torch.diag(x)", "torch.diag(torch.randn(4))")
add("torch.diag_embed", X23, "torch.diag_embed(x)")
add("torch.diagonal", X234, "torch.diagonal(x)", "torch.diagonal(x, dim1=1, dim2=2)")
add("torch.t", X23, "torch.t(x)", "torch.t(torch.randn(2, 3, 4))")
add("torch.where", "c = torch.rand(2, 3) > 0.5\na = torch.randn(3)\nb = torch.randn(4)\n", "torch.where(c, a, 0.0)",
    "torch.where(c, a, b)", "torch.where(c, 1, 0)", "torch.where(c, 1, 0).view(3, 2)", "torch.where(c, 1.0, 0).view(7)")
add("torch.Tensor.where", "c = torch.rand(2, 3) > 0.5\na = torch.randn(3)\nb = torch.randn(4)\n", "a.where(c, 0.0)",
    "a.where(c, a)", "b.where(c, 0.0)")
add("torch.Tensor.unfold", X234, "x.unfold(2, 2, 1)", "x.unfold(0, 2, 2)", "x.unfold(-1, 4, 3)", "x.unfold(1, 4, 1)",
    "x.unfold(1, 2, 0)", "x.unfold(3, 1, 1)", "torch.randn(()).unfold(0, 1, 1)")
add("torch.meshgrid", "a = torch.randn(3)\nb = torch.randn(4)\n", "torch.meshgrid(a, b, indexing='ij')[0]")
add("torch.Tensor.__getitem__", X234, "x[0]", "x[:, 1:]", "x[..., None]", "x[2]", "x[0, 0, 0, 0]")
add("torch.Tensor.__setitem__", X23 + "x[0] = torch.ones(3)\n", "x")
add("torch.Tensor.__len__", X23, "torch.zeros(len(x))")
add("torch.Tensor.__iter__", X23, "[r for r in x][0]", "[v for v in x.sum()][0]", "[v for v in x[0, 0]]", "list(x.sum(0))[2]")

# ----- products ----------------------------------------------------------------------------------------------------
add("torch.einsum", "a = torch.randn(2, 3)\nb = torch.randn(3, 4)\nc = torch.randn(4, 4)\n", "torch.einsum('ij,jk->ik', a, b)",
    "torch.einsum('ij,jk->ik', a, c)")
add("torch.matmul", "a = torch.randn(5, 2, 3)\nb = torch.randn(3, 4)\nv = torch.randn(3)\n", "torch.matmul(a, b)",
    "a @ b", "a @ v", "v @ b", "torch.matmul(b, a)", "a.matmul(torch.randn(4, 3, 4))", "a @ torch.randn(5, 4, 2)")
add("torch.mm", "a = torch.randn(2, 3)\nb = torch.randn(3, 4)\n", "torch.mm(a, b)", "torch.mm(b, a)")
add("torch.bmm", "a = torch.randn(5, 2, 3)\nb = torch.randn(5, 3, 4)\n", "torch.bmm(a, b)", "torch.bmm(b, a)")
add("torch.mv", "a = torch.randn(2, 3)\nv = torch.randn(3)\nw = torch.randn(2)\n", "torch.mv(a, v)", "torch.mv(a, w)")
add("torch.dot", "v = torch.randn(3)\nw = torch.randn(2)\n", "torch.dot(v, v)", "torch.dot(v, w)")
add("torch.outer", "v = torch.randn(3)\nw = torch.randn(2)\n", "torch.outer(v, w)")
add("torch.addmm", "m = torch.randn(2, 4)\na = torch.randn(2, 3)\nb = torch.randn(3, 4)\n", "torch.addmm(m, a, b)",
    "torch.addmm(m, b, a)", "torch.addmm(torch.randn(3, 4), a, b)")
add("torch.addmv", "m = torch.randn(2)\na = torch.randn(2, 3)\nv = torch.randn(3)\n", "torch.addmv(m, a, v)",
    "torch.addmv(torch.randn(3), a, v)")
add("torch.baddbmm", "m = torch.randn(5, 2, 4)\na = torch.randn(5, 2, 3)\nb = torch.randn(5, 3, 4)\n",
    "torch.baddbmm(m, a, b)", "torch.baddbmm(m, b, a)")
add("torch.cdist", "a = torch.randn(2, 5, 3)\nb = torch.randn(2, 4, 3)\nc = torch.randn(2, 4, 2)\n", "torch.cdist(a, b)",
    "torch.cdist(a, c)")
add("torch.cross", "a = torch.randn(4, 3)\nb = torch.randn(4, 3)\nc = torch.randn(4, 2)\n", "torch.cross(a, b, dim=1)",
    "torch.cross(c, c, dim=1)")
add("torch.Tensor.__rmatmul__", "a = torch.randn(2, 3)\n", "a.__rmatmul__(torch.randn(4, 2))",
    "a.__rmatmul__(torch.randn(4, 3))")

# ----- nn: activations and other shape-preserving modules -------------------------------------------------------
for _m in ("CELU", "ELU", "GELU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "LeakyReLU", "LogSigmoid",
           "Mish", "PReLU", "RReLU", "ReLU", "ReLU6", "SELU", "SiLU", "Sigmoid", "Softplus", "Softshrink", "Softsign",
           "Tanh", "Tanhshrink", "Identity", "Dropout", "AlphaDropout", "FeatureAlphaDropout"):
    add(f"torch.nn.{_m}", X234, f"nn.{_m}()(x)")
add("torch.nn.Threshold", X234, "nn.Threshold(0.1, 0.0)(x)")
add("torch.nn.PReLU", X234, "nn.PReLU(3)(x)", "nn.PReLU(4)(x)")
add("torch.nn.Softmax", X234, "nn.Softmax(dim=1)(x)", "nn.Softmax(dim=3)(x)")
add("torch.nn.functional.relu", X234, "F.relu(x)")
add("torch.nn.Dropout1d", X234, "nn.Dropout1d()(x)", "nn.Dropout1d()(torch.randn(2, 3, 4, 5))")
add("torch.nn.Dropout2d", "x = torch.randn(2, 3, 4, 5)\n", "nn.Dropout2d()(x)")
add("torch.nn.Dropout3d", "x = torch.randn(2, 3, 4, 5, 6)\n", "nn.Dropout3d()(x)")
add("torch.nn.Flatten", X234, "nn.Flatten()(x)", "nn.Flatten(0, 1)(x)", "nn.Flatten(3)(x)")
add("torch.nn.Unflatten", X234, "nn.Unflatten(2, (2, 2))(x)", "nn.Unflatten(2, (3, 2))(x)")
add("torch.nn.Upsample", X234, "nn.Upsample(scale_factor=2)(x)", "nn.Upsample(size=7)(x)")
add("torch.nn.functional.interpolate", X234, "F.interpolate(x, scale_factor=2)", "F.interpolate(x, size=(3, 3))")
add("torch.nn.PixelShuffle", "x = torch.randn(2, 8, 3, 3)\n", "nn.PixelShuffle(2)(x)", "nn.PixelShuffle(3)(x)")
add("torch.nn.PixelUnshuffle", "x = torch.randn(2, 1, 4, 6)\n", "nn.PixelUnshuffle(2)(x)", "nn.PixelUnshuffle(4)(x)")
add("torch.nn.functional.pixel_shuffle", "x = torch.randn(2, 8, 3, 3)\n", "F.pixel_shuffle(x, 2)", "F.pixel_shuffle(x, 3)")
add("torch.nn.functional.pixel_unshuffle", "x = torch.randn(2, 1, 4, 6)\n", "F.pixel_unshuffle(x, 2)",
    "F.pixel_unshuffle(x, 4)")
add("torch.nn.functional.channel_shuffle", "x = torch.randn(2, 6, 4, 4)\n", "F.channel_shuffle(x, 3)",
    "F.channel_shuffle(x, 4)")
add("torch.nn.CosineSimilarity", "a = torch.randn(4, 5)\nb = torch.randn(4, 5)\nc = torch.randn(3, 5)\n",
    "nn.CosineSimilarity()(a, b)", "nn.CosineSimilarity()(a, c)")
add("torch.nn.functional.cosine_similarity", "a = torch.randn(4, 5)\nb = torch.randn(1, 5)\nc = torch.randn(3, 5)\n",
    "F.cosine_similarity(a, b)", "F.cosine_similarity(a, c)")
add("torch.nn.PairwiseDistance", "a = torch.randn(4, 5)\nb = torch.randn(4, 5)\nc = torch.randn(4, 6)\n",
    "nn.PairwiseDistance()(a, b)", "nn.PairwiseDistance()(a, c)")
add("torch.nn.functional.pairwise_distance", "a = torch.randn(4, 5)\nc = torch.randn(3, 5)\n",
    "F.pairwise_distance(a, c)")
add("torch.nn.functional.normalize", X234, "F.normalize(x, dim=1)", "F.normalize(x, dim=3)")
add("torch.nn.functional.one_hot", "i = torch.tensor([0, 2, 1])\n", "F.one_hot(i, 4)")
add("torch.nn.functional.glu", "x = torch.randn(4, 6)\n", "F.glu(x)", "F.glu(x, 0)")

# ----- nn: linear, embedding, normalization ---------------------------------------------------------------------
add("torch.nn.Linear", X234, "nn.Linear(4, 5)(x)", "nn.Linear(3, 5)(x)")
add("torch.nn.functional.linear", X234 + "w = torch.randn(5, 4)\nv = torch.randn(5, 3)\n", "F.linear(x, w)",
    "F.linear(x, v)")
add("torch.nn.Bilinear", "a = torch.randn(3, 4)\nb = torch.randn(3, 5)\n", "nn.Bilinear(4, 5, 6)(a, b)",
    "nn.Bilinear(4, 4, 6)(a, b)")
add("torch.nn.functional.bilinear", "a = torch.randn(3, 4)\nb = torch.randn(3, 5)\nw = torch.randn(6, 4, 5)\n",
    "F.bilinear(a, b, w)", "F.bilinear(b, a, w)")
add("torch.nn.Embedding", "i = torch.tensor([[0, 2], [1, 3]])\n", "nn.Embedding(4, 5)(i)")
add("torch.nn.functional.embedding", "i = torch.tensor([[0, 2], [1, 3]])\nw = torch.randn(4, 5)\n", "F.embedding(i, w)")
add("torch.nn.EmbeddingBag", "i = torch.tensor([[0, 2], [1, 3]])\n", "nn.EmbeddingBag(4, 5)(i)")
for _n, _shape, _bad in ((1, "(2, 3, 4)", "(2, 4, 4)"), (2, "(2, 3, 4, 4)", "(2, 4, 4, 4)"),
                         (3, "(2, 3, 4, 4, 4)", "(2, 4, 4, 4, 4)")):
    add(f"torch.nn.BatchNorm{_n}d", f"x = torch.randn{_shape}\nz = torch.randn{_bad}\n", f"nn.BatchNorm{_n}d(3)(x)",
        f"nn.BatchNorm{_n}d(3)(z)")
    add(f"torch.nn.InstanceNorm{_n}d", f"x = torch.randn{_shape}\nz = torch.randn{_bad}\n",
        f"nn.InstanceNorm{_n}d(3, affine=True)(x)", f"nn.InstanceNorm{_n}d(3, affine=True)(z)")
add("torch.nn.functional.batch_norm", "x = torch.randn(2, 3, 4)\nm = torch.zeros(3)\nv = torch.ones(3)\nw = torch.zeros(4)\n",
    "F.batch_norm(x, m, v)", "F.batch_norm(x, w, w)")
add("torch.nn.LayerNorm", X234, "nn.LayerNorm(4)(x)", "nn.LayerNorm([3, 4])(x)", "nn.LayerNorm(3)(x)")
add("torch.nn.functional.layer_norm", X234, "F.layer_norm(x, (4,))", "F.layer_norm(x, (3,))")
add("torch.nn.RMSNorm", X234, "nn.RMSNorm(4)(x)", "nn.RMSNorm([3, 4])(x)", "nn.RMSNorm(3)(x)")
add("torch.nn.functional.rms_norm", X234, "F.rms_norm(x, (4,))", "F.rms_norm(x, (3,))")
add("torch.nn.GroupNorm", "x = torch.randn(2, 6, 4)\n", "nn.GroupNorm(3, 6)(x)", "nn.GroupNorm(3, 9)(x)")
add("torch.nn.LocalResponseNorm", "x = torch.randn(2, 6, 4)\n", "nn.LocalResponseNorm(2)(x)",
    "nn.LocalResponseNorm(2)(torch.randn(2, 6))")

# ----- nn: convolution, pooling, padding ---------------------------------------------------------------------------
for _n in (1, 2, 3):
    _sz = ", ".join(["8"] * _n)
    _x = f"x = torch.randn(2, 3, {_sz})\n"
    add(f"torch.nn.Conv{_n}d", _x, f"nn.Conv{_n}d(3, 4, 3)(x)", f"nn.Conv{_n}d(4, 4, 3)(x)", f"nn.Conv{_n}d(3, 4, 9)(x)")
    add(f"torch.nn.ConvTranspose{_n}d", _x, f"nn.ConvTranspose{_n}d(3, 4, 3, stride=2)(x)",
        f"nn.ConvTranspose{_n}d(4, 4, 3)(x)")
    # the layer keeps its size arguments as tuples, one item per spatial dim (torch's `_ntuple`)
    add(f"torch.nn.Conv{_n}d", f"c = nn.Conv{_n}d(3, 4, 3, 2, [1] * {_n}, dilation=2)\n",
        "torch.zeros(*c.kernel_size, *c.stride, *c.padding, *c.dilation)", "torch.zeros(c.stride[0], len(c.padding))")
    add(f"torch.nn.ConvTranspose{_n}d", f"c = nn.ConvTranspose{_n}d(3, 4, 3, 2, output_padding=1)\n",
        "torch.zeros(*c.kernel_size, *c.stride, *c.dilation, *c.output_padding)")
    _w = f"w = torch.randn(4, 3, {', '.join(['3'] * _n)})\n"
    add(f"torch.nn.functional.conv{_n}d", _x + _w, f"F.conv{_n}d(x, w, padding=1)",
        f"F.conv{_n}d(torch.randn(2, 5, {_sz}), w)")
    # dilation and groups given by position (depthwise: a weight of one input channel per group)
    add(f"torch.nn.functional.conv{_n}d", _x, f"F.conv{_n}d(x, torch.randn(6, 1, {', '.join(['3'] * _n)}), None, 1, 1, 2, 3)",
        f"F.conv{_n}d(x, torch.randn(6, 1, {', '.join(['3'] * _n)}), None, 1, 1, 2, 2)",
        f"F.conv{_n}d(x, torch.randn(6, 1, {', '.join(['3'] * _n)}), None, 1, 0, 5, 3)")
    add(f"torch.nn.functional.conv_transpose{_n}d", _x, f"F.conv_transpose{_n}d(x, torch.randn(3, 2, {', '.join(['3'] * _n)}), "
        "None, 2, 0, 1, 3, 1)", f"F.conv_transpose{_n}d(x, torch.randn(3, 2, {', '.join(['3'] * _n)}), None, 1, 0, 0, 3, 2)",
        f"F.conv_transpose{_n}d(x, torch.randn(3, 2, {', '.join(['3'] * _n)}), None, 2, 0, 3, 1, 1)")
    add(f"torch.nn.functional.conv_transpose{_n}d", _x + _w.replace("(4, 3", "(3, 4"),
        f"F.conv_transpose{_n}d(x, w)", f"F.conv_transpose{_n}d(torch.randn(2, 5, {_sz}), w)")
    for _k in ("Max", "Avg"):
        add(f"torch.nn.{_k}Pool{_n}d", _x, f"nn.{_k}Pool{_n}d(2)(x)", f"nn.{_k}Pool{_n}d(9)(x)")
        add(f"torch.nn.functional.{_k.lower()}_pool{_n}d", _x, f"F.{_k.lower()}_pool{_n}d(x, 3, stride=2)",
            f"F.{_k.lower()}_pool{_n}d(x, 9)")
        add(f"torch.nn.Adaptive{_k}Pool{_n}d", _x, f"nn.Adaptive{_k}Pool{_n}d(3)(x)",
            f"nn.Adaptive{_k}Pool{_n}d(3)(torch.randn({', '.join(['2'] * (_n + 3))}))")
        add(f"torch.nn.functional.adaptive_{_k.lower()}_pool{_n}d", _x, f"F.adaptive_{_k.lower()}_pool{_n}d(x, 2)",
            # to size 1, an average pool of 2-D or 3-D is a mean over the last dims: any rank from n (or n + 1)
            f"F.adaptive_{_k.lower()}_pool{_n}d(torch.randn({', '.join(['2'] * _n)}), 1)",
            f"F.adaptive_{_k.lower()}_pool{_n}d(torch.randn({', '.join(['2'] * _n)}), {(1,) * _n})",
            f"F.adaptive_{_k.lower()}_pool{_n}d(torch.randn({', '.join(['2'] * (_n + 3))}), {(1,) * _n})")
    for _p in ("Zero", "Constant", "Reflection", "Replication", "Circular"):
        _arg = "2, 0.5" if _p == "Constant" else "2"
        add(f"torch.nn.{_p}Pad{_n}d", _x, f"nn.{_p}Pad{_n}d({_arg})(x)", f"nn.{_p}Pad{_n}d({_arg.replace('2', '9', 1)})(x)")
add("torch.nn.functional.pad", X234, "F.pad(x, (1, 2))", "F.pad(x, (1, 2, 3, 4, 5, 6, 7, 8))",
    "F.pad(x, (4, 4), mode='reflect')")
add("torch.nn.Fold", "x = torch.randn(2, 27, 36)\n", "nn.Fold((8, 8), 3)(x)", "nn.Fold((8, 8), 3)(torch.randn(2, 27, 30))")
add("torch.nn.Unfold", "x = torch.randn(2, 3, 8, 8)\n", "nn.Unfold(3)(x)", "nn.Unfold(9)(x)")
add("torch.nn.functional.fold", "x = torch.randn(2, 27, 36)\n", "F.fold(x, (8, 8), 3)")
add("torch.nn.functional.unfold", "x = torch.randn(2, 3, 8, 8)\n", "F.unfold(x, 3)")
add("torch.nn.ChannelShuffle", "x = torch.randn(2, 6, 4, 4)\n", "nn.ChannelShuffle(2)(x)")
add("torch.nn.GLU", "x = torch.randn(4, 6)\n", "nn.GLU()(x)", "nn.GLU(0)(x)")
add("torch.nn.Softmax2d", "x = torch.randn(2, 3, 4, 4)\n", "nn.Softmax2d()(x)")
add("torch.nn.functional.grid_sample", "x = torch.randn(2, 3, 8, 8)\ng = torch.randn(2, 5, 6, 2)\n",
    "F.grid_sample(x, g, align_corners=False)")
add("torch.nn.functional.affine_grid", "t = torch.randn(2, 2, 3)\n", "F.affine_grid(t, [2, 3, 7, 9], align_corners=False)")
add("torch.nn.functional.group_norm", "x = torch.randn(2, 6, 4)\n", "F.group_norm(x, 3)", "F.group_norm(x, 4)")
add("torch.nn.functional.instance_norm", "x = torch.randn(2, 6, 4)\n", "F.instance_norm(x)")
add("torch.nn.functional.local_response_norm", "x = torch.randn(2, 6, 4)\n", "F.local_response_norm(x, 2)")

# ----- nn: losses ---------------------------------------------------------------------------------------------
_PAIR = "a = torch.rand(4, 5)\nb = torch.rand(4, 5)\nc = torch.rand(4, 6)\n"
for _cls, _fn in (("L1Loss", "l1_loss"), ("MSELoss", "mse_loss"), ("SmoothL1Loss", "smooth_l1_loss"),
                  ("HuberLoss", "huber_loss"), ("SoftMarginLoss", "soft_margin_loss"), ("KLDivLoss", "kl_div"),
                  ("BCELoss", "binary_cross_entropy"), ("BCEWithLogitsLoss", "binary_cross_entropy_with_logits"),
                  ("PoissonNLLLoss", "poisson_nll_loss")):
    add(f"torch.nn.{_cls}", _PAIR, f"nn.{_cls}()(a, b)", f"nn.{_cls}()(a, c)")
    add(f"torch.nn.functional.{_fn}", _PAIR, f"F.{_fn}(a, b, reduction='none')", f"F.{_fn}(a, c)")
_CLS = "x = torch.randn(4, 5)\nt = torch.tensor([0, 1, 2, 3])\nu = torch.tensor([0, 1, 2])\n"
add("torch.nn.CrossEntropyLoss", _CLS, "nn.CrossEntropyLoss()(x, t)", "nn.CrossEntropyLoss()(x, u)")
add("torch.nn.functional.cross_entropy", _CLS, "F.cross_entropy(x, t, reduction='none')", "F.cross_entropy(x, u)")
# values (stop 35): BCE's targets are probabilities; zeros, ones and whole-number fills keep their values in
# any dtype, through `cat` and the casts that make labels of them
_PROB = "p = torch.rand(4, 1)\nx = torch.randn(4, 2)\n"
add("torch.nn.BCELoss", _PROB, "nn.BCELoss()(p, torch.ones(4, 1))", "nn.BCELoss()(p, torch.ones(4, 1) + 1)",
    "nn.BCELoss()(p, torch.full((4, 1), 2.0))")
add("torch.nn.functional.binary_cross_entropy", _PROB, "F.binary_cross_entropy(p, torch.zeros(4, 1))",
    "F.binary_cross_entropy(p, torch.zeros(4, 1) - 1)",
    "F.binary_cross_entropy(p, torch.cat((torch.zeros(2, 1), torch.ones(2, 1))) * 2)")
add("torch.nn.functional.binary_cross_entropy_with_logits", _PROB,
    "F.binary_cross_entropy_with_logits(p, torch.ones(4, 1) + 1)")
add("torch.zeros", _PROB, "F.cross_entropy(x, torch.zeros(4).long() + 1)", "F.cross_entropy(x, torch.zeros(4).long() + 2)")
add("torch.ones", _PROB, "F.cross_entropy(x, torch.ones(4).type(torch.LongTensor))",
    "F.cross_entropy(x, torch.ones(4).type(torch.LongTensor) + 1)", "nn.Embedding(3, 2)(torch.ones(4, dtype=torch.long) * 3)")
add("torch.full", _PROB, "F.cross_entropy(x, torch.full((4,), 1.0).long())",
    "F.cross_entropy(x, torch.full((4,), 2.0).long())", "torch.full((4,), 0.5).long() + torch.zeros(4)")
add("torch.cat", _PROB, "F.cross_entropy(x, torch.cat((torch.zeros(2), torch.ones(2))).long())",
    "F.cross_entropy(x, torch.cat((torch.zeros(2), torch.ones(2))).long() + 1)")
add("numpy.eye", "ids = [0, 2, 1]\n", "torch.FloatTensor(np.eye(4)[ids])", "torch.from_numpy(np.eye(4, 3)).view(12)",
    "nn.Linear(4, 2)(torch.from_numpy(np.eye(4, dtype=np.float32)))", "nn.Linear(3, 2)(torch.FloatTensor(np.eye(4)))",
    "torch.from_numpy(np.eye(3)[ids]).view(4, 2)")
add("numpy.identity", "", "torch.from_numpy(np.identity(3)).view(9)", "torch.from_numpy(np.identity(3)).view(8)")
add("torch.nn.NLLLoss", _CLS, "nn.NLLLoss()(x, t)", "nn.NLLLoss()(x, u)")
add("torch.nn.functional.nll_loss", _CLS, "F.nll_loss(x, t, reduction='none')", "F.nll_loss(x, u)")
add("torch.nn.MultiMarginLoss", _CLS, "nn.MultiMarginLoss()(x, t)", "nn.MultiMarginLoss()(x, u)")
add("torch.nn.MultiLabelSoftMarginLoss", _PAIR, "nn.MultiLabelSoftMarginLoss()(a, b)",
    "nn.MultiLabelSoftMarginLoss()(a, c)")
add("torch.nn.HingeEmbeddingLoss", _PAIR, "nn.HingeEmbeddingLoss()(a, b)", "nn.HingeEmbeddingLoss()(a, c)")
add("torch.nn.MarginRankingLoss", "a = torch.randn(4)\nt = torch.ones(4)\nb = torch.randn(3)\n",
    "nn.MarginRankingLoss()(a, a, t)", "nn.MarginRankingLoss()(a, b, t)")
add("torch.nn.CosineEmbeddingLoss", _PAIR + "t = torch.ones(4)\n", "nn.CosineEmbeddingLoss()(a, b, t)",
    "nn.CosineEmbeddingLoss()(a, c, t)")
add("torch.nn.TripletMarginLoss", _PAIR, "nn.TripletMarginLoss()(a, b, b)", "nn.TripletMarginLoss()(a, b, c)")
add("torch.nn.TripletMarginWithDistanceLoss", _PAIR, "nn.TripletMarginWithDistanceLoss()(a, b, b)",
    "nn.TripletMarginWithDistanceLoss()(a, b, c)")
add("torch.nn.functional.triplet_margin_with_distance_loss", _PAIR,
    "F.triplet_margin_with_distance_loss(a, b, b, reduction='none')", "F.triplet_margin_with_distance_loss(a, b, c)")
add("torch.nn.functional.triplet_margin_loss", _PAIR, "F.triplet_margin_loss(a, b, c)")
add("torch.nn.functional.cosine_embedding_loss", _PAIR + "t = torch.ones(4)\n", "F.cosine_embedding_loss(a, c, t)")
add("torch.nn.functional.margin_ranking_loss", "a = torch.randn(4)\nt = torch.ones(4)\n",
    "F.margin_ranking_loss(a, a, t)")
add("torch.nn.functional.hinge_embedding_loss", _PAIR, "F.hinge_embedding_loss(a, c)")
add("torch.nn.functional.multi_margin_loss", _CLS, "F.multi_margin_loss(x, u)")
add("torch.nn.functional.multilabel_soft_margin_loss", _PAIR, "F.multilabel_soft_margin_loss(a, c)")
_CTC = ("lp = torch.randn(50, 16, 20).log_softmax(2)\nt = torch.randint(1, 20, (16, 30))\n"
        "il = torch.full((16,), 50)\ntl = torch.randint(10, 30, (16,))\nbad = torch.full((15,), 50)\n")
add("torch.nn.CTCLoss", _CTC, "nn.CTCLoss()(lp, t, il, tl)", "nn.CTCLoss()(lp, t, bad, tl)")
add("torch.nn.functional.ctc_loss", _CTC, "F.ctc_loss(lp, t, il, tl, reduction='none')", "F.ctc_loss(lp, t, il, bad)")

# ----- nn: recurrent, attention, transformer, containers ----------------------------------------------------------
_SEQ = "x = torch.randn(5, 2, 4)\n"
for _r in ("RNN", "LSTM", "GRU"):
    add(f"torch.nn.{_r}", _SEQ, f"nn.{_r}(4, 6)(x)[0]", f"nn.{_r}(3, 6)(x)[0]", f"nn.{_r}(4, 6, batch_first=True)(x)[0]")
    add(f"torch.nn.{_r}Cell", "x = torch.randn(2, 4)\n", f"nn.{_r}Cell(4, 6)(x)", f"nn.{_r}Cell(3, 6)(x)")
add("torch.nn.MultiheadAttention", "q = torch.randn(5, 2, 8)\nk = torch.randn(7, 2, 8)\n",
    "nn.MultiheadAttention(8, 2)(q, k, k)[0]", "nn.MultiheadAttention(8, 3)(q, k, k)[0]",
    "nn.MultiheadAttention(6, 2)(q, k, k)[0]")
add("torch.nn.functional.scaled_dot_product_attention", "q = torch.randn(2, 3, 5, 8)\nk = torch.randn(2, 3, 7, 8)\n",
    "F.scaled_dot_product_attention(q, k, k)", "F.scaled_dot_product_attention(q, torch.randn(2, 3, 7, 6), k)")
add("torch.nn.TransformerEncoderLayer", "x = torch.randn(5, 2, 8)\n", "nn.TransformerEncoderLayer(8, 2, 16)(x)",
    "nn.TransformerEncoderLayer(6, 2, 16)(x)")
add("torch.nn.TransformerEncoder", "x = torch.randn(5, 2, 8)\n",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, enable_nested_tensor=False)(x)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(6, 2, 16), 2, enable_nested_tensor=False)(x)")
add("torch.nn.TransformerDecoderLayer", "x = torch.randn(5, 2, 8)\nm = torch.randn(7, 2, 8)\n",
    "nn.TransformerDecoderLayer(8, 2, 16)(x, m)", "nn.TransformerDecoderLayer(8, 2, 16)(x, torch.randn(7, 2, 6))")
add("torch.nn.TransformerDecoder", "x = torch.randn(5, 2, 8)\nm = torch.randn(7, 2, 8)\n",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2)(x, m)",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(6, 2, 16), 2)(x, m)")
add("torch.nn.Sequential", X234, "nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))(x)",
    "nn.Sequential(nn.Linear(4, 5), nn.Linear(4, 2))(x)")
add("torch.nn.ModuleList", X234, "nn.ModuleList([nn.Linear(4, 5), nn.Linear(5, 2)])[1](torch.randn(3, 5))",
    "nn.ModuleList([nn.Linear(4, 5)])[0](torch.randn(3, 5))")
add("torch.nn.ModuleDict", X234, "nn.ModuleDict({'p': nn.Linear(4, 5)})['p'](x)",
    "nn.ModuleDict({'p': nn.Linear(3, 5)})['p'](x)")
add("torch.nn.Module", ("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                        "        self.fc = nn.Linear(4, 2)\n    def forward(self, x):\n        return self.fc(x)\n" + X234),
    "M()(x)", "M()(x) @ torch.randn(3, 1)")
add("torch.nn.Parameter", "p = nn.Parameter(torch.randn(3, 4))\n", "p @ torch.randn(4, 2)", "p @ torch.randn(3, 2)")

# ----- nn.init, rnn utils -------------------------------------------------------------------------------------------
add("torch.nn.init.uniform_", "w = torch.empty(3, 5)\n", "nn.init.uniform_(w)")
add("torch.nn.init.xavier_uniform_", "w = torch.empty(3, 5)\n", "nn.init.xavier_uniform_(w)",
    "nn.init.xavier_uniform_(torch.empty(5))")
add("torch.nn.init.eye_", "w = torch.empty(3, 5)\n", "nn.init.eye_(w)", "nn.init.eye_(torch.empty(3, 5, 2))")
add("torch.nn.init.dirac_", "w = torch.empty(4, 4, 3)\n", "nn.init.dirac_(w)", "nn.init.dirac_(torch.empty(4, 4))")
add("torch.nn.init.orthogonal_", "w = torch.empty(3, 5)\n", "nn.init.orthogonal_(w)", "nn.init.orthogonal_(torch.empty(5))")
add("torch.nn.init._calculate_fan_in_and_fan_out", "w = torch.empty(3, 5)\n",
    "torch.zeros(nn.init._calculate_fan_in_and_fan_out(w)[0])", "nn.init._calculate_fan_in_and_fan_out(torch.empty(5))")
add("torch.nn.init.calculate_gain", "", "torch.zeros(int(nn.init.calculate_gain('relu')))")
_RNNU = "from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pack_sequence, pad_packed_sequence\n"
add("torch.nn.utils.rnn.pad_sequence", _RNNU + "a = torch.randn(5, 3)\nb = torch.randn(2, 3)\nc = torch.randn(2, 4)\n",
    "pad_sequence([a, b])", "pad_sequence([a, b], batch_first=True)", "pad_sequence([a, c])")
add("torch.nn.utils.rnn.pack_padded_sequence", _RNNU + "x = torch.randn(5, 2, 3)\n",
    "pack_padded_sequence(x, [5, 3])[0]", "pack_padded_sequence(x, [5, 3, 2])[0]", "pack_padded_sequence(x, [5])[0]",
    "pad_packed_sequence(pack_padded_sequence(x, [4], enforce_sorted=False))[0]",  # rows picked by the sort order
    "pack_padded_sequence(x, [5, 3, 2], enforce_sorted=False)[0]")
add("torch.nn.utils.rnn.pack_sequence", _RNNU + "a = torch.randn(5, 3)\nb = torch.randn(2, 3)\n",
    "pack_sequence([a, b])[0]")
add("torch.nn.utils.rnn.pad_packed_sequence", _RNNU + "p = pack_sequence([torch.randn(5, 3), torch.randn(2, 3)])\n",
    "pad_packed_sequence(p)[0]", "pad_packed_sequence(p, batch_first=True)[0]")
add("torch.nn.utils.rnn.PackedSequence", _RNNU + "p = pack_sequence([torch.randn(5, 3), torch.randn(2, 3)])\n",
    "nn.LSTM(3, 4)(p)[0].data", "nn.LSTM(2, 4)(p)[0].data")

# ----- data ---------------------------------------------------------------------------------------------------------
_DATA = ("from torch.utils.data import Dataset, DataLoader, TensorDataset, Subset, ConcatDataset, random_split\n"
         "ds = TensorDataset(torch.randn(10, 3), torch.randint(0, 2, (10,)))\n")
add("torch.utils.data.TensorDataset", _DATA, "ds[0][0]", "TensorDataset(torch.randn(10, 3), torch.randn(9))")
add("torch.utils.data.DataLoader", _DATA, "next(iter(DataLoader(ds, batch_size=4)))[0]")
add("torch.utils.data.Subset", _DATA, "Subset(ds, [0, 1])[1][0]")
add("torch.utils.data.ConcatDataset", _DATA, "ConcatDataset([ds, ds])[15][0]")
add("torch.utils.data.random_split", _DATA, "random_split(ds, [7, 3])[0][0][0]")
add("torch.utils.data.Dataset", _DATA + ("class D(Dataset):\n    def __len__(self):\n        return 4\n"
                                         "    def __getitem__(self, i):\n        return torch.zeros(2, 5)\n"),
    "next(iter(DataLoader(D(), batch_size=2)))", "next(iter(DataLoader(D(), batch_size=2))) @ torch.randn(4, 1)")

# ----- einops -------------------------------------------------------------------------------------------------------
_E = "from einops import rearrange, repeat, reduce, pack, unpack, parse_shape\nfrom einops.layers.torch import Rearrange, Reduce\n"
add("einops.rearrange", _E + X234, "rearrange(x, 'b c w -> b (c w)')", "rearrange(x, 'b (h d) w -> b h d w', h=2)")
add("einops.repeat", _E + X23, "repeat(x, 'h w -> h w c', c=5)", "repeat(x, 'h w -> h w c')")
add("einops.reduce", _E + X234, "reduce(x, 'b c w -> b c', 'mean')", "reduce(x, 'b c (w w2) -> b c w', 'max', w2=3)")
add("einops.einsum", _E + "a = torch.randn(2, 3)\nb = torch.randn(3, 4)\nc = torch.randn(4, 4)\n",
    "einops.einsum(a, b, 'i j, j k -> i k')", "einops.einsum(a, c, 'i j, j k -> i k')")
add("einops.pack", _E + "a = torch.randn(2, 5)\nb = torch.randn(2, 3, 5)\n", "pack([a, b], 'b * c')[0]",
    "pack([a, torch.randn(2, 3, 4)], 'b * c')[0]")
add("einops.unpack", _E + "p = torch.randn(2, 13, 5)\n", "unpack(p, [(), (3, 4)], 'b * c')[1]",
    "unpack(p, [(), (3, 5)], 'b * c')[1]")
add("einops.parse_shape", _E + X234, "torch.zeros(parse_shape(x, 'b c w')['w'])", "parse_shape(x, 'b c')")
add("einops.layers.torch.Rearrange", _E + X234, "Rearrange('b c w -> b w c')(x)", "Rearrange('b c -> c b')(x)")
add("einops.layers.torch.Reduce", _E + X234, "Reduce('b c w -> b c', 'max')(x)", "Reduce('b c (w k) -> b c w', 'max', k=3)(x)")

# ----- numpy ---------------------------------------------------------------------------------------------------------
A23 = "a = np.random.rand(2, 3)\n"
add("numpy.arange", "", "np.arange(6).reshape(2, 3)", "np.arange(6).reshape(4, 2)")
add("numpy.percentile", "a = np.zeros((4, 6))\n", "np.percentile(a, [10, 90], axis=1).reshape(8)",
    "np.percentile(a, [10, 90], axis=1).reshape(7)", "np.percentile(a, 50, axis=0).reshape(6)",
    "np.quantile(a, 0.5, axis=0).reshape(4)", "np.zeros(int(np.percentile((np.array([3]), np.array([5])), 100)))")
add("numpy.median", "a = np.zeros((4, 6))\n", "np.median(a, axis=1).reshape(4)", "np.median(a, axis=1).reshape(6)",
    "np.nanmedian(a, axis=0, keepdims=True).reshape(1, 6)")
add("numpy.newaxis", A23, "a[np.newaxis].reshape(1, 6)", "a[:, np.newaxis].reshape(6)", "a[np.newaxis].reshape(7)")
add("numpy.ndarray.__len__", A23, "np.zeros(len(a)).reshape(2, 1)", "np.zeros(len(a)).reshape(3, 1)")
add("numpy.where", A23 + "b = np.random.rand(3)\n", "np.where(a > 0.5, a, b)", "np.where(a > 0.5, 1.0, 0.0).reshape(3, 2)",
    "np.where(a > 0.5, a, np.zeros(2))", "np.where(a > 0.5)[1] + np.zeros((2, 3)).sum()")
add("numpy.array", "", "np.array([[1, 2, 3], [4, 5, 6]]).reshape(3, 2)", "np.array([[1, 2, 3]]).reshape(2, 2)")
add("numpy.concatenate", A23 + "b = np.random.rand(4, 3)\n", "np.concatenate([a, b])", "np.concatenate([a, b], axis=1)")
add("numpy.stack", A23 + "b = np.random.rand(2, 3)\nc = np.random.rand(3, 3)\n", "np.stack([a, b], 1)", "np.stack([a, c])")
add("numpy.hstack", A23 + "b = np.random.rand(2, 5)\nc = np.random.rand(3, 3)\n", "np.hstack([a, b])", "np.hstack([a, c])")
add("numpy.vstack", A23 + "b = np.random.rand(4, 3)\nc = np.random.rand(2, 4)\n", "np.vstack([a, b])", "np.vstack([a, c])")
add("numpy.expand_dims", A23, "np.expand_dims(a, 1)", "np.expand_dims(a, 3)")
add("numpy.full", "", "np.full((2, 3), 7.0)")
add("numpy.linspace", "", "np.linspace(0, 1, 7)")
add("numpy.mean", A23, "np.mean(a, axis=1)", "np.mean(a, axis=2)")
add("numpy.sum", A23, "np.sum(a, axis=0)", "np.sum(a, axis=2)", "np.zeros(np.sum(3)).reshape(2)")
add("numpy.prod", A23, "np.prod(a, axis=1)", "np.prod(a, axis=2)", "np.zeros(np.prod((2, 3))).reshape(3, 2)",
    "np.zeros(np.prod((2, 3))).reshape(5)", "np.zeros(np.prod(3)).reshape(3)",
    "np.zeros(np.prod(3)).reshape(2)")
add("numpy.max", A23, "np.max(a, axis=0)", "np.zeros(np.max((2, 3))).reshape(3)", "np.zeros(np.max([2, 3])).reshape(2)")
add("numpy.min", A23, "np.min(a, axis=1)", "np.zeros(np.min((2, 3))).reshape(2)", "np.zeros(np.min([2, 3])).reshape(3)")
_TUPLES = "from torch.nn.modules.utils import _single, _pair, _triple, _quadruple, _ntuple\nx = torch.randn(2, 3, 8, 8)\n"
add("torch.nn.modules.utils._pair", _TUPLES, "torch.nn.Conv2d(3, 4, _pair(3), padding=_pair(1))(x).view(2, 4, 8, 8)",
    "torch.nn.Conv2d(3, 4, _pair((3, 1)))(x).view(2, 4, 6, 8)", "torch.nn.Conv2d(3, 4, _pair(3))(x).view(2, 4, 8, 8)")
add("torch.nn.modules.utils._single", _TUPLES, "torch.zeros(_single(5)).view(5)", "torch.zeros(_single([2, 3])).view(5)")
add("torch.nn.modules.utils._triple", _TUPLES, "torch.zeros(_triple(2)).view(8)", "torch.zeros(_triple(2)).view(6)")
add("torch.nn.modules.utils._quadruple", _TUPLES, "torch.nn.functional.pad(x, _quadruple(1)).view(2, 3, 10, 10)",
    "torch.nn.functional.pad(x, _quadruple(1)).view(2, 3, 8, 8)")
add("torch.nn.modules.utils._ntuple", _TUPLES, "torch.zeros(_ntuple(3)(2)).view(8)", "torch.zeros(_ntuple(2)(3)).view(5)")
add("numpy.meshgrid", "x = np.arange(3, dtype=np.float32)\ny = np.arange(5)\nz = np.zeros((2, 2))\n",
    "np.stack(np.meshgrid(x, y), axis=0).reshape(2, 5, 3)", "np.meshgrid(x, y)[0] @ np.zeros((5, 2))",
    "np.meshgrid(x, y, z, indexing='ij')[2].reshape(3, 5, 4)", "np.meshgrid(x, y, sparse=True)[1] + np.zeros((5, 3))",
    "np.meshgrid(x, y, sparse=True)[0] + np.zeros((5, 2))")
add("numpy.loadtxt", "import os\nimport tempfile\np = os.path.join(tempfile.mkdtemp(), 't.csv')\n"
    "open(p, 'w').write('1,2,3\\n4,5,6\\n')\n",
    "np.loadtxt(p, delimiter=',').transpose(1, 0)", "np.swapaxes(np.loadtxt(p, delimiter=','), 0, 2)",
    "torch.from_numpy(np.loadtxt(p, delimiter=',', dtype=np.float32)) @ torch.randn(3, 2)",
    "torch.from_numpy(np.loadtxt(p, delimiter=',', usecols=(0, 2), unpack=True)).view(2, -1)")
add("numpy.argmax", A23, "np.argmax(a, axis=1)", "np.argmax(a, axis=2)")
add("numpy.ndarray.astype", A23, "a.astype(np.float32).reshape(3, 2)", "a.astype(np.int64).reshape(4, 2)")
add("numpy.ndarray.copy", A23, "a.copy().reshape(6)", "a.copy().reshape(4)")
add("numpy.ndarray.reshape", A23, "a.reshape(3, 2)", "a.reshape(-1, 4)")
add("numpy.ndarray.size", A23, "np.zeros(a.size)")
add("numpy.reshape", A23, "np.reshape(a, (3, 2))", "np.reshape(a, (4, -1))")
add("numpy.squeeze", "a = np.random.rand(2, 1, 3)\n", "np.squeeze(a)", "np.squeeze(a, 1)", "np.squeeze(a, 0)")
add("numpy.ravel", A23, "np.ravel(a).reshape(3, 2)", "np.ravel(a).reshape(4, 2)")
add("numpy.swapaxes", A23, "np.swapaxes(a, 0, 1)", "np.swapaxes(a, 0, 2)")
add("numpy.transpose", A23, "np.transpose(a)", "np.transpose(a, (1, 0))", "np.transpose(a, (1, 0, 2))")
add("numpy.zeros", "", "np.zeros((2, 3))", "np.zeros(4)")
add("numpy.zeros_like", A23, "np.zeros_like(a)")
add("numpy.random.normal", "", "np.random.normal(0, 1, (2, 3))")
add("numpy.random.rand", "", "np.random.rand(2, 3)")
add("numpy.random.randint", "", "np.random.randint(0, 5, (2, 3))")
add("numpy.random.random", "", "np.random.random((2, 3))")
add("numpy.random.seed", "np.random.seed(0)\n", "np.random.rand(2, 3)")
add("numpy.random.shuffle", "a = np.arange(6)\nnp.random.shuffle(a)\n", "a.reshape(2, 3)", "a.reshape(4, 2)")

# ----- real-world gaps (issue 12 item 8): legacy constructors, sparse, numpy math, layouts -------------------------
add("torch.Tensor.__new__", "", "torch.Tensor(2, 3)", "torch.Tensor([[1, 2], [3, 4]])", "torch.Tensor(2, 3).t().view(6)",
    "torch.Tensor(3, 1).t().view(3)", "torch.Tensor(2, 3) @ torch.Tensor(2, 3)", "torch.Tensor(torch.Size([4, 5]))",
    "torch.Tensor()", "torch.FloatTensor() + torch.zeros(2)", "torch.Tensor(torch.zeros(2, 3).long()) + torch.zeros(3)",
    "torch.Tensor(np.zeros((2, 3))).view(6)", "torch.Tensor(3) + torch.zeros(4)")
add("torch.FloatTensor", "a = np.random.rand(2, 3)\n", "torch.FloatTensor(a).unsqueeze(0)", "torch.FloatTensor(a) + torch.zeros(3, 2)",
    "torch.FloatTensor(3, 4).normal_().t().view(12)")
add("torch.LongTensor", "", "torch.LongTensor([[0, 1], [1, 0]]).t().view(4)", "torch.LongTensor([[0, 1], [1, 2]]) + torch.zeros(3)")
_SP = "i = torch.tensor([[0, 1, 2, 2], [1, 0, 2, 0]])\nv = torch.rand(4)\n"
add("torch.sparse_coo_tensor", _SP, "torch.sparse_coo_tensor(i, v, (3, 3))", "torch.sparse_coo_tensor(i, torch.rand(4, 2), (3, 3, 2))",
    "torch.sparse_coo_tensor(i, torch.rand(5), (3, 3))", "torch.sparse_coo_tensor(i, v, (3, 3, 2))",
    "torch.sparse_coo_tensor(i, v, (3, 3)).coalesce().to_dense()")
add("torch.spmm", _SP + "a = torch.sparse_coo_tensor(i, v, (3, 3))\n", "torch.spmm(a, torch.rand(3, 5))",
    "torch.sparse.mm(a.t(), torch.rand(3, 5))", "torch.spmm(a, torch.rand(4, 5))", "torch.sparse.mm(a, torch.rand(2, 5))")
add("torch.index_add", "x = torch.zeros(5, 3)\ni = torch.tensor([0, 1, 1, 4])\n", "x.index_add_(0, i, torch.ones(4, 3))",
    "x.index_add_(1, i, torch.ones(4, 3))", "x.index_add(0, i, torch.ones(4, 2))", "torch.index_add(x, 0, i, torch.ones(3, 3))",
    "x.index_copy_(0, torch.tensor([0, 2]), torch.ones(2, 3))", "x.index_add_(0, i.view(2, 2), torch.ones(4, 3))")
add("torch.topk", "x = torch.randn(4, 5, 6).transpose(0, 1)\n", "torch.topk(x, 2, dim=0)[0].view(-1)",
    "x.topk(3, dim=2)[1].view(60)", "x.sort(dim=1)[0].reshape(-1)")
add("torch.gt", "x = torch.randn(4, 5).t()\n", "torch.gt(x, x).view(-1)", "(x > 0).view(-1)", "(x == x).t().view(-1)",
    "torch.gt(x, x.contiguous()).reshape(-1)")
add("torch.nn.InstanceNorm2d", "x = torch.randn(2, 4, 1, 1)\n", "nn.InstanceNorm2d(4)(x)", "nn.InstanceNorm2d(4).eval()(x)",
    "nn.InstanceNorm2d(4, track_running_stats=True).eval()(x)", "nn.InstanceNorm2d(4)(torch.randn(2, 4, 2, 1))",
    "nn.InstanceNorm2d(4)(torch.randn(4, 1, 1))", "nn.InstanceNorm2d(4, affine=True)(torch.randn(4, 3, 3))")
add("torch.nn.InstanceNorm1d", "x = torch.randn(2, 4, 1)\n", "nn.InstanceNorm1d(4)(x)", "nn.InstanceNorm1d(4)(torch.randn(2, 4, 3))",
    "nn.InstanceNorm1d(4, 1e-5, 0.1, False, True).eval()(x)")
add("torch.nn.functional.instance_norm", "x = torch.randn(2, 4, 1, 1)\n", "F.instance_norm(x)",
    "F.instance_norm(torch.randn(2, 4, 2, 2))", "F.instance_norm(x, use_input_stats=False, running_mean=torch.zeros(4), "
    "running_var=torch.ones(4))")
add("torch.nn.BatchNorm1d", "x = torch.randn(1, 8)\n", "nn.BatchNorm1d(8)(x)", "nn.BatchNorm1d(8).eval()(x)",
    "nn.BatchNorm1d(8)(torch.randn(1, 8, 3))")
add("torch.Tensor.tolist", "x = torch.randint(0, 5, (2,))\n", "torch.tensor([x.tolist(), x.tolist()])",
    "torch.tensor(torch.rand(2, 3).tolist()) + torch.zeros(4)")
for _u in UFUNCS:
    _arr = "np.random.rand(2, 3) > 0.5" if _u == "logical_not" else "np.random.rand(2, 3) * 0.5 + 1.0"
    add(f"numpy.{_u}", f"a = {_arr}\n", f"np.{_u}(a)", f"np.{_u}(a).reshape(6)", f"np.{_u}(a).reshape(4)")
add("numpy.sin", "", "np.array([np.sin(0.5), np.cos(2)]).reshape(2, 1)", "np.array([np.power(10000, 0.25)] * 3).reshape(2)",
    "torch.tensor([np.exp(1.0), 2.0 / np.sqrt(3)]) + torch.zeros(3)")
add("numpy.cumsum", A23, "np.cumsum(a)", "np.cumsum(a, axis=1)", "np.cumsum(a).reshape(2, 3)", "np.cumsum(a, axis=2)",
    "a.cumprod(0)", "np.cumprod(a).reshape(3, 3)")
add("numpy.append", A23, "np.append(a, a)", "np.append(a, [[1.0, 2.0, 3.0]], axis=0)", "np.append(a, np.zeros((2, 1)), axis=1)",
    "np.append(a, np.zeros((2, 2)), axis=0)", "np.append(a, 5.0).reshape(7)")
add("numpy.clip", A23, "np.clip(a, 0, 1)", "np.clip(a, 0.2, 0.8).reshape(6)", "a.clip(0, 1).reshape(4)",
    "np.clip(a, np.zeros(3), 1.0)", "np.clip(a, np.zeros(2), 1.0)", "np.clip(np.arange(6), 0, 3).reshape(2, 3)",
    "np.clip(a, a_min=0, a_max=np.ones((4, 1, 3)))", "np.clip(np.arange(6), 0.5, 3).reshape(2, 4)")
add("numpy.ndarray.round", A23, "a.round().reshape(6)", "a.round(2).reshape(3, 2)", "a.round(1).reshape(4)")
add("torch.Tensor.__getitem__", "x = torch.randn(4, 10)\ny = torch.randint(0, 10, (4,))\n", "x[range(4), y].view(4)",
    "x[range(len(x)), y].view(2, 2)", "x[range(5), y]", "x[range(5)]", "x[range(1, 4)].view(30)",
    "x[range(len(x))].view(3, 10)", "x[:, range(0, 10, 3)].view(16)")
add("torch.fill", "x = torch.zeros(4, 3)\n", "torch.fill(x, 1).view(12)", "torch.fill(x, 2.5).view(3, 4)",
    "torch.fill(x, 1).view(5)")
_FUNCTION = ("class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a, k):\n"
             "        ctx.save_for_backward(a)\n        ctx.k = k\n        return (a * k)[:, :2]\n"
             "    @staticmethod\n    def backward(ctx, g):\n        return g, None\n"
             "class Nc(torch.autograd.Function):\n    @staticmethod\n    def forward(a):\n        return a.t()\n"
             "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        ctx.mark_non_differentiable(output)\n"
             "x = torch.randn(4, 3)\n")
add("torch.autograd.Function", _FUNCTION, "Sq.apply(x, 2) @ torch.randn(2, 5)", "Sq.apply(x, 2) @ torch.randn(3, 5)",
    "Nc.apply(x) @ torch.randn(4, 2)", "Nc.apply(x) @ torch.randn(3, 2)")
add("torch.autograd.function.FunctionCtx", _FUNCTION, "Sq.apply(x.view(3, 4), 1).view(6)")
add("torch.autograd.grad", "x = torch.randn(2, 3, requires_grad=True)\nw = torch.randn(3, requires_grad=True)\n",
    "torch.autograd.grad((x * 2).sum(), x)[0].view(6)", "torch.autograd.grad((x * w).sum(), [x, w])[1].view(3)",
    "torch.autograd.grad((x * w).sum(), (x, w))[0].view(3)")
add("numpy.einsum", A23 + "b = np.random.rand(3, 4)\n", "np.einsum('ij,jk->ik', a, b)", "np.einsum('ij,jk->ik', a, a)",
    "np.einsum('ij->j', a)")
add("numpy.random.choice", "", "np.random.choice(10, 4)", "np.random.choice(10, (2, 3))", "np.random.choice(5, 3, replace=False)",
    "np.random.choice(np.arange(6), 2).reshape(2, 1)", "np.random.choice(3, 5, replace=False)",
    "np.zeros(3)[np.random.choice(3)] + np.zeros(2)")
add("numpy.random.permutation", "", "np.random.permutation(7)", "np.random.permutation(np.zeros((3, 2)))",
    "np.random.permutation(7).reshape(2, 3)")
add("numpy.power", "", "np.array([np.power(2, 3), np.power(10000, 0.5)]).reshape(2, 1)")
for _d, (_at, _k) in DISTRIBUTIONS.items():
    _params = {"binomial": "10, 0.5", "beta": "2.0, 3.0", "gamma": "2.0, 1.0", "laplace": "0.0, 1.0", "lognormal": "0.0, 1.0",
               "geometric": "0.5", "logistic": "0.0, 1.0", "gumbel": "0.0, 1.0", "exponential": "1.0",
               "poisson": "3.0"}.get(_d, "")
    _sep = ", " if _params else ""
    add(f"numpy.random.{_d}", "", f"np.random.{_d}({_params}{_sep}size=(2, 3))",
        f"np.random.{_d}({_params}{_sep}size=(2, 3)).reshape(7)", f"np.zeros(3) + np.random.{_d}({_params})")
_LC = "rows = [[float(j) for j in range(30)] for p in range(40)]\n"
add("numpy.array", _LC, "np.array(rows).reshape(1200)", "np.array(rows).reshape(30, 40)", "np.array(rows)[:, 0::2]",
    "np.array([r for r in rows if r[1] > 0.5]).reshape(-1, 30)", "torch.tensor(rows) + torch.zeros(40, 1)",
    "torch.tensor(rows) + torch.zeros(30, 1)")

add("numpy.stack", "rows = [np.zeros(5) + i for i in range(40)]\n", "np.stack(rows).reshape(200)", "np.stack(rows).reshape(7)",
    "np.stack(rows, 1).reshape(5, 40)")
add("torch.stack", "rows = [torch.zeros(3) for _ in range(50)]\n", "torch.stack(rows).view(150)", "torch.stack(rows).view(149)",
    "torch.stack([r for r in rows if r.sum() > 0] + rows[:1]).view(-1, 3)", "torch.stack(rows, 1).view(3, 50)")
_LOOP = "xs = []\nfor i in range(30):\n    xs.append(torch.zeros(2, 3) + i)\n"
add("torch.cat", _LOOP, "torch.cat(xs).view(180)", "torch.cat(xs).view(7)", "torch.cat(xs, 1).view(2, 90)",
    "torch.cat(xs + xs[:1]).view(-1, 3)", "torch.cat([x for x in xs if x.sum() > 6]).view(-1, 3)")
add("numpy.array", "rows = []\nfor p in range(50):\n    rows.append([np.sin(p / 10000 ** (j / 8)) for j in range(8)])\n",
    "np.array(rows).reshape(400)", "np.array(rows).reshape(8, 49)", "torch.FloatTensor(np.array(rows)) + torch.zeros(50, 1)")
add("torch.stack", "acc = []\nfor i in range(40):\n    if i % 3:\n        acc.append(torch.zeros(4))\n",
    "torch.stack(acc).view(-1, 4)", "torch.stack(acc).sum(0).view(2, 2)", "torch.stack(acc, 1).view(4, -1)")
_SIG = "x = torch.randn(4, 10)\nz = torch.randn(3, 4, 6)\n"
add("torch.fft.fft", _SIG, "torch.fft.fft(x)", "torch.fft.ifft(x, n=7)", "torch.fft.fft(x, dim=0)", "torch.fft.fft(x, n=0)",
    "torch.fft.fft(x, dim=2)", "torch.fft.fft(x) + torch.zeros(10, 4)")
add("torch.fft.rfft", _SIG, "torch.fft.rfft(x)", "torch.fft.rfft(x, n=7)", "torch.fft.rfft(x, dim=0, norm='ortho')",
    "torch.fft.rfft(x) + torch.zeros(4, 10)")
add("torch.fft.irfft", _SIG, "torch.fft.irfft(x)", "torch.fft.irfft(x, n=5)", "torch.fft.irfft(torch.randn(4, 1))",
    "torch.fft.irfft(torch.fft.rfft(x)) + torch.zeros(4, 10)")
add("torch.fft.fft2", _SIG, "torch.fft.fft2(z)", "torch.fft.ifft2(z, s=(5, 5))", "torch.fft.fft2(z, s=(5,))")
add("torch.fft.rfft2", _SIG, "torch.fft.rfft2(z)", "torch.fft.rfft2(z, s=(5, 8))", "torch.fft.rfft2(z) + torch.zeros(3, 4, 6)")
add("torch.fft.irfft2", _SIG, "torch.fft.irfft2(z)", "torch.fft.irfft2(z, s=(5, 9))")
add("torch.fft.fftn", _SIG, "torch.fft.fftn(z)", "torch.fft.fftn(z, s=(5, 5))", "torch.fft.ifftn(z, dim=(0, 2))",
    "torch.fft.fftn(z, s=(5, 5), dim=(0,))")
add("torch.fft.rfftn", _SIG, "torch.fft.rfftn(z)", "torch.fft.rfftn(z, s=(5, 8), dim=(0, 2))", "torch.fft.rfftn(z, dim=(0, 3))")
add("torch.fft.irfftn", _SIG, "torch.fft.irfftn(z)", "torch.fft.irfftn(z, s=(2, 3, 4))")
add("torch.fft.fftshift", _SIG, "torch.fft.fftshift(x)", "torch.fft.ifftshift(x, dim=1)", "torch.fft.fftshift(x, dim=2)")
add("torch.fft.fftfreq", "", "torch.fft.fftfreq(7)", "torch.fft.fftfreq(7) + torch.zeros(6)")
add("torch.fft.rfftfreq", "", "torch.fft.rfftfreq(7)", "torch.fft.rfftfreq(7) + torch.zeros(7)")
_CPX = "a = torch.rand(2, 3)\nb = torch.rand(3)\n"
add("torch.polar", _CPX, "torch.polar(a, b)", "torch.polar(a, torch.rand(4))", "torch.complex(a, b)", "torch.complex(a, a[:1])")
add("torch.view_as_real", _CPX, "torch.view_as_real(torch.polar(a, a))", "torch.view_as_real(torch.fft.rfft(a)) + torch.zeros(2, 2, 2)")
add("torch.view_as_complex", _CPX, "torch.view_as_complex(torch.rand(3, 2))", "torch.view_as_complex(torch.rand(3, 4))",
    "torch.view_as_complex(a.view(3, 2)) * torch.polar(b, b)", "torch.view_as_complex(a.view(3, 2)) + torch.zeros(2)")
add("torch.normal", _CPX, "torch.normal(a, b)", "torch.normal(a, 1.0)", "torch.normal(0.0, b)", "torch.normal(0.0, 1.0, (2, 5))",
    "torch.normal(a, torch.rand(4))", "torch.normal(a, 0.5) + torch.zeros(3, 2)")
_MHA = ("q = torch.randn(5, 3, 8)\nk = torch.randn(7, 3, 8)\nw = torch.randn(24, 8)\nb = torch.randn(24)\n"
        "ow = torch.randn(8, 8)\nob = torch.randn(8)\n")
add("torch.nn.functional.multi_head_attention_forward", _MHA,
    "F.multi_head_attention_forward(q, k, k, 8, 2, w, b, None, None, False, 0.0, ow, ob)",
    "F.multi_head_attention_forward(q, k, k, 8, 2, w, b, None, None, False, 0.0, ow, ob)[1] + torch.zeros(3, 5, 7)",
    "F.multi_head_attention_forward(q, k, k, 8, 2, w, b, None, None, False, 0.0, ow, ob, average_attn_weights=False)[1]"
    " + torch.zeros(3, 2, 5, 7)",
    "F.multi_head_attention_forward(torch.randn(5, 3, 6), k, k, 8, 2, w, b, None, None, False, 0.0, ow, ob)",
    "F.multi_head_attention_forward(q, k, k, 8, 3, w, b, None, None, False, 0.0, ow, ob)",
    "F.multi_head_attention_forward(q, torch.randn(7, 2, 8), torch.randn(7, 2, 8), 8, 2, w, b, None, None, False, 0.0, ow, ob)")
add("torch.nn.Embedding.from_pretrained", "w = torch.randn(10, 4)\ni = torch.tensor([1, 2, 3])\n",
    "nn.Embedding.from_pretrained(w)(i)", "nn.Embedding.from_pretrained(w, freeze=False)(i) @ torch.randn(5, 2)",
    "nn.Embedding.from_pretrained(torch.randn(10))")
add("torch.jit.trace", "m = nn.Linear(3, 4)\nx = torch.randn(2, 3)\n", "torch.jit.trace(m, x)(x)",
    "torch.jit.trace(m, x)(torch.randn(2, 5))")
add("torch.cuda.amp.GradScaler", "x = torch.randn(2, 3)\n", "torch.amp.GradScaler('cpu').scale(x)",
    "torch.amp.GradScaler('cpu').scale(x) @ torch.randn(2, 2)")
_DS = "from torch.utils.data import DistributedSampler, TensorDataset, DataLoader\nds = TensorDataset(torch.randn(9, 3))\n"
add("torch.utils.data.distributed.DistributedSampler", _DS, "torch.zeros(len(DistributedSampler(ds, num_replicas=2, rank=0)))",
    "torch.zeros(len(DistributedSampler(ds, num_replicas=2, rank=0, drop_last=True))) + torch.zeros(5)",
    "[b[0] @ torch.randn(3, 2) for b in DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds, num_replicas=2, rank=1))]",
    "[b[0] @ torch.randn(2, 2) for b in DataLoader(ds, batch_size=2, sampler=DistributedSampler(ds, num_replicas=2, rank=1))]")

_RS = "from torch.utils.data import RandomSampler, TensorDataset, DataLoader\nds = TensorDataset(torch.randn(5, 3))\n"
add("torch.utils.data.RandomSampler", _RS, "torch.zeros(len(RandomSampler(ds))) + torch.zeros(5)",
    "torch.zeros(len(RandomSampler(ds, replacement=True, num_samples=7))) + torch.zeros(5)",
    "[b[0] @ torch.randn(3, 2) for b in DataLoader(ds, batch_size=2, sampler=RandomSampler(ds))]",
    "[b[0] @ torch.randn(2, 2) for b in DataLoader(ds, batch_size=2, sampler=RandomSampler(ds))]")
add("torch.jit.isinstance", "", "torch.zeros(2 if torch.jit.isinstance(torch.zeros(1), torch.Tensor) else 3) + torch.zeros(2)",
    "torch.zeros(3 if torch.jit.isinstance(torch.zeros(1), torch.Tensor) else 2) + torch.zeros(2)")
# small arrays of known numbers (models/numpy_/known.py): padding arithmetic that decides sizes
add("numpy.atleast_1d", "", "torch.zeros(int(np.atleast_1d(3)[0])) + torch.zeros(3)",
    "torch.zeros(int(np.atleast_1d((2, 4))[1])) + torch.zeros(3)")
add("numpy.any", "", "torch.zeros(2 if np.any(np.atleast_1d((1, 3)) > 2) else 3) + torch.zeros(2)",
    "torch.zeros(2 if np.any(np.atleast_1d((1, 3)) > 5) else 3) + torch.zeros(2)")
add("numpy.all", "", "torch.zeros(2 if np.all(np.atleast_1d((1, 3)) > 0) else 3) + torch.zeros(2)",
    "torch.zeros(2 if np.all(np.atleast_1d((1, 3)) > 2) else 3) + torch.zeros(2)")

# ----- eager-mode predicates and buffers (models/torch/eager.py, the nn.Buffer wrapper) ------------------------
add("torch.compiler.is_compiling", "", "torch.zeros(3 if torch.compiler.is_compiling() else 2) + torch.zeros(2)",
    "torch.zeros(2 if torch.compiler.is_compiling() else 3) + torch.zeros(2)")
add("torch.get_default_device", "", "torch.zeros(2, device=torch.get_default_device()) + torch.zeros(2)",
    "torch.zeros(2, device=torch.get_default_device()) + torch.zeros(3)")
add("torch.nn.Buffer", "", "nn.Buffer(torch.randn(2, 3)) @ torch.randn(3, 4)", "nn.Buffer(torch.randn(2, 3)) @ torch.randn(2, 4)")

# ----- PIL images through NumPy, run with the real Pillow where it is installed (test_api_table skips them
# otherwise); with torchvision's ToTensor they are recorded below --------------------------------------------
_PILNP = "import PIL.Image\nimg = PIL.Image.new('RGB', (12, 8))\n"
add("PIL.Image.Image", _PILNP, "torch.from_numpy(np.array(img.resize((6, 5))))",
    "torch.from_numpy(np.array(img.crop((1, 2, 7, 6))))", "torch.from_numpy(np.array(img.crop((-2, -1, 14, 9))))",
    "torch.from_numpy(np.array(img.convert('L')))", "torch.from_numpy(np.asarray(img.convert('RGBA')).copy())",
    "torch.from_numpy(np.array(img.copy())) + torch.zeros(12, 8, 3)",
    "torch.from_numpy(np.array(img.crop((0, 0, 4, 4)))) + torch.zeros(4, 5, 3)")
add("PIL.Image.fromarray", _PILNP, "torch.from_numpy(np.array(PIL.Image.fromarray(np.zeros((4, 5), dtype=np.uint8))))",
    "torch.from_numpy(np.array(PIL.Image.fromarray(np.zeros((4, 5, 3), dtype=np.uint8)).resize((2, 3))))")
add("PIL.Image.new", _PILNP, "torch.from_numpy(np.array(PIL.Image.new('L', (5, 4))))",
    "torch.from_numpy(np.array(PIL.Image.new('RGB', (5, 4)))) @ torch.zeros(4, 2)")

# ----- torchvision and PIL: not installable here, so outcomes are recorded from their documented behaviour ----------
_TV = "import torchvision\nimport torchvision.transforms as T\n"


def rec(name: str, setup: str, expr: str, expected: object) -> None:
    RECORDED.append((name, setup, expr, expected))


# the legacy CUDA tensor types need a CUDA device: they make what the CPU types make (sizes or data), on it
for _k in ("Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte", "Bool"):
    rec(f"torch.cuda.{_k}Tensor", "", f"torch.cuda.{_k}Tensor(2, 3)", (2, 3))
    rec(f"torch.cuda.{_k}Tensor", "", f"torch.cuda.{_k}Tensor([1, 0, 1]).view(2, 2)", "error")

# data_parallel needs CUDA devices: on them it returns what the module returns (PyTorch documentation)
rec("torch.nn.parallel.data_parallel", X23, "nn.parallel.data_parallel(nn.Linear(3, 4), x)", (2, 4))
rec("torch.nn.parallel.data_parallel", X23, "nn.parallel.data_parallel(nn.Linear(2, 4), x)", "error")


# models: same architecture families as the outcomes recorded with torchvision 0.28 in test_new_models.py
for _m in ("resnet34", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d", "wide_resnet50_2",
           "wide_resnet101_2", "resnet18", "resnet50", "mobilenet_v2"):
    rec(f"torchvision.models.{_m}", _TV + "x = torch.randn(2, 3, 64, 64)\n", f"torchvision.models.{_m}(num_classes=7)(x)", (2, 7))
    rec(f"torchvision.models.{_m}", _TV + "x = torch.randn(2, 3, 64, 64)\n", f"torchvision.models.{_m}()(x[:, :2])", "error")
for _m in ("vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn"):
    rec(f"torchvision.models.{_m}", _TV + "x = torch.randn(2, 3, 64, 64)\n", f"torchvision.models.{_m}(num_classes=7)(x)", (2, 7))
    rec(f"torchvision.models.{_m}", _TV + "x = torch.randn(2, 3, 16, 16)\n", f"torchvision.models.{_m}(num_classes=7)(x)", "error")
rec("torchvision.models.alexnet", _TV + "x = torch.randn(2, 3, 64, 64)\n", "torchvision.models.alexnet(num_classes=7)(x)", (2, 7))
rec("torchvision.models.alexnet", _TV + "x = torch.randn(2, 3, 32, 32)\n", "torchvision.models.alexnet(num_classes=7)(x)", "error")
rec("torchvision.models.ResNet", _TV + "m = torchvision.models.resnet18(num_classes=7)\n", "m.fc(torch.randn(2, 512))", (2, 7))
rec("torchvision.models.ResNet", _TV + "m = torchvision.models.resnet18(num_classes=7)\n", "m.fc(torch.randn(2, 256))", "error")
# einops.layers.torch.Repeat is not in the installed einops 0.8.2: its outcomes follow einops.repeat
rec("einops.layers.torch.Repeat", "from einops.layers.torch import Repeat\nx = torch.randn(2, 3)\n",
    "Repeat('h w -> h w c', c=2)(x)", (2, 3, 2))
rec("einops.layers.torch.Repeat", "from einops.layers.torch import Repeat\nx = torch.randn(2, 3)\n",
    "Repeat('h w -> h w c')(x)", "error")
rec("torchvision.models.VGG", _TV + "x = torch.randn(2, 3, 64, 64)\n", "torchvision.models.vgg11(num_classes=7).features(x)",
    (2, 512, 2, 2))
rec("torchvision.models.MobileNetV2", _TV + "x = torch.randn(2, 3, 64, 64)\n", "torchvision.models.MobileNetV2(num_classes=7)(x)",
    (2, 7))
rec("torchvision.models._Stage", _TV + "x = torch.randn(2, 3, 64, 64)\n", "torchvision.models.resnet18().layer1(torch.randn(2, 64, 16, 16))",
    (2, 64, 16, 16))
rec("torchvision.models._Stage", _TV + "x = torch.randn(2, 3, 64, 64)\n", "torchvision.models.resnet18().layer1(torch.randn(2, 32, 16, 16))",
    "error")
# transforms on a float CHW tensor image (3, 8, 12), or uint8 where the transform requires it
_IMG = _TV + "x = torch.rand(3, 8, 12)\nu = torch.randint(0, 256, (3, 8, 12), dtype=torch.uint8)\n"
for _t, _in, _out in (("Normalize([0.5] * 3, [0.2] * 3)", "x", (3, 8, 12)), ("CenterCrop(4)", "x", (3, 4, 4)),
                      ("RandomCrop(4)", "x", (3, 4, 4)), ("RandomCrop(10)", "x", "error"), ("Resize((5, 6))", "x", (3, 5, 6)),
                      ("Resize(4)", "x", (3, 4, 6)), ("Pad(2)", "x", (3, 12, 16)), ("Grayscale()", "x", (1, 8, 12)),
                      ("RandomResizedCrop(5)", "x", (3, 5, 5)), ("RandomHorizontalFlip()", "x", (3, 8, 12)),
                      ("RandomVerticalFlip()", "x", (3, 8, 12)), ("ColorJitter(0.2, 0.2)", "x", (3, 8, 12)),
                      ("GaussianBlur(3)", "x", (3, 8, 12)), ("RandomRotation(10)", "x", (3, 8, 12)),
                      ("RandomAffine(10)", "x", (3, 8, 12)), ("RandomPerspective()", "x", (3, 8, 12)),
                      ("RandomErasing()", "x", (3, 8, 12)), ("RandomGrayscale()", "x", (3, 8, 12)),
                      ("RandomInvert()", "x", (3, 8, 12)), ("RandomPosterize(2)", "u", (3, 8, 12)),
                      ("RandomSolarize(0.5)", "x", (3, 8, 12)), ("RandomAdjustSharpness(2)", "x", (3, 8, 12)),
                      ("RandomAutocontrast()", "x", (3, 8, 12)), ("RandomEqualize()", "u", (3, 8, 12)),
                      ("AutoAugment()", "u", (3, 8, 12)), ("RandAugment()", "u", (3, 8, 12)),
                      ("TrivialAugmentWide()", "u", (3, 8, 12)), ("AugMix()", "u", (3, 8, 12)),
                      ("ConvertImageDtype(torch.float32)", "u", (3, 8, 12)), ("ElasticTransform()", "x", (3, 8, 12)),
                      ("Lambda(lambda t: t[:1])", "x", (1, 8, 12)),
                      ("RandomApply([T.RandomHorizontalFlip()], p=0.5)", "x", (3, 8, 12)),
                      ("Compose([T.CenterCrop(4), T.Normalize([0.5] * 3, [0.2] * 3)])", "x", (3, 4, 4))):
    rec(f"torchvision.transforms.{_t.split('(')[0]}", _IMG, f"T.{_t}({_in})", _out)
rec("torchvision.transforms.Normalize", _IMG, "T.Normalize([0.5] * 3, [0.2] * 3)(x[:2])", "error")
rec("torchvision.transforms.Compose", _IMG, "T.Compose([T.CenterCrop(4), T.Normalize([0.5] * 3, [0.2] * 3)])(x[:1])", "error")
_PIL = _TV + "import PIL.Image\nimg = PIL.Image.new('RGB', (12, 8))\n"
rec("torchvision.transforms.ToTensor", _PIL, "T.ToTensor()(img)", (3, 8, 12))
rec("torchvision.transforms.PILToTensor", _PIL, "T.PILToTensor()(img)", (3, 8, 12))
rec("torchvision.transforms.ToPILImage", _PIL, "T.ToTensor()(T.ToPILImage()(torch.rand(3, 8, 12)))", (3, 8, 12))
rec("PIL.Image.open", _PIL, "T.ToTensor()(PIL.Image.new('L', (5, 4)))", (1, 4, 5))
rec("PIL.Image.open", _PIL, "T.ToTensor()(PIL.Image.fromarray(np.zeros((4, 5, 3), dtype=np.uint8)))", (3, 4, 5))
rec("PIL.Image.open", _PIL, "T.ToTensor()(PIL.Image.open('photo.png').convert('RGB').resize((6, 5)))", (3, 5, 6))
rec("PIL.Image.Image", _PIL, "T.ToTensor()(img.resize((6, 5)))", (3, 5, 6))
rec("PIL.Image.fromarray", _PIL, "T.ToTensor()(PIL.Image.fromarray(np.zeros((4, 5), dtype=np.uint8)))", (1, 4, 5))
rec("PIL.Image.Image", _PIL, "T.ToTensor()(img.convert('L'))", (1, 8, 12))
rec("PIL.Image.Image", _PIL, "T.ToTensor()(img.copy()) + torch.randn(3, 12, 8)", "error")
rec("torchvision.utils.make_grid", _TV + "x = torch.rand(4, 3, 8, 8)\n", "torchvision.utils.make_grid(x, nrow=2)", (3, 22, 22))
rec("torchvision.utils.save_image", _TV + "x = torch.rand(4, 3, 8, 8)\n", "torchvision.utils.save_image(x, 'grid.png')", "ok")
for _d, _shape in (("MNIST", (1, 28, 28)), ("FashionMNIST", (1, 28, 28)), ("KMNIST", (1, 28, 28)), ("CIFAR10", (3, 32, 32)),
                   ("CIFAR100", (3, 32, 32)), ("SVHN", (3, 32, 32)), ("STL10", (3, 96, 96))):
    _kw = "split='train', " if _d in ("SVHN", "STL10") else "train=True, "
    rec(f"torchvision.datasets.{_d}", _TV, f"torchvision.datasets.{_d}('data', {_kw}transform=T.ToTensor())[0][0]", _shape)
rec("torchvision.datasets.EMNIST", _TV, "torchvision.datasets.EMNIST('data', split='letters', transform=T.ToTensor())[0][0]",
    (1, 28, 28))
rec("torchvision.datasets.FakeData", _TV, "torchvision.datasets.FakeData(10, (3, 24, 20), transform=T.ToTensor())[0][0]",
    (3, 24, 20))
rec("torchvision.datasets.ImageFolder", _TV,
    "torchvision.datasets.ImageFolder('d', transform=T.Compose([T.Resize((32, 32)), T.ToTensor()]))[0][0]", (3, 32, 32))
rec("torchvision.datasets.MNIST", _TV,
    "torchvision.datasets.MNIST('data', transform=T.ToTensor())[0][0].view(-1) @ torch.randn(28 * 28 + 1, 2)", "error")
# legacy attributes of the MNIST family (torchvision keeps them as deprecated aliases of .data / .targets)
rec("torchvision.datasets.MNIST", _TV, "torchvision.datasets.MNIST('data').train_data[0]", (28, 28))
rec("torchvision.datasets.MNIST", _TV, "torchvision.datasets.MNIST('data', train=False).test_labels", (10000,))
rec("torchvision.datasets.MNIST", _TV, "torchvision.datasets.MNIST('data').train_data.view(-1, 784) @ torch.randn(28, 2)",
    "error")
# torchvision.io.read_image: a uint8 tensor (C, H, W) whose sizes come from the file (torchvision documentation)
rec("torchvision.io.read_image", _TV, "torchvision.io.read_image('photo.png').permute(1, 2, 0)", "ok")
rec("torchvision.io.read_image", _TV, "torchvision.io.read_image('photo.png').permute(1, 0)", "error")
rec("torchvision.io.read_image", _TV, "torchvision.io.read_image('photo.png').unsqueeze(0).squeeze(0)[None].flatten(1, 3)",
    "ok")

# ----- exemptions: no shape effect, cannot fail on shapes (each still used in tests/fixtures/api/api_exempt.py) ------------
_OPT = "model = nn.Linear(4, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
# files the program writes and reads back in the run (models/saved.py): the loaded value is the saved one
_SAVED = ("import os\nimport tempfile\nimport numpy as np\nd = tempfile.mkdtemp()\n"
          "torch.save({'w': torch.randn(6, 3)}, os.path.join(d, 'ck.pt'))\n"
          "np.save(os.path.join(d, 'a'), np.zeros((3, 4), dtype=np.float32))\n")
add("torch.load", _SAVED, "torch.load(os.path.join(d, 'ck.pt'))['w'] @ torch.randn(3, 2)",
    "torch.load(os.path.join(d, 'ck.pt'))['w'] @ torch.randn(6, 2)")
add("torch.save", _SAVED, "torch.load(os.path.join(d, 'ck.pt'))['w'].view(18)",
    "torch.load(os.path.join(d, 'ck.pt'))['w'].view(12)")
add("numpy.save", _SAVED, "np.load(os.path.join(d, 'a.npy')).reshape(12)", "np.load(os.path.join(d, 'a.npy')).reshape(5)")
add("numpy.load", _SAVED, "torch.from_numpy(np.load(os.path.join(d, 'a.npy'))) @ torch.randn(4, 2)",
    "torch.from_numpy(np.load(os.path.join(d, 'a.npy'))) @ torch.randn(3, 2)")

EXEMPT: dict[str, tuple[str, str]] = {}
for _o in ("ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "NAdam", "RAdam", "RMSprop", "Rprop", "SGD",
           "SparseAdam"):
    EXEMPT[f"torch.optim.{_o}"] = ("optimizer: updates parameters in place, no shape effect",
                                   f"opt_{_o.lower()} = torch.optim.{_o}(nn.Linear(4, 2).parameters(), lr=0.01)")
for _s, _args in (("ConstantLR", ""), ("CosineAnnealingLR", "T_max=10"), ("CosineAnnealingWarmRestarts", "T_0=5"),
                  ("CyclicLR", "0.01, 0.1"), ("ExponentialLR", "0.9"), ("LambdaLR", "lambda e: 0.9 ** e"),
                  ("LinearLR", ""), ("MultiStepLR", "[3, 6]"), ("MultiplicativeLR", "lambda e: 0.9"),
                  ("OneCycleLR", "0.1, total_steps=10"), ("PolynomialLR", ""), ("ReduceLROnPlateau", ""),
                  ("SequentialLR", "[torch.optim.lr_scheduler.ConstantLR(opt)], milestones=[]"), ("StepLR", "5")):
    EXEMPT[f"torch.optim.lr_scheduler.{_s}"] = ("learning-rate scheduler: no tensors",
                                                f"sched_{_s.lower()} = torch.optim.lr_scheduler.{_s}(opt{', ' + _args if _args else ''})")
for _n in __import__("pytea_ci.models.numpy_.array", fromlist=["TENSOR_ONLY"]).TENSOR_ONLY:
    EXEMPT[f"numpy.ndarray.{_n}"] = ("a torch.Tensor attribute no NumPy array has: AttributeError, checked against "
                                     "numpy and torch by tests/test_numpy_tensor_names.py",
                                     f"# arr.{_n}: the finding is in tests/fixtures/dtype/numpy_not_tensor.py")
EXEMPT.update({
    "torch._dynamo.allow_in_graph": ("a decorator that returns the class or function it is given, unchanged (checked "
                                     "against torch by tests/fixtures/core/module_queries.py's oracle)",
                                     "import torch._dynamo\nLinear2 = torch._dynamo.allow_in_graph(nn.Linear)"),
    "numpy.lib.npyio.NpzFile": ("an `.npz` file read back as data (its arrays' shapes and dtypes): checked against "
                                "files NumPy writes by tests/test_pickled_files.py",
                                "# np.load('arrays.npz')['x']: the figures are in tests/test_pickled_files.py"),
    "numpy.ObjectArray0d": ("the 0-d object array `np.load(..., allow_pickle=True)` gives for a saved dict (`.item()`): "
                            "checked against files NumPy writes by tests/test_pickled_files.py",
                            "# np.load('word_dict.npy', allow_pickle=True).item(): see tests/test_pickled_files.py"),
    "torch.manual_seed": ("seeds the generator", "torch.manual_seed(0)"),
    "torch.cuda.manual_seed": ("seeds the CUDA generators", "torch.cuda.manual_seed(0)"),
    "torch.seed": ("reseeds the generator from the machine", "seed = torch.seed()"),
    "torch.Generator": ("random generator object", "gen = torch.Generator().manual_seed(0)"),
    "torch.device": ("device handle", "dev = torch.device('cpu')"),
    "torch.fx.Proxy": ("a tracer's value: a class programs test tensors against (no shape effect of its own)",
                       "import torch.fx\nis_proxy = isinstance(torch.randn(2), torch.fx.Proxy)"),
    "torch._subclasses.FakeTensor": ("fake mode's tensor class: programs test tensors against it (no shape effect)",
                                     "is_fake = isinstance(torch.randn(2), torch._subclasses.FakeTensor)"),
    **{f"torch.{c}": ("a Python float, as torch's own", f"x = torch.zeros(2, 3).masked_fill(torch.ones(3, dtype=torch.bool), "
                      f"-torch.{c})\ny = x @ torch.zeros(3, 4)") for c in ("pi", "e", "inf", "nan")},
    "torch.nn.attention.flex_attention.BlockMask": (
        "flex attention's block mask: a class programs test values against (no shape effect of its own)",
        "from torch.nn.attention.flex_attention import BlockMask\nis_block_mask = isinstance(None, BlockMask)"),
    "torch.cuda.is_available": ("returns a bool", "has_cuda = torch.cuda.is_available()"),
    "torch.cuda.is_current_stream_capturing": ("returns a bool (False until the program begins a graph capture; "
                                               "a CPU-only build raises RuntimeError)",
                                               "try:\n    capturing = torch.cuda.is_current_stream_capturing()\n"
                                               "except RuntimeError:\n    capturing = False"),
    "torch.cuda.graph": ("a graph-capture context on a CUDA device: no shape effect",
                         "capture_ctx = torch.cuda.graph"),
    "torch.is_grad_enabled": ("returns a bool (the path's grad mode: True in a fresh process, changed by grad-mode "
                              "contexts, decorated functions and set_grad_enabled)",
                              "grad_on = torch.is_grad_enabled()"),
    "torch.is_inference_mode_enabled": ("returns a bool (the path's inference mode: False in a fresh process)",
                                        "inference_on = torch.is_inference_mode_enabled()"),
    "torch.cuda.device_count": ("returns an int", "n_gpus = torch.cuda.device_count()"),
    **{name: ("a fact about the machine or the process group (no shape effect)", f"def fact_{k}():\n    return {name}({args})")
       for k, (name, args) in enumerate((
           ("torch.backends.cudnn.is_available", ""), ("torch.backends.mps.is_available", ""),
           ("torch.xpu.is_available", ""),
           ("torch.cuda.current_device", ""), ("torch.cuda.get_device_capability", ""),
           ("torch.cuda.get_device_name", ""), ("torch.cuda.memory_allocated", ""), ("torch.cuda.set_device", "0"),
           ("torch.distributed.is_available", ""), ("torch.distributed.is_initialized", ""),
           ("torch.distributed.get_rank", ""), ("torch.distributed.get_world_size", ""),
           ("torch.distributed.init_process_group", "'gloo'"), ("torch.distributed.destroy_process_group", ""),
           ("torch.distributed.barrier", ""), ("os.cpu_count", "")))},
    "torch.multiprocessing.spawn": ("runs a function in processes (followed by the analyzer; oracle: "
                                    "tests/oracle/test_core_fixtures.py)", "def launch(fn):\n    torch.multiprocessing.spawn(fn, nprocs=1)"),
    "torch.Tensor.is_floating_point": ("returns a bool (checked by tests/oracle/test_dtypes.py)",
                                       "is_fp = torch.zeros(2).is_floating_point()"),
    "torch.Tensor.is_complex": ("returns a bool", "is_cx = torch.zeros(2).is_complex()"),
    "torch.finfo": ("float limits of a dtype, no shape effect (values: tests/oracle/test_dtypes.py)",
                    "fill = torch.zeros(2, 3).masked_fill(torch.ones(2, 3) > 0, torch.finfo(torch.float32).min)"),
    "torch.Tensor.is_signed": ("returns a bool", "is_sg = torch.zeros(2).is_signed()"),
    "torch.utils._pytree.register_pytree_node": (
        "registers how torch flattens a container class (no tensor, no shape effect)",
        "def register_box(cls):\n    torch.utils._pytree.register_pytree_node(cls, lambda b: ([], None), lambda v, c: cls())"),
    "numpy.random.default_rng": ("random generator object", "rng = np.random.default_rng(0)"),
    "numpy.random.Generator": ("random generator object", "rng2 = np.random.Generator(np.random.PCG64(0))"),
    "torch.no_grad": ("context manager, no tensors", "with torch.no_grad():\n    pass"),
    "torch.enable_grad": ("context manager turning gradients on inside, no tensors",
                          "with torch.enable_grad():\n    pass"),
    "torch.inference_mode": ("context manager turning inference mode on inside, no tensors",
                             "with torch.inference_mode():\n    pass"),
    "torch.set_grad_enabled": ("sets the grad mode (restored at the end of a with block), no tensors",
                               "with torch.set_grad_enabled(False):\n    pass"),
    "torch.autocast": ("context manager choosing floating dtypes, no shape effect", "with torch.autocast('cpu'):\n    pass"),
    "torch.set_default_dtype": ("sets the default floating dtype, no shape effect",
                                "torch.set_default_dtype(torch.float32)"),
    "torch.set_default_device": ("sets where creations go, no shape effect", "torch.set_default_device('cpu')"),
    "torch.set_default_tensor_type": ("sets the default tensor type, no shape effect",
                                      "torch.set_default_tensor_type(torch.FloatTensor)"),
    "torch.get_default_dtype": ("returns a dtype, no shape effect", "dt = torch.get_default_dtype()"),
    "torch.hub.load": ("downloads a model (no network in CI): an unknown object",
                       "def hub_model(name):\n    return torch.hub.load('repo', name)(torch.zeros(1))"),
    "torch.jit.save": ("writes a file, no shape effect", "def export(m):\n    torch.jit.save(m, 'm.pt')"),
    "functools.lru_cache": ("decorators (also torch.compile, torch.jit.script) return the function they wrap",
                            "@torch.jit.script\ndef scripted(t: torch.Tensor) -> torch.Tensor:\n    return t"),
    "torch.Tensor.cuda": ("device move (no CUDA in CI), shape unchanged", "def to_gpu(t):\n    return t.cuda()"),
    "torch.Tensor.pin_memory": ("pinning needs CUDA, shape unchanged", "def pinned(t):\n    return t.pin_memory()"),
    "torch.Tensor.coalesce": ("sparse tensors only, shape unchanged", "def coalesced(t):\n    return t.coalesce()"),
    "torch.Tensor.add_noise": ("not a torch API; modeled shape-preserving for user subclasses",
                               "def noisy(t):\n    return t.add_noise()"),
})
for _w in ("AlexNet_Weights", "MobileNet_V2_Weights", "ResNet18_Weights", "ResNet34_Weights", "ResNet50_Weights",
           "ResNet101_Weights", "ResNet152_Weights", "VGG11_Weights", "VGG11_BN_Weights", "VGG13_Weights", "VGG13_BN_Weights",
           "VGG16_Weights", "VGG16_BN_Weights", "VGG19_Weights", "VGG19_BN_Weights"):
    EXEMPT[f"torchvision.models.{_w}"] = ("weights enum: selects pretrained values, no shape effect",
                                          f"w_{_w.lower()} = torchvision.models.{_w}.DEFAULT")
for _t in ("generic", "number", "integer", "signedinteger", "unsignedinteger", "floating", "complexfloating"):
    EXEMPT[f"numpy.{_t}"] = ("numpy scalar type: a class programs test values against (no shape effect of its own)",
                            f"is_scalar_{_t} = isinstance((2, 3), np.{_t})")
# one tensor operation checked, so the file is not a PT013 "nothing checked" entry point
EXEMPT_PRELUDE = "import torchvision\n" + _OPT + "out = model(torch.randn(3, 4))\n"


# ----- linear algebra (models/torch/linalg.py) ------------------------------------------------------------
_SQ, _RECT, _VEC = "A = torch.randn(2, 3, 3) + 3 * torch.eye(3)\n", "A = torch.randn(2, 5, 3)\n", "A = torch.randn(4)\n"
_SPD = "M = torch.randn(2, 3, 3)\nA = M @ M.transpose(-1, -2) + 3 * torch.eye(3)\n"
for _name, _expr in (("torch.linalg.inv", "torch.linalg.inv(A)"), ("torch.inverse", "torch.inverse(A)"),
                     ("torch.Tensor.inverse", "A.inverse()"), ("torch.linalg.matrix_exp", "torch.linalg.matrix_exp(A)"),
                     ("torch.matrix_exp", "torch.matrix_exp(A)"), ("torch.Tensor.matrix_exp", "A.matrix_exp()"),
                     ("torch.linalg.det", "torch.linalg.det(A)"), ("torch.det", "torch.det(A)"),
                     ("torch.Tensor.det", "A.det()"), ("torch.logdet", "torch.logdet(A)"),
                     ("torch.Tensor.logdet", "A.logdet()"), ("torch.linalg.slogdet", "torch.linalg.slogdet(A)[1]"),
                     ("torch.slogdet", "torch.slogdet(A).logabsdet"), ("torch.Tensor.slogdet", "A.slogdet()[0]"),
                     ("torch.linalg.eigh", "torch.linalg.eigh(A).eigenvectors"),
                     ("torch.linalg.eigvalsh", "torch.linalg.eigvalsh(A)"),
                     ("torch.linalg.matrix_power", "torch.linalg.matrix_power(A, 3)"),
                     ("torch.matrix_power", "torch.matrix_power(A, 2)"), ("torch.Tensor.matrix_power", "A.matrix_power(2)")):
    add(_name, _SQ, _expr)
    add(_name, _RECT, _expr)
    add(_name, _VEC, _expr)
for _name, _expr in (("torch.linalg.cholesky", "torch.linalg.cholesky(A)"), ("torch.cholesky", "torch.cholesky(A)"),
                     ("torch.Tensor.cholesky", "A.cholesky()")):
    add(_name, _SPD, _expr)
    add(_name, _RECT, _expr)
add("torch.linalg.eigh", _SQ, "torch.linalg.eigh(A)[0]")
for _name, _exprs in (
        ("torch.linalg.svd", ("torch.linalg.svd(A)[0]", "torch.linalg.svd(A).S", "torch.linalg.svd(A).Vh",
                              "torch.linalg.svd(A, full_matrices=False)[0]", "torch.linalg.svd(A, full_matrices=False)[2]")),
        ("torch.svd", ("torch.svd(A)[0]", "torch.svd(A).V", "torch.svd(A, some=False)[0]", "torch.svd(A)[1]")),
        ("torch.Tensor.svd", ("A.svd()[2]",)),
        ("torch.linalg.svdvals", ("torch.linalg.svdvals(A)",)),
        ("torch.linalg.qr", ("torch.linalg.qr(A)[0]", "torch.linalg.qr(A).R", "torch.linalg.qr(A, mode='complete')[0]",
                             "torch.linalg.qr(A, mode='complete')[1]", "torch.linalg.qr(A, mode='r')[1]")),
        ("torch.qr", ("torch.qr(A)[0]", "torch.qr(A, some=False)[0]")), ("torch.Tensor.qr", ("A.qr()[1]",)),
        ("torch.linalg.pinv", ("torch.linalg.pinv(A)",)), ("torch.pinverse", ("torch.pinverse(A)",)),
        ("torch.Tensor.pinverse", ("A.pinverse()",)),
        ("torch.linalg.matrix_norm", ("torch.linalg.matrix_norm(A)", "torch.linalg.matrix_norm(A, keepdim=True)")),
        ("torch.linalg.matrix_rank", ("torch.linalg.matrix_rank(A)",))):
    for _e in _exprs:
        add(_name, _RECT, _e)
        add(_name, "A = torch.randn(3, 5)\n", _e)
    add(_name, _VEC, _exprs[0])
for _b in ("torch.randn(2, 3, 4)", "torch.randn(2, 3)", "torch.randn(3)", "torch.randn(3, 2)", "torch.randn(4, 3, 2)",
           "torch.randn(4, 2)", "torch.randn(2, 4, 2)", "torch.randn(5, 3, 2)"):
    add("torch.linalg.solve", _SQ, f"torch.linalg.solve(A, {_b})")
add("torch.linalg.solve", _RECT, "torch.linalg.solve(A, torch.randn(2, 5))")

# nn.LazyLinear(out_features, bias): in_features is the first input's last dim, fixed from then on
add("torch.nn.LazyLinear", "m = nn.LazyLinear(5)\n", "m(torch.randn(4, 20))", "nn.LazyLinear(5, False)(torch.randn(2, 3, 7))")
add("torch.nn.LazyLinear", "m = nn.LazyLinear(5)\nm(torch.randn(4, 20))\n", "m(torch.randn(4, 21))",
    "m(torch.randn(3, 20))", "nn.Linear(5, 2)(m(torch.randn(1, 20)))", "nn.Linear(6, 2)(m(torch.randn(1, 20)))")

# nn.LazyConv{n}d / LazyConvTranspose{n}d(out_channels, kernel_size, ...): in_channels is the first input's channel
# size (shape[1], shape[0] unbatched), fixed from then on; nn.LazyBatchNorm{n}d(): num_features is its shape[1]
for _n in (1, 2, 3):
    _sp, _sp2 = ", 8" * _n, ", 6" * _n
    for _cls in (f"LazyConv{_n}d", f"LazyConvTranspose{_n}d"):
        add(f"torch.nn.{_cls}", f"m = nn.{_cls}(4, 3)\n", f"m(torch.randn(2, 5{_sp}))", f"m(torch.randn(5{_sp}))",
            f"nn.{_cls}(4, 3, 2, 1)(torch.randn(1, 3{_sp}))")
        add(f"torch.nn.{_cls}", f"m = nn.{_cls}(4, 3)\nm(torch.randn(2, 5{_sp}))\n", f"m(torch.randn(2, 6{_sp2}))",
            f"m(torch.randn(3, 5{_sp2}))")
    add(f"torch.nn.LazyBatchNorm{_n}d", f"m = nn.LazyBatchNorm{_n}d()\n", f"m(torch.randn(2, 5{_sp}))")
    add(f"torch.nn.LazyBatchNorm{_n}d", f"m = nn.LazyBatchNorm{_n}d()\nm(torch.randn(2, 5{_sp}))\n",
        f"m(torch.randn(2, 6{_sp}))", f"m(torch.randn(3, 5{_sp2}))")


# ----- a class's names, as CPython gives them (models/value_types.py `cpython_names`; typing hints print them) -----
for _cls, _text in (("torch.Tensor", "torch.Tensor"), ("torch.nn.Parameter", "torch.nn.Parameter"),
                    ("numpy.ndarray", "np.ndarray")):
    for _attr in ("__module__", "__qualname__", "__name__"):
        add(f"{_cls}.{_attr}", "import numpy as np\n", f"torch.zeros(len({_text}.{_attr}) + 1, 2)",
            f"torch.zeros(3 if {_text}.{_attr}.startswith('t') else 2)")
