"""Models of `torch.nn` modules and `torch.nn.functional`."""
