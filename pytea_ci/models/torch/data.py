"""`torch.utils.data`: Dataset, TensorDataset, Subset, random_split, DataLoader, ConcatDataset (also what
`dataset_a + dataset_b` builds: its length is the sum of the parts' lengths and an item is a
representative item of the first part) and DistributedSampler (whose share of the dataset is what a
DataLoader over it draws per pass).

A DataLoader loop runs its body with representative batches: the full batch and, when
`len(dataset) % batch_size != 0` and `drop_last` is false, the short last batch — where the
classic `x.view(64, -1)` bug lives. Batch sizes carry their provenance into findings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from pytea_ci.models.builtins import HELD
from pytea_ci.models.context import Ctx
from pytea_ci.models.prim import known, shape_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, IterVal, RangeVal, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, ITERATION, UNKNOWN, PInt, Sym, Term, floordiv, is_dim, mod, symbols
from pytea_ci.shapes.tensor import Tensor
from pytea_ci.shapes.vrange import ValueRange, fixed_selection
from pytea_ci.diagnostics.rules import INVALID_ARGUMENT


@native_class("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset", "torch.utils.data.IterableDataset",
              identity_eq=True)
class Dataset:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        return None

    def __add__(ctx: Ctx, self: Instance, other: Any) -> Any:  # noqa: N805
        return concat(ctx, self, other)


@native_class("torch.utils.data.TensorDataset", bases=(Dataset,))
class TensorDataset:
    def init(ctx: Ctx, self: Instance, *tensors: Any) -> None:
        self.attrs["tensors"] = tuple(tensors)
        firsts = [shape_of(t)[0] for t in tensors if known(t) and shape_of(t)]
        for k, d in enumerate(firsts[1:], 1):
            ctx.require(P.eq(firsts[0], d), "TensorDataset", f"size mismatch between tensors: tensor 0 has {firsts[0]!r} "
                        f"rows, tensor {k} has {d!r}", dims=(("tensor 0 rows", firsts[0]), (f"tensor {k} rows", d)))

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        ts = self.attrs["tensors"]
        return shape_of(ts[0])[0] if ts and known(ts[0]) and shape_of(ts[0]) else ctx.unknown("dataset length")

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        return tuple(ctx.getitem(t, idx) for t in self.attrs["tensors"])


@native_class("torch.utils.data.Subset", bases=(Dataset,))
class Subset:
    def init(ctx: Ctx, self: Instance, dataset: Any, indices: Any) -> None:
        self.attrs.update(dataset=dataset, indices=indices)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        idx = self.attrs["indices"]
        if isinstance(idx, Tensor) and known(idx) and shape_of(idx):
            return shape_of(idx)[0]
        n = ctx.known_length(idx)
        if n is not None:
            return n
        if isinstance(idx, RangeVal) and idx.start == 0 and isinstance(idx.step, int) and idx.step > 0 \
                and is_dim(idx.stop) and not isinstance(idx.stop, bool):
            return floordiv(idx.stop + (idx.step - 1), idx.step)  # range(0, n, k) of a size n >= 0
        items = ctx.iterate(idx)
        return len(items) if items is not None else (idx.attrs["n"] if isinstance(idx, Instance) and "n" in idx.attrs else ctx.unknown("subset length"))

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:  # noqa: N805
        ds, indices = self.attrs["dataset"], self.attrs["indices"]
        n = dataset_len(ctx, ds)
        if isinstance(indices, RangeVal) and (indices.start, indices.step) == (0, 1) and indices.stop == n:
            return ctx.getitem(ds, idx)  # every position, in order: the dataset itself
        # some of the dataset's indices (which ones is not followed): an input index, not every position
        item = ctx.getitem(ds, some_index(ctx, n, INPUT))
        # positions the program fixed keep no value known to occur, except draws; random_split's are random
        return item if self.attrs.get("random") else _map_ranges(item, fixed_selection)


@model("torch.utils.data.random_split")
def random_split(ctx: Ctx, dataset: Any, lengths: Any, generator: Any = None) -> Any:
    items = ctx.iterate(lengths)
    if items is None:
        return ctx.unknown("random_split")
    if items and all(isinstance(x, float) for x in items):
        n = dataset_len(ctx, dataset)
        if not isinstance(n, int):
            return ctx.unknown("random_split by fractions of an unknown length")
        sizes = [int(n * f) for f in items]
        sizes[0] += n - sum(sizes)
        items = sizes
    out = []
    for length in items:
        sub = Instance(Subset, {"dataset": dataset, "indices": Tensor((length,), "int64"), "random": True})
        out.append(sub)
    return out


def dataset_len(ctx: Ctx, ds: Any) -> Any:
    if isinstance(ds, (list, tuple)):
        return len(ds)
    if isinstance(ds, Tensor) and known(ds) and shape_of(ds):
        return shape_of(ds)[0]
    if isinstance(ds, Instance):
        from pytea_ci.models.random_ import declared_for

        configured = declared_for(ctx, ds.cls.name, f"length of a {ds.cls.name} (declared symbolic)")
        if configured is not None:
            return configured
        fn = ctx.getattr(ds, "__len__")
        if not isinstance(fn, Unknown):
            return ctx.call(fn)
    return ctx.unknown("dataset length")


def sample_item(ctx: Ctx, ds: Any, n: Any = None, every: bool = True) -> Any:
    """A representative item: the dataset indexed by a fresh index. When the length `n` is known the
    index is in [0, n): an iteration symbol when a loader visits `every` index in every epoch (what
    fails for one index fails every run), an input one when some indices may be left out (a shuffled
    loader dropping its last batch); otherwise an index of unknown kind."""
    if isinstance(ds, (list, tuple)):
        return ds[0] if ds else ctx.unknown("empty dataset")
    return ctx.getitem(ds, some_index(ctx, n, ITERATION if every else INPUT))


def some_index(ctx: Ctx, n: Any, kind: str = ITERATION) -> Any:
    if isinstance(n, int) and not isinstance(n, bool) and n > 0:
        return ctx.fresh("idx", kind=kind, lo=0, hi=int(n) - 1, note="an index of the dataset")
    if isinstance(n, Term) and not any(s.kind == UNKNOWN for s in symbols(n)):
        return mod(ctx.fresh("idx", kind=kind, lo=0, note="an index of the dataset"), n)
    return ctx.fresh("idx")


def collate(ctx: Ctx, item: Any, b: Any) -> Any:
    """`default_collate` of `b` copies of `item` (NumPy arrays and scalars become tensors, as torch's
    `default_convert` makes them)."""
    if isinstance(item, Tensor):
        batch = item.with_shape(None if item.shape is None else (b,) + tuple(item.shape), item.dtype)
        if item.lib == "numpy":  # NumPy arrays and scalars become tensors on the CPU, of the same dtype
            batch = replace(batch, lib="torch", device="cpu", device_from=None)
        return replace(batch, vrange=item.vrange)  # a batch holds items' values
    if isinstance(item, bool):  # Python numbers become tensors on the CPU
        return Tensor((b,), "bool", device="cpu")
    if is_dim(item):
        return Tensor((b,), "int64", vrange=_int_range(item), device="cpu")
    if isinstance(item, float):
        return Tensor((b,), "float64", device="cpu")
    if isinstance(item, tuple):
        return tuple(collate(ctx, x, b) for x in item)
    if isinstance(item, list):
        return [collate(ctx, x, b) for x in item]
    if isinstance(item, dict):
        return {k: collate(ctx, v, b) for k, v in item.items()}
    if isinstance(item, str):
        return ctx.unknown("batch of strings")
    return ctx.unknown("collate of an unknown item")


def _int_range(v: Any) -> ValueRange | None:
    """The values a batch of the int `v` holds (a label of known range, a constant)."""
    if isinstance(v, int):
        return ValueRange(int(v), int(v), True)
    lo, hi = getattr(v, "lo", None), getattr(v, "hi", None)
    # an input symbol takes each of its values in some run (a label drawn per item), and so does a label
    # of a dataset of known classes (torchvision's models name them `label`)
    reachable = isinstance(v, Sym) and (v.kind == INPUT or v.name.startswith("label"))
    # an iteration symbol takes every value of its range in every run (a label of a dataset whose every item
    # the loader meets, an index of such a loader)
    every = isinstance(v, Sym) and v.kind == ITERATION
    return ValueRange(lo, hi, every, origin=getattr(v, "origin", None), note=getattr(v, "note", ""),
                      reachable=reachable) if lo is not None and hi is not None else None


def _map_ranges(item: Any, fn: Callable[[ValueRange], ValueRange]) -> Any:
    """`item` with `fn` applied to the value range of each of its tensors."""
    if isinstance(item, Tensor):
        return item if item.vrange is None else replace(item, vrange=fn(item.vrange))
    if isinstance(item, (tuple, list)):
        out = [_map_ranges(x, fn) for x in item]
        return tuple(out) if isinstance(item, tuple) else out
    if isinstance(item, dict):
        return {k: _map_ranges(v, fn) for k, v in item.items()}
    return item


def _tensors(item: Any) -> list[Tensor]:
    if isinstance(item, Tensor):
        return [item]
    if isinstance(item, (tuple, list)):
        return [t for x in item for t in _tensors(x)]
    if isinstance(item, dict):
        return [t for x in item.values() for t in _tensors(x)]
    return []


def _symbolic(item: Any) -> bool:
    """Whether an item's tensor shapes have symbolic sizes (which may differ from item to item)."""
    return any(isinstance(d, Term) for t in _tensors(item) for d in (t.shape or ()))


