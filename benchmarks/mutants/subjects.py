"""The subjects of the mutation benchmark: which real code, built how, called on which inputs.

A `Module` subject is one model of a source: `imports` and `build` (our own driver code, which
assigns `model`) construct it with a small config, `call` is one forward call whose `{b}` (batch)
and `{s}` (spatial or sequence size) are filled from `batches` x `sizes`; the inputs the original
model rejects are dropped (they are not plausible inputs). `files` are the source files mutants are
drawn from (globs relative to `root`, the folder the driver sits in and imports from).

A `Script` subject is one real training or inference script run as `__main__` (argparse defaults
plus `argv`), with the acceptance oracle's torchvision stand-in for datasets; its `variants` are
the inputs (stand-in dataset length cap, argv). `setup` writes the data files the script reads.
A run stops, as a success, when any DataLoader is iterated a second time (one epoch and one
evaluation pass done).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Module:
    name: str
    source: str
    root: str  # folder inside the source the driver sits in (sys.path entry)
    files: tuple[str, ...]
    imports: str
    build: str
    call: str
    sizes: tuple[int, ...] = (32, 64)
    batches: tuple[int, ...] = (1, 2, 4)
    kind: str = "module"


@dataclass(frozen=True)
class Script:
    name: str
    source: str
    root: str
    entry: str  # relative to root
    files: tuple[str, ...]
    argv: tuple[str, ...] = ()
    variants: tuple[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], ...] = (
        ((), (("TV_STANDIN_LEN_MOD", "640"),)),
        ((), (("TV_STANDIN_LEN_MOD", "130"),)),
    )
    setup: str = ""  # Python run in the work folder before the script (writes its data files)
    kind: str = "script"
    timeout: int = 90
    extra: dict = field(default_factory=dict)


IMG = "model(torch.randn({b}, 3, {s}, {s}))"
IMG1 = "model(torch.randn({b}, 1, {s}, {s}))"
TOK = "model(torch.randint(0, 100, ({b}, {s})))"

_VIT = "image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, heads=4, mlp_dim=64"


def _kuangliu(mod: str, ctor: str) -> Module:
    return Module(f"kuangliu-{mod}-{ctor.split('(')[0].lower()}", "pytorch-cifar-kuangliu", ".",
                  (f"models/{mod}.py",), f"from models.{mod} import {ctor.split('(')[0]}", f"model = {ctor}", IMG,
                  sizes=(32,))


def _vit(mod: str, ctor: str, sizes: tuple[int, ...] = (32,)) -> Module:
    return Module(f"vit-{mod}", "vit-pytorch", ".", (f"vit_pytorch/{mod}.py",),
                  f"from vit_pytorch.{mod} import {ctor.split('(')[0]}", f"model = {ctor}", IMG, sizes=sizes)


def _pytorchcv(mod: str, fn: str) -> Module:
    return Module(f"pytorchcv-{fn}", "pytorchcv", ".", (f"pytorchcv/models/{mod}.py", "pytorchcv/models/common.py"),
                  f"from pytorchcv.models.{mod} import {fn}", f"model = {fn}()", IMG, sizes=(32,))


def _monai(mod: str, cls: str, args: str, sizes: tuple[int, ...] = (32, 64)) -> Module:
    return Module(f"monai-{mod}", "monai", ".", (f"monai/networks/nets/{mod}.py", "monai/networks/blocks/*.py",
                                                   "monai/networks/layers/*.py"),
                  f"from monai.networks.nets.{mod} import {cls}", f"model = {cls}({args})", IMG1, sizes=sizes)


MODULES: list[Module] = [
    # --- kuangliu/pytorch-cifar
    _kuangliu("resnet", "ResNet18()"),
    _kuangliu("preact_resnet", "PreActResNet18()"),
    _kuangliu("vgg", "VGG('VGG11')"),
    _kuangliu("lenet", "LeNet()"),
    _kuangliu("mobilenet", "MobileNet()"),
    _kuangliu("mobilenetv2", "MobileNetV2()"),
    _kuangliu("senet", "SENet18()"),
    _kuangliu("shufflenetv2", "ShuffleNetV2(net_size=0.5)"),
    _kuangliu("densenet", "densenet_cifar()"),
    _kuangliu("dla_simple", "SimpleDLA()"),
    _kuangliu("regnet", "RegNetX_200MF()"),
    _kuangliu("efficientnet", "EfficientNetB0()"),
    _kuangliu("googlenet", "GoogLeNet()"),
    # --- vit-pytorch
    _vit("vit", f"ViT({_VIT})"),
    _vit("simple_vit", f"SimpleViT({_VIT})"),
    _vit("deepvit", f"DeepViT({_VIT})"),
    _vit("cait", "CaiT(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2, cls_depth=1, heads=4, mlp_dim=64)"),
    _vit("cct", "CCT(img_size=32, embedding_dim=32, n_conv_layers=2, kernel_size=3, stride=1, padding=1, "
         "pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=4, mlp_ratio=2., "
         "num_classes=10, positional_embedding='learnable')"),
    _vit("levit", "LeViT(image_size=32, num_classes=10, stages=2, dim=(32, 64), depth=1, heads=(2, 4), "
         "mlp_mult=2, dropout=0.)", sizes=(32,)),
    _vit("pit", "PiT(image_size=32, patch_size=4, dim=32, num_classes=10, depth=(1, 1), heads=4, mlp_dim=64)"),
    _vit("cvt", "CvT(num_classes=10, s1_emb_dim=16, s2_emb_dim=32, s3_emb_dim=64, s3_depth=2)", sizes=(32, 64)),
    _vit("t2t", "T2TViT(dim=32, image_size=32, depth=2, heads=4, mlp_dim=64, num_classes=10, "
         "t2t_layers=((7, 4), (3, 2), (3, 2)))"),
    # --- efficientnet_pytorch
    Module("efficientnet-b0", "efficientnet-pytorch", ".", ("efficientnet_pytorch/*.py",),
           "from efficientnet_pytorch import EfficientNet",
           "model = EfficientNet.from_name('efficientnet-b0', num_classes=10)", IMG),
    # --- g-mlp-pytorch
    Module("gmlp-tokens", "g-mlp-pytorch", ".", ("g_mlp_pytorch/g_mlp_pytorch.py",),
           "from g_mlp_pytorch import gMLP", "model = gMLP(num_tokens=100, dim=32, depth=2, seq_len=16)", TOK,
           sizes=(16,)),
    Module("gmlp-vision", "g-mlp-pytorch", ".", ("g_mlp_pytorch/g_mlp_pytorch.py",),
           "from g_mlp_pytorch import gMLPVision",
           "model = gMLPVision(image_size=32, patch_size=8, num_classes=10, dim=32, depth=2)", IMG, sizes=(32,)),
    # --- perceiver-pytorch
    Module("perceiver", "perceiver-pytorch", ".", ("perceiver_pytorch/perceiver_pytorch.py",),
           "from perceiver_pytorch import Perceiver",
           "model = Perceiver(input_channels=3, input_axis=2, num_freq_bands=4, max_freq=10., depth=2, "
           "num_latents=16, latent_dim=32, cross_heads=1, latent_heads=4, cross_dim_head=16, latent_dim_head=16, "
           "num_classes=10)", "model(torch.randn({b}, {s}, {s}, 3))", sizes=(8, 16)),
    Module("perceiver-io", "perceiver-pytorch", ".", ("perceiver_pytorch/perceiver_io.py",),
           "from perceiver_pytorch import PerceiverIO",
           "model = PerceiverIO(dim=32, queries_dim=16, logits_dim=10, depth=2, num_latents=16, latent_dim=32, "
           "cross_heads=1, latent_heads=4, cross_dim_head=16, latent_dim_head=16)",
           "model(torch.randn({b}, {s}, 32), queries=torch.randn(8, 16))", sizes=(16, 24)),
    # --- x-transformers
    Module("xt-decoder", "x-transformers", ".", ("x_transformers/x_transformers.py",),
           "from x_transformers import TransformerWrapper, Decoder",
           "model = TransformerWrapper(num_tokens=100, max_seq_len=32, attn_layers=Decoder(dim=32, depth=2, heads=4))",
           TOK, sizes=(8, 16)),
    Module("xt-encdec", "x-transformers", ".", ("x_transformers/x_transformers.py",),
           "from x_transformers import XTransformer",
           "model = XTransformer(dim=32, enc_num_tokens=100, enc_depth=1, enc_heads=4, enc_max_seq_len=32, "
           "dec_num_tokens=100, dec_depth=1, dec_heads=4, dec_max_seq_len=32)",
           "model(torch.randint(0, 100, ({b}, {s})), torch.randint(0, 100, ({b}, {s})))", sizes=(8, 16)),
    Module("xt-continuous", "x-transformers", ".", ("x_transformers/x_transformers.py",),
           "from x_transformers import ContinuousTransformerWrapper, Encoder",
           "model = ContinuousTransformerWrapper(dim_in=8, dim_out=4, max_seq_len=32, "
           "attn_layers=Encoder(dim=32, depth=2, heads=4))", "model(torch.randn({b}, {s}, 8))", sizes=(8, 16)),
    # --- pytorch/examples (models)
    Module("examples-wlm-lstm", "pytorch-examples", "word_language_model", ("model.py",), "import model as M",
           "model = M.RNNModel('LSTM', 100, 32, 32, 2)",
           "model(torch.randint(0, 100, ({s}, {b})), model.init_hidden({b}))", sizes=(8, 16)),
    Module("examples-wlm-transformer", "pytorch-examples", "word_language_model", ("model.py",), "import model as M",
           "model = M.TransformerModel(100, 32, 4, 64, 2)", "model(torch.randint(0, 100, ({s}, {b})))",
           sizes=(8, 16)),
    Module("examples-super-resolution", "pytorch-examples", "super_resolution", ("model.py",), "from model import Net",
           "model = Net(upscale_factor=3)", IMG1, sizes=(16, 32)),
    Module("examples-transformer-net", "pytorch-examples", "fast_neural_style/neural_style", ("transformer_net.py",),
           "from transformer_net import TransformerNet", "model = TransformerNet()", IMG, sizes=(16, 32)),
    Module("examples-mnist-net", "pytorch-examples", "mnist", ("main.py",), "from main import Net",
           "model = Net()", IMG1, sizes=(28,)),
    Module("examples-mnist-rnn-net", "pytorch-examples", "mnist_rnn", ("main.py",), "from main import Net",
           "model = Net()", "model(torch.randn({b}, 28, 28))", sizes=(28,)),
    # --- conformer
    Module("conformer-block", "conformer", ".", ("conformer/conformer.py",), "from conformer import ConformerBlock",
           "model = ConformerBlock(dim=32, dim_head=8, heads=4, ff_mult=2, conv_expansion_factor=2, "
           "conv_kernel_size=7)", "model(torch.randn({b}, {s}, 32))", sizes=(8, 16)),
    Module("conformer", "conformer", ".", ("conformer/conformer.py",), "from conformer import Conformer",
           "model = Conformer(dim=32, depth=2, dim_head=8, heads=4, ff_mult=2, conv_expansion_factor=2, "
           "conv_kernel_size=7)", "model(torch.randn({b}, {s}, 32))", sizes=(8, 16)),
    # --- mlp-mixer-pytorch
    Module("mlp-mixer", "mlp-mixer-pytorch", ".", ("mlp_mixer_pytorch/mlp_mixer_pytorch.py",),
           "from mlp_mixer_pytorch import MLPMixer",
           "model = MLPMixer(image_size=32, channels=3, patch_size=8, dim=32, depth=2, num_classes=10)", IMG,
           sizes=(32,)),
    # --- monai
    _monai("unet", "UNet", "spatial_dims=2, in_channels=1, out_channels=2, channels=(4, 8, 16), strides=(2, 2)"),
    _monai("basic_unet", "BasicUNet", "spatial_dims=2, in_channels=1, out_channels=2, features=(4, 4, 8, 16, 32, 4)"),
    _monai("segresnet", "SegResNet", "spatial_dims=2, init_filters=8, in_channels=1, out_channels=2"),
    _monai("densenet", "DenseNet", "spatial_dims=2, in_channels=1, out_channels=3, init_features=8, growth_rate=4, "
           "block_config=(2, 2)"),
    _monai("autoencoder", "AutoEncoder", "spatial_dims=2, in_channels=1, out_channels=1, channels=(4, 8), "
           "strides=(2, 2)"),
    _monai("resnet", "ResNet", "block='basic', layers=(1, 1, 1, 1), block_inplanes=(8, 16, 32, 64), spatial_dims=2, "
           "n_input_channels=1, num_classes=3"),
    _monai("attentionunet", "AttentionUnet", "spatial_dims=2, in_channels=1, out_channels=2, channels=(4, 8, 16), "
           "strides=(2, 2)"),
    _monai("varautoencoder", "VarAutoEncoder", "spatial_dims=2, in_shape=(1, 32, 32), out_channels=1, latent_size=8, "
           "channels=(4, 8), strides=(2, 2)", sizes=(32,)),
    # --- pytorchcv
    _pytorchcv("resnet_cifar", "resnet20_cifar10"),
    _pytorchcv("preresnet_cifar", "preresnet20_cifar10"),
    _pytorchcv("seresnet_cifar", "seresnet20_cifar10"),
    _pytorchcv("nin_cifar", "nin_cifar10"),
    _pytorchcv("diaresnet_cifar", "diaresnet20_cifar10"),
    _pytorchcv("xdensenet_cifar", "xdensenet40_2_k24_bc_cifar10"),
    # --- nanoGPT, minGPT
    Module("nanogpt", "nanogpt", ".", ("model.py",), "from model import GPT, GPTConfig",
           "model = GPT(GPTConfig(block_size=32, vocab_size=100, n_layer=2, n_head=4, n_embd=32, dropout=0.0))",
           "model(torch.randint(0, 100, ({b}, {s})), torch.randint(0, 100, ({b}, {s})))", sizes=(8, 16)),
    Module("mingpt", "mingpt", ".", ("mingpt/model.py",), "from mingpt.model import GPT",
           "config = GPT.get_default_config()\nconfig.model_type = None\nconfig.n_layer = 2\nconfig.n_head = 4\n"
           "config.n_embd = 32\nconfig.vocab_size = 100\nconfig.block_size = 32\nmodel = GPT(config)",
           "model(torch.randint(0, 100, ({b}, {s})), torch.randint(0, 100, ({b}, {s})))", sizes=(8, 16)),
]

_WLM_SETUP = """
import os, random
rng = random.Random(0)
words = ['w%d' % i for i in range(50)]
os.makedirs('data/wikitext-2', exist_ok=True)
for name, n in (('train', 300), ('valid', 60), ('test', 60)):
    with open('data/wikitext-2/%s.txt' % name, 'w') as f:
        for _ in range(n):
            f.write(' '.join(rng.choice(words) for _ in range(rng.randint(3, 12))) + '\\n')
