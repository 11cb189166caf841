import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--resume", type=str)
parser.add_argument("--names", nargs="+", default=["a", "b"])
opt = parser.parse_args()
opt.n_classes = len(opt.names)
assert opt.resume, "run with --resume CHECKPOINT"
logits = torch.zeros(4, opt.n_classes)