def _forget_varying(ctx: Ctx, item: Any, other: Any) -> Any:
    """Sizes that differ from item to item (they differ between two sampled items: a per-item draw, a
    size computed from the index) are not known for any one batch; sizes the two items share (a
    dataset-wide `T`) keep their identity."""
    if isinstance(item, Tensor) and item.shape is not None:
        same = isinstance(other, Tensor) and other.shape is not None and len(other.shape) == len(item.shape)
        theirs = other.shape if same else (None,) * len(item.shape)  # type: ignore[union-attr]
        shape = tuple(d if isinstance(d, int) or d == e else ctx.fresh("item_size") for d, e in zip(item.shape, theirs))
        return item if shape == tuple(item.shape) else replace(item, shape=shape)  # values, dtype, device stay
    if isinstance(item, (tuple, list)):
        others = list(other) if isinstance(other, (tuple, list)) and len(other) == len(item) else [None] * len(item)
        out = [_forget_varying(ctx, x, y) for x, y in zip(item, others)]
        return tuple(out) if isinstance(item, tuple) else out
    if isinstance(item, dict):
        return {k: _forget_varying(ctx, v, other.get(k) if isinstance(other, dict) else None) for k, v in item.items()}
    return item


def _require_same_shapes(ctx: Ctx, a: Any, b: Any) -> None:
    """default_collate stacks the items of a batch: two items must have equal shapes."""
    from pytea_ci.models.prim import fmt

    for x, y in zip(_tensors(a), _tensors(b)):
        if x.shape is None or y.shape is None or len(x.shape) != len(y.shape):
            continue
        same = P.and_(*[P.eq(p, q) for p, q in zip(x.shape, y.shape)])
        ctx.require(same, "default_collate", f"stack expects each tensor to be equal size, but items of this dataset "
                    f"have shapes {fmt(x.shape)} and {fmt(y.shape)}, which differ from item to item",
                    operands=(f"item: {fmt(x.shape)}", f"another item: {fmt(y.shape)}"),
                    dims=tuple(("item size", d) for d in x.shape if not isinstance(d, int)))


