"""fuzz_python seed 102111 (reduced): `operator.neg` was not modeled and `case 1 | 2 | 4` on a list left
undecided, so a `match` forked; the finding on the side CPython never takes was reported as an error
because the other side later ended in UnboundLocalError."""
import operator

import torch


def m(subject):
    match subject:
        case 1 | 2 | 4:
            return 8
        case [p, q]:
            return p + q
        case _:
            return 13


v = m(list(map(operator.neg, [5, 2])))
p = torch.zeros(-v)


def three(flag):
    if flag:
        a, b, c = v, v, 4
    return a, b, c


a, b, c = three(False)
