"""Run one subject (original or mutant) under real torch and say what happened per input.

The parent imports torch once; every run is a forked child (fresh module state, seeds fixed,
one thread, an alarm as timeout) that reports JSON through a pipe. A Module subject builds its
model once per input (so a failing input does not poison the next) and calls it; a Script runs
as `__main__` with its variant's argv and environment and stops, as a success, when any
DataLoader is iterated a second time. The raising statement is the innermost traceback frame
inside the work folder outside the generated driver; when there is none (a model that is an
`nn.Sequential` of torch layers built by functions raises inside torch only), the driver's own
statement: the call of the failing input, at its line in `mutant_driver.py` (or the build's line,
when the constructor raises). With `trace`, the child also returns the
lines executed in the subject's files (sys.settrace), which is where mutants may go.

`device="meta"` emulates a second device: `torch.accelerator` / `torch.cuda.is_available()` say
yes and the accelerator is `meta`, so a dropped `.to(device)` leaves CPU tensors meeting meta
ones; only errors about devices count there (meta tensors cannot be printed or read back, so
other errors after the first device move are not labels).
"""
from __future__ import annotations

import json
import os
import re
import random
import runpy
import signal
import sys
import traceback
import types
from typing import Any

from common import DRIVER, STANDIN, Module, Script, call_text, driver_text

DEVICE_WORDS = ("expected device", "same device", "device type", "Expected all tensors")


class _StopRun(BaseException):
    """A script finished one epoch and one evaluation pass."""


def fixed_hash_seed() -> None:
    """Re-run this process with PYTHONHASHSEED=0 (once, at the start of a command): a script that numbers
    its vocabulary in the order of a `set` of words numbers it in hash order, which changes from one
    interpreter to the next, and so would its labels."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})


def warm_up() -> None:
    import numpy  # noqa: F401
    import torch
    import torch.utils.data  # noqa: F401

    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    sys.path.insert(0, STANDIN)
    import torchvision  # noqa: F401 (the acceptance oracle's stand-in)
    import torchvision.datasets  # noqa: F401
    import torchvision.transforms  # noqa: F401

    utils = types.ModuleType("torchvision.utils")
    utils.save_image = lambda *a, **k: None  # type: ignore[attr-defined]
    utils.make_grid = lambda t, *a, **k: t  # type: ignore[attr-defined]
    sys.modules["torchvision.utils"] = utils
    plt = types.ModuleType("matplotlib.pyplot")  # plotting is no part of a label
    plt.__getattr__ = lambda name: (lambda *a, **k: None)  # type: ignore[attr-defined]
    mpl = types.ModuleType("matplotlib")
    mpl.pyplot = plt  # type: ignore[attr-defined]
    mpl.use = lambda *a, **k: None  # type: ignore[attr-defined]
    sys.modules.update({"matplotlib": mpl, "matplotlib.pyplot": plt})
    torchvision.utils = utils  # type: ignore[attr-defined]


def _seed() -> None:
    import numpy as np
    import torch

    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    torch.set_num_threads(1)


def _where(exc: BaseException, work: str) -> tuple[str | None, int | None]:
    worker = _worker_frame(exc, work)
    if worker is not None:
        return worker
    inner: tuple[str | None, int | None] = (None, None)
    driver: tuple[str | None, int | None] = (None, None)
    for fr in traceback.extract_tb(exc.__traceback__):
        fn = os.path.realpath(fr.filename)
        if not fn.startswith(work + os.sep):
            continue
        if os.path.basename(fn) != DRIVER:
            inner = (os.path.relpath(fn, work), fr.lineno)
        elif driver == (None, None):  # the driver's statement that called into the model
            driver = (DRIVER, fr.lineno)
    return inner if inner != (None, None) else driver


def _worker_frame(exc: BaseException, work: str) -> tuple[str, int] | None:
    """The raising statement of an exception a DataLoader worker process raised (torch re-raises it in the
    main process at the loop, its own traceback in the message: "Original Traceback"): the innermost frame of
    that traceback in the subject's files; None for any other exception (stop 40)."""
    text = str(exc)
    if "Original Traceback" not in text:
        return None
    frames = re.findall(r'File "([^"]+)", line (\d+)', text.split("Original Traceback", 1)[1])
    inside = [(os.path.relpath(os.path.realpath(f), work), int(n)) for f, n in frames
              if os.path.realpath(f).startswith(work + os.sep)]
    return inside[-1] if inside else None


