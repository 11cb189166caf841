"""ndarrays of known numbers: `np.array`/`np.asarray` of literal numbers, numpy's element-wise operators
with known arrays and numbers, iteration, indexing, `tolist`, `np.prod`; writes forget the items."""
import numpy as np
import torch

a = np.asarray((32, 24), dtype=int)
b = (a - 3 + 2) // 2 + 1
p_arith = torch.zeros(int(b[0]), int(b[1]))  # -> [16, 12]
p_iter = torch.zeros(*[int(v) for v in b])  # -> [16, 12]
p_list = torch.zeros(b.tolist()[1])  # -> [12]
p_prod = torch.zeros(int(np.prod(a)) // 96)  # -> [8]
p_mixed = torch.zeros(int((np.atleast_1d(5) + a)[1]))  # -> [29]
f = np.array([1.5, 2.0]) * 2
p_float = torch.zeros(int(f[0]), int(f[1]))  # -> [3, 4]
c = np.array([3, 4]) % 3
p_mod = torch.zeros(int(c[0]) + 1, int(c[1]) + 1)  # -> [1, 2]
w = np.array([1, 2])
w[0] = 5
p_written = torch.zeros(int(w[0]))  # -> ?
v = np.array([1, 2])
alias = v
alias *= 3
p_alias = torch.zeros(int(v[1]))  # -> ?
n = np.array([2, 3])
n += 1
p_inplace = torch.zeros(int(n[0]))  # -> ?
