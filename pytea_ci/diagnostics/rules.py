"""The rule catalogue: stable ids, slugs, default levels and the four-section docs of every rule, and
the messages of its findings.

The docs feed `pytea-ci rule ID`, the README and SARIF's rule metadata, so they live here once. Every
other module names a rule by its object (`SHAPE_MISMATCH`, `INVALID_ARGUMENT`, ...), never by its id
written out (tests/test_architecture.py forbids rule-id literals outside this file). A finding's
message is built here from the data of its check (`Rule.message`: the operation, what it requires in
the model's words, when it fails), so the interpreter writes no message text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pytea_ci.diagnostics.budgets import WALL_CLOCK
from pytea_ci.diagnostics.diagnostic import Severity


@dataclass(frozen=True)
class Rule:
    id: str
    slug: str
    level: Severity
    summary: str
    what: str
    why: str
    example: str
    instead: str
    template: str = "{op}: {detail}"  # a finding's message; {claim} is the detail without its final period

    def message(self, op: str, detail: str = "", when: str = "") -> str:
        """The message of a finding of this rule: the operation `op`, what it requires or what went
        wrong (`detail`, the model's words), and when it fails (`when`, shown in parentheses)."""
        text = self.template.format(op=op, detail=detail, claim=detail.rstrip("."))
        return f"{text} ({when})" if when else text

    @property
    def anchor(self) -> str:
        """The GitHub anchor of this rule's heading (`## PT001 shape-mismatch`) in docs/rules.md."""
        return f"{self.id.lower()}-{self.slug}"

    def markdown(self, level: int = 2) -> str:
        """The four-section docs; `level` is the heading level of the rule's title."""
        h, sub = "#" * level, "#" * (level + 1)
        return (
            f"{h} {self.id} {self.slug}\n\n{sub} What it does\n{self.what}\n\n{sub} Why is this bad?\n{self.why}\n\n"
            f"{sub} Example\n{_code(self.example)}\n\n{sub} Use instead\n{_block(self.instead)}\n"
        )

    def text(self) -> str:
        """The same docs as plain text (SARIF's `help.text`): code indented, no markup around it."""
        return (
            f"{self.id} {self.slug}\n\nWhat it does:\n{self.what}\n\nWhy is this bad?\n{self.why}\n\n"
            f"Example:\n{_indent(self.example)}\n\nUse instead:\n"
            f"{_indent(self.instead) if is_code(self.instead) else self.instead}\n"
        )


def is_code(text: str) -> bool:
    """Whether a docs snippet is Python code rather than prose ("Raise the budget." does not parse)."""
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _code(text: str) -> str:
    return f"```python\n{text}\n```"


def _block(text: str) -> str:
    """A "Use instead" snippet in markdown: code in a python block, prose as it is. (An example is
    always code, even one that does not parse such as PT012's.)"""
    return _code(text) if is_code(text) else text


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())


_LINEAR_BAD = "fc = nn.Linear(320, 50)\nx = torch.randn(64, 500)\ny = fc(x)  # 500 features, 320 expected"
_LINEAR_OK = "fc = nn.Linear(500, 50)\nx = torch.randn(64, 500)\ny = fc(x)"

