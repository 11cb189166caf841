"""Files the program opens (issue 21 item 5, models/files.py): the content is unknown, its structure
known, and every value not understood names the file it was read from, where it was read."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.test_coverage import analyze, line_of, origins

READS = {
    "open('labels.txt'): a line": """\
        import torch
        with open("labels.txt") as f:
            names = [line.strip() for line in f]  # <-
        y = torch.randn(2, 3).view(names[0], -1)
    """,
    "open('data.txt'): the content": """\
        import torch
        text = open("data.txt").read()  # <-
        y = torch.randn(2, 3).view(text, -1)
    """,
    "open('cfg.json'): a JSON document": """\
        import json
        import torch
        cfg = json.load(open("cfg.json"))  # <-
        y = torch.zeros(6).view(cfg["dim"], -1)
    """,
    "YAML document read from open('cfg.yaml')": """\
        import torch
        import yaml
        with open("cfg.yaml") as fh:
            cfg = yaml.safe_load(fh)  # <-
        y = torch.zeros(6).view(cfg["hidden"], -1)
    """,
    "open('t.csv'): a CSV field": """\
        import csv
        import torch
        for row in csv.DictReader(open("t.csv")):  # <-
            y = torch.zeros(3).view(row["n"], -1)
    """,
}


def test_a_key_path_used_as_a_size_is_one_input(tmp_path: Path) -> None:
    """A config value used as a size is checked: an input symbol (one per key path) named after the
    file and the key path, born where the file was read."""
    source = """\
        import json
        import torch
        cfg = json.load(open("cfg.json"))  # <-
        y = torch.zeros(cfg["model"]["dim"]) + torch.zeros(cfg["model"]["dim"])
        z = torch.zeros(cfg["model"]["dim"], 2).view(-1, 4)
    """
    e = analyze(tmp_path, source)
    assert e.stats.ops_checked == e.stats.ops_reached, origins(e)
    notes = [d.message for d in e.diagnostics]
    assert [d.rule for d in e.diagnostics] == ["PT002"], notes
    assert "open('cfg.json'): a JSON document['model']['dim']" in repr(e.diagnostics[0]), e.diagnostics


@pytest.mark.parametrize("what", sorted(READS))
def test_value_read_from_a_file_names_the_file(tmp_path: Path, what: str) -> None:
    source = READS[what]
    e = analyze(tmp_path, source)
    assert e.stats.ops_checked < e.stats.ops_reached, origins(e)
    born = line_of(source, "# <-")
    assert any(line == born and what in text for line, text in origins(e)), origins(e)


def test_lines_are_a_list_of_unknown_length_never_empty_for_certain(tmp_path: Path) -> None:
    source = """\
        import torch
        rows = []
        for line in open("data.txt"):
            rows.append(torch.randn(4))
        x = torch.stack(rows)
        lines = open("data.txt").readlines()
        assert len(lines) != 1 or True
        y = torch.stack([torch.randn(2) for _ in lines])
    """
    e = analyze(tmp_path, textwrap.dedent(source))
    assert not [d for d in e.diagnostics if d.rule != "PT013"], e.diagnostics
    assert e.stats.ops_checked >= 2


def test_writing_a_file_does_nothing_to_shapes(tmp_path: Path) -> None:
    source = """\
        import torch
        x = torch.randn(2, 3)
        with open("out.txt", "w") as f:
            f.write(str(x.shape))
        x.view(7)
    """
    e = analyze(tmp_path, source)
    assert [d.rule for d in e.diagnostics] == ["PT001"]
