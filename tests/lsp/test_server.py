"""The language server end to end, over stdio: diagnostics follow the buffer (not the file on disk),
hover shows tensor shapes and module contracts, the code action inserts an ignore comment, a syntax
error mid-edit is a parse diagnostic, and the server shuts down cleanly."""

from __future__ import annotations

import ast
import asyncio
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pytest
from lsprotocol import types as T
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio

BUGGY = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        h = self.fc1(x)
        return self.fc2(h)


x = torch.randn(32, 784)
y = Net()(x)
"""
FIXED = BUGGY.replace("nn.Linear(64, 10)", "nn.Linear(128, 10)")
BAD_LINE = 12  # 0-based: `return self.fc2(h)`


def project(tmp_path: Path, text: str = BUGGY) -> tuple[Path, str]:
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")
    path = tmp_path / "train.py"
    path.write_text(text)
    return path, path.as_uri()


async def published(client: LanguageClient, uri: str, want: Callable[[list[T.Diagnostic]], bool],
                    timeout: float = 60.0) -> list[T.Diagnostic]:
    """The server's diagnostics for `uri` once they satisfy `want` (fails after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = client.diagnostics.get(uri)
        if got is not None and want(list(got)):
            return list(got)
        await asyncio.sleep(0.05)
    raise AssertionError(f"diagnostics for {uri} never satisfied the test; last: {client.diagnostics.get(uri)}")


def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [T.TextDocumentContentChangeWholeDocument(text=text)]))


def findings(diags: list[T.Diagnostic]) -> list[T.Diagnostic]:
    return [d for d in diags if d.severity in (T.DiagnosticSeverity.Error, T.DiagnosticSeverity.Warning)]


async def test_buggy_buffer_has_the_finding_at_its_line_and_fixing_the_buffer_clears_it(
        client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path)
    open_doc(client, uri, BUGGY)
    diags = await published(client, uri, lambda ds: bool(findings(ds)))
    bad = findings(diags)
    assert [d.range.start.line for d in bad] == [BAD_LINE]
    assert bad[0].code == "PT001" and bad[0].source == "pytea-ci"
    assert bad[0].code_description is not None and bad[0].code_description.href.endswith("#pt001-shape-mismatch")
    assert "Linear" in bad[0].message
    # the related information points at where the mismatching sizes were born
    related = bad[0].related_information or []
    assert {r.location.range.start.line for r in related} & {7, 8}
    # the fix is only in the buffer: the file on disk still has the bug
    change(client, uri, FIXED, 2)
    await published(client, uri, lambda ds: not findings(ds))
    assert path.read_text() == BUGGY


async def test_the_buffer_not_the_disk_is_analyzed(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, FIXED)  # clean on disk
    open_doc(client, uri, FIXED)
    await published(client, uri, lambda ds: not findings(ds))
    # the bug exists only in the unsaved buffer, typed as an incremental edit (as VS Code sends them)
    col = FIXED.split("\n")[8].index("128")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [T.TextDocumentContentChangePartial(range=T.Range(T.Position(8, col), T.Position(8, col + 3)), text="64")]))
    diags = await published(client, uri, lambda ds: bool(findings(ds)))
    assert [d.range.start.line for d in findings(diags)] == [BAD_LINE]


async def test_a_new_unsaved_file_is_analyzed_from_its_buffer(client: LanguageClient, tmp_path: Path) -> None:
    """A buffer whose file is not on disk yet (a new, unsaved file): its findings, not a PT011
    'no such file or directory'."""
    path, _ = project(tmp_path, FIXED)
    new = path.with_name("new_script.py")
    assert not new.exists()
    uri = new.as_uri()
    open_doc(client, uri, BUGGY)
    diags = await published(client, uri, lambda ds: bool(ds))
    assert [d.range.start.line for d in findings(diags)] == [BAD_LINE]
    assert not any("no such file" in d.message for d in diags)


async def test_syntax_error_mid_edit_is_a_parse_diagnostic_and_the_server_goes_on(
        client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path)
    open_doc(client, uri, BUGGY)
    await published(client, uri, lambda ds: bool(findings(ds)))
    broken = BUGGY.replace("h = self.fc1(x)", "h = self.fc1(x")
    change(client, uri, broken, 2)
    diags = await published(client, uri, lambda ds: any(d.code == "PT012" for d in ds))
    parse = [d for d in diags if d.code == "PT012"]
    assert parse[0].severity == T.DiagnosticSeverity.Error
    assert parse[0].range.start.line in (11, 12)  # where Python reports the unclosed parenthesis
    change(client, uri, FIXED, 3)  # still alive: the repaired buffer is analyzed
    await published(client, uri, lambda ds: not findings(ds) and not any(d.code == "PT012" for d in ds))


async def hover_at(client: LanguageClient, uri: str, line: int, character: int) -> str:
    got = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri),
                                                               T.Position(line, character)))
    assert got is not None, f"no hover at {line}:{character}"
    assert isinstance(got.contents, T.MarkupContent)
    return got.contents.value


