"""Importing this module registers every model."""

from pytea_ci.models import argparse_, builtins, launchers, machine, pil, stdlib  # noqa: F401
from pytea_ci.models import attributes  # noqa: F401
from pytea_ci.models.torch import creation, data, elementwise, indexing, optim, reduction, tensor  # noqa: F401
from pytea_ci.models.torch.nn import conv, layers, loss, module, norm  # noqa: F401
from pytea_ci.models.torch.nn import attention, distance, rnn, vision  # noqa: F401
from pytea_ci.models.torchvision import datasets, transforms  # noqa: F401
from pytea_ci.models.torch import joining, products  # noqa: F401
from pytea_ci.models.numpy_ import array, creation as np_creation, rng  # noqa: F401
from pytea_ci.models import datamodel, einops_, heapq_, tqdm_, yaml_  # noqa: F401
from pytea_ci.models.torch import autograd, checks, dtypes, eager  # noqa: F401
from pytea_ci.models.torch.nn import fold, init, parallel, reparam, utils_tuples  # noqa: F401
from pytea_ci.models.torchvision import models, utils  # noqa: F401
from pytea_ci.models.torch import sparse  # noqa: F401
from pytea_ci.models.numpy_ import math as np_math  # noqa: F401
from pytea_ci.models.torch import fft, linalg  # noqa: F401
from pytea_ci.models.torch import amp, sampling, serialization  # noqa: F401
from pytea_ci.models import random_  # noqa: F401
from pytea_ci.models.torchvision import io as tv_io  # noqa: F401
from pytea_ci.models import files  # noqa: F401
from pytea_ci.models import hydra_  # noqa: F401
from pytea_ci.models import timm_  # noqa: F401
from pytea_ci.models import deque_  # noqa: F401
from pytea_ci.models import dict_subclass  # noqa: F401
from pytea_ci.models import property_base  # noqa: F401
from pytea_ci.models import value_types  # noqa: F401
from pytea_ci.models import saved  # noqa: F401
from pytea_ci.models import pickled  # noqa: F401
from pytea_ci.models import transformers_  # noqa: F401
from pytea_ci.models import iterables, text, unknown_text  # noqa: F401
from pytea_ci.models import operator_  # noqa: F401
from pytea_ci.models import abc_mapping, contextvars_, importlib_, inspect_  # noqa: F401
from pytea_ci.models import asyncio_, min_max  # noqa: F401
from pytea_ci.models import abc_sequence  # noqa: F401
from pytea_ci.models import re_  # noqa: F401
from pytea_ci.models.numpy_ import known as np_known  # noqa: F401
from pytea_ci.models import pathlib_  # noqa: F401
from pytea_ci.models import typing_  # noqa: F401
from pytea_ci.models import attrs_  # noqa: F401
from pytea_ci.models import configparser_  # noqa: F401
