"""audiocraft 1.3.0, reduced: audiocraft/data/audio_utils.py:16-54 (convert_audio) and
audiocraft/models/genmodel.py:110-133, 166-187 (generate_continuation). The prompt is resampled by
julius (not followed by the analyzer), then its channels converted; the tokens of a prompt that is not
None come from the compression model."""
import julius
import torch


def convert_audio_channels(wav, channels=2):
    *shape, src_channels, length = wav.shape
    if src_channels == channels:
        pass
    elif channels == 1:
        wav = wav.mean(dim=-2, keepdim=True)
    elif src_channels == 1:
        wav = wav.expand(*shape, channels, length)
    elif src_channels >= channels:
        wav = wav[..., :channels, :]
    else:
        raise ValueError('The audio file has less channels than requested but is not mono.')
    return wav


def convert_audio(wav, from_rate, to_rate, to_channels):
    wav = julius.resample_frac(wav, int(from_rate), int(to_rate))
    return convert_audio_channels(wav, to_channels)


class Compression(torch.nn.Module):
    def encode(self, x):
        return torch.zeros(x.shape[0], 4, x.shape[-1] // 320, dtype=torch.long), None


class Model:
    sample_rate = 16000
    audio_channels = 1

    def __init__(self):
        self.compression_model = Compression()

    def _prepare_tokens_and_attributes(self, descriptions, prompt):
        attributes = [{'description': d} for d in descriptions]
        if prompt is not None:
            prompt_tokens, scale = self.compression_model.encode(prompt)
            assert scale is None
        else:
            prompt_tokens = None
        return attributes, prompt_tokens

    def generate_continuation(self, prompt, prompt_sample_rate, descriptions=None):
        if prompt.dim() == 2:
            prompt = prompt[None]
        if prompt.dim() != 3:
            raise ValueError("prompt should have 3 dimensions: [B, C, T] (C = 1).")
        prompt = convert_audio(prompt, prompt_sample_rate, self.sample_rate, self.audio_channels)
        if descriptions is None:
            descriptions = [None] * len(prompt)
        attributes, prompt_tokens = self._prepare_tokens_and_attributes(descriptions, prompt)
        assert prompt_tokens is not None
        return prompt_tokens


if __name__ == "__main__":
    m = Model()
    for channels in (1, 2):  # src_channels == channels, and not
        print(m.generate_continuation(torch.randn(channels, 32000), 32000, ["dog barking"]).shape)