"""

_YUNJEY_LM_SETUP = _WLM_SETUP.replace("data/wikitext-2", "data").replace("'train', 300", "'train', 40")

_NANOGPT_SETUP = """
import os, pickle
import numpy as np
os.makedirs('data/shakespeare_char', exist_ok=True)
rng = np.random.default_rng(0)
for name, n in (('train', 3000), ('val', 600)):
    rng.integers(0, 65, n).astype(np.uint16).tofile('data/shakespeare_char/%s.bin' % name)
with open('data/shakespeare_char/meta.pkl', 'wb') as f:
    pickle.dump({'vocab_size': 65}, f)
"""

_CHAR_SETUP = """
import random
rng = random.Random(0)
with open('input.txt', 'w') as f:
    f.write(''.join(rng.choice('O God!,abcdefgh ij\\n') for _ in range(4000)))
"""

_Y = "tutorials/"
_NOVAR = ((((), ()),))

SCRIPTS: list[Script] = [
    # --- pytorch/examples
    Script("examples-mnist", "pytorch-examples", "mnist", "main.py", ("main.py",)),
    Script("examples-mnist-rnn", "pytorch-examples", "mnist_rnn", "main.py", ("main.py",)),
    Script("examples-vae", "pytorch-examples", "vae", "main.py", ("main.py",)),
    Script("examples-mnist-forward-forward", "pytorch-examples", "mnist_forward_forward", "main.py", ("main.py",),
           argv=("--epochs", "3", "--train_size", "200", "--test_size", "100")),
    Script("examples-dcgan", "pytorch-examples", "dcgan", "main.py", ("main.py",),
           argv=("--dataset", "fake", "--imageSize", "64", "--batchSize", "8", "--niter", "1", "--workers", "0",
                 "--ngf", "8", "--ndf", "8", "--dry-run")),
    Script("examples-word-language-model", "pytorch-examples", "word_language_model", "main.py",
           ("main.py", "model.py", "data.py"), argv=("--epochs", "1", "--emsize", "16", "--nhid", "16", "--bptt", "8"),
           setup=_WLM_SETUP,
           variants=((("--batch_size", "20"), ()), (("--batch_size", "7"), ()),
                     (("--batch_size", "4", "--model", "Transformer", "--nhead", "2"), ()))),
    Script("examples-regression", "pytorch-examples", "regression", "main.py", ("main.py",), variants=_NOVAR),
    # --- yunjey/pytorch-tutorial
    Script("yunjey-linear-regression", "pytorch-tutorial-yunjey", _Y + "01-basics/linear_regression", "main.py",
           ("main.py",), variants=_NOVAR),
    Script("yunjey-logistic-regression", "pytorch-tutorial-yunjey", _Y + "01-basics/logistic_regression", "main.py",
           ("main.py",)),
    Script("yunjey-feedforward", "pytorch-tutorial-yunjey", _Y + "01-basics/feedforward_neural_network", "main.py",
           ("main.py",)),
    Script("yunjey-cnn", "pytorch-tutorial-yunjey", _Y + "02-intermediate/convolutional_neural_network", "main.py",
           ("main.py",)),
    Script("yunjey-resnet", "pytorch-tutorial-yunjey", _Y + "02-intermediate/deep_residual_network", "main.py",
           ("main.py",)),
    Script("yunjey-rnn", "pytorch-tutorial-yunjey", _Y + "02-intermediate/recurrent_neural_network", "main.py",
           ("main.py",)),
    Script("yunjey-birnn", "pytorch-tutorial-yunjey", _Y + "02-intermediate/bidirectional_recurrent_neural_network",
           "main.py", ("main.py",)),
    Script("yunjey-language-model", "pytorch-tutorial-yunjey", _Y + "02-intermediate/language_model", "main.py",
           ("main.py", "data_utils.py"), setup=_YUNJEY_LM_SETUP, variants=_NOVAR),
    Script("yunjey-gan", "pytorch-tutorial-yunjey", _Y + "03-advanced/generative_adversarial_network", "main.py",
           ("main.py",), variants=(((), (("TV_STANDIN_LEN_MOD", "600"),)), ((), (("TV_STANDIN_LEN_MOD", "300"),)))),
    Script("yunjey-vae", "pytorch-tutorial-yunjey", _Y + "03-advanced/variational_autoencoder", "main.py",
           ("main.py",)),
    # --- nanoGPT
    Script("nanogpt-train", "nanogpt", ".", "train.py", ("train.py", "model.py"),
           argv=("--dataset=shakespeare_char", "--n_layer=2", "--n_head=2", "--n_embd=32", "--block_size=16",
                 "--batch_size=4", "--max_iters=3", "--eval_iters=2", "--eval_interval=2", "--device=cpu",
                 "--compile=False", "--dtype=float32", "--gradient_accumulation_steps=2", "--log_interval=1",
                 "--always_save_checkpoint=False", "--warmup_iters=1", "--lr_decay_iters=3"),
           setup=_NANOGPT_SETUP, variants=(((), ()), (("--batch_size=3", "--block_size=12"), ()))),
    # --- minGPT
    Script("mingpt-adder", "mingpt", ".", "projects/adder/adder.py", ("projects/adder/adder.py", "mingpt/model.py",
                                                                     "mingpt/trainer.py"),
           argv=("--trainer.max_iters=3", "--trainer.batch_size=8", "--model.model_type=gpt-nano"),
           variants=(((), ()), (("--data.ndigit=3",), ()))),
    Script("mingpt-chargpt", "mingpt", ".", "projects/chargpt/chargpt.py", ("projects/chargpt/chargpt.py",
                                                                           "mingpt/model.py", "mingpt/trainer.py"),
           argv=("--trainer.max_iters=3", "--trainer.batch_size=4", "--model.model_type=gpt-nano",
                 "--data.block_size=16"), setup=_CHAR_SETUP,
           variants=(((), ()), (("--data.block_size=24",), ()))),
]

# --- stop 33: the sources of the new test half (split.json); appended, so the stop-32 subjects keep their order

_ESM = "from esm.data import Alphabet\n"
_ESM_FILES = ("esm/model/*.py", "esm/modules.py", "esm/multihead_attention.py", "esm/rotary_embedding.py",
              "esm/axial_attention.py")
_ESM_ARGS = ("import argparse\nargs = argparse.Namespace(arch='{arch}', layers=2, embed_dim=32, ffn_embed_dim=64, "
             "attention_heads=4, max_positions=64, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0, "
             "max_tokens_per_msa=2 ** 14, max_tokens=2 ** 14, embed_positions_msa=True, final_bias=True, emb_layer_norm_before=True)\n")
_SEQ = "model(torch.randn({b}, {s}, 32))"


def _esm(name: str, imports: str, build: str, call: str, sizes: tuple[int, ...] = (8, 16)) -> Module:
    return Module(f"esm-{name}", "fair-esm", ".", _ESM_FILES, _ESM + imports, build, call, sizes=sizes)


def _lucid(name: str, source: str, files: tuple[str, ...], imports: str, build: str, call: str,
           sizes: tuple[int, ...] = (8, 16), batches: tuple[int, ...] = (1, 2, 4)) -> Module:
    return Module(name, source, ".", files, imports, build, call, sizes=sizes, batches=batches)


def _gan_model(folder: str, cls: str, build: str, call: str, sizes: tuple[int, ...] = (32,)) -> Module:
    return Module(f"pytorch-gan-{folder}-{cls.lower()}", "pytorch-gan", f"implementations/{folder}", ("models.py",),
                  f"from models import {cls}", f"model = {build}", call, sizes=sizes)


_AX = ("axial_attention/axial_attention.py", "axial_attention/reversible.py")
_LAMBDA = ("lambda_networks/lambda_networks.py",)
_BOT = ("bottleneck_transformer_pytorch/bottleneck_transformer_pytorch.py",)
_LOCAL = ("local_attention/*.py",)
_TAB = ("tab_transformer_pytorch/tab_transformer_pytorch.py",)
_FT = ("tab_transformer_pytorch/ft_transformer.py",)
_SIREN = ("siren_pytorch/siren_pytorch.py",)
_VQ = ("vector_quantize_pytorch/*.py",)
_QKV = "model(torch.randn({b}, 2, {s}, 16), torch.randn({b}, 2, {s}, 16), torch.randn({b}, 2, {s}, 16))"
_TAB_CALL = "model(torch.randint(0, 3, ({b}, 3)), torch.randn({b}, {s}))"

NEW_MODULES: list[Module] = [
    # --- fair-esm (protein language models: ESM-2, ESM-1b, the MSA Transformer and their layers)
    _esm("esm2", "from esm.model.esm2 import ESM2",
         "model = ESM2(num_layers=2, embed_dim=32, attention_heads=4, alphabet=Alphabet.from_architecture('ESM-1b'))",
         "model(torch.randint(4, 24, ({b}, {s})))"),
    _esm("esm2-contacts", "from esm.model.esm2 import ESM2",
         "model = ESM2(num_layers=2, embed_dim=32, attention_heads=4, alphabet=Alphabet.from_architecture('ESM-1b'))",
         "model(torch.randint(4, 24, ({b}, {s})), repr_layers=[1, 2], return_contacts=True)"),
    _esm("esm1b", "from esm.model.esm1 import ProteinBertModel",
         _ESM_ARGS.format(arch="roberta_large") + "model = ProteinBertModel(args, Alphabet.from_architecture('ESM-1b'))",
         "model(torch.randint(4, 24, ({b}, {s})), repr_layers=[2], return_contacts=True)"),
    _esm("esm1", "from esm.model.esm1 import ProteinBertModel",
         _ESM_ARGS.format(arch="protein_bert_base") + "model = ProteinBertModel(args, Alphabet.from_architecture('ESM-1'))",
         "model(torch.randint(4, 24, ({b}, {s})))"),
    _esm("msa-transformer", "from esm.model.msa_transformer import MSATransformer",
         _ESM_ARGS.format(arch="msa_transformer") + "model = MSATransformer(args, Alphabet.from_architecture('msa_transformer'))",
         "model(torch.randint(4, 24, ({b}, 3, {s})), return_contacts=True)"),
    _esm("transformer-layer", "from esm.modules import TransformerLayer",
         "model = TransformerLayer(32, 64, 4, use_rotary_embeddings=True)",
         "model(torch.randn({s}, {b}, 32))"),
    _esm("axial-layer", "from esm.modules import AxialTransformerLayer",
         "model = AxialTransformerLayer(embedding_dim=32, ffn_embedding_dim=64, num_attention_heads=4)",
         "model(torch.randn(3, {s}, {b}, 32))"),
    # --- axial-attention
    _lucid("axial-attention-channels", "axial-attention", _AX, "from axial_attention import AxialAttention",
           "model = AxialAttention(dim=16, dim_index=1, heads=4, num_dimensions=2)", "model(torch.randn({b}, 16, {s}, {s}))"),
    _lucid("axial-attention-3d", "axial-attention", _AX, "from axial_attention import AxialAttention",
           "model = AxialAttention(dim=16, dim_index=-1, heads=2, dim_heads=8, num_dimensions=3, sum_axial_out=False)",
           "model(torch.randn({b}, 4, {s}, {s}, 16))"),
    _lucid("axial-image-transformer", "axial-attention", _AX, "from axial_attention import AxialImageTransformer",
           "model = AxialImageTransformer(dim=16, depth=2, heads=4, reversible=True)",
           "model(torch.randn({b}, 16, {s}, {s}))"),
    _lucid("axial-image-transformer-posemb", "axial-attention", _AX, "from axial_attention import AxialImageTransformer",
           "model = AxialImageTransformer(dim=16, depth=1, heads=4, reversible=False, axial_pos_emb_shape=(16, 16))",
           "model(torch.randn({b}, 16, {s}, {s}))", sizes=(16,)),
    # --- lambda-networks
    _lucid("lambda-global", "lambda-networks", _LAMBDA, "from lambda_networks import LambdaLayer",
           "model = LambdaLayer(dim=16, dim_out=32, n=16, dim_k=8, heads=4, dim_u=1)", "model(torch.randn({b}, 16, {s}, {s}))",
           sizes=(16,)),
    _lucid("lambda-local", "lambda-networks", _LAMBDA, "from lambda_networks import LambdaLayer",
           "model = LambdaLayer(dim=16, dim_out=32, r=3, dim_k=8, heads=4, dim_u=4)", "model(torch.randn({b}, 16, {s}, {s}))"),
    _lucid("lambda-positional", "lambda-networks", _LAMBDA, "from lambda_networks import LambdaLayer",
           "model = LambdaLayer(dim=8, dim_out=16, n=8, dim_k=4, heads=2, dim_u=2)", "model(torch.randn({b}, 8, {s}, {s}))",
           sizes=(8,)),
    # --- bottleneck-transformer-pytorch
    _lucid("botnet-stack", "bottleneck-transformer-pytorch", _BOT, "from bottleneck_transformer_pytorch import BottleStack",
           "model = BottleStack(dim=16, fmap_size=16, dim_out=32, proj_factor=2, downsample=True, heads=2, dim_head=8, "
           "num_layers=2)", "model(torch.randn({b}, 16, {s}, {s}))", sizes=(16,)),
    _lucid("botnet-stack-relpos", "bottleneck-transformer-pytorch", _BOT,
           "from bottleneck_transformer_pytorch import BottleStack",
           "model = BottleStack(dim=8, fmap_size=8, dim_out=16, proj_factor=2, downsample=False, heads=2, dim_head=8, "
           "num_layers=1, rel_pos_emb=True)", "model(torch.randn({b}, 8, {s}, {s}))", sizes=(8,)),
    # --- local-attention
    _lucid("local-attention-causal", "local-attention", _LOCAL, "from local_attention import LocalAttention",
           "model = LocalAttention(dim=16, window_size=4, causal=True, autopad=True)", _QKV, sizes=(8, 14)),
    _lucid("local-attention-bidirectional", "local-attention", _LOCAL, "from local_attention import LocalAttention",
           "model = LocalAttention(window_size=4, causal=False, look_backward=1, look_forward=1, "
           "use_rotary_pos_emb=False)", _QKV, sizes=(8, 16)),
    _lucid("local-transformer", "local-attention", _LOCAL, "from local_attention import LocalTransformer",
           "model = LocalTransformer(num_tokens=100, max_seq_len=32, dim=32, depth=2, causal=True, "
           "local_attn_window_size=4, dim_head=8, heads=4)", TOK),
    _lucid("local-transformer-dynpos", "local-attention", _LOCAL, "from local_attention import LocalTransformer",
           "model = LocalTransformer(num_tokens=100, max_seq_len=32, dim=32, depth=1, causal=True, "
           "local_attn_window_size=4, dim_head=8, heads=2, use_dynamic_pos_bias=True)", TOK),
    _lucid("local-mha", "local-attention", _LOCAL, "from local_attention.transformer import LocalMHA",
           "model = LocalMHA(dim=32, window_size=4, dim_head=8, heads=4, causal=False, prenorm=True)", _SEQ),
    # --- tab-transformer-pytorch (tabular: categorical ids and continuous columns; {s} = continuous columns)
    _lucid("tab-transformer", "tab-transformer-pytorch", _TAB, "from tab_transformer_pytorch import TabTransformer",
           "model = TabTransformer(categories=(3, 4, 5), num_continuous=4, dim=16, depth=2, heads=4, dim_head=8, "
           "dim_out=1, mlp_hidden_mults=(2, 1))", _TAB_CALL, sizes=(4,)),
    _lucid("tab-transformer-meanstd", "tab-transformer-pytorch", _TAB, "from tab_transformer_pytorch import TabTransformer",
           "model = TabTransformer(categories=(3, 4, 5), num_continuous=2, dim=16, depth=1, heads=2, dim_head=8, "
           "dim_out=3, continuous_mean_std=torch.randn(2, 2))", _TAB_CALL, sizes=(2,)),
    _lucid("ft-transformer", "tab-transformer-pytorch", _FT, "from tab_transformer_pytorch import FTTransformer",
           "model = FTTransformer(categories=(3, 4, 5), num_continuous=4, dim=16, depth=2, heads=4, dim_head=8, "
           "dim_out=2)", _TAB_CALL, sizes=(4,)),
    # --- siren-pytorch (coordinate MLPs)
    _lucid("siren-net", "siren-pytorch", _SIREN, "from siren_pytorch import SirenNet",
           "model = SirenNet(dim_in=2, dim_hidden=32, dim_out=3, num_layers=3)", "model(torch.randn({b}, {s}, 2))"),
    _lucid("siren-wrapper", "siren-pytorch", _SIREN, "from siren_pytorch import SirenNet, SirenWrapper",
           "model = SirenWrapper(SirenNet(dim_in=2, dim_hidden=32, dim_out=3, num_layers=3), image_width=16, "
           "image_height=16)", "model(torch.randn({b}, 3, {s}, {s}))", sizes=(16,), batches=(1,)),
    _lucid("siren-wrapper-latent", "siren-pytorch", _SIREN, "from siren_pytorch import SirenNet, SirenWrapper",
           "model = SirenWrapper(SirenNet(dim_in=2, dim_hidden=32, dim_out=3, num_layers=3), image_width=16, "
           "image_height=8, latent_dim=8)", "model(latent=torch.randn(8))", sizes=(8,), batches=(1,)),
    # --- vector-quantize-pytorch (codebooks updated by EMA in training mode, k-means init, residual quantizers)
    _lucid("vq", "vector-quantize-pytorch", _VQ, "from vector_quantize_pytorch import VectorQuantize",
           "model = VectorQuantize(dim=16, codebook_size=32, decay=0.8, commitment_weight=1.)",
           "model(torch.randn({b}, {s}, 16))"),
    _lucid("vq-cosine-heads", "vector-quantize-pytorch", _VQ, "from vector_quantize_pytorch import VectorQuantize",
           "model = VectorQuantize(dim=16, codebook_size=32, codebook_dim=8, heads=2, separate_codebook_per_head=True, "
           "use_cosine_sim=True, kmeans_init=True, kmeans_iters=2)", "model(torch.randn({b}, {s}, 16))"),
    _lucid("vq-image-fmap", "vector-quantize-pytorch", _VQ, "from vector_quantize_pytorch import VectorQuantize",
           "model = VectorQuantize(dim=16, codebook_size=32, accept_image_fmap=True, orthogonal_reg_weight=0.1)",
           "model(torch.randn({b}, 16, {s}, {s}))", sizes=(4, 8)),
    _lucid("residual-vq", "vector-quantize-pytorch", _VQ, "from vector_quantize_pytorch import ResidualVQ",
           "model = ResidualVQ(dim=16, num_quantizers=3, codebook_size=32)", "model(torch.randn({b}, {s}, 16))"),
    _lucid("grouped-residual-vq", "vector-quantize-pytorch", _VQ, "from vector_quantize_pytorch import GroupedResidualVQ",
           "model = GroupedResidualVQ(dim=16, num_quantizers=2, groups=2, codebook_size=32)",
           "model(torch.randn({b}, {s}, 16))"),
    _lucid("random-projection-quantizer", "vector-quantize-pytorch", _VQ,
           "from vector_quantize_pytorch import RandomProjectionQuantizer",
           "model = RandomProjectionQuantizer(dim=16, codebook_size=32, codebook_dim=8, num_codebooks=2)",
           "model(torch.randn({b}, {s}, 16))"),
    # --- eriklindernoren/PyTorch-GAN (the models.py of its image-to-image GANs)
    _gan_model("cyclegan", "GeneratorResNet", "GeneratorResNet((3, 32, 32), 2)", IMG),
    _gan_model("cyclegan", "Discriminator", "Discriminator((3, 32, 32))", IMG),
    _gan_model("pix2pix", "Discriminator", "Discriminator(in_channels=3)",
               "model(torch.randn({b}, 3, {s}, {s}), torch.randn({b}, 3, {s}, {s}))", sizes=(32, 64)),
    _gan_model("context_encoder", "Generator", "Generator(channels=3)", IMG, sizes=(32, 64)),
    _gan_model("context_encoder", "Discriminator", "Discriminator(channels=3)", IMG, sizes=(32, 64)),
    _gan_model("discogan", "GeneratorUNet", "GeneratorUNet((3, 64, 64))", IMG, sizes=(64,)),
]

_GAN_ARGV = ("--n_epochs", "1", "--batch_size", "16", "--sample_interval", "100000")


def _gan(folder: str, entry: str, argv: tuple[str, ...] = ()) -> Script:
    return Script(f"pytorch-gan-{folder}", "pytorch-gan", f"implementations/{folder}", entry, (entry,),
                  argv=_GAN_ARGV + argv,
                  variants=(((), (("TV_STANDIN_LEN_MOD", "160"),)), (("--batch_size", "12"),
                                                                   (("TV_STANDIN_LEN_MOD", "100"),))))


def _nlp(folder: str, entry: str) -> Script:
    return Script(f"nlp-tutorial-{entry.split('.')[0].lower().replace('(', '-').replace(')', '')}",
                  "nlp-tutorial-graykode", folder, entry, (entry,), variants=_NOVAR, timeout=600)


def _morvan(entry: str, variants: tuple = _NOVAR) -> Script:
    return Script(f"morvan-{entry.split('_')[0]}", "pytorch-tutorial-morvan", "tutorial-contents", entry, (entry,),
                  variants=variants)


NEW_SCRIPTS: list[Script] = [
    # --- graykode/nlp-tutorial (toy sentences in the script; fixed, so one input each)
    _nlp("1-1.NNLM", "NNLM.py"),
    _nlp("2-1.TextCNN", "TextCNN.py"),
    _nlp("3-2.TextLSTM", "TextLSTM.py"),
    _nlp("4-1.Seq2Seq", "Seq2Seq.py"),
    _nlp("1-2.Word2Vec", "Word2Vec-Skipgram(Softmax).py"),
    _nlp("3-1.TextRNN", "TextRNN.py"),
    # --- MorvanZhou/PyTorch-Tutorial
    _morvan("301_regression.py"),
    _morvan("302_classification.py"),
    _morvan("305_batch_train.py"),
    _morvan("306_optimizer.py"),
    _morvan("403_RNN_regressor.py"),
    _morvan("503_dropout.py"),
    # --- eriklindernoren/PyTorch-GAN (MNIST through the torchvision stand-in)
    _gan("gan", "gan.py"),
    _gan("dcgan", "dcgan.py"),
    _gan("cgan", "cgan.py"),
    _gan("lsgan", "lsgan.py"),
]

# --- stop 34: development sources of training scripts chosen for their data paths (datasets that build labels
# and lengths, files read at run time, NumPy preprocessing, loaders); appended, so no earlier subject changes.
# Stand-in data files are written by `setup` (the mirrors hold the .py files only); the sizes are the real ones'
# order of magnitude, small enough for a quick run.

_MAKEMORE_SETUP = """
import random, sys, types
rng = random.Random(0)
for name, n, longest in (('names.txt', 400, 9), ('names_short.txt', 123, 6)):
    with open(name, 'w') as f:
        for _ in range(n):
            f.write(''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rng.randint(2, longest))) + '\\n')
