"""A real pytea-ci language server in a subprocess (`python -m pytea_ci lsp`), driven over stdio by
pytest-lsp's client. Not collected when the `lsp` extra (pygls, lsprotocol) or pytest-lsp is absent."""

from __future__ import annotations

import importlib.util
import sys

HAVE_LSP = all(importlib.util.find_spec(m) is not None for m in ("pygls", "lsprotocol", "pytest_lsp"))

if not HAVE_LSP:
    collect_ignore_glob = ["test_*.py"]
else:
    import pytest_lsp
    from lsprotocol import types as T
    from pytest_lsp import ClientServerConfig, LanguageClient

    SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "pytea_ci", "lsp"])

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
        lsp_client.set_configuration({"debounceMs": 50, "inlayHints": True}, section="pytea-ci")
        await lsp_client.initialize_session(T.InitializeParams(
            capabilities=T.ClientCapabilities(workspace=T.WorkspaceClientCapabilities(configuration=True))))
        yield
        await lsp_client.shutdown_session()
