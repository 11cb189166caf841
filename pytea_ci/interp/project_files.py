"""Small data files of the project read as text (issue 21 items 4 and 5): Hydra's config folder,
configs and label maps the program loads. Read, never executed; only files inside the project (the
analysis root or the entry point's folder), at most `MAX_BYTES`, UTF-8. An editor's unsaved buffer
stands in for the file. Each file read is recorded with its content hash in `Shared.inputs`, so a
cached result is used again only while those files are unchanged (driver/cache.py).

The data files of a followed installed package are read the same way by the package's own code, and its
folders listed (issue 36: open_clip fills its model table at import from `model_configs/*.json` next to
its `factory.py`): only inside the folder of the package whose code is running, never elsewhere; what a
package holds changes with its version, which keys what its import leaves (packages/kept.py)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pytea_ci.fsio import DATA_FILE_LIMIT as MAX_BYTES
from pytea_ci.fsio import content_hash

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


def read_text(interp: "Interpreter", name: str, base: str | None = None) -> str | None:
    """The text of the project file `name` (relative to `base`, itself relative to the folder of the
    file running), or None when it is outside the project, missing, too large or not text."""
    data = read_bytes(interp, name, base)
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_bytes(interp: "Interpreter", name: str, base: str | None = None, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of the project file `name` (as `read_text` finds it; a pickle, a NumPy or torch file the
    program loads, parsed as data by models/pickled.py, up to `BINARY_LIMIT`: its arrays' bytes are skipped,
    its structure is what is read), or None when outside the project, missing or larger than `limit`."""
    if not name or "\0" in name:
        return None
    folder = os.path.join(os.path.dirname(os.path.abspath(interp.cur_path)), base or "")
    path = os.path.normpath(os.path.join(folder, name))
    own = package_data(interp, path)
    if not (own or interp.inside_project(path)) or not os.path.isfile(path):
        return None
    text = interp.shared.editor.text(path)
    try:
        if text is not None:
            data = text
        else:
            if os.path.getsize(path) > limit:
                return None
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError:
        return None
    if len(data) > limit:
        return None
    if not own:
        record_input(interp, path, data)
    return data


def record_input(interp: "Interpreter", path: str, data: bytes) -> None:
    """The analysis read the project file `path` (its first bytes `data`, as the result cache rereads them):
    a cached result is used again only while it holds them (`Shared.inputs`, driver/cache.py)."""
    rel = os.path.relpath(os.path.realpath(path), interp.config.root).replace(os.sep, "/")
    interp.shared.inputs[rel] = content_hash(data)


MAX_ENTRIES = 2_000  # a folder listed holds at most this many entries (else not known)


def package_data(interp: "Interpreter", path: str) -> bool:
    """Whether the absolute `path` is inside the folder of the followed installed package whose code is
    running (`Installed.data_folder`)."""
    inst = interp.shared.installed
    folder = inst.data_folder(os.path.abspath(interp.cur_path)) if inst is not None else None
    if folder is None or not os.path.isabs(path):
        return False
    real = os.path.realpath(path)
    return real == folder or real.startswith(folder + os.sep)


def data_kind(interp: "Interpreter", path: str) -> str | None:
    """"file", "folder" or "absent" for a path of the running package's data (`package_data`); None when
    that is not known here."""
    if not package_data(interp, path):
        return None
    return "folder" if os.path.isdir(path) else "file" if os.path.isfile(path) else "absent"


def data_listing(interp: "Interpreter", path: str) -> list[str] | None:
    """The names in a folder of the running package's data (`os.listdir`, in no order promised); None when
    not such a folder or too large."""
    if data_kind(interp, path) != "folder":
        return None
    try:
        names = os.listdir(path)
    except OSError:
        return None
    return names if len(names) <= MAX_ENTRIES else None