tb = types.ModuleType('torch.utils.tensorboard')  # the oracle has no tensorboard: logging is no part of a label
tb.SummaryWriter = lambda *a, **k: types.SimpleNamespace(add_scalar=lambda *a, **k: None, flush=lambda: None)
sys.modules['torch.utils.tensorboard'] = tb
"""

_ZERO_TO_ALL_SETUP = """
import csv, gzip, os, random
rng = random.Random(0)
os.makedirs('data', exist_ok=True)
with gzip.open('data/diabetes.csv.gz', 'wt') as f:
    for _ in range(759):
        f.write(','.join('%.4f' % rng.uniform(-1, 1) for _ in range(8)) + ',%d\\n' % rng.randint(0, 1))
countries = ['Arabic', 'Chinese', 'Czech', 'Dutch', 'English', 'French', 'German', 'Greek', 'Irish', 'Italian',
             'Japanese', 'Korean', 'Polish', 'Portuguese', 'Russian', 'Scottish', 'Spanish', 'Vietnamese']
for name, n in (('names_train', 600), ('names_test', 170)):
    with gzip.open('data/%s.csv.gz' % name, 'wt') as f:
        w = csv.writer(f)
        for i in range(n):
            w.writerow([''.join(rng.choice('abcdefghijklmnop') for _ in range(rng.randint(2, 9))).title(),
                        countries[i % len(countries)]])
