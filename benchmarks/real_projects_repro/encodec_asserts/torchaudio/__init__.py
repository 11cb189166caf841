"""A stand-in for torchaudio (not installable beside torch 2.13): the Spectrogram encodec's MS-STFT
discriminator builds, as torchaudio defines it (torch.stft, power=None gives the complex spectrum)."""
from . import transforms  # noqa: F401


def load(*args, **kwargs):
    raise NotImplementedError("not needed by the reproductions")


def save(*args, **kwargs):
    raise NotImplementedError("not needed by the reproductions")
