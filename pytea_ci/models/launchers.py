"""Launchers that run the program's entry function for it: `torch.multiprocessing.spawn`,
`fire.Fire`, `jsonargparse.CLI`, `typer`, `click`, `Fabric.launch` (`hydra.main`: hydra_.py),
`accelerate.notebook_launcher`. The function runs as the launcher would run it with no command-line
arguments: with its parameter defaults (click/typer option defaults), and an unknown value for a
parameter that has none (a required argument). `spawn` passes the process index
first (a symbol over `range(nprocs)`: every process runs), then `args`.
"""

from __future__ import annotations

import ast
from typing import Any

from pytea_ci.models.context import Ctx
from pytea_ci.models.machine import fact
from pytea_ci.models.registry import model, native_class
from pytea_ci.models.values import Builtin, ClassMethod, ClassVal, Instance, StaticMethod
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.dim import INPUT, ITERATION


def _params(fn: Any) -> "ast.arguments | None":
    args = getattr(getattr(fn, "node", None), "args", None)
    return args if isinstance(args, ast.arguments) else None


def run_with_defaults(ctx: Ctx, fn: Any, *given: Any, **options: Any) -> Any:
    """Call `fn(*given, **options)`, an unknown for each parameter with no default left unset."""
    a = _params(fn)
    if a is None:
        if isinstance(fn, (Builtin, Instance)) or callable(fn):
            return ctx.call(fn, *given, **options)
        return ctx.unknown("launched object")
    positional = a.posonlyargs + a.args
    required = positional[len(given):len(positional) - len(a.defaults)]
    missing = {p.arg: ctx.unknown(f"launcher argument {p.arg}") for p in required if p.arg not in options}
    missing.update({p.arg: ctx.unknown(f"launcher argument {p.arg}")
                    for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None and p.arg not in options})
    return ctx.call(fn, *given, **options, **missing)


def one_command(ctx: Ctx, options: list[Any], what: str, frame: str = "subcommand") -> Any:
    """The command this path runs among `options` (names, or None for "no command"): a command line
    names one, so each is a run of its own — one path per command (an input with one value per run),
    named in the trace of the findings made on it (`subcommand 'train'`)."""
    if len(options) <= 1:
        chosen = options[0] if options else None
    else:
        which = ctx.fresh("command", kind=INPUT, lo=0, hi=len(options) - 1,
                          note=f"the {what} named on the command line ({', '.join(map(str, options))})")
        at = next((i for i in range(len(options) - 1) if ctx.fork(P.eq(which, i))), len(options) - 1)
        chosen = options[at]
        # explored in order: this command and the ones after it share what the ones before it left
        ctx.enter_command(f"{what} {chosen!r}" if chosen is not None else f"no {what}", len(options) - at)
    ctx.facts["subcommand"] = (chosen, ctx.span, frame)  # (`frame`: how the findings' trace names it)
    return chosen


def _public_methods(cls: ClassVal) -> dict[str, Any]:
    """The commands `fire` makes of a class: its public methods (the program's own)."""
    out: dict[str, Any] = {}
    for c in reversed(cls.mro()):
        if not c.native:
            out.update({k: v for k, v in c.ns.items() if not k.startswith("_") and _params(getattr(v, "func", v))})
    return out


def _launch_component(ctx: Ctx, component: Any) -> Any:
    """What `fire.Fire`/`jsonargparse.CLI` run: a function with its defaults; of a dict, a list or a
    class, one command per path (a class is built with its defaults, then one public method runs)."""
    if isinstance(component, (list, tuple)):
        component = {getattr(c, "name", f"#{i}"): c for i, c in enumerate(component)}
    if isinstance(component, dict) and component:
        name = one_command(ctx, list(component), "command")
        return _launch_component(ctx, component[name])
    if isinstance(component, ClassVal) and not component.native:
        methods = _public_methods(component)
        obj = _instantiate(ctx, component)
        if not methods:
            return obj
        method = methods[one_command(ctx, list(methods), "command")]
        if isinstance(method, (StaticMethod, ClassMethod)):
            return run_with_defaults(ctx, method.func, *(() if isinstance(method, StaticMethod) else (component,)))
        return run_with_defaults(ctx, method, obj)
    if component is None or isinstance(component, (dict, ClassVal)):
        return ctx.unknown("command-line component")  # a command picked from argv: not known
    return run_with_defaults(ctx, component)


