import torch.nn as nn

REG = {}


class Conf:
    width = 8


CONF = Conf()
TABLE = []
for i in range(300):
    TABLE.append(i * 2)

from mypkg.layers import Net  # noqa: E402
from mypkg import consts  # noqa: E402