"""

_NG_SETUP = _CHAR_SETUP


def _makemore(kind: str) -> Script:
    return Script(f"makemore-{kind}", "makemore", ".", "makemore.py", ("makemore.py",),
                  argv=("--type", kind, "--max-steps", "3", "--num-workers", "0", "--n-layer", "2", "--n-head", "2",
                        "--n-embd", "16", "--n-embd2", "16", "--work-dir", "out"),
                  setup=_MAKEMORE_SETUP, variants=(((), ()), (("-i", "names_short.txt", "-b", "5"), ())))


def _zero(entry: str, variants: tuple = _NOVAR) -> Script:
    return Script(f"zero-to-all-{entry[:-3].replace('_', '-')}", "pytorch-zero-to-all", ".", entry,
                  (entry, "name_dataset.py") if "rnn_classification" in entry else (entry,),
                  setup=_ZERO_TO_ALL_SETUP, variants=variants)


def _jcj(folder: str, entry: str) -> Script:
    return Script(f"jcjohnson-{entry[:-3].replace('_', '-')}", "pytorch-examples-jcjohnson", folder, entry, (entry,),
                  variants=_NOVAR)


_MNIST_VARIANTS = (((), (("TV_STANDIN_LEN_MOD", "640"),)), ((), (("TV_STANDIN_LEN_MOD", "130"),)))

STOP34_SCRIPTS: list[Script] = [
    # --- karpathy/makemore: one script, six model types (a file of words -> CharDataset -> loader)
    *(_makemore(kind) for kind in ("transformer", "bigram", "mlp", "rnn", "gru", "bow")),
    # --- hunkim/PyTorchZeroToAll (data files written by setup; MNIST through the torchvision stand-in)
    _zero("07_diabets_logistic.py"),
    _zero("08_2_dataset_loade_logistic.py"),
    _zero("09_2_softmax_mnist.py", _MNIST_VARIANTS),
    _zero("10_1_cnn_mnist.py", _MNIST_VARIANTS),
    _zero("12_4_hello_rnn_emb.py"),
    _zero("13_1_rnn_classification_basics.py"),
    _zero("13_4_pack_pad.py"),
    # --- karpathy/ng-video-lecture: the bigram language model on a text file
    Script("ng-video-bigram", "ng-video-lecture", ".", "bigram.py", ("bigram.py",), setup=_NG_SETUP, variants=_NOVAR,
           timeout=400),  # 3000 steps: 30 s alone, 90 s on a loaded machine
    # --- jcjohnson/pytorch-examples (random data)
    _jcj("nn", "two_layer_net_module.py"),
    _jcj("nn", "two_layer_net_optim.py"),
    _jcj("nn", "dynamic_net.py"),
    _jcj("autograd", "two_layer_net_custom_function.py"),
    _jcj("tensor", "two_layer_net_tensor.py"),
]

# --- stop 36: the sources of a new script test half (split.json), chosen and committed before any pytea-ci result
# on them existed; appended, so no earlier subject changes. The mirrors hold the .py files only: `setup` writes
# stand-in data files of the real format (a wine CSV, a chatbot's intents JSON, a text corpus, the 1989 digit
# tensors) and stubs the modules that are not installed and are no part of a label (tqdm, nltk's tokenizer and
# stemmer, tensorboard / tensorboardX writers).

_TB_STUB = """
import sys, types
_w = lambda *a, **k: types.SimpleNamespace(**{n: (lambda *a, **k: None) for n in (
    'add_scalar', 'add_image', 'add_graph', 'add_pr_curve', 'flush', 'close')})
for _name in ('torch.utils.tensorboard', 'tensorboardX'):
    _m = types.ModuleType(_name)
    _m.SummaryWriter = _w
    sys.modules[_name] = _m
"""

_LOEBER_SETUP = _TB_STUB + """
import os, random
rng = random.Random(0)
os.makedirs('data/wine', exist_ok=True)
with open('data/wine/wine.csv', 'w') as f:  # the UCI wine table: a header, the class (1, 2, 3), 13 features
    f.write('Wine,Alcohol,Malic.acid,Ash,Acl,Mg,Phenols,Flavanoids,Nonflavanoid.phenols,Proanth,Color.int,Hue,OD,'
            'Proline\\n')
    for cls, n in ((1, 59), (2, 71), (3, 48)):
        for _ in range(n):
            f.write('%d,' % cls + ','.join('%.2f' % rng.uniform(0.1, 30.0) for _ in range(12))
                    + ',%d\\n' % rng.randint(278, 1680))
"""

_CHATBOT_SETUP = """
import json, re, sys, types
intents = {'intents': [
    {'tag': 'greeting', 'patterns': ['Hello there', 'Hi!', 'Good morning', 'Anybody here?', 'Hey you', 'Howdy'],
     'responses': ['Hello!']},
    {'tag': 'goodbye', 'patterns': ['Bye bye', 'Talk to you soon', 'I am leaving'], 'responses': ['Bye!']},
    {'tag': 'thanks', 'patterns': ['Thank you so much', 'Thanks!', 'That helped me', 'Many thanks'],
     'responses': ['Any time!']},
    {'tag': 'items', 'patterns': ['What is on the menu?', 'Which teas do you stock?', 'Do you sell cakes?'],
     'responses': ['Tea and coffee.']},
    {'tag': 'payments', 'patterns': ['Can I pay by card?', 'Is cash accepted?', 'Do you take vouchers?',
                                     'Which payment methods work?'], 'responses': ['Cards and cash.']},
    {'tag': 'delivery', 'patterns': ['When will my parcel arrive?', 'Do you ship abroad?',
                                     'How fast is shipping?'], 'responses': ['Two days.']},
    {'tag': 'funny', 'patterns': ['Make me laugh', 'Say something silly!', 'Any jokes today?'],
     'responses': ['No.']},
]}
with open('intents.json', 'w') as f:
    json.dump(intents, f)
nltk = types.ModuleType('nltk')  # nltk is not installed: a tokenizer and a stemmer of the same kind
nltk.word_tokenize = lambda s: re.findall(r"\\w+|[^\\w\\s]", s)
porter = types.ModuleType('nltk.stem.porter')
class PorterStemmer:
    def stem(self, w):
        for suf in ('ing', 'es', 's', 'ed'):
            if w.endswith(suf) and len(w) > len(suf) + 2:
                return w[:-len(suf)]
        return w
porter.PorterStemmer = PorterStemmer
sys.modules.update({'nltk': nltk, 'nltk.stem': types.ModuleType('nltk.stem'), 'nltk.stem.porter': porter})
"""

_WORD2VEC_SETUP = """
import random, sys, types
tq = types.ModuleType('tqdm')  # tqdm is not installed: a progress bar is no part of a label
tq.tqdm = lambda it=None, *a, **k: it
sys.modules['tqdm'] = tq
rng = random.Random(0)
words = ['w%d' % i for i in range(300)]
weights = [1 / (i + 1) ** 0.8 for i in range(300)]  # Zipf-like: the rarest words fall under min_count
with open('input.txt', 'w') as f:
    for _ in range(400):
        f.write(' '.join(rng.choices(words, weights, k=rng.randint(8, 25))) + '\\n')
import word2vec.data_reader  # a negative table of 1e8 entries takes 50 s and 1.6 GB to build: 1e5 keeps its ratios
word2vec.data_reader.DataReader.NEGATIVE_TABLE_SIZE = 1e5
"""

_LECUN_SETUP = _TB_STUB + """
import torch
g = torch.Generator().manual_seed(0)
for split, n in (('train', 40), ('test', 16)):  # prepro.py's output format: X (n, 1, 16, 16) in [-1, 1], Y +-1
    X = torch.rand((n, 1, 16, 16), generator=g) * 2 - 1
    Y = torch.full((n, 10), -1.0)
    Y[torch.arange(n), torch.randint(0, 10, (n,), generator=g)] = 1.0
    torch.save((X, Y), split + '1989.pt')
