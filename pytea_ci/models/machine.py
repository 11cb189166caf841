"""The machine as an unknown input (DESIGN §3 "The machine is an input"): GPU availability and
counts, the process group (ranks, world size), environment variables, platform and host name.

Facts that are bools or ints are symbols of kind MACHINE with a fixed name per fact, so every read of
the same fact is the same symbol and branches on it decide consistently along a path (after
`assert torch.cuda.is_available()` an `if torch.cuda.is_available():` takes its true side only).
A finding that holds only on some machines is not reported (the interpreter drops findings made on
a side of an undecided branch on a machine fact). Strings (environment values, platform, host name)
are Unknowns of Python type `str`; `os.environ.get(name, default)` is either the default or such a
string (the path forks on a per-variable INPUT symbol; while a project module is imported, it is
one unknown string and nothing forks). The versions of modeled libraries are
known: `torch.__version__` is the modeled torch's.
"""

from __future__ import annotations

import re
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class, prop, register
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, MACHINE, Sym

TORCH_VERSION = "2.13.0"


def fact(ctx: Ctx, name: str, lo: int = 0, hi: int | None = None) -> Sym:
    """The machine fact `name` (one symbol per name, so repeated reads agree)."""
    return Sym(name, MACHINE, lo, hi, ctx.span, f"a fact about the machine: {name}")


def unknown_str(ctx: Ctx, what: str) -> Unknown:
    """A string the program reads from its environment: its content is not known."""
    u = ctx.unknown(what)
    u.pytype = "str"
    return u


# ----- torch.cuda, torch.backends --------------------------------------------------------------------
# How a finding names a machine fact: the call that reads it.
FACT_TEXT = {"cuda_available": "torch.cuda.is_available()", "mps_available": "torch.backends.mps.is_available()",
             "xpu_available": "torch.xpu.is_available()",
             "cudnn_available": "torch.backends.cudnn.is_available()"}


