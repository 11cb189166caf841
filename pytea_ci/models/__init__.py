"""API models of torch, torchvision, numpy, PIL, argparse and the standard library.

Each model is one decorated function or class registered under its fully-qualified name(s) in
`registry`. Importing `pytea_ci.models.all` loads every model module; an analysis loads them on
demand, the first time one of their names is looked up (`index.py` says which module registers
which name: after adding or renaming a model, run `python scripts/gen_model_index.py`).
"""
