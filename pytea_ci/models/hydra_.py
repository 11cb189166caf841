"""Hydra and OmegaConf (issue 21 item 4): `@hydra.main(config_path=..., config_name=...)` runs the
decorated function with the config Hydra composes from the project's config folder with no
command-line overrides — the primary config, its defaults list (`- group: option` loads
`group/option.yaml` under the key `group`, a group config's own defaults are relative to its group,
`_self_` where it is listed, else last, `null` options skipped, `optional` ones when present), and
`${a.b}` interpolations of another key; `hydra/...` entries configure Hydra itself and are skipped. Like argparse defaults, the composed values are the run's
values (an override on the command line is another run). What this reader does not follow (package
directives, `override` entries, resolvers, `???` values, YAML outside yaml_text.py's subset, a
config path outside the project) leaves the config, or that value, unknown, with the file named.

`OmegaConf.load(path)` of a project file and `OmegaConf.create(dict)` give the same config values.
A config is a `DictConfig` instance: attribute and item access, `get`, `in`, `keys`/`values`/`items`;
a key that is not there is unknown (never an error)."""

from __future__ import annotations

import os
import re
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.files import project_file
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Builtin, Instance, Unknown
from pytea_ci.models.yaml_text import parse
from pytea_ci.shapes.tensor import Origin

_MISSING = object()
_REF = re.compile(r"\$\{([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\}$")
MAX_DEPTH = 8  # nested defaults lists


class _Unfollowed(Exception):
    """A feature of Hydra's composition this reader does not follow: the config stays unknown."""


@native_class("omegaconf.DictConfig", "omegaconf.dictconfig.DictConfig")
class DictConfig:
    def get(ctx: Ctx, self: Instance, key: Any, default: Any = None) -> Any:
        return self.attrs[key] if isinstance(key, str) and key in self.attrs else default

    def __getitem__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        if isinstance(key, str) and key in self.attrs:
            return self.attrs[key]
        return ctx.unknown(f"config key {key!r}")

    def __contains__(ctx: Ctx, self: Instance, key: Any) -> Any:  # noqa: N805
        return key in self.attrs if isinstance(key, str) else Unknown("config key present", pytype="bool")

    def keys(ctx: Ctx, self: Instance) -> Any:
        return list(self.attrs)

    def values(ctx: Ctx, self: Instance) -> Any:
        return list(self.attrs.values())

    def items(ctx: Ctx, self: Instance) -> Any:
        return [(k, v) for k, v in self.attrs.items()]

    def __iter__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return list(self.attrs)

    def __len__(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return len(self.attrs)


def _config(ctx: Ctx, doc: Any, root: dict[str, Any], where: str) -> Any:
    """The abstract value of a composed document: dicts become DictConfig, interpolations resolved."""
    if isinstance(doc, dict):
        return Instance(DictConfig, {str(k): _config(ctx, v, root, where) for k, v in doc.items()})
    if isinstance(doc, list):
        return [_config(ctx, v, root, where) for v in doc]
    if isinstance(doc, str) and ("${" in doc or doc == "???"):
        m = _REF.match(doc)
        target = _lookup(root, m.group(1)) if m else _MISSING
        if target is _MISSING or (isinstance(target, str) and "${" in target):
            return Unknown("config value", "str", Origin(ctx.span, f"config value {doc!r} in {where}"))
        return _config(ctx, target, root, where)
    return doc


def _lookup(root: dict[str, Any], dotted: str) -> Any:
    cur: Any = root
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _MISSING
        cur = cur[part]
    return cur


def _merge(into: dict[str, Any], new: dict[str, Any]) -> None:
    """OmegaConf's merge: mappings merge key by key, anything else replaces."""
    for k, v in new.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v)
        else:
            into[k] = v


def _load(ctx: Ctx, folder: str, name: str) -> dict[str, Any] | None:
    """A config file of the config folder as a mapping (None: not there)."""
    file = name if name.endswith((".yaml", ".yml")) else name + ".yaml"
    text = ctx.project_text(file, folder)
    if text is None:
        return None
    if "@package" in text:
        raise _Unfollowed("package directive")
    doc = parse(text) if text.strip() else {}
    if not isinstance(doc, dict):
        raise _Unfollowed("not a mapping")
    return doc


