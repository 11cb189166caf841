"""The project's Python environment, read from source (issue 21, item 1): which interpreter, its
site-packages folders, and which installed packages the analyzer follows.

The interpreter is `--python`, else `python = "..."` in `[tool.pytea-ci]`, else the active virtualenv
(`VIRTUAL_ENV`), else a `.venv/` at the project root; with none, installed packages stay unknown as
before. The interpreter is only asked where its packages live: it runs isolated and without `site`
(`-I -S`, so no `.pth` file, `sitecustomize` or package code runs) and prints `sysconfig`'s
`purelib`/`platlib`; the plain path lines of the `.pth` files there are read as text (their `import`
lines are never run). Nothing of the project or of a package is imported.

What the interpreter gets (`site_options`) is plain data: the folders, the packages to follow and
not to follow, the per-package step budget, and a fingerprint of the followed packages (their name,
version and the hash of their `RECORD` file, which lists the hash of every installed file), which
is part of each entry point's result-cache key; with an interpreter the user named (`--python`,
`python = ...`), also the top-level names an import can find there (`present`: an import of any other
name raises ModuleNotFoundError, as in CPython; an active virtualenv may be a tool's own, so not then). Files are read through `read`: the driver passes its
journaled `fs.read`, so a replayed run asks them again. A configured interpreter that cannot be used
raises `Unusable`, which the driver reports as a configuration error.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable
from typing import Any

from pytea_ci.diagnostics.budgets import steps_for
from pytea_ci.fsio import atomic_write, read_json

_ANSWER_FORMAT = 1
Read = Callable[[str], bytes]  # a file's bytes, raising OSError (the driver's journaled `fs.read`)


class Unusable(Exception):
    """The configured interpreter cannot be used (the driver makes it a configuration error: exit 2)."""


def _plain(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


# pure-Python model libraries worth following by default (top-level import names), and `kernels`, the hub's
# layer-kernel library that transformers 5 requires: its `use_kernel_forward_from_hub` decorates most layer
# classes at import (it sets two attributes); not followed, every such class was handed to code not followed,
# so any attribute may be on it and each `getattr(module, "_is_hf_initialized", False)` forked a model's paths
DEFAULT_FOLLOW = ("timm", "transformers", "x_transformers", "segmentation_models_pytorch", "torch_geometric",
                  "monai", "diffusers", "open_clip", "kernels")
# never followed whatever the configuration says: the analyzer's models stand for them
NEVER_FOLLOW = ("torch", "torchvision", "torchaudio", "torchtext", "numpy", "einops", "PIL", "scipy")

_QUERY = """
import json, os, sys, sysconfig
out = []
venv = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
cfg = os.path.join(venv, "pyvenv.cfg")
if os.path.isfile(cfg):  # without `site` the virtualenv is not applied: ask for its own folders
    p = sysconfig.get_paths(vars={"base": venv, "platbase": venv})
    out += [p["purelib"], p["platlib"]]
    text = open(cfg, encoding="utf-8", errors="replace").read().lower().replace(" ", "")
    if "include-system-site-packages=true" not in text:
        print(json.dumps(out))
        raise SystemExit(0)
