"""Random training scripts over a folder of images (issue 37, item 3), for differential testing against
real torch with the data fuzzer's oracle (tests/oracle/fuzz_data.py).

A program reads every file of an image folder (the oracle writes PNGs of random sizes and modes, a
different set per run) through a `Dataset` whose `__getitem__` opens the image with PIL, converts it
(RGB or grayscale, or not at all), brings it to a fixed size through a small helper of its own (a PIL
center crop, a NumPy slice, a resize, a shorter-side crop then a resize, or no helper at all) and turns
it into a `[C, S, S]` tensor; a `DataLoader` stacks the items and consumers use the batches (a
convolution on the channels, a linear layer on the flattened image, a view by the batch size, a loss
over class labels, a pooling window, a reshape), each with a random off-by-one variation.

What it checks is the issue's rule: a size the program computes from data it reads (the crop size, an
image file's size) makes a warning only where a person can act on the counterexample, and the helpers
that give every item the same size (the crop, the resize) make no collate warning at all.
"""

from __future__ import annotations

import random

from tests.oracle.fuzz_data import HEADER, Program, Verdict, _off, bind_sizes, compare_program

HELPERS = {
    "crop": ["def center_crop(img, size):",
             "    w, h = img.size",
             "    left, top = (w - size) // 2, (h - size) // 2",
             "    return img.crop((left, top, left + size, top + size))"],
    "slice": ["def center_crop(img, size):",
              "    a = np.asarray(img)",
              "    h, w = a.shape[:2]",
              "    top, left = (h - size) // 2, (w - size) // 2",
              "    return Image.fromarray(a[top:top + size, left:left + size])"],
    "resize": ["def center_crop(img, size):",
               "    return img.resize((size, size))"],
    "short": ["def center_crop(img, size):",
              "    w, h = img.size",
              "    m = min(w, h)",
              "    left, top = (w - m) // 2, (h - m) // 2",
              "    img = img.crop((left, top, left + m, top + m))",
              "    return img.resize((size, size))"],
    "none": ["def center_crop(img, size):",
             "    return img"],
}


def _dataset(rng: random.Random, convert: str) -> list[str]:
    channels = {"RGB": "", "L": ".unsqueeze(0)", "": ""}[convert]
    layout = ".permute(2, 0, 1)" if convert != "L" else ""
    opened = "Image.open(os.path.join(self.root, self.files[i]))" + (f".convert({convert!r})" if convert else "")
    array = rng.choice(["np.array(img)", "np.asarray(img).copy()"])
    return ["class Images(Dataset):",
            "    def __init__(self, root, size):",
            "        self.root, self.size = root, size",
            "        self.files = sorted(os.listdir(root))",
            "",
            "    def __len__(self):",
            "        return len(self.files)",
            "",
            "    def __getitem__(self, i):",
            f"        img = center_crop({opened}, self.size)",
            f"        x = torch.from_numpy({array}){layout}.float(){channels} / 255",
            "        return x, i % C"]


def _image_consumer(rng: random.Random, ch: int, i: int) -> str:
    k = rng.choice([0, 0, 0, 1, -1])
    forms = [
        f"out{i} = nn.Conv2d({ch}{_off(k)}, 8, 3, padding=1)(xb)",
        f"out{i} = nn.Linear({ch} * S * S{_off(k)}, C)(xb.flatten(1))",
        f"out{i} = F.cross_entropy(nn.Linear({ch} * S * S, C{_off(k)})(xb.flatten(1)), yb)",
        f"out{i} = F.max_pool2d(xb, S{_off(k)})",
        f"out{i} = xb.reshape(-1, {ch}{_off(k)}, S, S)",
        f"out{i} = nn.BatchNorm2d({ch}{_off(k)})(xb)",
    ]
    return rng.choice(forms)


def make_image_program(seed: int) -> Program:
    rng = random.Random(seed)
    prog = Program(HEADER.splitlines() + ["from PIL import Image"])
    typical = {"S": rng.choice([6, 8, 12]), "C": rng.choice([3, 4, 5]), "B": rng.choice([2, 3, 4])}
    bind_sizes(rng, prog, typical)
    s = typical["S"]
    prog.folders["imgs"] = (rng.choice([1, 2, 5]), rng.choice([6, 7, 9]))
    prog.images["imgs"] = (s, 2 * s + 5) if rng.random() < 0.8 else (max(2, s - 3), s + 3)
    convert = rng.choice(["RGB"] * 6 + ["L"] * 3 + [""])
    helper = rng.choice(["crop", "crop", "slice", "resize", "short", "none"])
    prog.lines += HELPERS[helper] + _dataset(rng, convert)
    shuffle, drop = rng.choice(["True", "False"]), rng.choice(["False", "False", "True"])
    prog.lines += ["img_dir = os.path.join(os.environ.get('FZ_DATA', 'data'), 'imgs')",
                   f"loader = DataLoader(Images(img_dir, S), batch_size=B, shuffle={shuffle}, drop_last={drop})",
                   "for xb, yb in loader:"]
    ch = 1 if convert == "L" else 3
    for i in range(rng.choice([1, 2, 2])):
        prog.lines.append("    " + _image_consumer(rng, ch, i))
    return prog


def compare(seed: int) -> tuple[str, Program, Verdict, dict[int, str]]:
    return compare_program(make_image_program(seed), seed)
