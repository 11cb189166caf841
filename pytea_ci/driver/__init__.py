"""The driver: which entry points to analyze, with which options, and isolation between them."""
