"""Settings: `initializationOptions`, then the client's `pytea-ci` section (`workspace/configuration`)
after `initialized` and on `workspace/didChangeConfiguration`. The project's own settings stay in
`[tool.pytea-ci]` of pyproject.toml, read by the driver on every run."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types as T

if TYPE_CHECKING:
    from pytea_ci.lsp.server import PyteaServer

SECTION = "pytea-ci"


async def _pull(ls: PyteaServer) -> None:
    caps = ls.client_capabilities.workspace
    if caps is None or not caps.configuration:
        return
    try:
        got = await asyncio.wait_for(ls.workspace_configuration_async(
            T.ConfigurationParams(items=[T.ConfigurationItem(section=SECTION)])), timeout=5)
    except Exception:  # a client that does not answer keeps the defaults
        return
    if got:
        ls.session.settings.update(got[0])


def register(server: PyteaServer) -> None:
    @server.feature(T.INITIALIZE)
    def initialize(ls: PyteaServer, params: T.InitializeParams) -> None:
        opts = params.initialization_options
        if isinstance(opts, dict):
            ls.session.settings.update(opts.get(SECTION, opts))

    @server.feature(T.INITIALIZED)
    async def initialized(ls: PyteaServer, params: T.InitializedParams) -> None:
        ls.loop = asyncio.get_running_loop()
        await _pull(ls)

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def changed(ls: PyteaServer, params: T.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and isinstance(settings.get(SECTION), dict):
            ls.session.settings.update(settings[SECTION])
        else:
            await _pull(ls)
        ls.reanalyze_open()  # `args` may have changed what the programs do

    @server.feature(T.SHUTDOWN)
    def shutdown(ls: PyteaServer, params: None) -> None:
        ls.scheduler.stop()