p = sysconfig.get_paths()
print(json.dumps(out + [p["purelib"], p["platlib"]]))
"""


def find_python(explicit: str | None, root: str, environ: dict[str, str] | None = None) -> tuple[str | None, str]:
    """(interpreter, how it was chosen); (None, "") when there is none to use."""
    env = os.environ if environ is None else environ
    if explicit:
        path = os.path.join(root, os.path.expanduser(explicit))
        if os.path.isdir(path):  # a virtualenv folder is accepted for its interpreter
            path = _venv_python(path) or path
        if not os.path.isfile(path):
            raise Unusable(f"--python / python: no interpreter at {explicit}")
        return path, "configured"
    venv = env.get("VIRTUAL_ENV")
    if venv and _venv_python(venv):
        return _venv_python(venv), "VIRTUAL_ENV"
    local = _venv_python(os.path.join(root, ".venv"))
    return (local, ".venv") if local else (None, "")


def _venv_python(folder: str) -> str | None:
    for cand in ("bin/python", "bin/python3", "Scripts/python.exe"):
        path = os.path.join(folder, cand)
        if os.path.isfile(path):
            return path
    return None


@functools.lru_cache(maxsize=8)
def site_folders(python: str, cache: str | None = None, read: Read = _plain) -> tuple[str, ...]:
    """The folders installed packages of `python` live in (its purelib and platlib, then the plain
    path lines of their `.pth` files). Asked of the interpreter with `-I -S`: nothing is imported
    but `json` and `sysconfig`. With a cache folder, the answer is kept there (`_ask`)."""
    found = _ask(python, cache, read)
    if not isinstance(found, list):
        raise Unusable(f"--python / python: {python} did not say where its packages are")
    out: list[str] = []
    for folder in found:
        if isinstance(folder, str) and os.path.isdir(folder) and folder not in out:
            out.append(os.path.realpath(folder))
    for folder in list(out):
        out += [p for p in _pth_paths(folder, read) if p not in out]
    return tuple(dict.fromkeys(out))


def _ask(python: str, cache: str | None, read: Read) -> Any:
    """What the interpreter answers to `_QUERY`; kept in `cache/environment/` keyed by the interpreter's
    path, the size, modification time and inode of the file it resolves to, and the content of the
    virtualenv's `pyvenv.cfg`, so a check in the same environment does not start the interpreter again."""
    path = _answer_path(python, cache, read) if cache else None
    if path is not None:
        doc = read_json(path)
        if isinstance(doc, dict) and isinstance(doc.get("folders"), list):
            return doc["folders"]
    try:
        p = subprocess.run([python, "-I", "-S", "-c", _QUERY], capture_output=True, text=True, timeout=30,
                           stdin=subprocess.DEVNULL)
        found = json.loads(p.stdout) if p.returncode == 0 else None
    except (OSError, ValueError, subprocess.SubprocessError):
        found = None
    if path is not None and isinstance(found, list) and all(isinstance(f, str) for f in found):
        try:
            atomic_write(path, json.dumps({"python": python, "folders": found}))
        except OSError:
            pass  # a read-only cache only costs the interpreter's start
    return found


def _answer_path(python: str, cache: str, read: Read) -> str | None:
    try:
        st = os.stat(python)  # follows the virtualenv's link to the interpreter it runs
    except OSError:
        return None
    cfg = _read(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(python))), "pyvenv.cfg"), read)
    doc = [_ANSWER_FORMAT, os.path.abspath(python), os.path.realpath(python), st.st_size, st.st_mtime_ns, st.st_ino,
           hashlib.sha256(cfg).hexdigest()]
    key = hashlib.sha256(json.dumps(doc).encode("utf-8", "surrogatepass")).hexdigest()
    return os.path.join(cache, "environment", key[:2], key + ".json")