def sampled_len(ctx: Ctx, loader: dict[str, Any]) -> Any:
    """How many items one pass of a DataLoader draws: its sampler's own count when the sampler states
    one (a DistributedSampler's share of the dataset), else the dataset's length."""
    sampler = loader["sampler"]
    if isinstance(sampler, Instance) and "num_samples" in sampler.attrs:
        return sampler.attrs["num_samples"]
    return dataset_len(ctx, loader["dataset"])


@native_class("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader", identity_eq=True)
class DataLoader:
    def init(ctx: Ctx, self: Instance, dataset: Any, batch_size: Any = 1, shuffle: Any = False, sampler: Any = None,
             batch_sampler: Any = None, num_workers: Any = 0, collate_fn: Any = None, pin_memory: Any = False,
             drop_last: Any = False, *args: Any, **kwargs: Any) -> None:
        self.attrs.update(dataset=dataset, batch_size=batch_size, drop_last=drop_last, collate_fn=collate_fn,
                          sampler=sampler, batch_sampler=batch_sampler, span=ctx.span, shuffle=shuffle)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        n, bs = sampled_len(ctx, self.attrs), self.attrs["batch_size"]
        if not (is_dim(n) and is_dim(bs)) or isinstance(self.attrs["batch_sampler"], Instance):
            return ctx.unknown("number of batches")
        return floordiv(n, bs) if self.attrs["drop_last"] is True else floordiv(n + bs - 1, bs)

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        a = self.attrs
        if a["batch_sampler"] is not None or (a["sampler"] is not None and not isinstance(a["sampler"], Instance)):
            return IterVal([ctx.unknown("batches from a custom sampler")], truncated=True)
        ds, bs = a["dataset"], a["batch_size"]
        held = ctx.facts.get(HELD, False)  # `iter(loader)`: the program may take only its first batches
        ctx.facts[HELD] = False
        n = sampled_len(ctx, a)
        size = n if a["sampler"] is None else dataset_len(ctx, ds)  # a sampler draws indices of the whole dataset
        every = not (a["drop_last"] is True and (a.get("shuffle") is not False or a["sampler"] is not None))
        every = every and not (isinstance(a["sampler"], Instance) and a["sampler"].attrs.get("draws") is True)
        every = every and not held  # a batch taken by `next()` holds some indices, not every one
        if a["drop_last"] is True and every and is_dim(size) and is_dim(bs) and bs:
            size = floordiv(size, bs) * bs  # in order, dropping the last batch: the indices of the full batches
        item = sample_item(ctx, ds, size, every)
        if bs != 1 and a["collate_fn"] is None and _symbolic(item):
            other = sample_item(ctx, ds, size, every)
            _require_same_shapes(ctx, item, other)
            item = _forget_varying(ctx, item, other)
        span = a["span"]
        if bs is None:
            return IterVal([item], truncated=True, indices=[ctx.fresh("batch_idx")])
        if not is_dim(bs):
            return IterVal([ctx.unknown("batch of unknown size")], truncated=True)
        batches: list[tuple[Any, Any]] = []
        if isinstance(n, int) and isinstance(bs, int):
            full, last = divmod(int(n), int(bs))
            if full:
                batches.append((0, PInt(bs, span, "batch size of this DataLoader")))
            if last and a["drop_last"] is not True:
                batches.append((full, PInt(last, span, f"the last batch of this DataLoader: {int(n)} % {int(bs)} = {last}")))
        elif is_dim(n):
            batches.append((0, PInt(bs, span, "batch size of this DataLoader") if isinstance(bs, int) else bs))
            rest = mod(n, bs)
            # a length not understood (kind unknown) may well be a multiple of the batch size: no last batch
            understood = not any(s.kind == UNKNOWN for s in symbols(rest))
            if a["drop_last"] is not True and not isinstance(rest, int) and understood and ctx.fork(P.ne(rest, 0), per_run=True):
                batches.append((floordiv(n, bs), rest))
            elif isinstance(rest, int) and rest and a["drop_last"] is not True:
                batches.append((floordiv(n, bs), rest))
        else:
            batches.append((ctx.fresh("batch_idx"), ctx.fresh("batch", note="batch size")))
        out = []
        for _, b in batches:
            if a["collate_fn"] is not None:
                if isinstance(b, int) and b <= 1024:
                    out.append(ctx.call(a["collate_fn"], [item] * int(b)))
                else:  # a batch of unknown length: one representative item, the length not known
                    some: list[Any] = [item]
                    ctx.mark_inexact(some)
                    out.append(ctx.call(a["collate_fn"], some))
            else:
                out.append(collate(ctx, item, b))
        return IterVal(out, truncated=True, indices=[i for i, _ in batches])