def _default(ctx: Ctx, folder: str, item: Any, depth: int) -> dict[str, Any] | None:
    """What one entry of a defaults list adds (None: nothing, e.g. an absent optional config)."""
    if isinstance(item, str):  # another config of the same folder, merged at this level
        sub = _compose(ctx, folder, item, depth + 1)
        if sub is None:
            raise _Unfollowed(f"config {item!r} not found")
        return sub
    if not (isinstance(item, dict) and len(item) == 1):
        raise _Unfollowed("defaults entry")
    ((group, option),) = item.items()
    if isinstance(group, str) and group.removeprefix("override ").startswith("hydra/"):
        return None  # Hydra's own settings (launcher, logging): not part of the task's config
    optional = isinstance(group, str) and group.startswith("optional ")
    group = group[len("optional "):] if optional else group
    if not isinstance(group, str) or "@" in group or " " in group or group.startswith("/"):
        raise _Unfollowed("defaults entry with a package or an override")
    if option is None:
        return None
    if not isinstance(option, str):
        raise _Unfollowed("defaults option")
    sub = _compose(ctx, os.path.join(folder, group), option, depth + 1)
    if sub is None:
        if optional:
            return None
        raise _Unfollowed(f"config {group}/{option} not found")
    out: dict[str, Any] = {}
    cur = out
    parts = group.split("/")
    for part in parts[:-1]:
        cur = cur.setdefault(part, {})
    cur[parts[-1]] = sub
    return out


def _compose(ctx: Ctx, folder: str, name: str, depth: int = 0) -> dict[str, Any] | None:
    """The config `name` of `folder` with its defaults list applied (None: the file is not there)."""
    if depth > MAX_DEPTH:
        raise _Unfollowed("defaults nested too deep")
    doc = _load(ctx, folder, name)
    if doc is None:
        return None
    defaults = doc.pop("defaults", [])
    if not isinstance(defaults, list):
        raise _Unfollowed("defaults is not a list")
    groups = [str(next(iter(d))).removeprefix("optional ") for d in defaults if isinstance(d, dict) and len(d) == 1]
    if len(groups) != len(set(groups)):
        raise _Unfollowed("a group listed twice")  # hydra: "Multiple values for group"
    out: dict[str, Any] = {}
    if "_self_" not in defaults:
        defaults = [*defaults, "_self_"]
    for item in defaults:
        if item == "_self_":
            _merge(out, doc)
            continue
        added = _default(ctx, folder, item, depth)
        if added is not None:
            _merge(out, added)
    return out


def compose(ctx: Ctx, config_path: Any, config_name: Any) -> Any:
    """The config `@hydra.main(config_path, config_name)` passes, or an unknown naming why not."""
    if not isinstance(config_name, str) or not isinstance(config_path, str) or "://" in config_path:
        return ctx.unknown("hydra config (config folder or name not known)")
    try:
        doc = _compose(ctx, config_path, config_name)
    except (_Unfollowed, RecursionError) as e:
        return Unknown("hydra config", None, Origin(ctx.span, f"hydra config {config_name!r}: {e} not followed"))
    if doc is None:
        return Unknown("hydra config", None, Origin(ctx.span, f"hydra config {config_name!r} not found"))
    return _config(ctx, doc, doc, f"hydra config {config_name!r}")


@model("hydra.main")
def hydra_main(ctx: Ctx, config_path: Any = None, config_name: Any = None, *args: Any, **kwargs: Any) -> Any:
    """`@hydra.main(...)`: the decorated function is called with the composed config."""

    def deco(ctx: Ctx, fn: Any) -> Any:
        here = os.path.dirname(os.path.abspath(ctx.cur_path))  # config_path is relative to this file
        folder = os.path.join(here, config_path) if isinstance(config_path, str) else config_path

        def run(ctx: Ctx, *given: Any, **kw: Any) -> Any:
            return ctx.call(fn, *(given or (compose(ctx, folder, config_name),)), **kw)

        return Builtin("hydra.main.wrapper", run)

    return Builtin("hydra.main.decorator", deco)


@model("omegaconf.OmegaConf.load")
def omegaconf_load(ctx: Ctx, file: Any = None, *args: Any, **kwargs: Any) -> Any:
    text = project_file(ctx, file)
    doc = parse(text) if text is not None and "@package" not in text else None
    if not isinstance(doc, (dict, list)):
        return ctx.unknown(f"config read from {file!r}" if isinstance(file, str) else "config read from a file")
    return _config(ctx, doc, doc if isinstance(doc, dict) else {}, str(file))


@model("omegaconf.OmegaConf.create")
def omegaconf_create(ctx: Ctx, obj: Any = None, *args: Any, **kwargs: Any) -> Any:
    if isinstance(obj, dict) and all(isinstance(k, str) for k in obj):
        return _config(ctx, obj, obj, "OmegaConf.create")
    return ctx.unknown("OmegaConf.create of a value not known")
