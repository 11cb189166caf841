"""Canonical query text: symbols renamed in order of first appearance, so structurally equal
questions from different files share one cache entry. A long sub-term is written once, as a numbered
definition, and referred to by its number: sub-terms are shared (a network's sizes nest the sizes of
the blocks before, `shapes/dim.py` `_cached`), and writing one out at every use made the text, and the
time to build and hash it, exponential in the depth of the sharing (asteroid's SuDORMRF: 498 s)."""

from __future__ import annotations

import hashlib

from pytea_ci.shapes.dim import Lin, Op, Sym
from pytea_ci.shapes.pred import Pred

LONG = 200  # characters: a sub-term's text longer than this becomes a definition


class Canon:
    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self._texts: dict[int, tuple[object, str]] = {}  # id -> (term, text): shared sub-terms once
        self.defs: list[str] = []  # "#k=text" of the long sub-terms, each after those it refers to
        self._refs: dict[str, str] = {}  # text -> "#k": equal long sub-terms share one definition

    def dim(self, d: object) -> str:
        if isinstance(d, (Lin, Op)):
            done = self._texts.get(id(d))
            if done is None:
                done = self._texts[id(d)] = (d, self._defined(self._dim(d)))
            return done[1]
        return self._dim(d)

    def _defined(self, text: str) -> str:
        if len(text) <= LONG:
            return text
        if text not in self._refs:
            self._refs[text] = f"#{len(self.defs)}"
            self.defs.append(f"{self._refs[text]}={text}")
        return self._refs[text]

    def _dim(self, d: object) -> str:
        if isinstance(d, bool):
            return str(int(d))
        if isinstance(d, int):
            return str(d)
        if isinstance(d, Sym):
            if d.name not in self.names:
                self.names[d.name] = f"v{len(self.names)}"
            return f"{self.names[d.name]}[{d.lo},{d.hi}]" + (f"{set(d.values)}" if d.values else "")
        if isinstance(d, Lin):
            inner = sorted(f"{c}*{self.dim(a)}" for a, c in d.terms)
            return f"(+ {d.const} " + " ".join(inner) + ")"
        if isinstance(d, Op):
            args = [self.dim(a) for a in d.args]
            if d.op in ("mul", "min", "max"):
                args.sort()
            return f"({d.op} " + " ".join(args) + ")"
        raise TypeError(repr(d))

    def pred(self, p: object) -> str:
        if isinstance(p, bool):
            return "true" if p else "false"
        assert isinstance(p, Pred)
        if p.op in ("and", "or", "not"):
            parts = [self.pred(a) for a in p.args]
            return f"({p.op} " + " ".join(sorted(parts) if p.op != "not" else parts) + ")"
        return f"({p.op} {self.dim(p.args[0])} {self.dim(p.args[1])})"


def canonical_text(constraints: list[object], salt: str) -> tuple[str, dict[str, str]]:
    """The canonical conjunction plus `salt` (versions, options), then the definitions of its long
    sub-terms; and the renaming used."""
    c = Canon()
    parts = [c.pred(p) for p in constraints]
    text = salt + "|" + " ".join(parts)
    return (text + "|" + " ".join(c.defs) if c.defs else text), c.names


def query_key(constraints: list[object], salt: str) -> tuple[str, dict[str, str]]:
    """Hash of the canonical text; and the renaming used."""
    text, names = canonical_text(constraints, salt)
    return hashlib.sha256(text.encode()).hexdigest(), names
