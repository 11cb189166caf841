"""torch.optim optimizers and lr schedulers: no shape effect, every method is a no-op."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import native_class
from pytea_ci.models.values import Instance


def _noop(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
    return None


def _unknown(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("optimizer state")


_METHODS = {"init": _noop, "step": _noop, "zero_grad": _noop, "load_state_dict": _noop, "add_param_group": _noop,
            "state_dict": _unknown, "get_last_lr": _unknown}

OPTIMIZERS = ("SGD Adam AdamW Adadelta Adagrad Adamax ASGD LBFGS NAdam RAdam RMSprop Rprop SparseAdam").split()
SCHEDULERS = ("StepLR MultiStepLR ExponentialLR CosineAnnealingLR ReduceLROnPlateau CyclicLR OneCycleLR LambdaLR "
              "CosineAnnealingWarmRestarts LinearLR ConstantLR SequentialLR PolynomialLR MultiplicativeLR").split()

for _name in OPTIMIZERS:
    native_class(f"torch.optim.{_name}")(type(_name, (), {**_METHODS, "param_groups": None}))
for _name in SCHEDULERS:
    native_class(f"torch.optim.lr_scheduler.{_name}")(type(_name, (), dict(_METHODS)))
