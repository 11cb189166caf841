"""PyYAML: loaded documents are Unknown values (their content comes from a file), dumping does
nothing to shapes. The loader classes exist so `yaml.load(f, Loader=yaml.FullLoader)` resolves."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class


@model("yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load", "yaml.safe_load_all", "yaml.load_all")
def load(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("YAML document")


@model("yaml.dump", "yaml.safe_dump", "yaml.dump_all", "yaml.safe_dump_all")
def dump(ctx: Ctx, data: Any = None, stream: Any = None, *args: Any, **kwargs: Any) -> Any:
    return None if stream is not None else ctx.unknown("YAML text")


for _loader in ("SafeLoader", "FullLoader", "Loader", "UnsafeLoader", "BaseLoader", "CLoader", "CSafeLoader",
                "Dumper", "SafeDumper"):
    native_class(f"yaml.{_loader}")(type(_loader, (), {}))


@native_class("yaml.YAMLError")
class YAMLError:
    pass
