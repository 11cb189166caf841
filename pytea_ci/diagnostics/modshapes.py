"""What library mode learned about one `nn.Module`, as plain text and numbers (for `pytea-ci shapes`).

Built by library mode (`library/results.py`), rendered by `report/shapes.py`; nothing here
knows about symbols or tensors, so the reporters stay below the analyzer (DESIGN §2).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from pytea_ci.diagnostics.diagnostic import Diagnostic


@dataclass
class Layer:
    """One submodule call or tensor op along `forward` (depth 1 = called by the module itself)."""

    depth: int
    name: str  # "conv1", "features.0", or the op ("torch.flatten")
    kind: str  # the class of the submodule ("Conv2d"), or "op"
    inputs: list[str]  # shapes of the tensor arguments, e.g. "[N, 1, H, W]"
    output: str
    params: str = ""  # parameter count where known ("320", "dim*dim + dim")
    inputs_example: list[list[int] | None] = field(default_factory=list)  # under the example input
    output_example: list[int] | None = None


@dataclass
class InputShape:
    name: str
    shape: list[str] | None  # dims as text; None: not a tensor (a symbolic int or unknown)
    example: list[int] | None = None


@dataclass
class ModuleShapes:
    module: str  # "model.py::Net"
    path: str
    line: int
    construction: str  # how it was built: "Net(num_classes=10) at main.py:12", "defaults", ...
    status: str  # "determined" | "partial" | "rejected" (every input fails) | "incomplete" | "skipped"
    inputs: list[InputShape] = field(default_factory=list)
    contract: list[str] = field(default_factory=list)  # conditions on the input symbols
    symbols: dict[str, int] = field(default_factory=dict)  # the example: a value for every symbol
    output: str = "unknown"
    output_example: list[int] | None = None
    layers: list[Layer] = field(default_factory=list)
    params: str = ""  # total parameter count where known
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("diagnostics")
        out["findings"] = [{"rule": d.rule, "line": d.span.line, "message": d.message} for d in self.diagnostics]
        return out

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> ModuleShapes:
        """The inverse of `as_dict` without the findings (the result cache keeps those as diagnostics)."""
        plain = {k: v for k, v in doc.items() if k not in ("findings", "diagnostics", "inputs", "layers")}
        return cls(**plain, inputs=[InputShape(**i) for i in doc.get("inputs", [])],
                   layers=[Layer(**row) for row in doc.get("layers", [])])