"""


def _loeber(entry: str, variants: tuple = _NOVAR) -> Script:
    return Script("loeber-" + entry[:-3].replace(" ", "").replace("_", "-"), "pytorch-tutorial-loeber", ".", entry,
                  (entry,), setup=_LOEBER_SETUP, variants=variants)


def _lecun(entry: str, variants: tuple = _NOVAR, timeout: int = 90) -> Script:
    return Script(f"lecun1989-{entry[:-3]}", "lecun1989-repro", ".", entry, (entry,), setup=_LECUN_SETUP,
                  variants=variants, timeout=timeout)


STOP36_SCRIPTS: list[Script] = [
    # --- patrickloeber/pytorchTutorial (a wine CSV through a Dataset; MNIST through the torchvision stand-in)
    _loeber("03_autograd.py"),
    _loeber("04_backpropagation.py"),
    _loeber("05_2_gradientdescent_auto.py"),
    _loeber("06_1_loss_and_optimizer.py"),
    _loeber("06_2_model_loss_and_ optimizer.py"),
    _loeber("09_dataloader.py"),
    _loeber("10_transformers.py"),
    _loeber("11_softmax_and_crossentropy.py"),
    _loeber("12_activation_functions.py"),
    _loeber("13_feedforward.py", _MNIST_VARIANTS),
    _loeber("16_tensorboard.py", _MNIST_VARIANTS),
    # --- patrickloeber/pytorch-chatbot (intents -> bag-of-words NumPy rows, tag indices as labels)
    Script("chatbot-train", "pytorch-chatbot-loeber", ".", "train.py", ("train.py", "model.py", "nltk_utils.py"),
           setup=_CHATBOT_SETUP, variants=_NOVAR),
    # --- Andras7/word2vec-pytorch (a corpus -> vocabulary, discard and negative tables -> skip-gram pairs)
    Script("word2vec-andras7-trainer", "word2vec-pytorch-andras7", ".", "word2vec/trainer.py",
           ("word2vec/trainer.py", "word2vec/data_reader.py", "word2vec/model.py"), setup=_WORD2VEC_SETUP,
           variants=_NOVAR, timeout=180),
    # --- karpathy/lecun1989-repro (MNIST through the stand-in -> 16x16 tensors; the 1989 net trained on them)
    _lecun("prepro.py", _MNIST_VARIANTS),
    _lecun("repro.py"),
    _lecun("modern.py", timeout=300),
]

# --- stop 40: the sources of a new script test half (split.json; the stop-36 script half is spent), chosen and
# committed before any pytea-ci result on them existed; appended, so no earlier subject changes. The mirrors hold
# the .py files only: `setup` writes stand-in data of the real format (news titles with class ids, CoNLL-2003
# columns and GloVe vectors, a Penn Treebank-like corpus) and stubs the modules that are not installed and decide
# no label (tqdm, sklearn.metrics' scores, tensorboardX).

_SK_STUB = """
import sys, types
import numpy as np
_skm = types.ModuleType('sklearn.metrics')  # scores from NumPy: a report is no part of a label
_skm.accuracy_score = lambda t, p, *a, **k: float(np.mean(np.asarray(t) == np.asarray(p)))
_skm.f1_score = lambda t, p, *a, **k: float(np.mean(np.asarray(t) == np.asarray(p)))
_skm.classification_report = lambda t, p, *a, **k: ''
_skm.confusion_matrix = lambda t, p, *a, **k: np.zeros((2, 2), dtype=int)
_sk = types.ModuleType('sklearn')
_sk.metrics = _skm
_tq = types.ModuleType('tqdm')
_tq.tqdm = lambda it=None, *a, **k: it
sys.modules.update({'sklearn': _sk, 'sklearn.metrics': _skm, 'tqdm': _tq})
"""

_THUC_SETUP = _TB_STUB + _SK_STUB + """
import os, random
rng = random.Random(0)
os.makedirs('THUCNews/data', exist_ok=True)
os.makedirs('THUCNews/saved_dict', exist_ok=True)
if os.path.exists('THUCNews/data/vocab.pkl'):  # built from train.txt by the run (char- or word-level)
    os.remove('THUCNews/data/vocab.pkl')
classes = ['finance', 'realty', 'stocks', 'education', 'science', 'society', 'politics', 'sports', 'game',
           'entertainment']
syll = ['zhong', 'guo', 'shi', 'chang', 'gu', 'piao', 'da', 'xue', 'ke', 'ji', 'she', 'hui', 'qiu', 'sai', 'you',
        'xi', 'dian', 'ying', 'fang', 'jia']
with open('THUCNews/data/class.txt', 'w', encoding='utf-8') as f:
    f.write('\\n'.join(classes) + '\\n')
for split, n in (('train', 200), ('dev', 140), ('test', 140)):  # title<TAB>class id; >= 128 (one batch) each
    with open('THUCNews/data/%s.txt' % split, 'w', encoding='utf-8') as f:
        for _ in range(n):
            words = [''.join(rng.choices(syll, k=rng.randint(1, 3))) for _ in range(rng.randint(3, 12))]
            f.write(' '.join(words) + '\\t%d\\n' % rng.randrange(10))
"""

_THUC_VARIANTS = (((), ()), (("--word", "True"), ()))  # char-level and word-level vocabularies


_THUC_EPOCHS = """
import importlib
_import = importlib.import_module
def _short_config(name, *a, **k):  # run.py's import of its model file: Config gets 2 epochs (of 20 or 10)
    mod = _import(name, *a, **k)
    if name.startswith('models.') and not hasattr(mod.Config, 'short'):
        init = mod.Config.__init__
        def short(self, *a, **k):
            init(self, *a, **k)
            self.num_epochs = 2  # every line a longer run reaches, 2 epochs reach
        mod.Config.__init__ = short
        mod.Config.short = True
    return mod
importlib.import_module = _short_config
"""


def _thuc(model: str) -> Script:
    return Script(f"thucnews-{model.lower().replace('_', '-')}", "text-classification-649453932", ".", "run.py",
                  ("run.py", "train_eval.py", "utils.py", f"models/{model}.py"),
                  argv=("--model", model, "--embedding", "random"),
                  setup=_THUC_SETUP + _THUC_EPOCHS, variants=_THUC_VARIANTS, timeout=180)


_PENN_SETUP = """
import os, random
os.environ['TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD'] = '1'  # its last step loads the whole saved model (torch < 2.6)
rng = random.Random(0)
os.makedirs('data/penn', exist_ok=True)
if os.path.exists('data/penn/corpus'):  # the run pickles the Corpus it builds from the three files
    os.remove('data/penn/corpus')
words = ['the', 'N', '<unk>', 'of', 'to', 'a', 'in', 'and', 'for', 'that', 'is', 'said', 'it', 'on', 'by', 'at',
         'as', 'from', 'million', 'with', 'mr.', 'was', 'be', 'are', 'its', 'has', 'an', 'new', 'will', 'company']
weights = [1 / (i + 1) for i in range(len(words))]
for split, n in (('train', 300), ('valid', 60), ('test', 60)):  # one sentence a line, as ptb.*.txt
    with open('data/penn/%s.txt' % split, 'w') as f:
        for _ in range(n):
            f.write(' ' + ' '.join(rng.choices(words, weights, k=rng.randint(4, 20))) + ' \\n')
"""

_TCN_CPU = ("--cuda",)  # `--cuda` is a store_false flag: CUDA is on by default


def _tcn(task: str, entry: str, argv: tuple[str, ...], variants: tuple = _NOVAR, setup: str = "") -> Script:
    folder = f"TCN/{task}"
    return Script(f"tcn-{task.replace('_', '-')}", "tcn-locuslab", ".", f"{folder}/{entry}",
                  (f"{folder}/{entry}", f"{folder}/model.py", f"{folder}/utils.py", "TCN/tcn.py"),
                  argv=_TCN_CPU + argv, setup=setup, variants=variants, timeout=180)


_NCRF_DATA = """
import os, random
rng = random.Random(0)
os.makedirs('sample_data', exist_ok=True)
ents = {'PER': ['Peter', 'Blackburn', 'Werner', 'Zwingmann', 'Nikolaus', 'Haiti'], 'ORG': ['EU', 'Commission', 'BSE'],
        'LOC': ['Germany', 'Brussels', 'Britain', 'France'], 'MISC': ['German', 'British', 'European']}
plain = ['rejects', 'call', 'to', 'boycott', 'lamb', 'the', 'said', 'on', 'Thursday', 'it', 'of', 'a', 'in', 'was',
         'farmers', 'sheep', 'would', 'not', 'be', '1996', '10', 'percent', 'and', 'that', 'mad', 'cow', 'disease']
pos = ['NN', 'NNP', 'VBZ', 'JJ', 'IN', 'DT', 'CD', 'VBD', 'TO']
emb_words = set()
def sentence():
    out = []
    for _ in range(rng.randint(3, 14)):
        if rng.random() < 0.25:
            kind = rng.choice(sorted(ents))
            span = rng.sample(ents[kind], rng.randint(1, 2))
            tags = ['S-' + kind] if len(span) == 1 else ['B-' + kind, 'E-' + kind]
            out += list(zip(span, tags))
        else:
            out.append((rng.choice(plain), 'O'))
    return out
for split, n in (('train', 120), ('dev', 30), ('test', 30)):  # CoNLL-2003 columns, BMES tags; features [Cap] [POS]
    with open('sample_data/%s.bmes' % split, 'w') as f, open('sample_data/%s.cappos.bmes' % split, 'w') as g, \\
            open('sample_data/%s.clf' % split, 'w') as c:
        for _ in range(n):
            sent = sentence()
            for w, t in sent:
                f.write('%s %s\\n' % (w, t))
                g.write('%s [Cap]%d [POS]%s %s\\n' % (w, w[0].isupper(), rng.choice(pos), t))
                emb_words.add(w)
            f.write('\\n')
            g.write('\\n')
            c.write(' '.join(w for w, _ in sent) + ' ||| %d\\n' % rng.randrange(5))  # its split_token
with open('sample_data/sample.word.emb', 'w') as f:  # GloVe text format, 50 dimensions, half the words covered
    for w in sorted(emb_words)[::2]:
        f.write(w + ' ' + ' '.join('%.4f' % rng.uniform(-1, 1) for _ in range(50)) + '\\n')
"""

_NCRF_COMMON = ("norm_word_emb=False", "norm_char_emb=False", "number_normalized=True", "word_emb_dim=50",
                "char_emb_dim=30", "status=train", "optimizer=SGD", "iteration=1", "ave_batch_loss=False",
                "cnn_layer=4", "char_hidden_dim=50", "hidden_dim=200", "dropout=0.5", "lstm_layer=1", "bilstm=True",
                "learning_rate=0.015", "lr_decay=0.05", "momentum=0", "l2=1e-8")


def _ncrf(name: str, config: tuple[str, ...]) -> Script:
    """NCRF++'s main.py on a configuration file (its only input); two files that differ in the batch size (the
    first in `argv`, so a script-mode check reads the same file; a later `--config` wins in argparse)."""
    text = "\n".join((*config, *_NCRF_COMMON))
    configs = {b: "%s\nbatch_size=%d\n" % (text, b) for b in (10, 7)}
    setup = _NCRF_DATA + "".join("with open('demo.b%d.config', 'w') as f:\n    f.write(%r)\n" % (b, c)
                                 for b, c in configs.items())
    return Script(f"ncrfpp-{name}", "ncrfpp", ".", "main.py",
                  ("main.py", "model/*.py", "utils/data.py", "utils/functions.py", "utils/alphabet.py"),
                  argv=("--config", "demo.b10.config"), setup=setup,
                  variants=(((), ()), (("--config", "demo.b7.config"), ())), timeout=180)


_PMF_SETUP = """
import os, random, sys, types
sys.modules['pandas'] = types.ModuleType('pandas')  # not installed; only its ml-20m reader (not run) uses it
rng = random.Random(0)
for folder, name, sep, n, stars in (('ml-100k', 'u.data', '\\t', 640, (1, 2, 3, 4, 5)),
                                    ('ml-1m', 'ratings.dat', '::', 520, (1, 2, 3, 4, 5)),
                                    ('ml-10m', 'ratings.dat', '::', 560, (0.5, 1.5, 2.5, 3.0, 3.5, 4.0, 5.0))):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), 'w') as f:  # user, item (1-based ids with gaps), rating, timestamp
        for _ in range(n):
            f.write(sep.join(str(v) for v in (rng.randint(1, 45), rng.choice(range(1, 200, 3)), rng.choice(stars),
                                              874965758 + rng.randrange(10 ** 6))) + '\\n')
