"""Library mode against real torch: the inferred contract of each fixture module is exactly what torch
accepts (sizes drawn by hypothesis: torch runs those satisfying it, with the predicted output shape,
and raises on the others), the example input runs, the per-layer table matches forward hooks, and
each finding raises under torch. Skipped without torch."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from typing import Any

import pytest

from pytea_ci.library.results import _best_path, analyze_module, evaluate, holds
from pytea_ci.library.verdict import prefer, run_module
from pytea_ci.shapes.dim import INPUT, symbols
from pytea_ci.shapes.pred import Pred
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.solver import Decider
from tests.library.helpers import FIXTURES, expectations, rebuildable, targets

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")

CASES = [("cnn.py", "Net"), ("cnn.py", "Reshaper"), ("cnn.py", "Tokens"), (os.path.join("proj", "models.py"), "Block"),
         (os.path.join("proj", "models.py"), "ResNetish")]
BUGS = [("cnn.py", "Mlp"), ("cnn.py", "Head")]


def _load(path: str) -> Any:
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    try:
        spec = importlib.util.spec_from_file_location(f"libfixture_{abs(hash(path))}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(folder)


def _build(path: str, construct: str, values: dict[str, int]) -> Any:
    mod = _load(path)
    env = dict(vars(mod), __pytea_dim__=lambda name: values.get(name, 4),
               __pytea_stages__=lambda name, n: tuple(values.get(f"{name}{i}", 4) for i in range(n)))
    torch.manual_seed(0)
    return eval(construct, env).eval()  # the fixture's own construction expression


def _run(model: Any, shapes: list[list[int]]) -> Any:
    """Call with float inputs; integer ones (token ids) when the first layer wants indices."""
    try:
        return model(*[torch.randn(*s) for s in shapes])
    except RuntimeError as e:
        if "Long" not in str(e) and "Int" not in str(e):
            raise
    return model(*[torch.randint(0, 2, tuple(s)) for s in shapes])


def _analysis(name: str, cls: str) -> tuple[Any, Any]:
    (t,) = targets(os.path.join(FIXTURES, name), cls)[:1]
    run = run_module(t, os.path.dirname(t.path), Decider(), 10.0, strict=True)
    return t, prefer(run.accepted)


@pytest.mark.parametrize("name,cls", CASES)
def test_example_input_runs_with_the_predicted_shapes(name: str, cls: str) -> None:
    t, _ = _analysis(name, cls)
    s = analyze_module(t, os.path.dirname(t.path), Decider(), 10.0, strict=True)
    model = _build(t.path, t.construct, s.symbols)
    seen: dict[str, list[list[int]]] = {}
    for mname, sub in model.named_modules():
        if mname:
            sub.register_forward_hook(lambda m, i, o, n=mname: seen.setdefault(n, []).append(list(o.shape)))
    with torch.no_grad():
        out = _run(model, [i.example for i in s.inputs])
    assert list(out.shape) == s.output_example
    for row in s.layers:
        if row.kind != "op" and row.depth >= 1 and row.output_example is not None:
            assert row.output_example in seen[row.name], (row.name, seen.get(row.name))


@pytest.mark.parametrize("name,cls", CASES)
def test_contract_is_what_torch_accepts(name: str, cls: str) -> None:
    t, combo = _analysis(name, cls)
    path = _best_path(combo)
    contract = [c for c in path.pc if isinstance(c, Pred) and all(s.kind == INPUT for s in symbols(c))]
    syms = sorted({s.name for x in path.inputs if isinstance(x, Tensor) and x.shape for d in x.shape
                   for s in symbols(d)} | {s.name for c in contract for s in symbols(c)})

    @hypothesis.settings(max_examples=25, deadline=None, derandomize=True)
    @hypothesis.given(st.lists(st.integers(1, 36), min_size=len(syms), max_size=len(syms)))
    def check(vals: list[int]) -> None:
        values = dict(zip(syms, vals))
        shapes = [[evaluate(d, values) for d in x.shape] for x in path.inputs]
        model = _build(t.path, t.construct, values)
        if all(holds(c, values) for c in contract):
            with torch.no_grad():
                out = _run(model, shapes)
            assert list(out.shape) == [evaluate(d, values) for d in path.output.shape]
        else:
            with pytest.raises((RuntimeError, ValueError, IndexError)), torch.no_grad():
                _run(model, shapes)

    check()


@pytest.mark.parametrize("name,cls", BUGS)
def test_findings_raise_under_torch(name: str, cls: str) -> None:
    """A library-mode finding fails for every input: torch raises on inputs the earlier layers accept."""
    path = os.path.join(FIXTURES, name)
    (t,) = targets(path, cls)[:1]
    s = analyze_module(t, os.path.dirname(path), Decider(), 10.0, strict=True)
    assert {d.span.line for d in s.diagnostics} <= {line for line, _ in expectations(path)}
    assert s.diagnostics
    for dim in (1, 3, 8):
        model = _build(t.path, t.construct, {"dim": dim})
        first = next(m for m in model.modules() if isinstance(m, torch.nn.Linear))
        with pytest.raises(RuntimeError), torch.no_grad():
            model(torch.randn(2, first.in_features))


def test_construction_findings_raise_under_torch() -> None:
    """The fixture's Stages (built by its factory) raises on every input its first stage accepts,
    and Heads raises while it is built."""
    path = os.path.join(FIXTURES, "construction.py")
    mod = _load(path)
    model = mod.stages().eval()
    for h, w in ((3, 3), (8, 5), (16, 16)):
        with pytest.raises(RuntimeError), torch.no_grad():
            model(torch.randn(2, 3, h, w))
    with pytest.raises(AssertionError):
        mod.Heads()
    assert list(mod.RandomFill()().shape) == [4, 4, 8]  # no finding: it runs


def test_split_of_a_bounded_size_is_one_piece_under_torch() -> None:
    """QKV splits the time axis (T <= 32) by 64: one piece for every accepted input, so unpacking
    q, k, v raises; Heads (split of the channels) runs."""
    mod = _load(os.path.join(FIXTURES, "split.py"))
    for t in (1, 7, 32):
        with pytest.raises(ValueError), torch.no_grad():
            mod.QKV()(torch.randn(2, t, 64))
    assert list(mod.Heads()(torch.randn(2, 5, 64)).shape) == [2, 5, 64]


def test_verdict_fixtures_are_not_errors_for_every_input_under_torch() -> None:
    """TupleOrTensor runs on a pair; SmoothedLoss raises a TypeError (not a shape error) on the inputs
    whose gather passes: neither fails a shape check for every input."""
    mod = _load(os.path.join(FIXTURES, "verdicts.py"))
    pair = (torch.randn(2, 4, 3, 3), torch.randn(2, 4, 3, 3))
    assert list(mod.TupleOrTensor()(pair).shape) == [2, 12, 3, 3]
    with pytest.raises(TypeError):
        mod.SmoothedLoss()(torch.randn(2, 5), torch.randint(0, 5, (2,)))


@pytest.mark.parametrize("name", ["optional_arguments.py", "stage_sizes.py"])
def test_symbolic_constructions_are_what_torch_builds(name: str) -> None:
    """Each construction library mode makes of the fixture (with the integers that default to None given too;
    sizes per stage as tuples): the modules it reports on raise under torch for every size tried, the others run."""
    path = os.path.join(FIXTURES, name)
    marked = {line for line, _ in expectations(path)}
    for t in targets(path):
        if not rebuildable(t.construct):
            continue
        s = analyze_module(t, os.path.dirname(path), Decider(), 10.0, strict=True)
        reported = any(d.span.line in marked for d in s.diagnostics)
        if t.cls == "UnpacksTheSize":  # built with three sizes, it cannot be built (no finding: not the module's bug)
            assert not s.diagnostics
            with pytest.raises(ValueError):
                _build(t.path, t.construct, {})
            continue
        for size in (2, 3, 8):
            names = re.findall(r"__pytea_dim__\('(\w+)'\)", t.construct) + [
                f"{n}{i}" for n, k in re.findall(r"__pytea_stages__\('(\w+)', (\d+)\)", t.construct) for i in range(int(k))]
            model = _build(t.path, t.construct, {n: size + k for k, n in enumerate(names)})
            first = next(m for m in model.modules() if isinstance(m, torch.nn.Linear))
            x = torch.randn(2, first.in_features)
            if reported:
                with pytest.raises(RuntimeError), torch.no_grad():
                    model(x)
            else:
                with torch.no_grad():
                    model(x)


_IDS = lambda s: torch.randint(0, 10, (2, 3))  # noqa: E731
_FEATURES = lambda s: torch.randn(2, s)  # noqa: E731


@pytest.mark.parametrize("name,inputs", [
    ("passed_through.py", {"Wrapped": _FEATURES, "WrappedOk": _FEATURES, "Grouped": _IDS, "GroupedOk": _IDS}),
    ("components.py", {"Head": _FEATURES, "HeadOk": _FEATURES}),
    ("residual_stacks.py", {"Stack": _FEATURES, "StackOk": _FEATURES, "Scaled": _FEATURES, "ScaledOk": _FEATURES})])
def test_constructions_of_parameters_passed_on_or_built_are_what_torch_builds(name: str, inputs: dict) -> None:
    """The constructions library mode makes of classes passing `*args`/`**kwargs` on (library/forwarded.py)
    and of parameters that must be instances of a project class (built with its defaults) build under torch,
    and the ones it reports on raise for every size tried, the others run."""
    path = os.path.join(FIXTURES, name)
    built = {t.cls: t for t in targets(path) if t.cls in inputs}
    assert set(built) == set(inputs)
    for cls, t in built.items():
        s = analyze_module(t, os.path.dirname(path), Decider(), 10.0, strict=True)
        reported = any(d.severity.value == "error" for d in s.diagnostics)
        assert reported == (not cls.endswith("Ok")), (cls, s.diagnostics)
        for size in (2, 3, 8):
            names = re.findall(r"__pytea_dim__\('([\w.]+)'\)", t.construct)
            model = _build(t.path, t.construct, {n: size + k for k, n in enumerate(names)})
            if reported:
                with pytest.raises(RuntimeError), torch.no_grad():
                    model(inputs[cls](size))
            else:
                with torch.no_grad():
                    model(inputs[cls](size))


def test_a_module_that_works_only_with_a_constructor_size_of_one_under_torch() -> None:
    """unit_construction.py: the warned Block raises for every width at least 2 and runs with a width of 1 (the
    only construction the warning says works); BlockOk runs; Biased runs when its bias is as wide as its input."""
    mod = _load(os.path.join(FIXTURES, "unit_construction.py"))
    (warned,) = [t for t in targets(os.path.join(FIXTURES, "unit_construction.py")) if t.cls == "Block"]
    s = analyze_module(warned, FIXTURES, Decider(), 10.0, strict=True)
    assert [d.rule for d in s.diagnostics if d.severity.value != "note"] == ["PT002"]
    with torch.no_grad():
        for dim in (2, 3, 8):
            x = torch.randn(2, 5, dim)
            with pytest.raises(RuntimeError):
                mod.Block(dim, 2)(x)
            assert mod.BlockOk(dim, 2)(x).shape == x.shape
            assert mod.Biased(dim, dim)(x).shape == x.shape
        assert mod.Block(1, 1)(torch.randn(2, 5, 1)).shape == (2, 5, 2)


def test_images_of_the_size_the_constructor_says_under_torch() -> None:
    """image_size.py: Embed runs on images of its `image_size`; EmbedDropped (warned) raises on every such image
    (its width is never 3 * patch_size ** 2 for these sizes); EmbedDroppedNoSize, which says no image size, runs on
    patches as wide as its contract asks (so it is silent)."""
    mod = _load(os.path.join(FIXTURES, "image_size.py"))
    with torch.no_grad():
        for p, k in ((2, 2), (2, 3), (4, 2)):
            img = torch.randn(2, 3, k * p, k * p)
            assert mod.Embed(image_size=k * p, patch_size=p, dim=8)(img).shape == (2, k * k, 8)
            with pytest.raises(RuntimeError):
                mod.EmbedDropped(image_size=k * p, patch_size=p, dim=8)(img)
            assert mod.EmbedDroppedNoSize(patch_size=p, dim=8)(torch.randn(2, 5, 3 * p * p)).shape == (2, 5, 8)


def test_inputs_the_constructor_states_under_torch() -> None:
    """stated_input.py: each module runs on batches of what its constructor states (`input_shape`, `in_size`,
    `in_shape`, `img_shape`, a configuration object's `image_size` or `input_shape`), the warned ones raise on every such batch; the head without a statement runs on an
    input its contract allows; an integer `input_size` is an RNN's features."""
    mod = _load(os.path.join(FIXTURES, "stated_input.py"))
    with torch.no_grad():
        for n in (1, 2, 4):
            assert mod.FlatClassifier()(torch.randn(n, 3, 16, 16)).shape == (n, 5)
            assert mod.FlatClassifier(input_shape=(1, 8, 6))(torch.randn(n, 1, 8, 6)).shape == (n, 5)
            assert mod.PooledNet()(torch.randn(n, 3, 32, 32)).shape == (n, 4)
            assert mod.PooledNet(in_size=(64, 64))(torch.randn(n, 3, 64, 64)).shape == (n, 4)
            assert mod.SignalNet()(torch.randn(n, 2, 12)).shape == (n, 3)
            assert mod.Tagger()(torch.randn(n, 7, 10)).shape == (n, 7, 4)
            assert mod.Critic()(torch.randn(n, 1, 8, 8), torch.randn(n, 3)).shape == (n, 1)
            assert mod.FlatClassifierNoShape()(torch.randn(n, 1, 16, 16)).shape == (n, 5)
            assert mod.PatchEncoder()(torch.randn(n, 3, 24, 24)).shape == (n, 36, 16)
            for bad, x in ((mod.FlatClassifierNoChannels(), torch.randn(n, 3, 16, 16)),
                           (mod.PatchEncoderOneShort(), torch.randn(n, 3, 24, 24)),
                           (mod.ShapeFromNamespace(), torch.randn(n, 2, 6, 6)),
                           (mod.PooledNetSmallPool(), torch.randn(n, 3, 32, 32)),
                           (mod.SignalNetUnpadded(), torch.randn(n, 2, 12))):
                with pytest.raises(RuntimeError):
                    bad(x)


def test_a_unit_size_that_one_rank_needs_and_another_does_not_under_torch() -> None:
    """unit_ranks.py: HeadsView and HeadsLast (silent) run on every rank-3 `[B, N, F]` input for heads 1, 2 and 4; a
    rank-2 `[N, F]` input reshapes only for F == 1, the width-1 projection the old warning named, so the site is the
    rank-2 input's contract, not the module's bug. HeadsSquared (warned) raises for every heads at least 2, at ranks
    2 to 4, and runs for heads == 1."""
    path = os.path.join(FIXTURES, "unit_ranks.py")
    mod = _load(path)
    assert expectations(path) == {(56, "PT002")}
    with torch.no_grad():
        for heads in (1, 2, 4):
            for cls in (mod.HeadsView, mod.HeadsLast):
                m = cls(8, heads, head_channels=4)
                assert m(torch.randn(2, 5, 8)).shape[:2] == (2, 5)
                with pytest.raises(RuntimeError):
                    m(torch.randn(5, 8))
                assert cls(1, heads, head_channels=4)(torch.randn(5, 1)).shape[0] == 5
        for shape in ((5, 8), (2, 5, 8), (2, 3, 5, 8)):
            with pytest.raises(RuntimeError):
                mod.HeadsSquared(8, 2, head_channels=4)(torch.randn(*shape))
            assert mod.HeadsSquared(8, 1, head_channels=4)(torch.randn(*shape)).shape[-1] == 4


def test_an_input_annotated_through_an_alias_of_torch_under_torch() -> None:
    """torch_alias.py: Extractor runs on `[N, n_input]` observations; Head (the PT001) raises for every input its
    first Linear accepts, the mask given or not."""
    mod = _load(os.path.join(FIXTURES, "torch_alias.py"))
    with torch.no_grad():
        for n in (1, 3):
            assert mod.Extractor(12, 5)(torch.randn(n, 3, 4)).shape == (n, 5)
            for mask in (None, torch.ones(n, 16)):
                with pytest.raises(RuntimeError):
                    mod.Head()(torch.randn(n, 8), mask)


def test_tokens_of_a_module_built_with_an_image_size_under_torch() -> None:
    """image_tokens.py: Tokens, TokensHeads and PassedOn (silent) run on token sequences `[b, n, dim]` whatever their
    `image_size`; Images (warned) normalizes the images' width, so it raises unless `image_size` equals its channels."""
    mod = _load(os.path.join(FIXTURES, "image_tokens.py"))
    with torch.no_grad():
        for image_size in (4, 32):
            assert mod.Tokens(8, image_size)(torch.randn(2, 5, 8)).shape == (2, 5, 8)
            assert mod.TokensHeads(8, 2, image_size)(torch.randn(2, 5, 8)).shape == (2, 5, 8)
            assert mod.PassedOn(8, image_size)(torch.randn(2, 5, 8)).shape == (2, 5, 8)
            with pytest.raises(RuntimeError):
                mod.Images(image_size)(torch.randn(2, 3, image_size, image_size))
        assert mod.Images(3)(torch.randn(2, 3, 3, 3)).shape == (2, 3, 3, 3)


def test_wrappers_of_a_callable_and_sequences_of_tensors_under_torch() -> None:
    """callable_args.py with an identity and with a block that changes the width: AddBack, NormThen and SkipCat run
    with the identity; SkipCat runs with any block keeping the spatial sizes, AddBack fails with a block that
    changes the width (what the project passes decides: nothing reported); WrongOwnLayer fails whatever the block
    (not reported: a path with a stand-in reports nothing). tensor_lists.py runs on sequences of the sizes
    library mode gives (each of its own sizes, made to agree where the module needs it)."""
    mod = _load(os.path.join(FIXTURES, "callable_args.py"))
    x = torch.randn(2, 6, 8)
    with torch.no_grad():
        assert mod.AddBack(torch.nn.Identity())(x).shape == x.shape
        assert mod.NormThen(8, torch.nn.Identity())(x).shape == x.shape
        assert mod.SkipCat(torch.nn.Identity())(x).shape == (2, 12, 8)
        assert mod.SkipCat(torch.nn.Linear(8, 8))(x).shape == (2, 12, 8)
        with pytest.raises(RuntimeError):
            mod.AddBack(torch.nn.Linear(8, 3))(x)
        for block in (torch.nn.Identity(), torch.nn.Linear(8, 8)):
            with pytest.raises(RuntimeError):
                mod.WrongOwnLayer(block)(x)
    lists = _load(os.path.join(FIXTURES, "tensor_lists.py"))
    with torch.no_grad():
        levels = [torch.randn(2, 4, s, s) for s in (16, 8, 4)]
        assert lists.PyramidSum(4)(levels).shape == (2, 4, 4, 4)
        assert lists.FourthLevel()([torch.randn(2, 64, 5, 5)] * 4).shape == (2, 8, 5, 5)
        assert lists.MeanOfViews()([torch.randn(3, 7)] * 3).shape == (3, 7)
        assert lists.PairDistance()((torch.randn(3, 7), torch.randn(3, 7))).shape == (3,)
        assert lists.ConcatAll()((torch.randn(2, 3), torch.randn(2, 5))).shape == (2, 8)
        assert lists.CatThenProject(8, 2)(torch.randn(3, 5), torch.randn(3, 3)).shape == (3, 2)
        assert lists.AnyArgs()(torch.randn(2, 3), torch.randn(4, 3)).shape == ()


def test_an_assert_on_an_argument_under_torch() -> None:
    """guessed_asserts.py: ImageEncoder builds with an image space and runs on its images; StillRejected raises
    AssertionError with its defaults, as library mode ends it."""
    from types import SimpleNamespace
    mod = _load(os.path.join(FIXTURES, "guessed_asserts.py"))
    with torch.no_grad():
        enc = mod.ImageEncoder(SimpleNamespace(shape=(3, 16, 16), dtype="uint8"))
        assert enc(torch.randn(2, 3, 16, 16)).shape == (2, 32)
        with pytest.raises(AssertionError):
            mod.ImageEncoder(SimpleNamespace(shape=(4,), dtype="float32"))
        with pytest.raises(AssertionError):
            mod.StillRejected()


def test_tensors_by_key_under_torch() -> None:
    """tensor_mappings.py: each module runs on a dict of tensors of the keys it reads (a dict stands in for the
    tensordict: `get` and `set` are what ClipKey uses)."""
    mod = _load(os.path.join(FIXTURES, "tensor_mappings.py"))

    class Keyed(dict):
        def set(self, key: str, value: torch.Tensor) -> "Keyed":
            self[key] = value
            return self

    with torch.no_grad():
        td = mod.ClipKey()(Keyed(reward=torch.randn(4, 1) * 5))
        assert float(td["reward"].abs().max()) <= 1.0
        out = mod.Combined()({"image": torch.randn(2, 3, 8, 8), "state": torch.randn(2, 5)})
        assert out.shape == (2, 32)
        assert mod.Scaled()({"x": torch.randn(2, 3), "scale": torch.randn(2, 1)}).shape == (2, 3)
