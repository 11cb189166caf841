import torch.nn as nn
from mypkg import CONF


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(CONF.width, 4)

    def forward(self, x):
        return self.fc(x)
