"""Rule catalogue, diagnostics and suppression comments: the vocabulary every other layer speaks."""

from pytea_ci.diagnostics.diagnostic import Diagnostic, Edit, Fix, Frame, Related, Severity, Span
from pytea_ci.diagnostics.rules import RULES, Rule, rule_by_id

__all__ = ["Diagnostic", "Edit", "Fix", "Frame", "Related", "Severity", "Span", "RULES", "Rule", "rule_by_id"]
