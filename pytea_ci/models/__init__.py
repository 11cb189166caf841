"""API models of torch, torchvision, numpy, PIL, argparse and the standard library.

Each model is one decorated function or class registered under its fully-qualified name(s) in
`registry`. Importing `pytea_ci.models.all` loads every model module.
"""