def _instantiate(ctx: Ctx, cls: ClassVal) -> Any:
    init = cls.lookup("__init__")
    a = _params(init)
    if a is None:
        return ctx.call(cls)
    positional = (a.posonlyargs + a.args)[1:]  # past `self`
    required = positional[:len(positional) - len(a.defaults)]
    missing = {p.arg: ctx.unknown(f"launcher argument {p.arg}") for p in required}
    missing.update({p.arg: ctx.unknown(f"launcher argument {p.arg}")
                    for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None})
    return ctx.call(cls, **missing)


@model("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")
def spawn(ctx: Ctx, fn: Any, args: Any = (), nprocs: Any = 1, join: Any = True, *rest: Any, **kwargs: Any) -> Any:
    hi = nprocs - 1 if isinstance(nprocs, int) and nprocs >= 1 else None
    rank = ctx.fresh("process_index", kind=ITERATION, lo=0, hi=hi, note="the process index spawn passes")
    items = ctx.iterate(args)
    run_with_defaults(ctx, fn, rank, *(items if items is not None else [ctx.unknown("spawn args")]))
    return None


@model("fire.Fire", "jsonargparse.CLI", "jsonargparse.auto_cli", "typer.run")
def fire(ctx: Ctx, component: Any = None, *args: Any, **kwargs: Any) -> Any:
    return _launch_component(ctx, component)


