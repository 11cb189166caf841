"""Installed packages read from source (DESIGN §3; issues 21 and 35): one home for everything the
analyzer does with the packages of the project's environment.

- `environment.py` — which interpreter, its site-packages folders, the packages followed (driver-time)
- `site.py` — where a followed package's modules are, its step budget, where its findings go
- `lazy.py` — lazy exports: deferred star re-exports, `_LazyModule` names
- `kept.py` / `disk.py` — what an import left, kept in the process and in the cache folder
  (`DiskCache`, an object the driver makes and hands in)
- `registries.py` — string-keyed registries (timm's `register_model`) found in the source
- `hub_configs.py` — a model hub's configs (transformers' `from_pretrained` / `from_config`)
- `installed.py` — `Packages`, the one object implementing the interpreter's `Installed` protocol
  (`interp/installed.py`), which the driver hands to the interpreter

Calls the interpreter (its values and public methods), the models, shapes and diagnostics; the
interpreter never imports this package (it sees only the protocol), and the driver wires it in.
"""
