import torch
from model import Classifier

if __name__ == "__main__":
    net = Classifier()
    print(net(torch.randn(8, 320)).shape)