"""

_PMF_ARGV = ("--num_epoch", "2", "--train_batch_size", "64", "--test_batch_size", "32", "--latent_dim", "10",
             "--lr", "0.1")

STOP40_SCRIPTS: list[Script] = [
    # --- 649453932/Chinese-Text-Classification-Pytorch (a vocabulary built from the training titles, char or word
    # level; padded id lists and class ids from TAB-separated lines; its own batch iterator)
    _thuc("TextCNN"),
    _thuc("TextRNN"),
    _thuc("TextRCNN"),
    _thuc("TextRNN_Att"),
    _thuc("DPCNN"),
    _thuc("Transformer"),
    # --- locuslab/TCN (sequence tasks: the adding problem and copy memory generated with NumPy indices, pixel MNIST
    # with a NumPy permutation cast to long, a word-level corpus turned into a dictionary and batchified ids)
    _tcn("adding_problem", "add_test.py", ("--epochs", "1", "--seq_len", "40", "--levels", "4", "--ksize", "4",
                                           "--batch_size", "500")),
    _tcn("copy_memory", "copymem_test.py", ("--epochs", "1", "--blank_len", "30", "--levels", "4", "--ksize", "4",
                                            "--batch_size", "250")),
    _tcn("mnist_pixel", "pmnist_test.py", ("--epochs", "1", "--permute", "--levels", "4"), _MNIST_VARIANTS),
    _tcn("word_cnn", "word_cnn_test.py", ("--epochs", "1", "--emsize", "32", "--nhid", "32", "--levels", "3",
                                          "--seq_len", "40", "--validseqlen", "20", "--batch_size", "8"),
         setup=_PENN_SETUP),
    # --- jiesutd/NCRFpp (CoNLL columns read into word, char, feature and label alphabets, GloVe-format vectors
    # matched to the words, batches padded with masks and sorted by length; CRF or softmax; sentence classes)
    _ncrf("lstm-crf-charcnn", ("train_dir=sample_data/train.bmes", "dev_dir=sample_data/dev.bmes",
                               "test_dir=sample_data/test.bmes", "model_dir=sample_data/lstmcrf",
                               "word_emb_dir=sample_data/sample.word.emb", "seg=True", "use_crf=True", "use_char=True",
                               "word_seq_feature=LSTM", "char_seq_feature=CNN")),
    _ncrf("cnn-charlstm-feats", ("train_dir=sample_data/train.cappos.bmes", "dev_dir=sample_data/dev.cappos.bmes",
                                 "test_dir=sample_data/test.cappos.bmes", "model_dir=sample_data/cnn", "seg=True",
                                 "use_crf=False", "use_char=True", "word_seq_feature=CNN", "char_seq_feature=LSTM",
                                 "feature=[Cap] emb_size=4", "feature=[POS] emb_size=20")),
    _ncrf("gru-crf-chargru", ("train_dir=sample_data/train.bmes", "dev_dir=sample_data/dev.bmes",
                              "test_dir=sample_data/test.bmes", "model_dir=sample_data/gru", "seg=True",
                              "use_crf=True", "use_char=True", "word_seq_feature=GRU", "char_seq_feature=GRU")),
    _ncrf("sentence-clf", ("sentence_classification=True", "train_dir=sample_data/train.clf",
                           "dev_dir=sample_data/dev.clf", "test_dir=sample_data/test.clf", "model_dir=sample_data/clf",
                           "word_emb_dir=sample_data/sample.word.emb", "seg=False", "use_crf=False", "use_char=False",
                           "word_seq_feature=LSTM", "char_seq_feature=CNN")),
    # --- ScXfjiang/pmf (MovieLens rating files of three formats read into id -> index maps, a random split, loaders
    # that drop the last batch, user and item factors picked with index_select)
    Script("pmf-movielens", "pmf-scxfjiang", ".", "main.py", ("main.py", "dataset.py", "model.py"),
           argv=(*_PMF_ARGV, "--dataset", "./ml-100k"), setup=_PMF_SETUP,
           variants=(((), ()), (("--dataset", "./ml-1m"), ()), (("--dataset", "./ml-10m"), ()))),
]

SUBJECTS: dict[str, Module | Script] = {s.name: s for s in [*MODULES, *SCRIPTS, *NEW_MODULES, *NEW_SCRIPTS,
                                                            *STOP34_SCRIPTS, *STOP36_SCRIPTS, *STOP40_SCRIPTS]}

# --- stop 41: development sources of training scripts of the kinds of the stop-40 script test half (a config-driven
# text classifier, sequence labelling from a configuration file and CoNLL files, a recommender over a ratings file),
# for developing script mode without that half; appended, so no earlier subject changes. The mirrors hold the .py
# files only: `setup` writes stand-in data of the real format and stubs modules that are not installed and decide no
# label (tqdm, sklearn.metrics' scores, tensorboardX, onnx, gensim, jieba's word cutter, pandas, SciPy's dok_matrix).

_STUBS41 = _TB_STUB + """
import sys, types
import numpy as np
_skm = types.ModuleType('sklearn.metrics')  # scores from NumPy: a report is no part of a label
_skm.accuracy_score = lambda t, p, *a, **k: float(np.mean(np.asarray(t) == np.asarray(p)))
_skm.f1_score = lambda *a, **k: np.full(len(k['labels']), 0.5) if 'average' in k and k['average'] is None else 0.5
_skm.classification_report = lambda t, p, *a, **k: ''
_skm.confusion_matrix = lambda t, p, *a, **k: np.zeros((2, 2), dtype=int)
_sk = types.ModuleType('sklearn')
_sk.metrics = _skm
_tq = types.ModuleType('tqdm')
_tq.tqdm = lambda it=None, *a, **k: it
sys.modules.update({'sklearn': _sk, 'sklearn.metrics': _skm, 'tqdm': _tq})
"""

_HL_SETUP = _STUBS41 + """
import os, random, sys, types
jieba = types.ModuleType('jieba')  # jieba is not installed: a word cutter of the same kind (two-character words)
jieba.lcut = lambda s: [s[i:i + 2] for i in range(0, len(s), 2)]
sys.modules['jieba'] = jieba
rng = random.Random(0)
d = 'data/datasets/THUCNews'
os.makedirs(d + '/vocab', exist_ok=True)
if os.path.exists(d + '/vocab/vocab.pkl'):  # built from train.txt by the run (char- or word-level)
    os.remove(d + '/vocab/vocab.pkl')
classes = ['finance', 'realty', 'stocks', 'education', 'science', 'society', 'politics', 'sports', 'game',
           'entertainment']
chars = [chr(0x4e00 + i) for i in range(0, 600, 7)]
with open(d + '/class.txt', 'w', encoding='utf-8') as f:
    f.write('\\n'.join(classes) + '\\n')
for split, n in (('train', 300), ('dev', 140), ('test', 140)):  # title<TAB>class id
    with open('%s/%s.txt' % (d, split), 'w', encoding='utf-8') as f:
        for _ in range(n):
            f.write(''.join(rng.choices(chars, k=rng.randint(6, 40))) + '\\t%d\\n' % rng.randrange(10))
import models.config  # 2 epochs of 20: the same lines run
_init = models.config.Config.__init__
def _short(self, *a, **k):
    _init(self, *a, **k)
    self.num_epochs = 2
models.config.Config.__init__ = _short
"""


def _hl(model: str, file: str) -> Script:
    return Script(f"hl0929-{model.lower()}", "text-classification-hl0929", ".", "train/run.py",
                  ("train/run.py", "train/scripts.py", "utils/utils.py", "models/config.py", f"models/{file}"),
                  argv=("--model", model, "--embedding", "random"), setup=_HL_SETUP,
                  variants=(((), ()), (("--token-level", "word"), ())), timeout=300)  # Transformer: 23 s alone, 90+ loaded


_NER_SETUP = _STUBS41 + """
import os, random, shutil, sys, types
for _name in ('onnx', 'onnxruntime', 'gensim', 'gensim.models'):  # export and pretrained vectors: not run
    sys.modules[_name] = types.ModuleType(_name)
sys.modules['gensim.models'].FastText = sys.modules['gensim.models'].KeyedVectors = object
shutil.rmtree('models', ignore_errors=True)  # main.py refuses an existing save folder
rng = random.Random(0)
os.makedirs('data', exist_ok=True)
words = ['Peter', 'Blackburn', 'EU', 'rejects', 'German', 'call', 'to', 'boycott', 'British', 'lamb', 'the',
         'European', 'Commission', 'said', 'on', 'Thursday', 'it', 'disagreed', 'with', 'advice', 'Germany', 'Paris',
         'Reuters', 'Brussels', 'was', 'a', 'of', 'and', 'in', 'spokesman', 'Werner', 'Zwingmann', 'Britain']
tags = ['O', 'O', 'O', 'B-PER', 'I-PER', 'B-LOC', 'B-ORG', 'I-ORG', 'B-MISC', 'I-MISC', 'I-LOC']
for split, n in (('train', 120), ('valid', 30), ('test', 30)):  # token<TAB>tag lines, a blank line between sentences
    with open('data/%s.txt' % split, 'w') as f:
        for _ in range(n):
            for _ in range(rng.randint(3, 20)):
                f.write('%s\\t%s\\n' % (rng.choice(words), rng.choice(tags)))
            f.write('\\n')
for name, unit, layers, bi in (('lstm', 'nn.LSTM', 1, 'true'), ('gru', 'nn.GRU', 2, 'false'),
                               ('rnn', 'nn.RNN', 1, 'true')):
    for b in (16, 7):
        with open('%s.b%d.yaml' % (name, b), 'w') as f:
            f.write('''torch:
  device: 'cpu'
  seed: 42
prepare_data:
  train_data: {path: 'data/train.txt', sep: '\\t', lower: true, verbose: true}
  val_data: {path: 'data/valid.txt', sep: '\\t', lower: true, verbose: true}
  test_data: {path: 'data/test.txt', sep: '\\t', lower: true, verbose: true}
  token2idx: {min_count: 1, add_pad: true, add_unk: true}
dataloader:
  preprocess: true
  token_padding: '<PAD>'
  label_padding: 'O'
  percentile: 100
  batch_size: %d
model:
  embedding: {embedding_dim: 32}
  rnn: {rnn_unit: %s, hidden_size: 24, num_layers: %d, dropout: 0, bidirectional: %s}
optimizer:
  optimizer_type: Adam
  clip_grad_norm: 0.1
  params: {lr: 0.001, weight_decay: 0, amsgrad: false}
train: {n_epoch: 1, verbose: true}
save: {path_to_folder: 'models/%s/', export_onnx: false}
''' % (b, unit, layers, bi, name))
"""

_NER_FILES = ("main.py", "pytorch_ner/dataset.py", "pytorch_ner/prepare_data.py", "pytorch_ner/train.py",
              "pytorch_ner/nn_modules/architecture.py", "pytorch_ner/nn_modules/embedding.py",
              "pytorch_ner/nn_modules/linear.py", "pytorch_ner/nn_modules/rnn.py", "pytorch_ner/save.py",
              "pytorch_ner/utils.py", "pytorch_ner/metrics.py")


def _ner(name: str) -> Script:
    # the first variant is the subject's argv (a later --config wins in argparse), as score.py checks that argv
    return Script(f"ner-dayyass-{name}", "pytorch-ner-dayyass", ".", "main.py", _NER_FILES,
                  argv=("--config", f"{name}.b16.yaml"), setup=_NER_SETUP,
                  variants=(((), ()), (("--config", f"{name}.b7.yaml"), ())))


_REC_SETUP = """
import os, random, sys, types
pd = types.ModuleType('pandas')  # imported, never used by the run
sp = types.ModuleType('scipy.sparse')  # SciPy is not installed: the dict of keys the run uses (shape, nnz, keys, in)
class dok_matrix(dict):
    def __init__(self, shape, dtype=None):
        super().__init__()
        self.shape = tuple(shape)
        self.dtype = dtype
    @property
    def nnz(self):
        return len(self)