RULES: tuple[Rule, ...] = (
    Rule(
        "PT001", "shape-mismatch", Severity.ERROR,
        "A tensor shape requirement fails on every run that reaches it.",
        "Reports a tensor operation whose shape requirement (matching features, broadcastable sizes, "
        "equal element counts, ...) cannot hold on any run that reaches it, including an unpacking "
        "whose right-hand side has another number of items than the names (`b, t = x.size()` on a 3-D "
        "tensor, `q, k, v = y.split(n, dim=2)` giving two pieces, `a, b = t` on a tensor of 3 rows: "
        "Python's ValueError). A failure the program "
        "catches (inside a `try` with a handler for RuntimeError, ValueError, IndexError, TypeError or "
        "a broader class) is its own business and is not reported; the analysis follows the handler.",
        "PyTorch raises at run time, often hours into a training job, and the run is lost.",
        _LINEAR_BAD, _LINEAR_OK,
    ),
    Rule(
        "PT002", "possible-shape-mismatch", Severity.WARNING,
        "A tensor shape requirement fails for some allowed inputs.",
        "Reports a shape requirement that holds for some values of the program's unknown sizes "
        "(a dataset length, an image size) but fails for others; the message gives a counterexample.",
        "The program works on the data you tried and fails on other data, e.g. when the dataset "
        "length is not a multiple of the batch size.",
        "x = batch.view(64, -1)  # fails when the last batch is shorter", "x = batch.view(batch.size(0), -1)",
    ),
    Rule(
        "PT003", "invalid-argument", Severity.ERROR,
        "An API argument is impossible for the tensor it is applied to.",
        "Reports arguments that no input can satisfy: a dim out of range (also `x.shape[i]` past the "
        "tensor's rank), a negative size, a kernel larger than the padded input, a head count that "
        "does not divide the embedding size, class targets or token ids past what they index, a "
        "binary cross-entropy target that is no probability, ...",
        "PyTorch rejects the call with an exception when it runs.",
        "x = torch.randn(8, 3)\ny = x.sum(dim=2)  # x has only dims 0 and 1", "y = x.sum(dim=1)",
    ),
    Rule(
        "PT004", "assert-fails", Severity.ERROR,
        "A user `assert` can never hold on this path.",
        "Reports an `assert` statement whose condition is false on every run that reaches it.",
        "The assertion stops the program; it documents an assumption the code breaks.",
        "x = torch.randn(8, 3)\nassert x.size(1) == 4", "x = torch.randn(8, 4)\nassert x.size(1) == 4",
        template="{op}: the condition can never hold on this path",
    ),
    Rule(
        "PT006", "dtype-mismatch", Severity.ERROR,
        "A tensor dtype requirement fails on every run that reaches it.",
        "Reports an operation whose operands' dtypes PyTorch rejects: an input of another dtype than the "
        "layer's parameters (`Linear`, convolutions, RNNs, `matmul`; integer data or float64 numpy "
        "arrays fed to a float32 model), class-index loss targets that are not int64, BCE targets "
        "that are not floating point, indices of a float dtype (`Embedding`, `one_hot`, `gather`, "
        "`scatter`, `index_select`), a `masked_fill` mask that is not bool, an in-place operation "
        "whose result cannot be cast back (`int_tensor += 0.5`) or a `cat`/`stack` into an `out=` "
        "tensor that cannot take the promoted dtype, an integer input to a normalization layer, and "
        "on the CPU a normalization layer whose input and parameters mix dtypes (other than a "
        "float16/bfloat16 input with float32 parameters), and a NumPy array used as a tensor (`arr.float()`, "
        "`arr.cuda()`, `arr.unsqueeze(0)`: an attribute no NumPy array has). Only dtypes the analyzer is sure of "
        "take part: a dtype it cannot follow (an unmodeled call, a file read, `set_default_dtype`) is "
        "unknown and never reported. The message names where each dtype was set.",
        "PyTorch raises `expected scalar type Long but found Float`, `mat1 and mat2 must have the same "
        "dtype`, ... at run time, often after data loading and setup have taken their time.",
        "fc = nn.Linear(4, 3)\nx = torch.randint(0, 5, (8, 4))  # int64\ny = fc(x)",
        "fc = nn.Linear(4, 3)\nx = torch.randint(0, 5, (8, 4)).float()\ny = fc(x)",
    ),
    Rule(
        "PT007", "device-mismatch", Severity.ERROR,
        "Tensors on different devices meet in one operation.",
        "Reports an operation whose operands (or a module's parameters and its input) are on different "
        "devices: an error when that happens on every machine (a model moved with "
        "`.to(torch.device(\"cuda\"))` called on a CPU tensor: without CUDA the move raises, with it "
        "the call does), a warning that says `when torch.cuda.is_available()` when it happens only on "
        "machines with a GPU (`device = \"cuda\" if torch.cuda.is_available() else \"cpu\"`, the model "
        "moved and the data not). A bare `.cuda()` is never a finding by itself, Python scalars and "
        "0-dim CPU tensors mix with CUDA tensors as PyTorch allows, and `DataParallel` makes no claim.",
        "PyTorch raises `Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:0 and cpu` - typically only on the GPU machine the job was sent to.",
        "device = \"cuda\" if torch.cuda.is_available() else \"cpu\"\nmodel = nn.Linear(4, 3).to(device)\n"
        "y = model(torch.randn(2, 4))  # the input stays on the CPU",
        "device = \"cuda\" if torch.cuda.is_available() else \"cpu\"\nmodel = nn.Linear(4, 3).to(device)\n"
        "y = model(torch.randn(2, 4).to(device))",
    ),
    Rule(
        "PT010", "undecided", Severity.NOTE,
        "The solver could not decide a shape requirement within its budget.",
        "Reports a symbolic shape requirement that the SMT solver could neither prove nor refute "
        "within the configured time or resource limit. It is never reported as an error.",
        "The requirement was not checked; a shape bug may hide there.",
        "y = x.view(n * m // k, -1)  # non-linear arithmetic", "Raise `solver-timeout` or state bounds for the sizes.",
        template="{op}: could not decide whether {claim} holds",
    ),
    Rule(
        "PT011", "incomplete", Severity.NOTE,
        "An analysis budget was reached or an entry point could not be analyzed.",
        "Reports that a path, step, loop or time budget was reached, or that an entry point failed "
        "with an internal error; what was found before that is still reported.",
        "Code after the budget was not checked.",
        "for _ in range(10**9):\n    step()", "Raise the budget in `[tool.pytea-ci]` or split the entry point.",
    ),
    Rule(
        "PT012", "parse-error", Severity.ERROR,
        "A file does not parse.",
        "Reports a Python file that is not valid Python, so it cannot be analyzed.",
        "Python itself will refuse to run it.",
        "def f(:\n    pass", "def f():\n    pass",
        template="syntax error: {detail}",
    ),
    Rule(
        "PT013", "nothing-checked", Severity.NOTE,
        "No tensor operation of an entry point could be checked.",
        "Reports an entry point in which not one tensor operation was checked with known shapes, with the "
        "first reason: every path ended early (an exception of the program, a budget), a launcher the "
        "analyzer cannot follow was given the code to run, or every operation received a value not "
        "understood. `pytea-ci explain ENTRY` lists every reason.",
        "\"0 findings\" then means \"checked nothing\", not \"correct\": a shape error in this entry point "
        "would go unreported.",
        "import some_launcher\n\ndef main():\n    ...\n\nsome_launcher.run(main)  # main is never analyzed",
        "def main():\n    ...\n\nif __name__ == \"__main__\":\n    main()",
    ),
    Rule(
        "PT014", "contract-changed", Severity.NOTE,
        "A changed module's input contract or output shape differs from the base revision's.",
        "With `--diff BASE` or `--staged`, each `nn.Module` of a changed file is checked in library mode on "
        "both sides (the base from git's objects, never a checkout), and a module whose accepted input "
        "(contract and smallest example) or output shape changed is reported at its class with both, and "
        "the changed lines inside it as related locations. A note by default; `[tool.pytea-ci.severity]` "
        "`PT014 = \"warning\"` makes it one.",
        "A module can be valid on its own and still no longer fit the data or the modules around it: "
        "`max_pool2d(x, 2)` becoming `max_pool2d(x, 1)` turns a net for 28x28 images into one for 16x16 "
        "images, and only the contract shows it. (A caller in the project that still passes the old size "
        "makes it an error, PT001.)",
        "def forward(self, x):\n    x = F.max_pool2d(F.relu(self.conv2(x)), 1)  # was 2\n"
        "    return self.fc1(torch.flatten(x, 1))  # in_features 9216",
        "def forward(self, x):\n    x = F.max_pool2d(F.relu(self.conv2(x)), 2)\n"
        "    return self.fc1(torch.flatten(x, 1))",
    ),
)

