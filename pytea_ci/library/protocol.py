"""The names both halves of library mode use: the source side (`targets.py`, `sites.py`) writes a
construction and a one-line driver program with them, the interpreter side (`interpreter.py`) defines
them for the program it runs. One declaration, so the two cannot drift apart."""

from __future__ import annotations

import ast

DIM = "__pytea_dim__"  # `__pytea_dim__("dim")`: a positive symbolic integer named `dim`
# `__pytea_stages__("depth", 2)`: sizes per stage, a tuple of positive symbols `depth0`, `depth1` whose length is a
# guess: a failure of the construction is then owed to the guess, never reported
STAGES = "__pytea_stages__"
UNKNOWN_ARG = "__pytea_unknown__"  # `__pytea_unknown__("cfg")`: a constructor argument not known
RUN = "__pytea_run__"  # `__pytea_run__(model)`: build the inputs, call the module, keep the outcome
RESUMED = "__pytea_model__"  # the module restored from a construction checkpoint
DEFINED = "__pytea_defined__"  # called once the file's definitions ran, before the construction
CONFIG = "__pytea_config__"  # `__pytea_config__("config")`: a constructor argument read by its attributes
# `__pytea_stand_in__("fn")`: a constructor argument the module calls (`self.fn = fn`, then `self.fn(x)` in
# `forward`: `Residual(fn)`) that no site gives: a callable that passes its first argument through (an
# identity), its other attributes what `ATTR` says; a finding on a path that made one is never reported (the
# callable the project passes may change shapes), but the module's own operations around it are checked
STAND_IN = "__pytea_stand_in__"
PASS = "__pytea_pass__"  # the stand-in's call: its first argument when a tensor or a sequence, else unknown
GUESS = "__pytea_guess__"  # marks the path as one that made a guess (`LibraryInterpreter.guessing`)
# `forward`'s input that is a mapping of tensors by key (`TensorDictBase`, `Dict[str, Tensor]`): an instance of this
# class of the driver program, whose item of each key read is a tensor of sizes of its own (`KEYED_ITEM`), made on
# the first read and kept; what the module sets is kept too; a path fed one reports nothing (the keys are a guess)
KEYED = "__pytea_keyed__"
KEYED_ITEM = "__pytea_keyed_item__"
ATTR = "__pytea_attr__"  # `__pytea_attr__("config", "n_embd")`: what such an attribute is, first read
# the class of a configuration object nobody built: each attribute, when first read, is what `ATTR` says
# (a positive symbol for a size, else unknown) and stays that
_CONFIG_CLASS = f"""class {CONFIG}:
    def __init__(self, name):
        self.pytea_name = name

    def __getattr__(self, attr):
        value = {ATTR}(self.pytea_name, attr)
        setattr(self, attr, value)
        return value
"""


_STAND_IN_CLASS = f"""class {STAND_IN}:
    def __init__(self, name):
        self.pytea_name = name
        {GUESS}()

    def __call__(self, *args, **kwargs):
        return {PASS}(self.pytea_name, args)

    def __getattr__(self, attr):
        value = {ATTR}(self.pytea_name, attr)
        setattr(self, attr, value)
        return value
"""


_KEYED_CLASS = f"""class {KEYED}:
    def __init__(self, name, rank):
        self.pytea_name = name
        self.pytea_rank = rank
        self.pytea_items = {{}}
        {GUESS}()

    def __getitem__(self, key):
        if key not in self.pytea_items:
            self.pytea_items[key] = {KEYED_ITEM}(self.pytea_name, key, self.pytea_rank)
        return self.pytea_items[key]

    def get(self, key, *default, **kwargs):
        return self[key]

    def __setitem__(self, key, value):
        self.pytea_items[key] = value

    def set(self, key, value, *args, **kwargs):
        self.pytea_items[key] = value
        return self

    def __contains__(self, key):
        return True

    def __getattr__(self, attr):
        return {ATTR}(self.pytea_name, attr)
"""


def stand_in(name: str) -> str:
    """The source text of a callable constructor argument named `name` that no site gives (`STAND_IN`)."""
    return f"{STAND_IN}({name!r})"


def dim(name: str) -> str:
    """The source text of a positive symbolic integer named `name`."""
    return f"{DIM}({name!r})"


def stages(name: str, n: int) -> str:
    """The source text of `n` sizes per stage, positive symbols named `name0`, `name1`, ..."""
    return f"{STAGES}({name!r}, {n})"


def unknown(name: str) -> str:
    """The source text of an unknown constructor argument named `name`."""
    return f"{UNKNOWN_ARG}({name!r})"


def config(name: str) -> str:
    """The source text of a configuration object named `name` whose attributes nobody set."""
    return f"{CONFIG}({name!r})"


def driver_source(construct: str, keyed: bool = False) -> str:
    """The driver program run after the module's definitions: mark them done, build, run (`keyed`: an input is a
    mapping of tensors, made of `KEYED`, which the driver passes along)."""
    head = (_CONFIG_CLASS if CONFIG in construct else "") + (_STAND_IN_CLASS if STAND_IN in construct else "") + \
        (_KEYED_CLASS if keyed else "")
    return f"{head}{DEFINED}()\n{RUN}({construct}{', ' + KEYED if keyed else ''})"


def resume_source(keyed: bool = False) -> str:
    """The driver program of a path resumed from a construction checkpoint."""
    return f"{RUN}({RESUMED}{', ' + KEYED if keyed else ''})"


def is_driver(st: ast.stmt) -> bool:
    """A statement of a driver program (`at_line` gives it no columns: a statement of a file always has some)."""
    return st.col_offset == 0 and st.end_col_offset == 0


def at_line(source: str, line: int) -> list[ast.stmt]:
    """The statements of a driver program, placed at `line` of the module's file (the target's
    definition): a finding at the driver's call, inside a layer that has no source of its own (a
    factory's `nn.Sequential`), points there."""
    body = ast.parse(source).body
    for node in body:
        for sub in ast.walk(node):
            if hasattr(sub, "lineno"):
                sub.lineno = sub.end_lineno = line  # type: ignore[attr-defined]
                sub.col_offset = sub.end_col_offset = 0  # type: ignore[attr-defined]
    return body