# ----- ConcatDataset (`dataset_a + dataset_b`) and DistributedSampler ------------------------------


@native_class("torch.utils.data.ConcatDataset", "torch.utils.data.dataset.ConcatDataset", bases=(Dataset,))
class ConcatDataset:
    def init(ctx: Ctx, self: Instance, datasets: Any) -> None:
        parts = ctx.iterate(datasets)
        self.attrs["datasets"] = parts
        if parts is not None:
            ctx.require(len(parts) > 0, "ConcatDataset", "datasets should not be an empty iterable", INVALID_ARGUMENT)

    def __len__(ctx: Ctx, self: Instance) -> Any:
        parts = self.attrs["datasets"]
        if parts is None:
            return ctx.unknown("length of a ConcatDataset of unknown parts")
        total: Any = 0
        for p in parts:
            n = dataset_len(ctx, p)
            if isinstance(n, Unknown) or not is_dim(n):
                return ctx.unknown("length of a ConcatDataset part")
            total = total + n
        return total

    def __getitem__(ctx: Ctx, self: Instance, idx: Any) -> Any:
        parts = self.attrs["datasets"]
        if not parts:
            return ctx.unknown("item of a ConcatDataset of unknown parts")
        return sample_item(ctx, parts[0])


def concat(ctx: Ctx, self: Any, other: Any) -> Any:
    """`Dataset.__add__`: `a + b` is `ConcatDataset([a, b])`."""
    return Instance(ConcatDataset, {"datasets": [self, other]})  # type: ignore[arg-type]


