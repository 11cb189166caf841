"""Put first on the language server's PYTHONPATH by tests/lsp/conftest.py: torch cannot be imported
there, so the tests prove the server never needs it (the analyzer reads programs, it never runs them)."""

raise ImportError("torch is blocked in the language-server tests")
