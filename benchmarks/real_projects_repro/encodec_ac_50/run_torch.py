"""encodec 0.1.1: PT002 at quantization/ac.py:50 (`quantized_cdf[-1]` "index -1 is out of bounds for dimension
0 with size cardinality ... e.g. cardinality = 0"), in the self-test `test()` the module runs as `__main__`.
The test draws `cardinality = random.randrange(4000)` after `random.seed(1234)`: CPython's draws are fixed
(3958, 1805, 30, 3731), never 0, and `test()` runs to its end under torch 2.13 (the project's own code, from
the sweep's cache; torchaudio replaced by encodec_asserts' stand-in). The analyzer took the seeded draw as
any value of [0, 3999]. An empty pdf does fail there (shown last): the warning's counterexample, which this
program never reaches."""
import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
from _load import source_dir  # noqa: E402

sys.path[:0] = [os.path.join(os.path.dirname(here), "encodec_asserts"), source_dir("encodec-0.1.1")]
import torch  # noqa: E402

from encodec.quantization import ac  # noqa: E402

random.seed(1234)
print("seeded draws (cardinality, steps):", [(random.randrange(4000), random.randrange(100, 500)) for _ in range(4)])
ac.test()
print("encodec.quantization.ac test() ran to its end")
try:
    ac.build_stable_quantized_cdf(torch.softmax(torch.randn(0), dim=0), 24)
except IndexError as e:
    print("cardinality 0 (never drawn here):", e)
print("false alarm: the seeded draws are never 0")
