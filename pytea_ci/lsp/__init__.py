"""The editor language server (`pytea-ci lsp`): live findings, hover shapes and contracts, ignore-comment
code actions and opt-in inlay hints, over LSP on stdio (pygls + lsprotocol, the optional `lsp` extra).

It owns the editor-facing half only and calls the analyzer the way `check` does:

* `server.py` builds the pygls server and registers one module per request/notification family:
  `documents.py` (didOpen/didChange/didSave/didClose), `configuration.py` (initialized,
  didChangeConfiguration, `workspace/configuration`), `hover.py`, `code_actions.py`, `commands.py`
  (workspace/executeCommand: rule docs, explain), `inlay_hints.py`;
* `session.py` holds the open documents, the settings, the resident caches and the latest analysis of
  each file;
* `scheduler.py` runs analyses on one worker thread off the event loop: debounced, newest buffer text,
  superseded runs dropped;
* `analysis.py` runs `driver.check` on a file with the open buffers standing in for the files on disk
  (installed for the driver's file questions, `diagnostics/sources.py`) and hands the interpreter the
  buffers, a shape recorder and the cancel test as one `Editor` in the request (`interp/observe.py`);
  it collects the module contracts (`library/run.py`); `convert.py` turns findings into LSP diagnostics.

Layers: it imports driver, report and diagnostics, and only `interp.observe` from the core; the
interpreter, models and solver know nothing of it.
"""
