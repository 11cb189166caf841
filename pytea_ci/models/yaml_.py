"""PyYAML: a document written in the program, or in a small file of the project (models/files.py), is
read; one loaded from another file is Unknown; dumping does
nothing to shapes. The loader classes exist so `yaml.load(f, Loader=yaml.FullLoader)` resolves."""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.files import rewritten, small, text_of
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Instance, Unknown
from pytea_ci.shapes.tensor import Origin
from pytea_ci.models.yaml_text import parse


@model("yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load")
def load(ctx: Ctx, stream: Any = None, *args: Any, **kwargs: Any) -> Any:
    """A document written in the program (a string literal) or a project file is read (yaml_text.py);
    another file's is unknown."""
    text = stream if isinstance(stream, str) else text_of(ctx, stream)
    doc = parse(text) if text is not None else None
    if doc is not None and not isinstance(stream, str) and not small(doc):
        doc = None  # a large document from a file: unknown, as its processing would be costly
    own = rewritten(ctx, stream)
    if doc is None and own is not None:
        return Unknown("YAML document", None, Origin(ctx.span, f"{own}: a YAML document"))
    if doc is None and isinstance(stream, Instance) and stream.cls.qualname == "builtins.TextIOWrapper":
        name = stream.attrs.get("name")
        where = repr(name) if isinstance(name, str) else "a path not known"
        return Unknown("YAML document", None, Origin(ctx.span, f"YAML document read from open({where})"))
    return doc if doc is not None else ctx.unknown("YAML document")


@model("yaml.safe_load_all", "yaml.load_all")
def load_all(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("YAML documents")


@model("yaml.dump", "yaml.safe_dump", "yaml.dump_all", "yaml.safe_dump_all")
def dump(ctx: Ctx, data: Any = None, stream: Any = None, *args: Any, **kwargs: Any) -> Any:
    return None if stream is not None else ctx.unknown("YAML text")


for _loader in ("SafeLoader", "FullLoader", "Loader", "UnsafeLoader", "BaseLoader", "CLoader", "CSafeLoader",
                "Dumper", "SafeDumper"):
    native_class(f"yaml.{_loader}")(type(_loader, (), {}))


@native_class("yaml.YAMLError", identity_eq=True)
class YAMLError:
    pass
