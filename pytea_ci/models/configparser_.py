"""configparser: an INI configuration the program reads from a small file of the project (models/files.py
`project_file`), from a string or a dict is parsed as data by CPython's own `configparser` (never
executed) — sections, options, defaults, interpolation, `getint`/`getfloat`/`getboolean`, `parser[section]`
proxies, `fallback=` and the errors CPython raises (`NoSectionError`, `NoOptionError`, `ValueError`)
are exact. A parser that read a file not known here (a path not known, a file outside the project or
large), or that the program changed in a way not followed (`optionxform`, a converter), gives values
not understood, named after the file, so coverage says which file to configure.

Training scripts read their sizes this way (`hidden = config.getint("model", "hidden")`): before, every
such size was a value not understood.
"""

from __future__ import annotations

import configparser
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.files import project_file, text_of
from pytea_ci.models.registry import lookup, native_class, register
from pytea_ci.models.values import ClassVal, Instance, Unknown
from pytea_ci.shapes.tensor import Origin

_READ = "read at run time by configparser from "
_PLAIN = (str, int, float, bool, type(None))
_KWARGS = {"allow_no_value", "delimiters", "comment_prefixes", "inline_comment_prefixes", "strict",
           "empty_lines_in_values", "default_section", "interpolation", "defaults"}


def _error_classes() -> dict[str, ClassVal]:
    """configparser's exception classes, with CPython's bases (`NoOptionError` is an `Error`)."""
    out: dict[str, ClassVal] = {}
    base = lookup("builtins.Exception")
    for real in (configparser.Error, configparser.NoSectionError, configparser.DuplicateSectionError,
                 configparser.DuplicateOptionError, configparser.NoOptionError, configparser.InterpolationError,
                 configparser.InterpolationMissingOptionError, configparser.InterpolationSyntaxError,
                 configparser.InterpolationDepthError, configparser.ParsingError,
                 configparser.MissingSectionHeaderError):
        parent = out.get(real.__bases__[0].__name__, base)
        cls = ClassVal(real.__name__, (parent,) if isinstance(parent, ClassVal) else (), {},
                       f"configparser.{real.__name__}", native=True)
        out[real.__name__] = cls
        register(f"configparser.{real.__name__}", cls)
    return out


_ERRORS = _error_classes()


def _plain(v: Any) -> bool:
    if isinstance(v, (list, tuple)):
        return all(_plain(x) for x in v)
    if isinstance(v, dict):
        return all(_plain(k) and _plain(x) for k, x in v.items())
    return type(v) in _PLAIN or isinstance(v, int) and not isinstance(v, bool) and type(v).__name__ == "PInt"


def _unknown(ctx: Ctx, parser: Instance, what: str, pytype: str | None = "str") -> Unknown:
    where = parser.attrs.get("_where") or "a configuration not read"
    return Unknown(what, pytype, Origin(ctx.span, f"{_READ}{where}: {what}"))


def _opaque(parser: Instance, where: str) -> None:
    parser.attrs["_opaque"] = True
    parser.attrs["_where"] = parser.attrs.get("_where") or where


def _real(ctx: Ctx, parser: Instance) -> configparser.RawConfigParser | None:
    """CPython's parser replaying what the program gave this one; None when a value is not known here. A
    source CPython rejects raises its error in the program."""
    if parser.attrs.get("_opaque") or "optionxform" in parser.attrs:
        return None
    kind = configparser.RawConfigParser if parser.attrs["_raw"] else configparser.ConfigParser
    real = kind(**parser.attrs["_kwargs"])
    try:
        for op, *rest in parser.attrs["_sources"]:
            getattr(real, op)(*rest)
    except configparser.Error as e:
        _raise(ctx, e)
    return real


def _raise(ctx: Ctx, e: Exception) -> None:
    name = type(e).__name__
    if isinstance(e, configparser.Error):
        ctx.user_error(name, str(e), _ERRORS.get(name, _ERRORS["Error"]))
    ctx.user_error(name, str(e))


_NONE = object()


def _query(ctx: Ctx, parser: Instance, method: str, args: tuple[Any, ...], kwargs: dict[str, Any],
           pytype: str | None) -> Any:
    """`parser.<method>(*args, **kwargs)` as CPython answers it; a `fallback` the program gives is its own value."""
    given = kwargs.pop("fallback", _NONE)
    real = _real(ctx, parser)
    if real is None or not _plain(args) or not _plain(kwargs):
        return _unknown(ctx, parser, f"{method}{tuple(a for a in args if isinstance(a, str))}", pytype)
    try:
        out = getattr(real, method)(*args, **kwargs, **({} if given is _NONE else {"fallback": _NONE}))
    except (configparser.Error, ValueError, KeyError) as e:
        _raise(ctx, e)
        return None
    return given if out is _NONE else out


def _name_of(path: Any) -> Any:
    if isinstance(path, Instance) and path.cls.qualname == "pathlib.Path":
        return path.attrs.get("_path")
    return path


