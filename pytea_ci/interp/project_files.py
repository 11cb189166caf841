"""Small data files of the project read as text (issue 21 items 4 and 5): Hydra's config folder,
configs and label maps the program loads. Read, never executed; only files inside the project (the
analysis root or the entry point's folder), at most `MAX_BYTES`, UTF-8. An editor's unsaved buffer
stands in for the file. Each file read is recorded with its content hash in `Shared.inputs`, so a
cached result is used again only while those files are unchanged (driver/cache.py)."""

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
    if not name or "\0" in name:
        return None
    folder = os.path.join(os.path.dirname(os.path.abspath(interp.cur_path)), base or "")
    path = os.path.normpath(os.path.join(folder, name))
    if not interp.inside_project(path) or not os.path.isfile(path):
        return None
    data = interp.shared.editor.text(path)
    try:
        if data is None:
            if os.path.getsize(path) > MAX_BYTES:
                return None
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if len(data) > MAX_BYTES:
        return None
    rel = os.path.relpath(os.path.realpath(path), interp.config.root).replace(os.sep, "/")
    interp.shared.inputs[rel] = content_hash(data)
    return text

