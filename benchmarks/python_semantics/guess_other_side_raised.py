"""fuzz_python seed 101972 (reduced): `undefined_name` was not taken as CPython's NameError, so `v` was
possibly unset and the `match` on it a guess; its other side ran the split without a check (the count
held), then ended in UnboundLocalError, and the finding on the guessed side was reported as an error."""
import math

import torch

try:
    undefined_name
except NameError:
    v = list(range(5))[4]


def m(subject):
    match subject:
        case 0:
            return 4
        case _:
            return 13


k = m(math.gcd(v, v))
s1, s2 = torch.split(torch.zeros(26), k)


def three(flag):
    if flag:
        a, b, c = 6, v, v
    return a, b, c


a, b = three(False)
