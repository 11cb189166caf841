"""Label the scripts of the current folder by running them: torch and the real package (transformers,
or the import name given), in one process (the package imported once). Writes, into labels.json under
the package's major version, each script's line where the exception was raised (None: it ran clean),
and the versions used.

    cd tests/data/hf_versions && PYTHONPATH=<folder with transformers and its dependencies> python label.py
    cd tests/data/xt_versions && PYTHONPATH=<folder with x_transformers and its dependencies> \
        python ../hf_versions/label.py x_transformers
"""

import importlib
import importlib.metadata
import json
import os
import sys
import traceback
import warnings

warnings.simplefilter("ignore")
os.environ["TRANSFORMERS_VERBOSITY"] = "error"
import torch  # noqa: E402

NAME = sys.argv[1] if len(sys.argv) > 1 else "transformers"
package = importlib.import_module(NAME)
version = getattr(package, "__version__", None) or importlib.metadata.version(NAME.replace("_", "-"))
out: dict = {"versions": {"torch": torch.__version__, NAME: version}}
for f in sorted(os.listdir(".")):
    if not f.endswith(".py") or f == "label.py":
        continue
    try:
        with open(f) as src:
            exec(compile(src.read(), f, "exec"), {"__name__": "__main__"})
        out[f] = None
    except Exception as e:  # noqa: BLE001  (what the script raised is its label)
        out[f] = [fr for fr in traceback.extract_tb(e.__traceback__) if fr.filename == f][-1].lineno
    print(f, out[f], file=sys.stderr, flush=True)
doc = json.load(open("labels.json")) if os.path.isfile("labels.json") else {}
doc[version.split(".")[0]] = out
with open("labels.json", "w") as dst:
    json.dump(doc, dst, indent=1, sort_keys=True)
    dst.write("\n")
