"""Data files of the project a program loads as objects (models/pickled.py): a vocabulary and arrays a
preprocessing script pickled, a `.npy`/`.npz` file, a torch file of tensors, read as data and never executed.
The program is also run by CPython with torch and NumPy (the oracle): the analyzer's error is the line CPython
raises at, and a program CPython runs through gets no finding."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pytea_ci.driver.run import Options, run

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")


def _check(tmp_path: Path, source: str) -> tuple[list[tuple[str, int]], int, int, int | None]:
    """(rule, line) of the findings, checked and reached operations, and the line CPython raises at."""
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(source))
    (entry,) = run([str(path)], Options(root=str(tmp_path), strict=True)).entries
    found = [(d.rule, d.span.line) for d in entry.diagnostics if d.severity.value != "note"]
    p = subprocess.run([sys.executable, "-c", f"import runpy; runpy.run_path({str(path)!r}, run_name='__main__')"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    lines = [int(x.split(", line ")[1].split(",")[0]) for x in p.stderr.splitlines()
             if str(path) in x and ", line " in x]
    return found, entry.stats.ops_checked, entry.stats.ops_reached, (lines[-1] if p.returncode else None)


def _vocab_and_ids(tmp_path: Path) -> None:
    with open(tmp_path / "data.pkl", "wb") as f:  # a preprocessing script's output, in the order train.py reads it
        pickle.dump({f"w{i}": i for i in range(40)}, f)
        pickle.dump({"O": 0, "B": 1, "I": 2}, f)
        pickle.dump(np.random.RandomState(0).randint(0, 40, (24, 12)), f)


def test_successive_pickles_are_the_objects_dumped(tmp_path: Path) -> None:
    _vocab_and_ids(tmp_path)
    found, checked, reached, raised = _check(tmp_path, """\
        import pickle
        import torch
        import torch.nn as nn
        with open("data.pkl", "rb") as f:
            word2id = pickle.load(f)
            tag2id = pickle.load(f)
            x_train = pickle.load(f)
        emb = nn.Embedding(len(word2id), 8)
        fc = nn.Linear(8, len(tag2id))
        x = torch.from_numpy(x_train[:4])
        y = fc(emb(x)).view(4 * 12, 3)
        z = fc(emb(x).view(4, 12 * 8))
    """)
    assert raised == 12 and found == [("PT001", 12)], found
    assert checked == reached


def test_a_0d_object_array_holds_its_dict_and_arrays_keep_shape_and_dtype(tmp_path: Path) -> None:
    np.save(tmp_path / "word_dict.npy", {"a": 3, "b": 1, "c": 2})
    np.save(tmp_path / "lengths.npy", np.arange(10, dtype=np.int64))
    np.savez(tmp_path / "arrays.npz", x=np.zeros((6, 5), dtype=np.float32), y=np.zeros(6, dtype=np.int64))
    found, checked, reached, raised = _check(tmp_path, """\
        import numpy as np
        import torch
        import torch.nn as nn
        vocab = np.load("word_dict.npy", allow_pickle=True).item()
        lengths = torch.from_numpy(np.load("lengths.npy"))
        data = np.load("arrays.npz")
        x, y = torch.from_numpy(data["x"]), torch.from_numpy(data["y"])
        emb = nn.Embedding(len(vocab) + 2, 4)
        h = emb(lengths[:5] % 3)
        out = nn.Linear(5, 2)(x)
        loss = nn.functional.cross_entropy(out, y)
        bad = nn.Linear(4, 2)(x)
    """)
    assert raised == 12 and found == [("PT001", 12)], found
    assert checked == reached


def test_what_the_library_refuses_is_not_claimed(tmp_path: Path) -> None:
    """An object array without `allow_pickle=True` (NumPy raises), NumPy arrays through `torch.load`'s default
    `weights_only` unpickler (torch raises): not read, so no error either way (a length read at run time is an
    input: at most a warning)."""
    np.save(tmp_path / "word_dict.npy", {"a": 3})
    torch.save({"x": np.zeros((3, 4))}, tmp_path / "np.pt")
    found, _, _, raised = _check(tmp_path, """\
        import sys
        import numpy as np
        import torch
        if sys.argv[0] == "no such program":
            v = np.load("word_dict.npy").item()
            torch.zeros(len(v)).view(7, 7)
        d = torch.load("np.pt")
        torch.from_numpy(d["x"]).view(5, 5)
    """)
    assert raised == 7 and [f for f in found if f[0] == "PT001"] == [], found


def test_a_torch_file_of_tensors_keeps_their_shapes(tmp_path: Path) -> None:
    torch.save({"x": torch.zeros(10, 7, dtype=torch.long), "y": torch.ones(10), "n": 10}, tmp_path / "TRAIN_data.pth.tar")
    found, checked, reached, raised = _check(tmp_path, """\
        import os
        import torch
        import torch.nn as nn
        data = torch.load(os.path.join(".", "TRAIN_data.pth.tar"))
        emb = nn.Embedding(50, 6)
        h = emb(data["x"]).mean(1)
        assert data["n"] == 10
        out = nn.Linear(6, 1)(h).squeeze(1) + data["y"]
        bad = nn.Linear(7, 1)(h)
    """)
    assert raised == 9 and found == [("PT001", 9)], found
    assert checked == reached


def test_a_pickle_naming_other_code_is_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> tuple:
            return (os.system, (f"touch {marker}",))

    (tmp_path / "vocab.pkl").write_bytes(pickle.dumps({"w": Evil()}))
    source = """\
        import pickle
        import torch
        vocab = pickle.load(open("vocab.pkl", "rb"))
        torch.zeros(len(vocab)).view(3, 3)
    """
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(source))
    (entry,) = run([str(path)], Options(root=str(tmp_path), strict=True)).entries
    assert not marker.exists()
    assert [d for d in entry.diagnostics if d.severity.value == "error"] == []


def test_a_dict_saved_with_numpy_in_the_run_is_loaded_back(tmp_path: Path) -> None:
    found, checked, reached, raised = _check(tmp_path, """\
        import numpy as np
        import torch
        import torch.nn as nn
        counts = {}
        for w in "a b a c d b a".split():
            counts[w] = counts.get(w, 0) + 1
        np.save("word_dict.npy", counts)
        word_dict = np.load("word_dict.npy", allow_pickle=True).item()
        word2id = {w: i for i, w in enumerate(word_dict)}
        word2id["unk"] = len(word2id)
        emb = nn.Embedding(len(word2id), 4)
        h = emb(torch.tensor([0, 1, 2]))
        bad = h.view(5, 3)
    """)
    assert raised == 13 and found == [("PT001", 13)], found
    assert checked == reached


def test_an_array_larger_than_a_text_data_file_is_read_by_its_structure(tmp_path: Path) -> None:
    with open(tmp_path / "ids.pkl", "wb") as f:  # 9.6 MB: the bytes of the array are skipped, its shape kept
        pickle.dump(np.zeros((20000, 60), dtype=np.int64), f)
    found, checked, reached, raised = _check(tmp_path, """\
        import pickle
        import torch
        x = pickle.load(open("ids.pkl", "rb"))
        torch.from_numpy(x).view(7, 7)
    """)
    assert raised == 4 and found == [("PT001", 4)], found