@native_class("torch.utils.data.distributed.DistributedSampler", "torch.utils.data.DistributedSampler",
              identity_eq=True)
class DistributedSampler:
    """Each process draws its share of the dataset: ceil(len / world size) items (drop_last: floor), a
    count of unknown value because the number of processes is a fact of the machine."""

    def init(ctx: Ctx, self: Instance, dataset: Any, num_replicas: Any = None, rank: Any = None, shuffle: Any = True,
             seed: Any = 0, drop_last: Any = False) -> None:
        n = dataset_len(ctx, dataset)
        if is_dim(n) and isinstance(num_replicas, int) and num_replicas > 0:
            share: Any = floordiv(n, num_replicas) if drop_last is True else floordiv(n + num_replicas - 1, num_replicas)
        else:
            share = ctx.fresh("samples per process", note="len(dataset) / world size")
        self.attrs.update(dataset=dataset, num_samples=share)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return self.attrs["num_samples"]

    def set_epoch(ctx: Ctx, self: Instance, epoch: Any) -> None:
        return None


@native_class("torch.utils.data.RandomSampler", "torch.utils.data.sampler.RandomSampler",
              "torch.utils.data.SequentialSampler", "torch.utils.data.sampler.SequentialSampler", identity_eq=True)
class RandomSampler:
    """The indices of the whole dataset, in order or shuffled (`len(dataset)` of them), or `num_samples`
    indices: drawn with replacement (`draws`: some index may never be drawn) or cycled through."""

    def init(ctx: Ctx, self: Instance, data_source: Any, replacement: Any = False, num_samples: Any = None,
             generator: Any = None) -> None:
        n = dataset_len(ctx, data_source) if num_samples is None else num_samples
        self.attrs.update(dataset=data_source, num_samples=n, draws=replacement is not False)
        if is_dim(num_samples):
            ctx.require(P.lt(0, num_samples), "RandomSampler", f"num_samples should be a positive integer value, "
                        f"but got num_samples={num_samples!r}", INVALID_ARGUMENT)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        n = self.attrs["num_samples"]
        return n if is_dim(n) else ctx.unknown("number of samples")
