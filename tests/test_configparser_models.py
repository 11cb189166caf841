"""configparser against CPython (models/configparser_.py): each program ends its values in probes
`p_NAME = torch.zeros(v)`; CPython runs it for the truth (tests/test_python_values.py `cpython_probes`), and
the analyzer's shape of every probe must be CPython's. A file the project holds is read as data (the
fixture tests/fixtures/core/config_ini.py reads one)."""

from __future__ import annotations

import pytest

from tests.oracle.fuzz_python import Analyzer
from tests.test_python_values import exact


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer()


def test_sections_defaults_interpolation_and_converters(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import configparser
        import torch

        cfg = configparser.ConfigParser()
        cfg.read_string("""
        [DEFAULT]
        base = 4

        [model]
        hidden = 16
        layers = 3
        width = %(base)s
        dropout = 0.5
        bidirectional = yes
        Name = lstm

        [train]
        batch_size = 8
        """)
        m = cfg["model"]
        p_ints = torch.zeros(cfg.getint("model", "hidden"), m.getint("layers"), cfg.getint("model", "width"),
                             cfg.getint("train", "base"))
        p_float = torch.zeros(int(cfg.getfloat("model", "dropout") * 10), int(m.getboolean("bidirectional")))
        p_text = torch.zeros(len(cfg.get("model", "name")), len(m["width"]), len(cfg.sections()))
        p_fallback = torch.zeros(cfg.getint("model", "missing", fallback=5), m.getint("missing", 6) or 0,
                                 int(m.get("missing") is None), int(cfg.has_option("train", "base")))
        p_items = torch.zeros(len(cfg.items("train")), len(cfg.options("model")), int("model" in cfg),
                              int(cfg.has_section("DEFAULT")))
        raw = configparser.RawConfigParser()
        raw.read_string("[a]\\nx = %(y)s\\n")
        p_raw = torch.zeros(len(raw.get("a", "x")))
    ''')


def test_missing_sections_and_options_raise_what_cpython_raises(analyzer: Analyzer) -> None:
    exact(analyzer, '''
        import configparser
        import torch

        cfg = configparser.ConfigParser()
        cfg.read_dict({"model": {"hidden": "16", "bad": "x"}})
        cfg.set("model", "depth", "2")
        caught = []
        try:
            cfg.get("train", "batch")
        except configparser.NoSectionError:
            caught.append(1)
        try:
            cfg.getint("model", "batch")
        except configparser.Error:
            caught.append(2)
        try:
            cfg.getint("model", "bad")
        except ValueError:
            caught.append(3)
        try:
            cfg["train"]
        except KeyError:
            caught.append(4)
        try:
            cfg["model"]["batch"]
        except KeyError:
            caught.append(5)
        p_caught = torch.zeros(len(caught), sum(caught), cfg.getint("model", "depth"))
    ''')