_BY_ID = {r.id: r for r in RULES}
_BY_SLUG = {r.slug: r for r in RULES}


def rule_by_id(key: str) -> Rule | None:
    """Look a rule up by id (`PT001`) or slug (`shape-mismatch`), case-insensitively for ids."""
    return _BY_ID.get(key.upper()) or _BY_SLUG.get(key)


SHAPE_MISMATCH = _BY_ID["PT001"]
POSSIBLE_SHAPE_MISMATCH = _BY_ID["PT002"]
INVALID_ARGUMENT = _BY_ID["PT003"]
ASSERT_FAILS = _BY_ID["PT004"]
DTYPE_MISMATCH = _BY_ID["PT006"]
DEVICE_MISMATCH = _BY_ID["PT007"]
UNDECIDED = _BY_ID["PT010"]
INCOMPLETE = _BY_ID["PT011"]
PARSE_ERROR = _BY_ID["PT012"]
NOTHING_CHECKED = _BY_ID["PT013"]
CONTRACT_CHANGED = _BY_ID["PT014"]


# ----- what a finding made by the interpreter itself says ------------------------------------------
def unpack_count(got: int, names: int, starred: bool) -> str:
    """Unpacking `got` items into `names` names (one of them starred): Python's ValueError."""
    want = f"at least {names}" if starred else f"{names}"
    why = "not enough values" if got < names else "too many values"
    return f"{why} to unpack (expected {want}, got {got})"