@model("typer.Option", "typer.Argument")
def typer_option(ctx: Ctx, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    """The parameter's default (`...` means required: unknown)."""
    return ctx.unknown("required command-line value") if default is Ellipsis else default


@native_class("typer.Typer", identity_eq=True)
class Typer:
    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        self.attrs["commands"] = []

    def command(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        def register(ctx: Ctx, fn: Any) -> Any:
            self.attrs["commands"].append(fn)
            return fn

        return Builtin("typer.Typer.command.decorator", register)

    def callback(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        def register(ctx: Ctx, fn: Any) -> Any:
            self.attrs.setdefault("callbacks", []).append(fn)
            return fn

        return Builtin("typer.Typer.callback.decorator", register)

    def call(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        """The app's callback, then one command per path (a single command is the app itself)."""
        commands = {getattr(fn, "name", f"#{i}"): fn for i, fn in enumerate(self.attrs.get("commands", []))}
        for fn in self.attrs.get("callbacks", []):
            run_with_defaults(ctx, fn)
        if commands:
            run_with_defaults(ctx, commands[one_command(ctx, list(commands), "command")])
        return None

    def add_typer(ctx: Ctx, self: Instance, app: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(app, Instance) and app.cls is self.cls:
            self.attrs["commands"].append(Builtin("typer.Typer.sub-app", lambda ctx, *a, **k: ctx.call(app)))
        return None


@native_class("click.Command", identity_eq=True)
class ClickCommand:
    """A function with its click options: calling it runs the function with the options' defaults; a
    group runs its own function, then one of its commands per path."""

    def call(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        options = dict(self.attrs["options"])
        options.update(kwargs)
        out = run_with_defaults(ctx, self.attrs["fn"], *args, **options)
        commands = self.attrs.get("commands")
        if commands:
            return ctx.call(commands[one_command(ctx, list(commands), "command")])
        return out

    def command(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        """`@group.command()`: a command of the group (named after its function, or `name`)."""
        if len(args) == 1 and _params(args[0]) is not None:
            return _add(self, _command(args[0]), kwargs.get("name"))
        name = args[0] if args and isinstance(args[0], str) else kwargs.get("name")
        return Builtin("click.Group.command.decorator", lambda ctx, fn: _add(self, _command(fn), name))

    def add_command(ctx: Ctx, self: Instance, cmd: Any = None, name: Any = None) -> Any:
        if isinstance(cmd, Instance) and cmd.cls is ClickCommand:
            _add(self, cmd, name)
        return None

    group = command


def _add(group: Instance, cmd: Instance, name: Any) -> Instance:
    label = name if isinstance(name, str) else getattr(cmd.attrs["fn"], "name", "command")
    group.attrs.setdefault("commands", {})[label.replace("_", "-")] = cmd
    return cmd


def _command(fn: Any) -> Instance:
    return fn if isinstance(fn, Instance) and fn.cls is ClickCommand else Instance(ClickCommand, {"fn": fn, "options": {}})


def _param_name(decls: tuple[Any, ...]) -> str | None:
    names = [d for d in decls if isinstance(d, str)]
    plain = [d for d in names if not d.startswith("-")]
    longs = [d for d in names if d.startswith("--")]
    chosen = plain[0] if plain else (longs[0] if longs else (names[0] if names else None))
    return None if chosen is None else chosen.lstrip("-").replace("-", "_").split("/")[0]


@model("click.option", "click.argument")
def click_option(ctx: Ctx, *decls: Any, **kwargs: Any) -> Any:
    name = _param_name(decls)

    def deco(ctx: Ctx, fn: Any) -> Any:
        cmd = _command(fn)
        if name is not None and "default" in kwargs:
            cmd.attrs["options"].setdefault(name, kwargs["default"])
        elif name is not None and kwargs.get("is_flag"):
            cmd.attrs["options"].setdefault(name, False)
        return cmd

    return Builtin("click.option.decorator", deco)


@model("click.command", "click.group")
def click_command(ctx: Ctx, *args: Any, **kwargs: Any) -> Any:
    if len(args) == 1 and _params(args[0]) is not None:  # used bare: `@click.command`
        return _command(args[0])
    return Builtin("click.command.decorator", lambda ctx, fn: _command(fn))


@model("accelerate.notebook_launcher")
def notebook_launcher(ctx: Ctx, function: Any, args: Any = (), *rest: Any, **kwargs: Any) -> Any:
    items = ctx.iterate(args)
    return run_with_defaults(ctx, function, *(items if items is not None else []))


@native_class("lightning.fabric.Fabric", "lightning.Fabric", "lightning_fabric.Fabric", identity_eq=True)
class Fabric:
    """What Fabric does around the user's code has no shape effect: `launch(fn, *args)` runs
    `fn(fabric, *args)`, `setup` gives back what it was given."""

    def init(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> None:
        rank = fact(ctx, "rank")
        self.attrs.update(global_rank=rank, local_rank=fact(ctx, "local_rank"), world_size=fact(ctx, "world_size", 1),
                          is_global_zero=P.eq(rank, 0), device=ctx.unknown("the Fabric device"))

    def launch(ctx: Ctx, self: Instance, function: Any = None, *args: Any, **kwargs: Any) -> Any:
        return None if function is None else run_with_defaults(ctx, function, self, *args, **kwargs)

    def setup(ctx: Ctx, self: Instance, module: Any, *optimizers: Any, **kwargs: Any) -> Any:
        return (module, *optimizers) if optimizers else module

    def setup_dataloaders(ctx: Ctx, self: Instance, *loaders: Any, **kwargs: Any) -> Any:
        return loaders[0] if len(loaders) == 1 else tuple(loaders)

    def backward(ctx: Ctx, self: Instance, *args: Any, **kwargs: Any) -> Any:
        return None

    print = barrier = seed_everything = backward
