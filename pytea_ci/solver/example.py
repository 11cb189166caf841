"""The smallest concrete values satisfying a set of conditions (library mode's example input).

`smallest` asks z3's optimizer to minimise the sum of the named symbols under the conditions and
their bounds; it answers None when the conditions cannot hold or the solver gives up within its
resource limit (deterministic; the timeout is only the safety net).
"""

from __future__ import annotations

from pytea_ci.shapes.dim import Sym
from pytea_ci.shapes.pred import Cond, opaque
from pytea_ci.solver.z3backend import Translator


def smallest(conditions: list[Cond], wanted: list[Sym], rlimit: int = 8_000_000,
             timeout_ms: int = 60_000) -> dict[str, int] | None:
    """A model of `conditions` minimising the sum of `wanted` (values for every symbol seen)."""
    if any(c is False for c in conditions):
        return None
    preds = [c for c in conditions if not isinstance(c, bool) and not opaque(c)]
    t = Translator()
    z3 = t.z3
    opt = z3.Optimize(ctx=t.ctx)
    opt.set("rlimit", max(1, rlimit))  # deterministic; the timeout is only the safety net
    opt.set("timeout", max(1, timeout_ms))
    for p in preds:
        opt.add(t.pred(p))
    goal = [t.var(s) for s in wanted]
    opt.add(*t.bounds())
    if goal:
        opt.minimize(z3.Sum(*goal))
    if opt.check() != z3.sat:
        return None
    m = opt.model()
    out: dict[str, int] = {}
    for name, v in t.vars.items():
        val = m.eval(v, model_completion=True)
        if z3.is_int_value(val):
            out[name] = val.as_long()
    return out