async def analyzed(client: LanguageClient, uri: str, text: str) -> None:
    open_doc(client, uri, text)
    await published(client, uri, lambda ds: True)


async def test_hover_on_a_tensor_shows_its_shape(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, FIXED)
    await analyzed(client, uri, FIXED)
    # `h` where it is bound in forward, and where it is used on the next line
    assert "h: [32, 128] float32" in await hover_at(client, uri, 11, 8)
    assert "h: [32, 128] float32" in await hover_at(client, uri, 12, 24)
    assert "y: [32, 10] float32" in await hover_at(client, uri, 16, 0)


async def test_hover_on_a_module_class_shows_its_contract(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, FIXED)
    await analyzed(client, uri, FIXED)
    deadline = time.monotonic() + 60
    text = ""
    while time.monotonic() < deadline and "output" not in text:  # contracts come after the diagnostics
        got = await client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), T.Position(4, 7)))
        text = got.contents.value if got is not None and isinstance(got.contents, T.MarkupContent) else ""
        await asyncio.sleep(0.1)
    assert "train.py::Net" in text
    assert "input   x: [" in text and "784" in text  # the input's last dim must be 784
    assert "output  [" in text and "10]" in text
    # on forward's parameter: the contract's input
    param = await hover_at(client, uri, 10, 22)
    assert "x: [" in param and "784" in param and "input contract of train.py::Net" in param


async def test_hover_on_a_finding_shows_its_message(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path)
    open_doc(client, uri, BUGGY)
    await published(client, uri, lambda ds: bool(findings(ds)))
    text = await hover_at(client, uri, BAD_LINE, 16)
    assert "**PT001**" in text and "Linear" in text


async def _actions_on_the_finding(client: LanguageClient, tmp_path: Path) -> tuple[Path, str, list[Any], Any]:
    """Open the buggy program and ask for the code actions on its finding."""
    path, uri = project(tmp_path)
    open_doc(client, uri, BUGGY)
    bad = findings(await published(client, uri, lambda ds: bool(findings(ds))))
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        T.TextDocumentIdentifier(uri), bad[0].range, T.CodeActionContext(diagnostics=bad)))
    return path, uri, bad, actions


async def test_code_action_inserts_the_ignore_comment(client: LanguageClient, tmp_path: Path) -> None:
    path, uri, bad, actions = await _actions_on_the_finding(client, tmp_path)
    assert actions, "no code action"
    action = next(a for a in actions if isinstance(a, T.CodeAction) and a.title.startswith("Ignore PT001"))
    assert isinstance(action, T.CodeAction) and action.edit is not None and action.edit.changes
    (edit,) = action.edit.changes[uri]
    lines = BUGGY.split("\n")
    line = lines[BAD_LINE]
    assert edit.range.start.line == BAD_LINE and edit.range.start.character == len(line)
    assert edit.new_text == "  # pytea: ignore[PT001]"
    # applying it silences the finding (the ignore comment is read from the buffer)
    lines[BAD_LINE] = line + edit.new_text
    change(client, uri, "\n".join(lines), 2)
    await published(client, uri, lambda ds: not findings(ds))


async def test_the_proven_fix_is_the_preferred_code_action_and_applying_it_clears_the_finding(
        client: LanguageClient, tmp_path: Path) -> None:
    path, uri, bad, actions = await _actions_on_the_finding(client, tmp_path)
    preferred = [a for a in actions if isinstance(a, T.CodeAction) and a.is_preferred]
    assert [a.title for a in preferred] == ["Fix: in_features 64 -> 128"]
    assert preferred[0].kind == T.CodeActionKind.QuickFix and list(preferred[0].diagnostics or []) == bad
    assert actions[0] is preferred[0]  # offered first
    assert preferred[0].edit is not None and preferred[0].edit.changes
    (edit,) = preferred[0].edit.changes[uri]
    lines = BUGGY.split("\n")
    assert (edit.range.start.line, edit.range.end.line) == (8, 8) and edit.new_text == "128"
    line = lines[8]
    lines[8] = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
    assert lines[8] == "        self.fc2 = nn.Linear(128, 10)"
    change(client, uri, "\n".join(lines), 2)
    await published(client, uri, lambda ds: not findings(ds))
    assert path.read_text() == BUGGY  # the edit is the editor's to apply: nothing written


async def test_inlay_hints_show_shapes_after_assignments(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, FIXED)
    await analyzed(client, uri, FIXED)
    hints = await client.text_document_inlay_hint_async(T.InlayHintParams(
        T.TextDocumentIdentifier(uri), T.Range(T.Position(0, 0), T.Position(17, 0))))
    labels = {(h.position.line, h.label) for h in hints or []}
    assert (11, ": [32, 128] float32") in labels
    assert (15, ": [32, 784] float32") in labels


async def test_shutdown_and_exit_are_clean(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path)
    open_doc(client, uri, BUGGY)
    await published(client, uri, lambda ds: bool(findings(ds)))
    await client.shutdown_async(None)
    client.exit(None)
    assert client._server is not None
    code = await asyncio.wait_for(client._server.wait(), timeout=10)
    assert code == 0
    client.capabilities = None  # already shut down: the fixture must not do it again


