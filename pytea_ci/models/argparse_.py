"""argparse: arguments take their defaults (converted by `type`), unless the configuration
overrides them (`args`) or declares them symbolic; an option without a default is None unless the
user gives it (also with `default=None`), so it is a value not known (a guard requiring it takes the side that goes on). With subparsers, each subcommand is a run of its
own (one path per subcommand, with its arguments' defaults), unless the configuration names one
(`--arg command=train` for `add_subparsers(dest="command")`). An option that collects values
(`action="append"`, `"append_const"`, `"extend"`: `-p key=value` repeated) is its default when not
given, as CPython leaves it. Unknown actions (an `Action` class of the program's own) are Unknown.

A command line given to the analysis (`--argv`) is parsed as CPython's argparse parses it: a parser of the
same arguments (their names, actions, `nargs`, `required`; defaults left out, so only what the command line
gives appears) parses it, and what it gives replaces the defaults, converted by the argument's `type`
(`int`, `float`, `str`, `bool`, or the program's own function, called as argparse calls it). A command line that parser
rejects (a missing required argument, a word it does not know for `parse_args`) ends the path as CPython's
`SystemExit` does, when the program's parser was made with no option that changes parsing (`prefix_chars`,
`allow_abbrev`, ...); else, and for a parser with subcommands, the command line is not used: the defaults
stand, as without it. An `--arg` override wins over both."""

from __future__ import annotations

import argparse
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Builtin, Instance, Unknown
from pytea_ci.models.launchers import one_command
from pytea_ci.shapes.dim import PInt


def _dest(names: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    if "dest" in kwargs and isinstance(kwargs["dest"], str):
        return kwargs["dest"]
    longs = [n for n in names if isinstance(n, str) and n.startswith("--")]
    pick = longs[0] if longs else (names[0] if names and isinstance(names[0], str) else None)
    return pick.lstrip("-").replace("-", "_") if pick else None


def _value(ctx: Ctx, dest: str, kwargs: dict[str, Any], positional: bool, given: dict[str, Any]) -> Any:
    overrides = ctx.option("args") or {}
    symbolic = ctx.option("symbolic_args") or {}
    if dest in symbolic:
        from pytea_ci.models.random_ import declared

        return declared(ctx, dest, symbolic[dest], f"command-line argument --{dest} (declared symbolic)")
    action = kwargs.get("action")
    if dest in overrides:
        given_value = overrides[dest]
        if action in ("append", "extend") and not isinstance(given_value, list):  # one `-p VALUE` given: added to
            given_value = [*(kwargs.get("default") or []), given_value]  # (a copy of) the default list, as CPython does
        return _tag(ctx, given_value, dest, "configured")
    if dest in given:
        return _tag(ctx, _converted(ctx, dest, given[dest], kwargs), dest, "command-line value")
    if action == "store_true":
        return kwargs.get("default", False)
    if action == "store_false":
        return kwargs.get("default", True)
    if action in ("count",):
        return kwargs.get("default", 0)
    if action in ("store_const", "append", "append_const", "extend"):
        return kwargs.get("default")  # what a run not giving the option gets: its default (None without one)
    if action not in (None, "store"):
        return ctx.unknown(f"argparse action {action}")
    if kwargs.get("default") is None:
        if positional or kwargs.get("required") is True:
            picked = _choice(ctx, dest, kwargs)
            return picked if picked is not None else ctx.unknown(f"required argument {dest}")
        # None unless the user gives it, which a run may do: `if not opt.output_dir: raise` is the program
        # requiring it (the run that gets anywhere gives it), `if opt.resume:` two runs, neither a guess of ours
        return ctx.unknown(f"command-line option --{dest} without a default (None unless given)")
    default = kwargs["default"]
    conv = kwargs.get("type")
    if isinstance(default, str) and isinstance(conv, Builtin) and conv.name in ("builtins.int", "builtins.float"):
        try:
            default = int(default) if conv.name == "builtins.int" else float(default)
        except ValueError:
            return ctx.unknown("argparse default")
    return _tag(ctx, default, dest, "default")


_CHOSEN = "argparse.choices"  # facts: the choice this path made for each required option with choices
MAX_CHOICES = 8  # a required option with more choices than this stays a value not known


def _choice(ctx: Ctx, dest: str, kwargs: dict[str, Any]) -> Any:
    """A required option (or positional) with `choices` and nothing given: the command line names one
    of them, so each is a run of its own — one path per choice, like a subcommand (`--model` of a
    training script that picks its model module by name). The same choice on every later parse of
    this path. None when the choices are not a few known strings or numbers (or `nargs` makes a list)."""
    choices = kwargs.get("choices")
    if not isinstance(choices, (list, tuple)) or not 0 < len(choices) <= MAX_CHOICES or "nargs" in kwargs:
        return None
    if not all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in choices):
        return None
    made = ctx.facts.get(_CHOSEN, {})
    if dest not in made:  # (facts are shared by the paths a fork makes: replaced, never changed in place)
        made = {**made, dest: one_command(ctx, list(choices), f"choice of --{dest}", f"--{dest}")}
        ctx.facts[_CHOSEN] = made
    return _tag(ctx, made[dest], dest, "choice")


