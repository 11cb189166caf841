"""Symbolic dimensions, predicates over them, abstract tensors and shape checks with provenance."""
