"""Binding values to assignment targets (a mixin of the interpreter): names, attributes, items, and
unpacking into several names, where a count that cannot match is Python's ValueError (PT001) and a
tensor unpacks by its first dimension."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics import Severity
from pytea_ci.diagnostics.rules import SHAPE_MISMATCH, unpack_count, unpack_rows
from pytea_ci.interp.runtime import PathEnd, Scope, UserException
from pytea_ci.models.values import Unknown
from pytea_ci.shapes import pred as P
from pytea_ci.shapes.tensor import Tensor

if TYPE_CHECKING:
    from pytea_ci.interp.interpreter import Interpreter


class AssignMixin:
    def assign(self: "Interpreter", target: ast.expr, value: Any, scope: Scope) -> None:
        if isinstance(target, ast.Name):
            self.bind_name(target.id, value, scope)
            if self.shared.editor.recorder is not None:
                self.shared.editor.binding(self.span_of(target), target.id, value)
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.value, scope)
            self.setattr(obj, target.attr, value)
        elif isinstance(target, ast.Subscript):
            obj = self.eval(target.value, scope)
            idx = self.eval(target.slice, scope)
            with self.at(target):
                self.setitem(obj, idx, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target.elts, value, scope, target)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, scope)

    def unpack(self: "Interpreter", elts: list[ast.expr], value: Any, scope: Scope, node: ast.AST) -> None:
        star = next((i for i, e in enumerate(elts) if isinstance(e, ast.Starred)), None)
        with self.at(node):
            items = self.iterate(value) if not isinstance(value, Unknown) else None
            if isinstance(value, Tensor) and items is None and value.shape:
                items = self.tensor_rows(value, len(elts), star is not None)
                if items is not None and star is not None and not isinstance(value.shape[0], int):
                    rows = items[:1]  # the starred name takes the rows the others leave: how many is symbolic
                    self.mark_inexact(rows)
                    self.known_len[id(rows)] = value.shape[0] - (len(elts) - 1)
                    for k, e in enumerate(elts):
                        self.assign(e, rows if k == star else items[0], scope)
                    return
        if items is None:
            known = self.exact_prefix.get(id(value), 0) if isinstance(value, tuple) else 0
            n = min(known, len(elts) if star is None else star)
            for e, v in zip(elts[:n], value[:n] if n else ()):
                self.assign(e, v, scope)  # `q, k, v = (q, *pieces)`: q is known whatever the pieces
            for e in elts[n:]:
                rest: list[Any] = []
                if isinstance(e, ast.Starred):
                    self.mark_inexact(rest)  # some items, how many is not known
                self.assign(e, self.derived("unpacking", value) if not isinstance(e, ast.Starred) else rest, scope)
            return
        if star is None:
            if len(items) != len(elts):
                self.unpack_mismatch(len(items), len(elts), False, node)
            self.sites_passed.add(self.span_of(node))  # the count held here (interp/machine.py)
            for e, v in zip(elts, items):
                self.assign(e, v, scope)
            return
        after = len(elts) - star - 1
        if len(items) < len(elts) - 1:
            self.unpack_mismatch(len(items), len(elts) - 1, True, node)
        self.sites_passed.add(self.span_of(node))
        for e, v in zip(elts[:star], items[:star]):
            self.assign(e, v, scope)
        self.assign(elts[star], list(items[star:len(items) - after]), scope)
        for e, v in zip(elts[star + 1:], items[len(items) - after:]):
            self.assign(e, v, scope)

    def tensor_rows(self: "Interpreter", t: Tensor, names: int, starred: bool) -> "list[Any] | None":
        """Unpacking a tensor iterates over its first dimension: its size must be the number of
        names (at least the names but the starred one), a check like any other (PT001, PT002 when it depends on sizes). The rows,
        when that count is known (one per name but the starred one, when it is symbolic)."""
        n, want = t.shape[0], names - 1 if starred else names  # type: ignore[index]
        row = t.with_shape(t.shape[1:])  # type: ignore[index]
        if isinstance(n, int):  # a long concrete first dimension: `unpack` counts the rows
            return [row] * n if n <= 4096 else None
        self.require(P.ge(n, want) if starred else P.eq(n, want), "unpack", unpack_rows(n, want, starred),
                     SHAPE_MISMATCH, operands=(f"tensor: {t.shape!r}",), dims=(("rows", n),))
        return [row] * want

    def unpack_mismatch(self: "Interpreter", got: int, names: int, starred: bool, node: ast.AST) -> None:
        """Unpacking a known number of items into another number of names: Python's ValueError, a
        finding (PT001) on every run that gets here, unless the program catches it."""
        if self.expecting:
            raise UserException("ValueError")
        with self.at(node):
            self.emit(SHAPE_MISMATCH, Severity.ERROR, SHAPE_MISMATCH.message("unpack", unpack_count(got, names, starred)))
        raise PathEnd()