def _tag(ctx: Ctx, v: Any, dest: str, how: str) -> Any:
    if isinstance(v, int) and not isinstance(v, bool):
        return PInt(int(v), ctx.span, f"{how} of command-line argument --{dest.replace('_', '-')}")
    if isinstance(v, list):
        return [_tag(ctx, x, dest, how) for x in v]
    return v


@native_class("argparse.ArgumentParser", identity_eq=True)
class ArgumentParser:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["_args"] = {}
        self.attrs["_opaque"] = False
        # parsed as CPython's argparse parses a command line only with the options that do not change how
        self.attrs["_plain"] = not args and set(kwargs) <= _PLAIN_OPTIONS

    def add_argument(ctx: Ctx, self: Instance, *names: Any, **kwargs: Any) -> Any:
        dest = _dest(names, kwargs)
        if dest is not None:
            positional = bool(names) and isinstance(names[0], str) and not names[0].startswith("-")
            with_span = ctx.span
            self.attrs["_args"][dest] = (kwargs, positional, with_span, names)
        return None

    def add_argument_group(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return self

    add_mutually_exclusive_group = add_argument_group

    def set_defaults(ctx: Ctx, self: Instance, **kwargs: Any) -> Any:
        for k, v in kwargs.items():
            self.attrs["_args"][k] = ({"default": v}, False, ctx.span, ())
        return None

    def add_subparsers(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        dest = kwargs.get("dest")
        sub = Instance(SubParsers, {"dest": dest if isinstance(dest, str) else None, "commands": {},
                                    "required": kwargs.get("required", False)})
        self.attrs["_subparsers"] = sub
        return sub

    def parse_args(ctx: Ctx, self: Instance, args: Any = None, namespace: Any = None) -> Any:
        ns = Instance(Namespace_, {})
        _parse_into(ctx, self, ns, _given(ctx, self, args, known=False))
        return ns

    def parse_known_args(ctx: Ctx, self: Instance, args: Any = None, namespace: Any = None) -> Any:
        ns = Instance(Namespace_, {})
        _parse_into(ctx, self, ns, _given(ctx, self, args, known=True))
        return (ns, [])

    def print_help(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return None

    def error(ctx: Ctx, self: Instance, *args: Any) -> Any:
        ctx.user_error("SystemExit", "argparse error")


def _parse_into(ctx: Ctx, parser: Instance, ns: Instance, given: dict[str, Any] | None = None) -> None:
    """The parser's arguments with their defaults (or what the command line `given` holds); with subparsers,
    one subcommand per path (see `_command`) and its own arguments and defaults (`set_defaults(func=train)`)."""
    for dest, (kwargs, positional, _span, _names) in parser.attrs["_args"].items():
        ns.attrs[dest] = _value(ctx, dest, kwargs, positional, given or {})
    if parser.attrs.get("_opaque"):
        ns.attrs["__opaque__"] = True
    sub = parser.attrs.get("_subparsers")
    if not isinstance(sub, Instance):
        return
    name = _command(ctx, sub)
    if isinstance(sub.attrs["dest"], str):
        ns.attrs[sub.attrs["dest"]] = name
    chosen = sub.attrs["commands"].get(name) if isinstance(name, str) else None
    if isinstance(chosen, Instance):
        _parse_into(ctx, chosen, ns)


_ACTIONS = ("store", "store_true", "store_false", "store_const", "count", "append", "append_const", "extend")
_PLAIN_OPTIONS = {"description", "formatter_class", "epilog", "prog", "usage", "add_help"}


def _given(ctx: Ctx, parser: Instance, args: Any, known: bool) -> dict[str, Any]:
    """What the command line gives each argument — the list the program passes, else the configured one
    (`--argv`) — parsed by CPython's argparse with the parser's own arguments; {} when there is none, the
    parser has subcommands or an argument is not known well enough, or the command line is rejected."""
    if args is None:  # sys.argv[1:]: the program's own list once it read or set it, else the configured one
        current = ctx.facts.get("sys.argv")
        args = current[1:] if isinstance(current, list) else ctx.option("argv")
    argv = args  # a list the program passes is parsed as CPython does
    if not isinstance(argv, list) or not all(isinstance(w, str) for w in argv) \
            or parser.attrs.get("_subparsers") is not None:
        return {}
    real = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    try:
        for dest, (kwargs, positional, _span, names) in parser.attrs["_args"].items():
            if not names:  # set_defaults
                continue
            action = kwargs.get("action", "store")
            if action in ("help", "version"):  # given, CPython prints and exits: a word this parser rejects
                continue
            if not all(isinstance(n, str) for n in names) or action not in _ACTIONS:
                return {}
            extra: dict[str, Any] = {"action": action, "default": argparse.SUPPRESS}
            for key in ("nargs", "const", "required"):
                if key in kwargs:
                    if not isinstance(kwargs[key], (int, str, float, bool)):
                        return {}
                    extra[key] = int(kwargs[key]) if isinstance(kwargs[key], PInt) else kwargs[key]
            if not positional:
                extra["dest"] = dest
            real.add_argument(*(names if not positional else (dest,)), **extra)
    except (argparse.ArgumentError, ValueError, TypeError):
        return {}
    try:
        parsed, rest = real.parse_known_args(list(argv))
    except (argparse.ArgumentError, SystemExit):
        rest = None
    if rest is None or (rest and not known):  # CPython's parser exits (a word it does not know: parse_args)
        if parser.attrs.get("_plain") is True:
            ctx.user_error("SystemExit", "argparse rejects the command line")
        return {}
    return vars(parsed)


def _converted(ctx: Ctx, dest: str, v: Any, kwargs: dict[str, Any]) -> Any:
    """A command-line word (or list of them, `nargs`) through the argument's `type`, as argparse applies it."""
    if isinstance(v, list):
        return [_converted(ctx, dest, x, kwargs) for x in v]
    if not isinstance(v, str):
        return v  # store_true, count, const: argparse's own value
    conv = kwargs.get("type")
    if conv is None:
        return v
    name = conv.name if isinstance(conv, Builtin) else None
    try:
        if name == "builtins.int":
            return int(v)
        if name == "builtins.float":
            return float(v)
    except ValueError:
        return ctx.unknown(f"command-line argument --{dest} rejected by its type")
    if name == "builtins.str":
        return v
    if name == "builtins.bool":
        return bool(v)
    return ctx.call(conv, v)  # the program's own converter (`type=str2bool`), as argparse calls it


def _command(ctx: Ctx, sub: Instance) -> Any:
    """The subcommand of this path: the configured one (`--arg DEST=NAME`), else each in turn
    (`launchers.one_command`), and, when the subcommand is optional, none (None)."""
    names = list(dict.fromkeys(n for n, p in sub.attrs["commands"].items() if isinstance(p, Instance)))
    dest = sub.attrs["dest"]
    overrides = ctx.option("args") or {}
    if isinstance(dest, str) and dest in overrides:
        return overrides[dest]
    return one_command(ctx, names + ([] if sub.attrs["required"] is True or not names else [None]), "subcommand")


@native_class("argparse._SubParsersAction", identity_eq=True)
class SubParsers:
    def add_parser(ctx: Ctx, self: Instance, name: Any = None, *args: Any, **kwargs: Any) -> Any:
        parser = Instance(ArgumentParser)
        ArgumentParser.ns["__init__"].fn(ctx, parser)  # type: ignore[attr-defined]
        for alias in [name, *(kwargs.get("aliases") or [])]:
            if isinstance(alias, str):
                self.attrs["commands"].setdefault(alias, parser if alias == name else None)
        return parser


@native_class("argparse.Namespace", recorded_attrs=True)
class Namespace_:
    def init(ctx: Ctx, self: Instance, **kwargs: Any) -> None:
        self.attrs.update(kwargs)


@model("argparse.ArgumentTypeError", "argparse.FileType")
def arg_misc(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    return ctx.unknown("argparse helper")


_ = Unknown