def _outcome(exc: BaseException | None, work: str) -> dict[str, Any]:
    if exc is None:
        return {"status": "ok"}
    if isinstance(exc, TimeoutError):
        return {"status": "timeout"}
    file, line = _where(exc, work)
    return {"status": "error", "exception": type(exc).__name__, "message": str(exc)[:300], "file": file, "line": line}


def _patch_loaders() -> None:
    """One epoch of each DataLoader: iterating a loader again after a pass over it stops the run (a
    shortened run ends as a successful one). A pass is an iteration that ran to its end or took more than
    one batch; an iterator the program takes one batch of (`next(iter(loader))`, a preview) is none, so the
    loop after it runs its epoch (stop 40; before, the preview stopped the run at the loop, and a bug every
    epoch meets was labelled `never`)."""
    import torch.utils.data as tud

    orig = tud.DataLoader.__iter__
    done: set[int] = set()

    def once(self: Any) -> Any:
        if id(self) in done:
            raise _StopRun()
        it = orig(self)
        loader = id(self)
        taken = [0]

        class _Pass:
            def __iter__(self) -> Any:
                return self

            def __next__(self) -> Any:
                try:
                    item = next(it)
                except StopIteration:
                    done.add(loader)
                    raise
                taken[0] += 1
                if taken[0] == 2:  # more than a preview: this is the loader's pass
                    done.add(loader)
                return item

            def __len__(self) -> int:
                return len(it)

            def __getattr__(self, name: str) -> Any:
                return getattr(it, name)

        return _Pass()

    tud.DataLoader.__iter__ = once  # type: ignore[method-assign]


_FACTORIES = ("randn", "rand", "zeros", "ones", "empty", "full", "randint", "arange", "tensor", "eye", "linspace",
              "zeros_like", "ones_like", "randn_like", "rand_like", "full_like", "as_tensor")


def _patch_meta() -> None:
    """`cuda` (and the accelerator) become `meta`; reading a meta value back gives 0."""
    import torch

    meta = torch.device("meta")

    def fix(d: Any) -> Any:
        if isinstance(d, torch.device) and d.type == "cuda" or isinstance(d, str) and d.startswith("cuda"):
            return meta
        return d

    def wrap(orig: Any) -> Any:
        def moved(*a: Any, **k: Any) -> Any:
            if "device" in k:
                k["device"] = fix(k["device"])
            return orig(*[fix(x) for x in a], **k)
        return moved

    torch.cuda.is_available = lambda: True  # type: ignore[assignment]
    torch.accelerator.is_available = lambda: True  # type: ignore[assignment]
    torch.accelerator.current_accelerator = lambda *a, **k: meta  # type: ignore[assignment]
    torch.Tensor.to = wrap(torch.Tensor.to)  # type: ignore[method-assign]
    torch.nn.Module.to = wrap(torch.nn.Module.to)  # type: ignore[method-assign]
    torch.Tensor.cuda = lambda self, *a, **k: self.to(meta)  # type: ignore[method-assign]
    torch.nn.Module.cuda = lambda self, *a, **k: self.to(meta)  # type: ignore[method-assign]
    for name in _FACTORIES:
        setattr(torch, name, wrap(getattr(torch, name)))
    for name, zero in (("item", 0.0), ("__float__", 0.0), ("__int__", 0), ("__index__", 0), ("__bool__", False),
                       ("tolist", [])):
        orig = getattr(torch.Tensor, name)
        setattr(torch.Tensor, name, (lambda o, z: lambda self, *a, **k: z if self.is_meta else o(self, *a, **k))(orig, zero))
    fmt = torch.Tensor.__format__
    torch.Tensor.__format__ = lambda self, spec: format(0.0, spec) if self.is_meta else fmt(self, spec)  # type: ignore[method-assign]