@model("torch.cuda.is_available", "torch.cuda.is_bf16_supported", "torch.cuda.is_initialized")
def cuda_is_available(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return fact(ctx, "cuda_available", 0, 1)


@model("torch.backends.mps.is_available", "torch.backends.mps.is_built")
def mps_is_available(ctx: Ctx) -> Any:
    return fact(ctx, "mps_available", 0, 1)


@model("torch.xpu.is_available")
def xpu_is_available(ctx: Ctx) -> Any:
    """Intel GPUs, as `cuda_available` (transformers 5 keeps `is_torch_xpu_available()` at import: a value not
    understood forked each branch on it; a fact is decided the same way along a path)."""
    return fact(ctx, "xpu_available", 0, 1)


@model("torch.backends.cudnn.is_available", "torch.backends.cuda.is_built")
def cudnn_is_available(ctx: Ctx) -> Any:
    return fact(ctx, "cudnn_available", 0, 1)


@model("torch.cuda.device_count")
def device_count(ctx: Ctx) -> Any:
    return fact(ctx, "cuda_device_count")


@model("torch.cuda.current_device")
def current_device(ctx: Ctx) -> Any:
    return fact(ctx, "cuda_current_device")


@model("torch.cuda.get_device_capability")
def get_device_capability(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return (fact(ctx, "cuda_capability_major"), fact(ctx, "cuda_capability_minor"))


@model("torch.cuda.set_device", "torch.cuda.synchronize", "torch.cuda.reset_peak_memory_stats")
def set_device(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return None


@model("torch.cuda.get_device_name")
def get_device_name(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return unknown_str(ctx, "name of the GPU")


@model("torch.cuda.memory_allocated", "torch.cuda.max_memory_allocated", "torch.cuda.memory_reserved")
def memory_allocated(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return fact(ctx, "cuda_memory")


# A CUDA (or XPU) graph capture: only what begins one (`torch.cuda.graph(...)`, a `CUDAGraph`, graphed
# callables) makes a stream capture; none of them is modeled, so a path that reads one may be capturing from then on.
_CAPTURE = "a CUDA graph capture may be under way"


@model("torch.cuda.graph", "torch.cuda.graphs.graph", "torch.cuda.CUDAGraph", "torch.cuda.graphs.CUDAGraph",
       "torch.cuda.make_graphed_callables", "torch.cuda.graphs.make_graphed_callables", "torch.xpu.graph",
       "torch.xpu.XPUGraph")
def cuda_graph(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    ctx.facts[_CAPTURE] = True
    return ctx.unknown("CUDA graph capture (torch.cuda.graph, CUDAGraph) not modeled")


@model("torch.cuda.is_current_stream_capturing", "torch.xpu.is_current_stream_capturing")
def is_current_stream_capturing(ctx: Ctx) -> Any:
    """Program state, not a machine fact: no stream is capturing unless the path began a capture (a CUDA
    build answers False outside one; a CPU-only build raises RuntimeError, which code that asks catches:
    transformers' `is_tracing`). After a capture may have begun: not known."""
    if ctx.facts.get(_CAPTURE):
        return ctx.unknown("whether a CUDA graph capture is under way")
    return False


# ----- torch.distributed ---------------------------------------------------------------------------
_INITIALIZED = "torch.distributed initialized"


@model("torch.distributed.is_available", "torch.distributed.is_nccl_available", "torch.distributed.is_torchelastic_launched")
def dist_is_available(ctx: Ctx) -> Any:
    return fact(ctx, "distributed_available", 0, 1)


@model("torch.distributed.is_initialized")
def dist_is_initialized(ctx: Ctx) -> Any:
    """Program state, not a machine fact: True once this path called `init_process_group`."""
    return bool(ctx.facts.get(_INITIALIZED, False))


@model("torch.distributed.init_process_group")
def init_process_group(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    ctx.facts[_INITIALIZED] = True
    return None


@model("torch.distributed.destroy_process_group")
def destroy_process_group(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    ctx.facts[_INITIALIZED] = False
    return None


@model("torch.distributed.get_rank", "torch.distributed.get_node_local_rank")
def get_rank(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return fact(ctx, "rank")


@model("torch.distributed.get_world_size")
def get_world_size(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return fact(ctx, "world_size", 1)


@model("torch.distributed.barrier", "torch.distributed.all_reduce", "torch.distributed.broadcast",
       "torch.distributed.reduce", "torch.distributed.all_gather", "torch.distributed.all_gather_object")
def collective(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """Collectives work in place on tensors of the caller's shape: no shape effect here."""
    return None


# ----- os, sys, socket, platform ---------------------------------------------------------------------
def env_value(ctx: Ctx, key: Any, default: Any = None, has_default: bool = True) -> Any:
    """The value of an environment variable: the default (when one is given) or an unknown string."""
    name = key if isinstance(key, str) else "?"
    value = unknown_str(ctx, f"value of environment variable {name}")
    if not has_default or not isinstance(key, str) or ctx.importing:
        # While a project module is imported (config folders, log levels, ranks read in module
        # bodies) a read does not fork: one unknown string, which covers the default too; a branch
        # on it at import time takes one side without forking (Interpreter.choose).
        return value
    # The default is the program's own configuration (like an argparse default): a finding with it
    # is reported, so the choice is an input, not a machine fact.
    is_set = Sym(f"env_{name}_set", INPUT, 0, 1, ctx.span, f"environment variable {name} is set")
    if ctx.fork(P.eq(is_set, 0)):
        return default
    return value


@native_class("os._Environ")
class Environ:
    """`os.environ`: every read is an unknown string (or the default given to `get`)."""

    def get(ctx: Ctx, self: Instance, key: Any, default: Any = None) -> Any:
        return env_value(ctx, key, default)

    def __getitem__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        return env_value(ctx, key, has_default=False)

    def setdefault(ctx: Ctx, self: Instance, key: Any, default: Any = None) -> Any:
        return env_value(ctx, key, default)

    def __setitem__(ctx: Ctx, self: Instance, key: Any, value: Any) -> Any:  # noqa: N805
        return None

    def __contains__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        return Unknown("environment variable set", pytype="bool")

    def keys(ctx: Ctx, self: Instance) -> Any:
        return ctx.unknown("environment variable names")

    def items(ctx: Ctx, self: Instance) -> Any:
        return ctx.unknown("environment variables")

    def copy(ctx: Ctx, self: Instance) -> Any:
        return self

    def update(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return None

    def pop(ctx: Ctx, self: Instance, key: Any, *default: Any) -> Any:
        return env_value(ctx, key, default[0] if default else None, bool(default))


register("os.environ", Instance(Environ))
register("sys.platform", Unknown("sys.platform", pytype="str"))
# The command line is input the analyzer does not know (argparse takes its defaults or the
# configured overrides; a launcher called with `**` of a mapping built from argv still runs).
register("sys.argv", Unknown("sys.argv"))


@model("os.getenv")
def getenv(ctx: Ctx, key: Any, default: Any = None) -> Any:
    return env_value(ctx, key, default)


@model("socket.gethostname", "platform.node", "platform.system", "platform.machine", "platform.platform",
       "platform.processor", "getpass.getuser")
def host_string(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return unknown_str(ctx, "a property of the machine")


@model("os.cpu_count", "multiprocessing.cpu_count", "torch.get_num_threads")
def cpu_count(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return fact(ctx, "cpu_count", 1)


@model("sys.exit", "builtins.exit", "builtins.quit", "os._exit")
def sys_exit(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """Ends the program: the path ends here (an exception of the program, not a finding)."""
    ctx.user_error("SystemExit", "sys.exit()")


# ----- versions of the modeled libraries ---------------------------------------------------------------
register("torch.__version__", TORCH_VERSION)


class Version(tuple):  # type: ignore[type-arg]
    """`packaging.version.parse(...)` of a version string: compared as its release numbers. `release`: the
    release numbers as written (not padded) when the text is a plain release, with at most a `.devN`/`.postN`
    and a `+local` part, so `base_version`, `release`, `major`, `minor` and `micro` are what packaging gives
    (transformers 5's `is_torch_greater_or_equal(v, accept_dev=True)` parses `base_version` again); None
    otherwise (those attributes are not known)."""

    release: tuple[int, ...] | None = None


def _release(text: str) -> tuple[int, ...]:
    out: list[int] = []
    for part in text.split("+")[0].split("."):
        digits = "".join(ch for ch in part if ch.isdigit()) if part[:1].isdigit() else ""
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


@model("packaging.version.parse", "packaging.version.Version", "distutils.version.LooseVersion")
def parse_version(ctx: Ctx, text: Any) -> Any:
    if not isinstance(text, str):
        return ctx.unknown("version of an unknown string")
    rel = _release(text)
    if not rel:
        return ctx.unknown("version")
    out = Version(rel + (0,) * (3 - len(rel)))
    if _PLAIN.match(text.strip().lower()):
        out.release = rel
    return out


_PLAIN = re.compile(r"v?\d+(\.\d+)*(\.(dev|post)\d+)?(\+[a-z0-9.]+)?$")


def _release_of(ctx: Ctx, v: Any, what: str) -> Any:
    """The release numbers as written, or an unknown `what` (a version not parsed plainly)."""
    rel = v.release if isinstance(v, Version) else None
    return rel if rel is not None else ctx.unknown(f"Version.{what}")


@prop("builtins.Version.base_version")
def version_base(ctx: Ctx, v: Any) -> Any:
    rel = _release_of(ctx, v, "base_version")
    return ".".join(map(str, rel)) if isinstance(rel, tuple) else rel


@prop("builtins.Version.release")
def version_release(ctx: Ctx, v: Any) -> Any:
    return _release_of(ctx, v, "release")


def _part(k: int, what: str) -> Any:
    def part(ctx: Ctx, v: Any) -> Any:
        rel = _release_of(ctx, v, what)
        return (rel[k] if k < len(rel) else 0) if isinstance(rel, tuple) else rel  # (packaging pads with 0)
    return part


for _k, _what in enumerate(("major", "minor", "micro")):
    prop(f"builtins.Version.{_what}")(_part(_k, _what))