sp.dok_matrix = dok_matrix
scipy = types.ModuleType('scipy')
scipy.sparse = sp
sys.modules.update({'pandas': pd, 'scipy': scipy, 'scipy.sparse': sp})
rng = random.Random(0)
os.makedirs('Data', exist_ok=True)
n_users, n_items = 60, 150
with open('Data/movielens.train.rating', 'w') as tr, open('Data/movielens.test.rating', 'w') as te:
    t = 874965478
    for u in range(n_users):  # user<TAB>item<TAB>rating<TAB>timestamp; the last item of a user is its test item
        items = rng.sample(range(1, n_items), rng.randint(5, 20))
        for i in items[:-1]:
            t += rng.randint(1, 500)
            tr.write('%d\\t%d\\t%d\\t%d\\n' % (u, i, rng.randint(1, 5), t))
        te.write('%d\\t%d\\t%d\\t%d\\n' % (u, items[-1], rng.randint(1, 5), t + 1))
"""

STOP41_SCRIPTS: list[Script] = [
    # --- hl0929/chinese-text-classification: train/run.py picks a model file and its Config class by --model
    _hl("TextCNN", "text_cnn.py"),
    _hl("TextRNN", "text_rnn.py"),
    _hl("TextRNNAtt", "text_rnn_att.py"),
    _hl("TextRCNN", "text_rcnn.py"),
    _hl("DPCNN", "dpcnn.py"),
    _hl("Transformer", "transformer.py"),
    # --- dayyass/pytorch-ner: main.py reads a YAML configuration, CoNLL-like token/tag files, an RNN tagger
    _ner("lstm"),
    _ner("gru"),
    _ner("rnn"),
    # --- HarshdeepGupta/recommender_pytorch: MLP.py, NCF's MLP over a MovieLens-like ratings file with negatives
    Script("recommender-harshdeepgupta-mlp", "recommender-harshdeepgupta", ".", "MLP.py",
           ("MLP.py", "Dataset.py", "utils.py", "evaluate.py"),
           argv=("--epochs", "1", "--num_neg_test", "20"), setup=_REC_SETUP,
           variants=(((), ()), (("--batch_size", "64", "--layers", "[32,16,8]"), ()))),
]

# --- tk-rusch/coRNN: one folder per experiment, each with its own task script, argparse options, model and data
# (the adding problem generated in the script; sequential and permuted pixel MNIST through the torchvision stand-in
# at its full length, which their fixed `random_split` sizes 57000 + 3000 need: small and wide runs keep it quick)
STOP41_SCRIPTS += [
    Script("cornn-adding", "cornn-tk-rusch", "adding", "adding_task.py", ("adding_task.py", "model.py", "utils.py"),
           argv=("--max_steps", "201", "--batch_test", "100", "--T", "40", "--n_hid", "32"),
           variants=(((), ()), (("--batch", "16", "--T", "25"), ()))),
    *(Script(f"cornn-{task.lower()}", "cornn-tk-rusch", task, f"{task}_task.py",
             (f"{task}_task.py", "network.py", "utils.py"), argv=("--n_hid", "8", "--batch", "5700"),
             variants=(((), ()),), timeout=600) for task in ("sMNIST", "psMNIST")),
]

SUBJECTS.update({s.name: s for s in STOP41_SCRIPTS})

# --- stop 42: the sources of a new script test half (split.json; three of the stop-40 script sources were
# compromised at stop 41), chosen and committed before any label or pytea-ci result on them existed; appended, so no
# earlier subject changes. One source of each kind of the stop-40 script half: a text classifier whose configuration
# file picks the model class, sequence tasks generated in the script (a neural Turing machine's copy and repeat-copy
# tasks chosen by `--task`), a sequence labeller with a CRF over a vocabulary built from the training data, a ratings
# recommender (BPR matrix factorisation). The mirrors hold the .py files only: `setup` writes stand-in data of the real
# format and stubs modules that are not installed and decide no label (sklearn.metrics' F1, argcomplete's shell
# completion), or stands in for one with the same behaviour on what the run uses (gensim's word2vec reader, for the text
# format the setup writes).

_OMU_SETUP = """
import json, os, random, shutil, sys, types
import numpy as np
_skm = types.ModuleType('sklearn.metrics')  # a score from NumPy: a report is no part of a label
_skm.f1_score = lambda t, p, *a, **k: float(np.mean(np.asarray(t) == np.asarray(p)))
_sk = types.ModuleType('sklearn')
_sk.metrics = _skm
class KeyedVectors:  # gensim is not installed: its word2vec reader (vocab, vector_size, word_vec), text format
    def __init__(self, vocab, vectors):
        self.vocab, self._vectors, self.vector_size = vocab, vectors, vectors.shape[1]
    @classmethod
    def load_word2vec_format(cls, path, binary=False):
        with open(path) as f:
            n, dim = map(int, f.readline().split())
            words, rows = [], []
            for line in f:
                parts = line.rstrip().split(' ')
                words.append(parts[0])
                rows.append([float(v) for v in parts[1:]])
        return cls({w: i for i, w in enumerate(words)}, np.asarray(rows, dtype=np.float32))
    def word_vec(self, w):
        return self._vectors[self.vocab[w]]
_gm = types.ModuleType('gensim.models')
_gm.KeyedVectors = KeyedVectors
_g = types.ModuleType('gensim')
_g.models = _gm
sys.modules.update({'sklearn': _sk, 'sklearn.metrics': _skm, 'gensim': _g, 'gensim.models': _gm})
shutil.rmtree('result', ignore_errors=True)
rng = random.Random(0)
words = ['kyou', 'wa', 'tenki', 'ga', 'yoi', 'warui', 'eiga', 'omoshiroi', 'tsumaranai', 'totemo', 'amari', 'nai',
         'desu', 'ta', 'no', 'ni', 'wo', 'hon', 'ryouri', 'oishii', 'mazui', 'sugoku', 'suki', 'kirai', 'mata', 'iku']
