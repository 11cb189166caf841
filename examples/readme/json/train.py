import torch
import wandb
from model import Classifier

if __name__ == "__main__":
    net = Classifier()
    noise = torch.randn(64, 10) * wandb.config.noise
    x = torch.randn(64, 500)
    y = net(x) + noise
