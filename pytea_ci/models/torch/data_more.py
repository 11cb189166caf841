"""`torch.utils.data.ConcatDataset` (also what `dataset_a + dataset_b` builds): its length is the
sum of the parts' lengths and an item is a representative item of the first part; and
`DistributedSampler`, whose share of the dataset is what a DataLoader over it draws per pass."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.torch.data import Dataset, dataset_len, sample_item
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.dim import floordiv, is_dim


@native_class("torch.utils.data.ConcatDataset", "torch.utils.data.dataset.ConcatDataset", bases=(Dataset,))
class ConcatDataset:
    def init(ctx: Ctx, self: Instance, datasets: Any) -> None:
        parts = ctx.iterate(datasets)
        self.attrs["datasets"] = parts
        if parts is not None:
            ctx.require(len(parts) > 0, "ConcatDataset", "datasets should not be an empty iterable", "PT003")

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


@native_class("torch.utils.data.distributed.DistributedSampler", "torch.utils.data.DistributedSampler")
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