class _Parser:
    def init(ctx: Ctx, self: Instance, defaults: Any = None, *args: Any, **kwargs: Any) -> None:  # noqa: N805
        self.attrs.update(_sources=(), _opaque=False, _where=None,
                          _raw=self.cls.qualname == "configparser.RawConfigParser")
        if defaults is not None:
            kwargs["defaults"] = defaults
        if args or set(kwargs) - _KWARGS or not _plain(kwargs):
            _opaque(self, "a parser made with options not followed")
            kwargs = {}
        self.attrs["_kwargs"] = kwargs

    def read(ctx: Ctx, self: Instance, filenames: Any, encoding: Any = None) -> Any:  # noqa: N805
        names = filenames if isinstance(filenames, (list, tuple)) else [filenames]
        done = []
        for n in names:
            n = _name_of(n)
            text = project_file(ctx, n)
            if text is None:  # a path not known, or a file not read here: what it holds is not known
                _opaque(self, repr(n) if isinstance(n, str) else "a path not known")
                return ctx.unknown("configparser.read")
            self.attrs["_sources"] = (*self.attrs["_sources"], ("read_string", text, n))
            done.append(n)
        self.attrs["_where"] = self.attrs["_where"] or ", ".join(repr(n) for n in done)
        return done

    def read_file(ctx: Ctx, self: Instance, f: Any, source: Any = None) -> Any:  # noqa: N805
        text = text_of(ctx, f)
        if text is None:
            _opaque(self, "a file not read here")
        else:
            self.attrs["_sources"] = (*self.attrs["_sources"], ("read_string", text))
        return None

    def read_string(ctx: Ctx, self: Instance, string: Any, source: Any = "<string>") -> Any:  # noqa: N805
        if isinstance(string, str):
            self.attrs["_sources"] = (*self.attrs["_sources"], ("read_string", string))
        else:
            _opaque(self, "a string not known")
        return None

    def _change(ctx: Ctx, self: Instance, op: str, *args: Any) -> Any:  # noqa: N805
        if _plain(args):
            self.attrs["_sources"] = (*self.attrs["_sources"], (op, *args))
            _real(ctx, self)  # CPython's error for a section that does not exist, a duplicate one
        else:
            _opaque(self, f"{op} of values not known")
        return None

    def read_dict(ctx: Ctx, self: Instance, dictionary: Any, source: Any = "<dict>") -> Any:  # noqa: N805
        return _Parser._change(ctx, self, "read_dict", dictionary)

    def add_section(ctx: Ctx, self: Instance, section: Any) -> Any:  # noqa: N805
        return _Parser._change(ctx, self, "add_section", section)

    def set(ctx: Ctx, self: Instance, section: Any, option: Any, value: Any = None) -> Any:  # noqa: N805
        return _Parser._change(ctx, self, "set", section, option, value)

    def get(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "get", args, kwargs, "str")

    def getint(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "getint", args, kwargs, "int")

    def getfloat(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "getfloat", args, kwargs, "float")

    def getboolean(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "getboolean", args, kwargs, "bool")

    def sections(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        return _query(ctx, self, "sections", (), {}, None)

    def has_section(ctx: Ctx, self: Instance, section: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "has_section", (section,), {}, "bool")

    def has_option(ctx: Ctx, self: Instance, section: Any, option: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "has_option", (section, option), {}, "bool")

    def options(ctx: Ctx, self: Instance, section: Any) -> Any:  # noqa: N805
        return _query(ctx, self, "options", (section,), {}, None)

    def items(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        if not args:
            return _unknown(ctx, self, "items()", None)
        return _query(ctx, self, "items", args, kwargs, None)

    def defaults(ctx: Ctx, self: Instance) -> Any:  # noqa: N805
        out = _query(ctx, self, "defaults", (), {}, None)
        return dict(out) if not isinstance(out, Unknown) else out

    def __getitem__(ctx: Ctx, self: Instance, section: Any) -> Any:  # noqa: N805
        known = _query(ctx, self, "has_section", (section,), {}, "bool")
        real = _real(ctx, self)
        if known is False and real is not None and section != real.default_section:
            ctx.user_error("KeyError", repr(section))
        return Instance(_PROXY, {"_parser": self, "name": section})

    def __contains__(ctx: Ctx, self: Instance, section: Any) -> Any:  # noqa: N805
        real = _real(ctx, self)
        if real is None or not _plain(section):
            return _unknown(ctx, self, "a section's presence", "bool")
        return section in real

    def write(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        return None


_RAW = native_class("configparser.RawConfigParser", identity_eq=True)(_Parser)
_CONFIG = native_class("configparser.ConfigParser", bases=(_RAW,), identity_eq=True)(type("ConfigParser", (), {}))


def _section_query(method: str, pytype: str | None) -> Any:
    """`section.get(option, fallback=None)`: the parser's, where a missing option is the fallback (None)."""
    def run(ctx: Ctx, self: Instance, option: Any, fallback: Any = None, **kwargs: Any) -> Any:
        return _query(ctx, self.attrs["_parser"], method, (self.attrs["name"], option), {**kwargs, "fallback": fallback},
                      pytype)
    return run


class _SectionProxy:
    get = _section_query("get", "str")
    getint = _section_query("getint", "int")
    getfloat = _section_query("getfloat", "float")
    getboolean = _section_query("getboolean", "bool")

    def __getitem__(ctx: Ctx, self: Instance, option: Any) -> Any:  # noqa: N805
        parser = self.attrs["_parser"]
        has = _query(ctx, parser, "has_option", (self.attrs["name"], option), {}, "bool")
        if has is False:
            ctx.user_error("KeyError", repr(option))
        return _query(ctx, parser, "get", (self.attrs["name"], option), {}, "str")

    def __contains__(ctx: Ctx, self: Instance, option: Any) -> Any:  # noqa: N805
        return _query(ctx, self.attrs["_parser"], "has_option", (self.attrs["name"], option), {}, "bool")


_PROXY = native_class("configparser.SectionProxy", identity_eq=True)(_SectionProxy)