def _tracer(work: str, files: set[str], hits: dict[str, set[int]]) -> Any:
    wanted = {os.path.join(work, f): f for f in files}

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            hits[wanted[frame.f_code.co_filename]].add(frame.f_lineno)
        return local

    def glob(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename in wanted:
            hits[wanted[frame.f_code.co_filename]].add(frame.f_code.co_firstlineno)
            return local
        return None

    return glob


def _run_module(subject: Module, work: str, ins: list) -> list[dict]:
    """Each input on a fresh build; the build and the call compiled at their lines of the generated
    driver (`driver_text` of the same inputs), so a frame in the driver is a line of that file."""
    results = []
    head = "import torch\n" + subject.imports + "\n" + subject.build
    first_call = len(driver_text(subject, []).splitlines())  # the lines before the first call
    for j, (b, s) in enumerate(ins):
        _seed()
        env: dict[str, Any] = {"__name__": "mutant_driver"}
        try:
            exec(compile(head, os.path.join(work, DRIVER), "exec"), env)  # noqa: S102 (the oracle runs torch)
            exec(compile("\n" * (first_call + j) + call_text(subject, b, s), os.path.join(work, DRIVER),  # noqa: S102
                         "exec"), env)
            results.append(_outcome(None, work))
        except Exception as e:  # noqa: BLE001 (every exception is a label)
            results.append(_outcome(e, work))
    return results


def _run_script(subject: Script, work: str, variant: Any, device: str | None) -> dict:
    argv, env = variant
    os.environ.update(dict(env))
    _seed()
    _patch_loaders()
    if device == "meta":
        _patch_meta()
    sys.argv = [os.path.join(work, subject.entry), *subject.argv, *argv]
    try:
        runpy.run_path(os.path.join(work, subject.entry), run_name="__main__")
    except (_StopRun, SystemExit) as e:
        if isinstance(e, SystemExit) and e.code not in (None, 0):
            return {"status": "error", "exception": "SystemExit", "message": str(e.code), "file": None, "line": None}
    except Exception as e:  # noqa: BLE001
        return _outcome(e, work)
    return {"status": "ok"}


def _child(subject: Module | Script, work: str, which: Any, trace: set[str] | None, device: str | None) -> dict:
    work = os.path.realpath(work)
    os.chdir(work)
    sys.path[:0] = [work] if isinstance(subject, Module) else [os.path.dirname(os.path.join(work, subject.entry)), work]
    if isinstance(subject, Script) and subject.setup:
        exec(compile(subject.setup, "<setup>", "exec"), {"__name__": "setup"})  # noqa: S102
    hits: dict[str, set[int]] = {f: set() for f in trace or ()}
    if trace:
        sys.settrace(_tracer(work, trace, hits))
    if isinstance(subject, Module):
        out: Any = _run_module(subject, work, which)
    else:
        out = _run_script(subject, work, which, device)
    sys.settrace(None)
    return {"results": out, "lines": {f: sorted(v) for f, v in hits.items()}}


def run(subject: Module | Script, work: str, which: Any, *, trace: set[str] | None = None,
        device: str | None = None, timeout: int = 60) -> dict:
    """Fork, run `which` (a list of Module inputs, or one Script variant), return the child's report."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rfd)
        code = 0
        try:
            sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
            signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(TimeoutError()))
            signal.alarm(timeout)
            rep = _child(subject, work, which, trace, device)
            signal.alarm(0)
        except BaseException as e:  # noqa: BLE001
            rep = {"results": None, "crash": f"{type(e).__name__}: {e}"[:300]}
            code = 1
        with os.fdopen(wfd, "w") as f:
            json.dump(rep, f)
        os._exit(code)
    os.close(wfd)
    with os.fdopen(rfd) as f:
        data = f.read()
    os.waitpid(pid, 0)
    return json.loads(data) if data else {"results": None, "crash": "no report"}
