"""The commands around `check`: rules, rule, shapes, sarif merge, cache, lsp."""

from __future__ import annotations

import argparse
import os
import sys

from pytea_ci.cli.common import UsageError, write_file, write_stdout


def rules(ns: argparse.Namespace) -> int:
    from pytea_ci.diagnostics import RULES

    write_stdout("".join(f"{r.id}  {r.slug:<24} {r.level.value:<8} {r.summary}\n" for r in RULES))
    return 0


def rule(ns: argparse.Namespace) -> int:
    from pytea_ci.diagnostics import rule_by_id

    found = rule_by_id(ns.id)
    if found is None:
        raise UsageError(f"unknown rule {ns.id!r} (see `pytea-ci rules`)")
    write_stdout(found.markdown() + "\n")
    return 0


def cache(ns: argparse.Namespace) -> int:
    from pytea_ci.driver import cache as store
    from pytea_ci.driver.project import cache_dir, load_config, project_root

    root = project_root(ns.root, os.getcwd())
    cfg = load_config(root, ns.config, {"cache_dir": os.path.abspath(ns.cache_dir) if ns.cache_dir else None})
    folder = cache_dir(cfg, root)
    if ns.action == "clear":
        try:
            removed = store.clear(folder)
        except OSError as e:
            raise UsageError(str(e)) from None
        print(f"{'removed' if removed else 'no cache at'} {folder}")
        return 0
    print(store.format_info(store.info(folder)), end="")
    return 0


def sarif_merge(ns: argparse.Namespace) -> int:
    from pytea_ci.report.sarif_merge import MergeError, merge

    try:
        body = merge(ns.files, category=ns.category, indent=2)
    except MergeError as e:
        raise UsageError(str(e)) from None
    if ns.output is None:
        sys.stdout.write(body)
    else:
        write_file(ns.output, body)
    return 0


def shapes(ns: argparse.Namespace) -> int:
    from pytea_ci.library.run import TargetError, parse_errors
    from pytea_ci.library.run import shapes as run_shapes
    from pytea_ci.report import shapes as render
    from pytea_ci.report.text import format_diagnostic

    try:
        broken = parse_errors(ns.target, ns.root, ns.config)
        modules = run_shapes(ns.target, ns.root, ns.config) if not broken or "::" not in ns.target else []
    except TargetError as e:
        raise UsageError(str(e)) from None
    fn = {"text": render.render_text, "json": render.render_json, "markdown": render.render_markdown}[ns.format]
    found = "".join(format_diagnostic(d, os.getcwd()) + "\n" for d in broken)
    if ns.format != "text":  # a JSON or Markdown document stays one document: the findings go to stderr
        sys.stderr.write(found)
        found = ""
    text = found + (fn(modules) if modules or not broken else "")
    if ns.output:
        write_file(ns.output, text)
    else:
        sys.stdout.write(text)
    return 1 if broken or any(d.severity.value != "note" for m in modules for d in m.diagnostics) else 0


def lsp(ns: argparse.Namespace) -> int:
    try:
        from pytea_ci.lsp.server import main as serve
    except ImportError as e:  # the optional extra is missing
        if (e.name or "").split(".")[0] not in {"pygls", "lsprotocol", "cattrs", "attrs"}:
            raise
        raise UsageError(f"the language server needs pygls and lsprotocol ({e.name} is not installed): "
                         "pip install 'pytea-ci[lsp]'") from None
    return serve()