def unpack_rows(rows: object, want: int, starred: bool) -> str:
    """Unpacking a tensor of `rows` rows along its first dimension into `want` names."""
    return f"the tensor has {rows!r} rows along its first dimension, {f'at least {want}' if starred else want} " \
        f"names are unpacked"


def shape_index(index: int, rank: int) -> str:
    """`x.shape[index]` of a tensor of `rank` dims: out of range."""
    where = f"expected in [{-rank}, {rank - 1}]" if rank else "it has no dims"
    return f"index {index} is out of range for a {rank}-D tensor ({where})"


def budget_reached(budget: str, entry: str) -> str:
    """The note (PT011) of an entry point whose analysis stopped at `budget`."""
    if budget != WALL_CLOCK:
        return f"analysis incomplete: the {budget} budget was reached; findings so far are reported"
    return (f"analysis of {entry} stopped by the {WALL_CLOCK} (`wall-clock-limit`, or its share of the run's) "
            "before its step and solver budgets: what it found is reported, but where it stopped depends on the machine")


def module_missing(statement: str) -> str:
    """The note (PT011) of an import that ended paths: the environment named with --python lacks the module."""
    return (f"analysis incomplete: `{statement}` raises ModuleNotFoundError in the environment given with "
            "--python (no such module there): paths that reach it end there; findings before it are reported")


def nothing_checked_note(entry: str, why: str) -> str:
    """The note (PT013) of an entry point in which no tensor operation could be checked, and the first reason."""
    return f"nothing checked: no tensor operation of {entry} could be checked; {why}"


def on_some_machines(message: str, when: str) -> str:
    """A finding that fails only on some machines, with the machine choices that make it fail."""
    return f"{message} (when {when})"


def on_a_choice(message: str, choice: str) -> str:
    """A finding made only on one side of a choice the analyzer could not make, which the other side
    avoids: the choice and where its value came from."""
    return f"{message} (if {choice})"
