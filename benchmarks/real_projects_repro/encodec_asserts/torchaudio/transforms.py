import torch
class Spectrogram(torch.nn.Module):
    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window_fn=torch.hann_window, power=2.0,
                 normalized=False, wkwargs=None, center=True, pad_mode="reflect", onesided=True):
        super().__init__()
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.register_buffer("window", window_fn(self.win_length))
        self.power, self.normalized, self.center, self.pad_mode, self.onesided = power, normalized, center, pad_mode, onesided
    def forward(self, waveform):
        shape = waveform.size()
        waveform = waveform.reshape(-1, shape[-1])
        spec = torch.stft(waveform, n_fft=self.n_fft, hop_length=self.hop_length, win_length=self.win_length,
                          window=self.window, center=self.center, pad_mode=self.pad_mode or "reflect",
                          normalized=False, onesided=self.onesided, return_complex=True)
        spec = spec.reshape(shape[:-1] + spec.shape[-2:])
        if self.normalized:
            spec /= self.window.pow(2.0).sum().sqrt()
        if self.power is None:
            return spec
        return spec.abs().pow(self.power)
class Resample(torch.nn.Module):
    def __init__(self, *a, **k): super().__init__()