sections = {}
for folder, n_vocab, n_vec, n, lo, hi in (('data', 22, 18, 150, 2, 30), ('debug', 12, 12, 90, 1, 8)):
    os.makedirs(folder, exist_ok=True)
    with open(folder + '/vocab.txt', 'w') as f:  # one word a line; ids from 1 (0 is <UNK>)
        f.write('\\n'.join(words[:n_vocab]) + '\\n')
    with open(folder + '/w2v.txt', 'w') as f:  # word2vec text format, 32 dimensions, <UNK> and most words covered
        cov = ['<UNK>'] + words[:n_vec]
        f.write('%d 32\\n' % len(cov))
        for w in cov:
            f.write(w + ' ' + ' '.join('%.4f' % rng.uniform(-1, 1) for _ in range(32)) + '\\n')
    for split, k in (('train', n), ('valid', n // 2), ('test', n // 2)):  # label<TAB>space-separated words
        with open('%s/%s.txt' % (folder, split), 'w') as f:
            for _ in range(k):
                f.write('%s\\t%s\\n' % (rng.choice(['-1', '1']), ' '.join(rng.choices(words, k=rng.randint(lo, hi)))))
    sections[folder] = {'labels': ['-1', '1'], 'vocabulary': folder + '/vocab.txt', 'w2v': folder + '/w2v.txt',
                        'train': folder + '/train.txt', 'valid': folder + '/valid.txt', 'test': folder + '/test.txt'}
for model in ('LSTM', 'Transformer'):  # config/sample.json's layout; `--debug` reads the "debug" section
    cfg = {'arguments': {'model_name': model, 'seed': 1, 'd_emb': 32, 'd_hid': 24, 'n_class': 2, 'max_seq_len': 20,
                         'batch_size': 16, 'epoch': 1, 'learning_rate': 0.001, 'delimiter': '\\t',
                         'save_path': 'result/%s/' % model},
           'documents': sections['data'], 'debug': sections['debug']}
    with open('%s.json' % model.lower(), 'w') as f:
        json.dump(cfg, f, indent=1)
"""


def _omu(model: str) -> Script:
    # the configuration file is a positional argument: the second input is the script's --debug data section
    return Script(f"omukazu-{model.lower()}", "text-classifier-omukazu", ".", "src/train.py",
                  ("src/train.py", "src/classifiers.py", "src/data_loader.py", "src/model_components.py",
                   "src/miscellaneous/*.py"),
                  argv=(f"{model.lower()}.json",), setup=_OMU_SETUP, variants=(((), ()), (("--debug",), ())),
                  timeout=180)


_NTM_SETUP = """
import sys, types
import attr
_attrib = attr.attrib
def _old_attrib(*a, convert=None, **k):  # attrs < 19.2 (the repository's time) spelled `converter` as `convert`
    if convert is not None:
        k['converter'] = convert
    return _attrib(*a, **k)
attr.attrib = _old_attrib
_ac = types.ModuleType('argcomplete')  # shell completion only
_ac.autocomplete = lambda parser, *a, **k: None
sys.modules['argcomplete'] = _ac
"""

_NTM_FILES = ("train.py", "tasks/*.py", "ntm/*.py")


def _ntm(name: str, argv: tuple[str, ...], second: tuple[str, ...]) -> Script:
    # a few batches instead of 50000 or 250000 (`-p num_batches`, the script's own override); the second input
    # overrides more parameters (a later `-p` wins)
    return Script(f"ntm-{name}", "ntm-loudinthecloud", ".", "train.py", _NTM_FILES,
                  argv=(*argv, "-pnum_batches=4", "--report-interval", "2"), setup=_NTM_SETUP,
                  variants=(((), ()), (second, ())), timeout=180)


_CRF_DATA = """
import os, random
rng = random.Random(0)
ents = {'PER': ['Peter', 'Blackburn', 'Werner'], 'ORG': ['EU', 'Commission', 'Reuters'],
        'LOC': ['Germany', 'Brussels', 'Paris']}
plain = ['rejects', 'call', 'to', 'boycott', 'lamb', 'the', 'said', 'on', 'Thursday', 'it', 'of', 'a', 'in', 'was',
         'farmers', 'sheep', 'would', 'not', 'be', '1996', 'and', 'that', 'mad', 'cow']
def sentence(lo, hi):
    out = []
    for _ in range(rng.randint(lo, hi)):
        if rng.random() < 0.3:
            k = rng.choice(sorted(ents))
            out.append((rng.choice(ents[k]), k))
        else:
            out.append((rng.choice(plain), 'O'))
    return out
def prepare(name, n, lo, hi):  # what pos-tagging/prepare.py writes with UNIT = "char": NAME.csv (ids, then tags,
    wti = {'<PAD>': 0, '<SOS>': 1, '<EOS>': 2, '<UNK>': 3}  # longest first), NAME.word_to_idx, NAME.tag_to_idx
    tti = {'<PAD>': 0, '<SOS>': 1, '<EOS>': 2}
    data = []
    for _ in range(n):
        seq, tags = [], []
        for w, t in sentence(lo, hi):
            for i, c in enumerate(w.lower()):
                tag = ('B-' if i == 0 else 'I-') + t
                wti.setdefault(c, len(wti))
                tti.setdefault(tag, len(tti))
                seq.append(str(wti[c]))
                tags.append(str(tti[tag]))
        data.append(seq + tags)
    data.sort(key=lambda x: -len(x))
    with open(name + '.csv', 'w') as f:
        f.write(''.join(' '.join(x) + '\\n' for x in data))
    for ext, d in (('word_to_idx', wti), ('tag_to_idx', tti)):
        with open('%s.%s' % (name, ext), 'w') as f:
            f.write(''.join(k + '\\n' for k, _ in sorted(d.items(), key=lambda kv: kv[1])))
    return len(wti), len(tti)
n_words, n_tags = prepare('train', 540, 2, 5)  # 2 batches of 256 (the script's BATCH_SIZE; a residue is dropped)
for f in os.listdir('.'):
    if '.epoch' in f:
        os.remove(f)
"""

_CRF_CHECKPOINT = """
import torch
from torch import nn
torch.manual_seed(0)  # a checkpoint of the format train.py saves (model.py's sizes: 300, 1000, 2 layers), made with
emb = nn.Embedding(n_words, 300, padding_idx=0)  # torch's own layers, not the subject's code
rnn = nn.LSTM(300, 500, 2, batch_first=True, bidirectional=True)
out = nn.Linear(1000, n_tags)
state = {'lstm.embed.weight': emb.weight.data, **{'lstm.lstm.' + k: v for k, v in rnn.state_dict().items()},
         'lstm.out.weight': out.weight.data, 'lstm.out.bias': out.bias.data, 'crf.trans': torch.randn(n_tags, n_tags)}
torch.save({'state_dict': state, 'epoch': 1, 'loss': 1.0}, 'model.epoch1')
with open('test.txt', 'w') as f:  # raw sentences, tokenised into characters by the script
    for _ in range(300):
        f.write(' '.join(w for w, _ in sentence(1, 6)) + '\\n')
"""

_CRF_FILES = ("train.py", "predict.py", "model.py", "utils.py")

_BPR_SETUP = """
import os, random, runpy
rng = random.Random(0)
os.makedirs('data', exist_ok=True)
with open('data/rating.csv', 'w') as f:  # MovieLens u.data format: user<TAB>item<TAB>rating<TAB>timestamp (ids with gaps)
    t = 874965478
    for u in rng.sample(range(1, 120), 40):
        for i in rng.sample(range(1, 400, 2), rng.randint(6, 25)):
            t += rng.randint(1, 900)
            f.write('%d\\t%d\\t%d\\t%d\\n' % (u, i, rng.randint(1, 5), t))
runpy.run_path('pre.py')  # the repository's own preprocessing (no torch; never mutated): ids -> indices, the last item
"""  # of each user held out

STOP42_SCRIPTS: list[Script] = [
    # --- omukazu/Pytorch-Text-Classifier: src/train.py CONFIG; the configuration's model_name picks the class
    # (its CNN is left out: `F.max_pool2d` with a square window over a width-1 map fails on every input)
    _omu("LSTM"),
    _omu("Transformer"),
    # --- loudinthecloud/pytorch-ntm: train.py --task copy | repeat-copy, random bit sequences made per batch
    _ntm("copy", ("--task", "copy", "-pbatch_size=4", "-psequence_max_len=6", "--checkpoint-interval", "0"),
         ("-pbatch_size=2", "-psequence_min_len=3", "-psequence_max_len=4")),
    _ntm("copy-2heads", ("--task", "copy", "-pbatch_size=5", "-psequence_max_len=6", "-pnum_heads=2",
                         "-pcontroller_layers=2", "-pmemory_n=64", "--checkpoint-interval", "4"),
         ("-pbatch_size=3", "-pcontroller_size=40")),
    _ntm("repeat-copy", ("--task", "repeat-copy", "-pbatch_size=3", "-psequence_max_len=5", "-prepeat_max=3",
                         "--checkpoint-interval", "0"),
         ("-pbatch_size=1", "-psequence_width=5", "-prepeat_min=2")),
    # --- threelittlemonkeys/lstm-crf-pytorch at its last commit before 2020 (from then on every run on a CPU fails:
    # `randn` returns torch.randn itself when CUDA is off): train.py and predict.py, argv by position
    Script("lstmcrf-train", "lstm-crf-threelittlemonkeys", ".", "train.py", _CRF_FILES,
           argv=("model", "train.word_to_idx", "train.tag_to_idx", "train.csv", "1"), setup=_CRF_DATA,
           variants=(((), ()),), timeout=300),
    Script("lstmcrf-predict", "lstm-crf-threelittlemonkeys", ".", "predict.py", _CRF_FILES,
           argv=("model.epoch1", "train.word_to_idx", "train.tag_to_idx", "test.txt"),
           setup=_CRF_DATA + _CRF_CHECKPOINT, variants=(((), ()),), timeout=300),
    # --- rdz98/bprmf-pytorch: main.py, BPR matrix factorisation over the ratings file pre.py prepares (200 epochs,
    # no option to shorten: 20 s alone)
    Script("bprmf-main", "bprmf-rdz98", ".", "main.py", ("main.py", "data.py", "bprmf.py"), setup=_BPR_SETUP,
           variants=(((), ()),), timeout=300),
]

SUBJECTS.update({s.name: s for s in STOP42_SCRIPTS})


# --- Renovamen/Text-Classification (added ~20 minutes after the other 4, before any label or result on it): train.py
# --config C, whose model_name picks the model (HAN over documents, fastText, an attention BiLSTM, TextCNN with 1-d or
# 2-d convolutions, a Transformer encoder); the files its preprocessing saves (encoded, padded sentences or documents
# and a word map) and GloVe-format vectors written by the setup (its preprocessing needs pandas and nltk; their modules
# are stubbed because datasets/__init__ imports them). Two inputs: configurations with a longer word limit and batch 16,
# and a shorter one with batch 10 (the second `--config` wins).
_REN_SETUP = """
import json, os, random, shutil, sys, types
import torch
class _Tok:  # nltk is not installed: its tokenizers are built when datasets.preprocess is imported, never used by a run
    def tokenize(self, s):
        return s.split()
_nt = types.ModuleType('nltk.tokenize')
_nt.PunktSentenceTokenizer = _nt.TreebankWordTokenizer = _Tok
_nltk = types.ModuleType('nltk')
_nltk.tokenize = _nt
_tq = types.ModuleType('tqdm')
_tq.tqdm = lambda it=None, *a, **k: it
sys.modules.update({'nltk': _nltk, 'nltk.tokenize': _nt, 'pandas': types.ModuleType('pandas'), 'tqdm': _tq})
rng = random.Random(0)
words = ['wall', 'st', 'bears', 'claw', 'back', 'into', 'the', 'black', 'reuters', 'short', 'sellers', 'street',
         'dwindling', 'band', 'of', 'ultra', 'cynics', 'are', 'seeing', 'green', 'again', 'oil', 'prices', 'soar',
         'team', 'wins', 'cup', 'final', 'new', 'chip', 'space', 'probe', 'launch', 'election', 'vote']
word_map = {'<pad>': 0}
for w in words[:30]:  # preprocess.py's word map: <pad> 0, words with enough counts, <unk> last
    word_map[w] = len(word_map)
word_map['<unk>'] = len(word_map)
def enc(s, limit):
    return [word_map.get(w, word_map['<unk>']) for w in s] + [0] * (limit - len(s))
shutil.rmtree('data', ignore_errors=True)
os.makedirs('data/glove', exist_ok=True)
with open('data/glove/glove.6B.20d.txt', 'w') as f:  # GloVe text format, 20 dimensions, most words covered
    for w in words[:26]:
        f.write(w + ' ' + ' '.join('%.5f' % rng.uniform(-1, 1) for _ in range(20)) + '\\n')
for name, n, word_limit, sentence_limit in (('a', 150, 30, 6), ('b', 70, 12, 3)):
    sents, docs, labels = [], [], []
    for _ in range(n):
        labels.append(rng.randrange(4))  # ag_news: 4 classes, 0-based after preprocessing
        s = rng.choices(words, k=rng.randint(1, word_limit))
        sents.append(s)
        docs.append([rng.choices(words, k=rng.randint(1, word_limit)) for _ in range(rng.randint(1, sentence_limit))])
    os.makedirs('data/%s/sents' % name)
    os.makedirs('data/%s/docs' % name)
    for kind in ('sents', 'docs'):
        with open('data/%s/%s/word_map.json' % (name, kind), 'w') as f:
            json.dump(word_map, f)
    for split in ('TRAIN', 'TEST'):  # the files datasets/preprocess/{sentence,document}.py save
        torch.save({'sents': [enc(s, word_limit) for s in sents], 'labels': labels,
                    'words_per_sentence': [len(s) for s in sents]}, 'data/%s/sents/%s_data.pth.tar' % (name, split))
        torch.save({'docs': [[enc(s, word_limit) for s in d] + [[0] * word_limit] * (sentence_limit - len(d))
                             for d in docs], 'labels': labels, 'sentences_per_document': [len(d) for d in docs],
                    'words_per_sentence': [[len(s) for s in d] + [0] * (sentence_limit - len(d)) for d in docs]},
                   'data/%s/docs/%s_data.pth.tar' % (name, split))
    for model, extra in (('han', 'word_rnn_size: 16\\nsentence_rnn_size: 16\\nword_rnn_layers: 1\\nsentence_rnn_layers: 1\\n'
                                 'word_att_size: 20\\nsentence_att_size: 20\\ndropout: 0.3\\n'),
                         ('fasttext', 'hidden_size: 10\\n'),
                         ('attbilstm', 'rnn_size: 10\\nrnn_layers: 1\\ndropout: 0.3\\n'),
                         ('textcnn', "conv_layer: '1D'\\nn_kernels: 16\\nkernel_sizes: [3, 4, 5]\\nn_channels: 2\\ndropout: 0.3\\n"),
                         ('textcnn2d', "conv_layer: '2D'\\nn_kernels: 16\\nkernel_sizes: [2, 3]\\nn_channels: 1\\ndropout: 0.3\\n"),
                         ('transformer', 'n_heads: 5\\nn_encoders: 2\\nhidden_size: 32\\ndropout: 0.3\\n')):
        folder = 'data/%s/%s' % (name, 'docs' if model == 'han' else 'sents')
        with open('%s.%s.yaml' % (model, name), 'w') as f:  # configs/ag_news/*.yaml with small sizes
            f.write('model_name: %s\\ndataset: ag_news\\ndataset_path: data/ag_news\\noutput_path: %s\\n'
                    'sentence_limit: %d\\nword_limit: %d\\nmin_word_count: 1\\nemb_pretrain: True\\n'
                    'emb_folder: data/glove\\nemb_filename: glove.6B.20d.txt\\nemb_size: 24\\n'
                    'fine_tune_word_embeddings: True\\n%scheckpoint_path: null\\ncheckpoint_basename: ckpt\\n'
                    'start_epoch: 0\\nbatch_size: %d\\nlr: 0.001\\nlr_decay: 0.3\\nworkers: 0\\nnum_epochs: 1\\n'
                    'grad_clip: null\\nprint_freq: 3\\ncheckpoint: null\\ntensorboard: False\\nlog_dir: null\\n'
                    % (model.replace('textcnn2d', 'textcnn'), folder, sentence_limit, word_limit, extra,
                       16 if name == 'a' else 10))
"""


def _ren(model: str) -> Script:
    return Script(f"renovamen-{model}", "text-classification-renovamen", ".", "train.py",
                  ("train.py", "trainer/*.py", "models/*.py", "models/*/*.py", "datasets/dataloader.py",
                   "utils/*.py"),
                  argv=("--config", f"{model}.a.yaml"), setup=_REN_SETUP,
                  variants=(((), ()), (("--config", f"{model}.b.yaml"), ())), timeout=180)


STOP42_SCRIPTS_REN: list[Script] = [_ren(m) for m in ("han", "fasttext", "attbilstm", "textcnn", "textcnn2d",
                                                     "transformer")]
SUBJECTS.update({s.name: s for s in STOP42_SCRIPTS_REN})
