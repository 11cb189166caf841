"""pytea-ci: find tensor shape errors in PyTorch programs without running them."""

__version__ = "0.1.0"