ARGS_PROGRAM = """\
import argparse
import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--hidden", type=int, default=64)
args = p.parse_args()
fc = nn.Linear(128, 10)
x = torch.randn(4, args.hidden)
y = fc(x)
"""


async def test_changed_settings_reanalyze_open_buffers(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, ARGS_PROGRAM)
    open_doc(client, uri, ARGS_PROGRAM)
    bad = findings(await published(client, uri, lambda ds: bool(findings(ds))))
    assert [d.range.start.line for d in bad] == [9]
    # the client's `pytea-ci.args` now sets --hidden as the program would be run
    client.set_configuration({"debounceMs": 50, "args": {"hidden": 128}}, section="pytea-ci")
    client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings=None))
    await published(client, uri, lambda ds: not findings(ds))


SOMETIMES = """\
import numpy as np
import torch

r = np.random.randint(2, 5)
y = torch.randn(3, r) @ torch.randn(4, 2)
"""


async def test_hover_on_a_warning_shows_its_counterexample(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path, SOMETIMES)
    open_doc(client, uri, SOMETIMES)
    (warning,) = findings(await published(client, uri, lambda ds: bool(findings(ds))))
    assert warning.code == "PT002" and warning.severity == T.DiagnosticSeverity.Warning
    text = await hover_at(client, uri, 4, 10)
    assert "**PT002**" in text and "counterexample:" in text
    shown = text.split("counterexample:")[1].split("\n")[0]
    value = int(shown.split("=")[1].split(",")[0])
    assert 2 <= value <= 4 and value != 4  # a value randint(2, 5) can take, for which the product fails


async def test_code_actions_open_the_rule_doc_and_explain_the_file(client: LanguageClient, tmp_path: Path) -> None:
    path, uri, bad, actions = await _actions_on_the_finding(client, tmp_path)
    commands = dict(c for a in actions or [] if (c := _command(a)) is not None)
    assert commands["pytea-ci.openRuleDoc"] == [bad[0].code_description.href]  # type: ignore[union-attr]
    text = await client.workspace_execute_command_async(T.ExecuteCommandParams(
        "pytea-ci.explain", commands["pytea-ci.explain"]))
    assert isinstance(text, str) and "train.py" in text and "tensor operations" in text


def _command(action: T.CodeAction | T.Command) -> tuple[str, list[object]] | None:
    """(command, arguments) of a code action that runs a command. lsprotocol's client reads a CodeAction
    that has a command and no edit as a Command (the union is ambiguous: both have `title` and `command`),
    whose `command` is then the text of the CodeAction's command object."""
    c = action.command
    if c is None:
        return None
    if isinstance(c, T.Command):
        return c.command, list(c.arguments or [])
    if c.startswith("{"):
        data = ast.literal_eval(c)
        return data["command"], list(data.get("arguments") or [])
    return c, list(getattr(action, "arguments", None) or [])


async def test_a_bad_configuration_is_a_note_on_the_file_not_a_crash(client: LanguageClient, tmp_path: Path) -> None:
    path, uri = project(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.pytea-ci]\nmax-paths = "many"\n')
    open_doc(client, uri, BUGGY)
    (note,) = await published(client, uri, lambda ds: bool(ds))
    assert note.code == "PT011" and note.severity == T.DiagnosticSeverity.Information
    assert "analysis failed" in note.message and "max-paths" in note.message
    (tmp_path / "pyproject.toml").write_text("[tool.pytea-ci]\n")  # fixed: the next edit is analyzed
    change(client, uri, BUGGY + "\n", 2)
    await published(client, uri, lambda ds: [d.range.start.line for d in findings(ds)] == [BAD_LINE])


READS_CONFIG = """\
import torch
import torch.nn as nn
import yaml

with open("conf/model.yaml") as f:
    cfg = yaml.safe_load(f)
net = nn.Linear(cfg["width"], 2)
y = net(torch.randn(3, 8))
"""


async def test_editing_a_config_buffer_rechecks_the_program_reading_it(client: LanguageClient,
                                                                       tmp_path: Path) -> None:
    path, uri = project(tmp_path, READS_CONFIG)
    (tmp_path / "conf").mkdir()
    config = tmp_path / "conf" / "model.yaml"
    config.write_text("width: 8\n")
    open_doc(client, uri, READS_CONFIG)
    await published(client, uri, lambda ds: not findings(ds))
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri=config.as_uri(), language_id="yaml", version=1, text="width: 8\n")))
    change(client, config.as_uri(), "width: 9\n", 2)  # unsaved: the buffer, not the disk, is read
    got = await published(client, uri, lambda ds: bool(findings(ds)))
    assert [d.range.start.line for d in findings(got)] == [7]
    change(client, config.as_uri(), "width: 8\n", 3)
    await published(client, uri, lambda ds: not findings(ds))
