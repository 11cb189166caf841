"""The driver: configuration, entry-point discovery, git changes, the import graph, the result and
solver caches, and running entry points (in parallel, isolated from one another).

`check.py` is the whole of `pytea-ci check` below argument parsing; `run.py` runs a list of entry
points (what the tests and benchmarks call directly)."""

DEFAULT_CACHE_DIR = ".pytea_cache"  # relative to the project root