def _pth_paths(folder: str, read: Read) -> list[str]:
    """Folders named by the `.pth` files of `folder`, as text: lines that are not `import` statements."""
    out = []
    for pth in sorted(glob.glob(os.path.join(folder, "*.pth"))):
        try:
            lines = read(pth).decode("utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.strip()
            if not line or line.startswith(("#", "import ", "import\t")):
                continue
            path = os.path.realpath(os.path.join(folder, line))
            if os.path.isdir(path):
                out.append(path)
    return out


def distributions(folders: tuple[str, ...], read: Read = _plain) -> dict[str, tuple[str, str]]:
    """Top-level import name -> (version, hash of the RECORD of its distribution), from `*.dist-info`."""
    out: dict[str, tuple[str, str]] = {}
    for folder in folders:
        for info in sorted(glob.glob(os.path.join(folder, "*.dist-info"))):
            version = os.path.basename(info)[: -len(".dist-info")].rpartition("-")[2]
            record = _read(os.path.join(info, "RECORD"), read)
            digest = hashlib.sha256(record).hexdigest()[:16]
            for name in _top_level(info, record, read):
                out.setdefault(name, (version, digest))
    return out


def _read(path: str, read: Read) -> bytes:
    try:
        return read(path)
    except OSError:
        return b""


def _top_level(info: str, record: bytes, read: Read) -> list[str]:
    text = _read(os.path.join(info, "top_level.txt"), read).decode("utf-8", errors="replace")
    names = [n.strip() for n in text.splitlines() if n.strip()]
    if names:
        return names
    tops = {line.split(b"/", 1)[0].split(b",", 1)[0].decode("utf-8", errors="replace")
            for line in record.splitlines() if line}
    return sorted(t[:-3] if t.endswith(".py") else t for t in tops
                  if not t.endswith((".dist-info", ".pth", ".data")) and not t.startswith(("..", "__")))


def site_options(python: str | None, follow: list[str] | None, skip: list[str], package_budget: float,
                 cache: str | None = None, read: Read = _plain, named: bool = False) -> dict[str, Any]:
    """What the interpreter is told about the environment ({} when there is none); `cache`: the cache
    folder, where the interpreter's answer is kept. `named`: the user named the interpreter (`--python`,
    `python = ...`), so its environment is the one the program runs in: the top-level names an import
    can find there are listed (`present`), and an import of any other name raises as in CPython."""
    if python is None:
        return {}
    folders = site_folders(os.path.abspath(python), cache, read)
    names = list(DEFAULT_FOLLOW) if follow is None else list(follow)
    dists = distributions(folders, read)
    names += [n for n in torch_dependencies(folders, names, read) if n not in names and not _skipped(n, skip)]
    followed = sorted(n for n in dists if _follows(n, names, skip))
    out = {"folders": list(folders), "follow": names, "skip": sorted(set(skip) | set(NEVER_FOLLOW)),
           "package_steps": steps_for(package_budget),
           "packages": {n: list(dists[n]) for n in followed}}
    if named:
        out["present"] = present_names(folders, read)
    return out


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE_FILE = (".py", ".pyc", ".pyw", ".so", ".pyd")


def present_names(folders: tuple[str, ...], read: Read = _plain) -> list[str]:
    """The top-level names an import can find in `folders`: packages (namespace ones too) and modules
    (source or compiled), and, over-approximated, every word of the `.pth` files and of editable
    installs' finder modules (an `import` line there may install a path hook, a line may name a zip)."""
    out: set[str] = set()
    for folder in folders:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for name in entries:
            path = os.path.join(folder, name)
            if name.endswith(".pth") or (name.startswith("__editable__") and name.endswith(".py")):
                out.update(_WORD.findall(_read(path, read).decode("utf-8", errors="replace")))
            stem = name.split(".", 1)[0]
            if stem.isidentifier() and (name.endswith(_MODULE_FILE) or (name == stem and os.path.isdir(path))):
                out.add(stem)
    return sorted(out)


def _follows(name: str, follow: list[str], skip: list[str]) -> bool:
    if _skipped(name, skip):
        return False
    return "*" in follow or name in follow


def _skipped(name: str, skip: list[str]) -> bool:
    return name in skip or name in NEVER_FOLLOW


_REQUIRES = re.compile(r"^Requires-Dist:\s*([A-Za-z0-9][A-Za-z0-9._-]*)(.*)$", re.MULTILINE)


def _dist_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def torch_dependencies(folders: tuple[str, ...], follow: list[str], read: Read = _plain) -> list[str]:
    """Top-level import names of the installed distributions that a followed one requires (directly or
    through another such) and that require torch themselves, not as an extra: model code whose tensors
    the followed package's pass through (x-transformers' `torch-einops-utils`). A framework-agnostic
    helper (einx, huggingface_hub, regex: torch an extra or not required) stays unfollowed."""
    infos: dict[str, tuple[list[str], set[str]]] = {}  # distribution -> (its top-level names, what it requires)
    for folder in folders:
        for info in sorted(glob.glob(os.path.join(folder, "*.dist-info"))):
            dist = _dist_name(os.path.basename(info)[: -len(".dist-info")].rpartition("-")[0])
            if dist in infos:
                continue
            meta = _read(os.path.join(info, "METADATA"), read).decode("utf-8", errors="replace")
            needs = {_dist_name(m.group(1)) for m in _REQUIRES.finditer(meta) if "extra" not in m.group(2)}
            infos[dist] = (_top_level(info, _read(os.path.join(info, "RECORD"), read), read), needs)
    todo = [d for d, (tops, _) in infos.items() if "*" not in follow and any(t in follow for t in tops)]
    seen, out = set(todo), []
    while todo:
        for need in sorted(infos[todo.pop()][1]):
            if need in infos and need not in seen and "torch" in infos[need][1]:
                seen.add(need)
                todo.append(need)
                out += infos[need][0]
    return out
