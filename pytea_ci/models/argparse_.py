"""argparse: arguments take their defaults (converted by `type`), unless the configuration
overrides them (`args`) or declares them symbolic; an option without a default is None unless the
user gives it (also with `default=None`), so it is a value not known (a guard requiring it takes the side that goes on). With subparsers, each subcommand is a run of its
own (one path per subcommand, with its arguments' defaults), unless the configuration names one
(`--arg command=train` for `add_subparsers(dest="command")`). An option that collects values
(`action="append"`, `"append_const"`, `"extend"`: `-p key=value` repeated) is its default when not
given, as CPython leaves it. Unknown actions (an `Action` class of the program's own) are Unknown."""

from __future__ import annotations

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


def _value(ctx: Ctx, dest: str, kwargs: dict[str, Any], positional: bool) -> Any:
    overrides = ctx.option("args") or {}
    symbolic = ctx.option("symbolic_args") or {}
    if dest in symbolic:
        from pytea_ci.models.random_ import declared

        return declared(ctx, dest, symbolic[dest], f"command-line argument --{dest} (declared symbolic)")
    action = kwargs.get("action")
    if dest in overrides:
        given = overrides[dest]
        if action in ("append", "extend") and not isinstance(given, list):  # one `-p VALUE` given: added to
            given = [*(kwargs.get("default") or []), given]  # (a copy of) the default list, as CPython does
        return _tag(ctx, given, dest, "configured")
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

    def add_argument(ctx: Ctx, self: Instance, *names: Any, **kwargs: Any) -> Any:
        dest = _dest(names, kwargs)
        if dest is not None:
            positional = bool(names) and isinstance(names[0], str) and not names[0].startswith("-")
            with_span = ctx.span
            self.attrs["_args"][dest] = (kwargs, positional, with_span)
        return None

    def add_argument_group(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return self

    add_mutually_exclusive_group = add_argument_group

    def set_defaults(ctx: Ctx, self: Instance, **kwargs: Any) -> Any:
        for k, v in kwargs.items():
            self.attrs["_args"][k] = ({"default": v}, False, ctx.span)
        return None

    def add_subparsers(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        dest = kwargs.get("dest")
        sub = Instance(SubParsers, {"dest": dest if isinstance(dest, str) else None, "commands": {},
                                    "required": kwargs.get("required", False)})
        self.attrs["_subparsers"] = sub
        return sub

    def parse_args(ctx: Ctx, self: Instance, args: Any = None, namespace: Any = None) -> Any:
        ns = Instance(Namespace_, {})
        _parse_into(ctx, self, ns)
        return ns

    def parse_known_args(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return (ArgumentParser.ns["parse_args"].fn(ctx, self), [])  # type: ignore[attr-defined]

    def print_help(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return None

    def error(ctx: Ctx, self: Instance, *args: Any) -> Any:
        ctx.user_error("SystemExit", "argparse error")


def _parse_into(ctx: Ctx, parser: Instance, ns: Instance) -> None:
    """The parser's arguments with their defaults; with subparsers, one subcommand per path (see
    `_command`) and its own arguments and defaults (`set_defaults(func=train)`)."""
    for dest, (kwargs, positional, _span) in parser.attrs["_args"].items():
        ns.attrs[dest] = _value(ctx, dest, kwargs, positional)
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
