"""fuzz_python seed 101977 (reduced): `asyncio.run` of a coroutine was not followed, so a branch on its
value was a guess; the side CPython never takes failed an unpacking, the other side ran it and then ended
in UnboundLocalError, and the finding was reported as an error (201961 is the same async class)."""
import asyncio
import collections
import contextlib
import dataclasses
import enum
import functools
import itertools
import math
import operator
import typing

import torch
import torch.nn as nn
import torch.nn.functional as F

async def fetch_0(n):
    return n * 2

async def agen_0(n):
    for i in range(n):
        yield i

class Session_0:
    async def __aenter__(self):
        return 3

    async def __aexit__(self, *exc):
        return False

async def main_0(n):
    total = 0
    async for i in agen_0(n):
        total += i
    return total
v_0 = asyncio.run(main_0((1 * 3)))

N_1 = collections.namedtuple('N_1', 'x y', defaults=[1])
n_1 = N_1(0, y=5)
a_1, b_1 = n_1
v_1 = a_1 * b_1

if bool(list(filter(None, [v_1, v_0, v_0]))):
    v_2 = math.gcd(4, 5)
else:
    v_2 = len('mlp')

p_0_0 = torch.zeros(v_0)
p_1_0 = torch.zeros(v_1)
p_2_0 = torch.zeros(v_2)
s1_0, s2_0 = torch.split(torch.zeros(6), v_0)
s1_2, s2_2 = torch.split(torch.zeros(2), v_2)

def three_15(flag):
    if flag:
        a, b, c = v_2, v_2, 4
    return a, b, c
p_15, q_15 = torch.split(torch.zeros(4), 2)
a_15, b_15, c_15 = three_15(False)
