"""Models of torchvision datasets and transforms (the real library's rules, not a stand-in)."""
