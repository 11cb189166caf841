"""Library mode (DESIGN §3 "Library mode"): each `nn.Module` checked alone, with no entry point.

What it owns, in the order a run uses it:
* `targets.py` — which module classes to check and how to build each; `sites.py` — how the project's
  construction sites build them (read from the source); `callers.py` — the inputs the project's call
  sites pass; `inputs.py` — the targets, their `forward` inputs and the symbolic tensors made for them;
* `interpreter.py` — the interpreter subclass whose may-fail checks join the module's contract;
  `plausible.py` — inputs that are not degenerate; `verdict.py` — every rank combination run, and
  what is reported; `results.py` — one module's findings, contract and layers as `ModuleShapes`;
* `run.py` — library mode in a `check` run (which modules, cached results) and `pytea-ci shapes`;
  `contracts.py` — PT014, a module's contract compared with the base of a diff;
* `protocol.py` — the names the generated driver program uses, which both halves share.

Layers it calls: the interpreter (`interp`, through its public seams: `explore.explore`,
`snapshot.copy_state`/`take`/`restore`, `Interpreter.provided_names`/`checkpoint_first`), models,
shapes, the solver, diagnostics, and the driver's pieces a run needs (file access, discovery, the
import graph, the result cache, the project's configuration and run options). The driver calls it
(`driver/check.py`); the interpreter does not know it exists.
"""
