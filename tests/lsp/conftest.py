"""A real pytea-ci language server in a subprocess (`python -m pytea_ci lsp`), driven over stdio by
pytest-lsp's client. Not collected when the `lsp` extra (pygls, lsprotocol) or pytest-lsp is absent."""

from __future__ import annotations

import importlib.util
import os
import sys

HAVE_LSP = all(importlib.util.find_spec(m) is not None for m in ("pygls", "lsprotocol", "pytest_lsp"))

if not HAVE_LSP:
    collect_ignore_glob = ["test_*.py"]
else:
    import pytest_lsp
    from lsprotocol import types as T
    from pytest_lsp import ClientServerConfig, LanguageClient

    # torch blocked in the server (tests/lsp/no_torch): the tests pass as they would without torch installed
    BLOCK_TORCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "no_torch")
    SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "pytea_ci", "lsp"],
                                server_env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                    [BLOCK_TORCH, *filter(None, [os.environ.get("PYTHONPATH")])])})

    @pytest_lsp.fixture(config=SERVER)
    async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
        lsp_client.set_configuration({"debounceMs": 50, "inlayHints": True}, section="pytea-ci")
        await lsp_client.initialize_session(T.InitializeParams(
            capabilities=T.ClientCapabilities(workspace=T.WorkspaceClientCapabilities(configuration=True))))
        yield
        await lsp_client.shutdown_session()
