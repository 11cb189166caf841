"""transformers' documentation decorators (issue 36, item 4), for an installed transformers read from source.

Every model class and `forward` of transformers is decorated to build its docstring: `@auto_docstring`
(5.x; it parses the signature, the source file and the config class's docstring) and
`@add_start_docstrings...`/`@replace_return_docstrings`/`@add_code_sample_docstrings` (4.x). Run from
source they spend most of the package's step budget of an import on text no shape depends on; these
models return what they decorate unchanged (the docstring is the only thing they change). A model's generation
config, derived from its config at `__init__`, is left unknown: no shape of a forward pass depends on it.
"""

from __future__ import annotations

from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model
from pytea_ci.models.values import Builtin

_DOC = "transformers.utils.doc"


def _unchanged(ctx: Ctx, obj: Any) -> Any:
    return obj


@model("transformers.utils.auto_docstring.auto_docstring")
def auto_docstring(ctx: Ctx, obj: Any = None, **kwargs: Any) -> Any:
    """`@auto_docstring` and `@auto_docstring(custom_intro=...)`: the class or function unchanged."""
    return Builtin("auto_docstring.decorator", _unchanged) if obj is None else obj


@model(f"{_DOC}.add_start_docstrings", f"{_DOC}.add_start_docstrings_to_model_forward", f"{_DOC}.add_end_docstrings",
       f"{_DOC}.add_code_sample_docstrings", f"{_DOC}.replace_return_docstrings")
def docstring_decorator(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """A decorator factory whose decorator only writes a docstring: it returns what it decorates."""
    return Builtin("docstring.decorator", _unchanged)


@model("transformers.generation.configuration_utils.GenerationConfig.from_model_config")
def generation_config_from_model_config(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    """The generation defaults a model's `__init__` derives from its config (5.x: by serializing the whole
    config to a dict and back, about half the package's step budget of building a model): only
    `generate` reads them, never a shape of the forward pass; a value not understood."""
    return ctx.unknown("transformers: the generation config derived from a model config (not followed)")
