"""Configs of a model hub: Hugging Face transformers (issue 21, item 3): `from_pretrained(path)` and the auto classes' `from_config`.

`XConfig(...)` and `XModel(config)` are read from the installed package's source like any code. What
the source cannot give is taken here, for classes of an installed package that is followed:

* `from_pretrained(folder)`, where the folder is in the project and holds `config.json`: the JSON
  (read as data, never executed) builds the config class — the class itself for a config class, its
  `config_class` for a model class, for `AutoConfig` and the `Auto*` model classes the class its
  `model_type` names in the package's own table (`CONFIG_MAPPING_NAMES`) — with the call's keyword
  arguments on top (`num_labels=3`); a model class is then built from that config (weights are not
  read: their shapes are the config's). Sizes are known.
* `from_pretrained("org/name")`, a hub model id (anything that is not a folder of the project):
  nothing is downloaded, ever; the result is a value not understood whose origin names the model id.
* `AutoModel*.from_config(config)`: the model class the auto class's mapping gives for the config's
  `model_type`, built from the config (transformers builds these classes with `functools` copies of
  functions, which are not followed).
"""

from __future__ import annotations

import ast
import json
import os
from typing import TYPE_CHECKING, Any

from pytea_ci.interp.project_files import read_text
from pytea_ci.interp.runtime import ModuleVal, Scope
from pytea_ci.models.values import MISSING, ClassVal, Instance, Unknown
from pytea_ci.packages.site import package_origin, site_of
from pytea_ci.shapes.tensor import Origin

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter

METHODS = frozenset({"from_pretrained", "from_config"})
# keyword arguments of `from_pretrained` that say how to load, not what to build
_LOADING = frozenset({"cache_dir", "force_download", "local_files_only", "token", "use_auth_token", "revision",
                      "trust_remote_code", "proxies", "resume_download", "subfolder", "torch_dtype", "device_map",
                      "low_cpu_mem_usage", "ignore_mismatched_sizes", "output_loading_info", "state_dict",
                      "from_tf", "from_flax", "use_safetensors", "mirror", "offload_folder", "code_revision",
                      "return_unused_kwargs", "attn_implementation", "quantization_config", "variant"})
_CONFIG_TABLE = ("transformers.models.auto.configuration_auto", "CONFIG_MAPPING_NAMES")


def call(interp: "Interpreter", cls: ClassVal, method: str, args: tuple, kwargs: dict) -> Any:
    """The result of `cls.method(*args, **kwargs)`, or MISSING to run the package's own code."""
    top = _package(interp, cls)
    if top is None:
        return MISSING
    if method == "from_config":
        if not args or not _is_auto(cls):
            return MISSING
        return _model_from_config(interp, cls, top, args[0], dict(kwargs))
    rest = dict(kwargs)
    path = args[0] if args else rest.pop("pretrained_model_name_or_path", MISSING)
    if path is MISSING:
        return MISSING
    if not isinstance(path, str):
        return package_origin(interp, top, "from_pretrained of a path not known")
    data = _local_config(interp, path)
    if data is None:
        what = f"model id '{path}' (from_pretrained: hub configs are not read, no network)"
        return Unknown(what, None, Origin(interp.span, what))
    overrides = {k: v for k, v in rest.items() if k not in _LOADING}
    if _is_config(cls):
        return _build_config(interp, cls, top, data, overrides)
    config_cls = cls.lookup("config_class") if not _is_auto(cls) else None
    config = _build_config(interp, config_cls if isinstance(config_cls, ClassVal) else None, top, data, overrides)
    if _is_auto(cls):
        return _model_from_config(interp, cls, top, config, {})
    return interp.call(cls, config, *args[1:])


def _package(interp: "Interpreter", cls: ClassVal) -> str | None:
    module = cls.ns.get("__module__") if not cls.native else None
    mod = interp.modules.get(module) if isinstance(module, str) else None
    path = getattr(mod, "path", None)
    site = site_of(interp)
    return site.package_of(path) if site is not None and isinstance(path, str) else None


def _is_config(cls: ClassVal) -> bool:
    return any(c.name == "PretrainedConfig" for c in cls.mro())


def _is_auto(cls: ClassVal) -> bool:
    return cls.name.startswith("Auto") or cls.lookup("_model_mapping") is not MISSING and cls.name.startswith("_Base")


def _local_config(interp: "Interpreter", path: str) -> dict[str, Any] | None:
    """The `config.json` of a folder of the project named `path` (relative to the root or the entry),
    read through project_files (so a cached result is reused only while the file is unchanged)."""
    for base in (interp.config.root, os.path.dirname(os.path.abspath(interp.config.entry))):
        text = read_text(interp, os.path.join(path, "config.json"), base)
        if text is not None:
            try:
                doc = json.loads(text)
            except ValueError:
                return None
            return doc if isinstance(doc, dict) else None
    return None


def _build_config(interp: "Interpreter", cls: ClassVal | None, top: str, data: dict[str, Any],
                  overrides: dict[str, Any]) -> Any:
    if cls is None or cls.name == "AutoConfig":
        cls = _named_class(interp, top, _CONFIG_TABLE, data.get("model_type"))
        if cls is None:
            return package_origin(interp, top, f"config of model_type {data.get('model_type')!r} not found")
    values = {k: v for k, v in data.items() if isinstance(k, str) and k.isidentifier()}
    return interp.call(cls, **{**values, **overrides})


def _model_from_config(interp: "Interpreter", auto: ClassVal, top: str, config: Any, overrides: dict[str, Any]) -> Any:
    mapping = auto.lookup("_model_mapping")
    names = mapping.attrs.get("_model_mapping") if isinstance(mapping, Instance) else None
    model_type = interp.getattr(config, "model_type") if isinstance(config, Instance) else None
    name = names.get(model_type) if isinstance(names, dict) and isinstance(model_type, str) else None
    name = name[0] if isinstance(name, (tuple, list)) and name else name
    cls = _export(interp, top, name) if isinstance(name, str) else None
    if not isinstance(cls, ClassVal):
        return package_origin(interp, top, f"{auto.name} for model_type {model_type!r} not found")
    return interp.call(cls, config, **overrides)


def _named_class(interp: "Interpreter", top: str, table: tuple[str, str], key: Any) -> ClassVal | None:
    """The class a name table of the package (module, global: key -> class name) gives for `key`."""
    mod = interp.modules.get(table[0])
    if not isinstance(mod, ModuleVal):
        g: dict[str, Any] = {}
        mod = interp.import_module(table[0], Scope(g, g), _NODE)
    names = mod.globals.get(table[1]) if isinstance(mod, ModuleVal) else None
    name = names.get(key) if isinstance(names, dict) and isinstance(key, str) else None
    found = _export(interp, top, name) if isinstance(name, str) else None
    return found if isinstance(found, ClassVal) else None


def _export(interp: "Interpreter", top: str, name: str) -> Any:
    mod = interp.modules.get(top)
    return interp.getattr(mod, name) if isinstance(mod, ModuleVal) else None


_NODE = ast.Pass()
