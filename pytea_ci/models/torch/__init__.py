"""Models of `torch`: tensors, creation, tensor methods, nn, functional, optim and data."""
