"""Which entry points a `check` analyzes: from paths, git changes, the configuration, a shard.

* no paths, no git option: every entry point of the project;
* paths (what pre-commit passes): an entry point stands for itself; any other file maps to the entry
  points that import it, directly or transitively (or to itself when none does); a folder stands for
  the entry points in it;
* a data file (a YAML config, a `config.json`: anything but Python and notebooks) maps to the entry
  points that read it or name it (`data_files.py`); none is not an error;
* `--staged` / `--diff`: the entry points whose import closure contains a changed file, or that read
  a changed data file. `--staged`
  reports just those; `--diff` reports every entry point (the unaffected ones normally come from the
  result cache) unless `affected_only` is set. When git cannot answer, every entry point.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

from pytea_ci.diagnostics.notebook import is_notebook
from pytea_ci.driver import data_files
from pytea_ci.driver import discover as disc
from pytea_ci.driver import fs
from pytea_ci.driver import gitdiff
from pytea_ci.driver.config import Config
from pytea_ci.driver.imports_graph import ImportGraph


class SelectionError(Exception):
    """A path or git request that cannot be satisfied (reported in one line, exit code 2)."""


@dataclass
class Request:
    root: str
    paths: list[str] = field(default_factory=list)
    staged: bool = False
    diff: str | None = None
    affected_only: bool = False
    new_only: bool = False
    shard: tuple[int, int] | None = None  # (K, N), 1 <= K <= N
    cache_dir: str | None = None  # where the data files each entry point read are recorded


@dataclass
class Selection:
    entries: list[str]  # absolute paths, in a deterministic order
    changes: gitdiff.ChangeSet | None = None  # for --new-only
    messages: list[str] = field(default_factory=list)  # warnings for stderr
    repo: Any = None  # the git repository, when git was asked
    no_entry: bool = False  # no entry point was found at the root or in the folders given (`no_entry_message`)
    no_entry_in: list[str] = field(default_factory=list)  # those folders, when folders were given
    unselected: bool = False  # files were given, none of them an entry point or imported by one


def no_entry_message(root: str, modules: int = 0) -> str:
    """The warning of a run that found no entry point under `root` (the project's root, or the folders
    given); `modules`: how many modules library mode checked alone after all (then the run did check
    something)."""
    end = f"only {modules} module(s) were checked alone (library mode)" if modules else "nothing was checked"
    return (f"no entry point found under {root} (a file with an `if __name__ == \"__main__\":` block, or a "
            f"torch script no other file imports): {end}; set entry-points in [tool.pytea-ci]")


def unselected_message(modules: int = 0) -> str:
    """The warning of a run given files none of which is an entry point or imported by one; `modules`:
    how many of their modules library mode checked alone after all."""
    end = f"only their {modules} module(s) were checked alone (library mode)" if modules else "nothing was checked"
    return f"none of the given files is an entry point or imported by one: {end}"


class Selector:
    def __init__(self, req: Request, cfg: Config, graph: ImportGraph) -> None:
        self.req, self.cfg, self.graph = req, cfg, graph
        self.data: list[str] = []  # data files given as paths
        self.root = os.path.abspath(req.root)
        self._all: list[str] | None = None
        self.messages: list[str] = []
        self.empty_folders: list[str] = []  # the paths given, all folders without an entry point
        self.unselected = False  # files given, none an entry point or imported by one (`unselected_message`)

    def all_entries(self) -> list[str]:
        if self._all is None:
            if self.cfg.entry_points:
                self._all = disc.configured(self.cfg.entry_points, self.root, self.cfg.exclude, self.graph)
                self._check_patterns()
            else:
                self._all = disc.discover(self.root, self.root, self.cfg.exclude, self.graph)
        return self._all

    def _check_patterns(self) -> None:
        where = f"entry-points of {self.cfg.source or 'the configuration'}"
        missing = disc.unmatched(self.cfg.entry_points, self.root)
        if self._all:
            self.messages += [f"{where}: {pat!r} matches no file under {self.root}" for pat in missing]
        elif not self.req.paths:
            raise SelectionError(f"{where}: no entry point matches {self.cfg.entry_points!r} under {self.root}")

    def importers(self, path: str) -> list[str]:
        if self.cfg.entry_points:
            return self.graph.affected(self.all_entries(), {path})
        if not path.startswith(self.root + os.sep):
            return []
        # walk backwards from the file: parsing the whole project to list its entry points costs more
        return self.graph.affected(disc.entries_importing(path, self.root, self.cfg.exclude, self.graph), {path})

    def for_file(self, path: str) -> list[str]:
        path = os.path.abspath(path)
        if not is_program_file(path):
            self.data.append(path)
            return data_files.readers({path}, self.all_entries(), self.graph, self.root, self.req.cache_dir)
        if path in self.all_entries_if_configured():
            return [path]
        if (not self.cfg.entry_points and not self._excluded(path)
                and disc.is_entry(path, self.root, self.cfg.exclude, self.graph)):
            return [path]
        users = self.importers(path)
        if users or self.cfg.entry_points or self._excluded(path) or disc.is_test_file(path, self.root):
            return users
        return [path]  # a lone file nobody imports: analyze it as a program

    def all_entries_if_configured(self) -> list[str]:
        return self.all_entries() if self.cfg.entry_points else []

    def _excluded(self, path: str) -> bool:
        inside = path.startswith(self.root + os.sep)
        return inside and disc.excluded(path, self.root, self.cfg.exclude)

    def for_folder(self, p: str) -> list[str]:
        if self.cfg.entry_points:
            folder = os.path.abspath(p) + os.sep
            return [e for e in self.all_entries() if e.startswith(folder)]
        return disc.discover(os.path.abspath(p), self.root, self.cfg.exclude, self.graph)

    def for_paths(self, paths: list[str]) -> list[str]:
        out: list[str] = []
        empty_folders = []
        excluded: list[str] = []
        for p in paths:
            if fs.isdir(p):
                found = self.for_folder(p)
                if not found:
                    empty_folders.append(p)
                out += found
            elif fs.isfile(p) and self._excluded(os.path.abspath(p)):
                excluded.append(p)
            elif fs.isfile(p):
                out += self.for_file(p)
            else:
                raise SelectionError(f"{p}: no such file or directory")
        if empty_folders and not out and len(empty_folders) == len(paths) and self.cfg.library_mode != "never":
            self.empty_folders = empty_folders  # their modules are checked alone, as at a root without one
            return []
        if empty_folders and not out:
            raise SelectionError(f"no entry point in {', '.join(empty_folders)} (a file with an "
                                 "`if __name__ == \"__main__\":` block or a torch script; or set entry-points)")
        self.messages += [f"{p}: no entry point in this folder" for p in empty_folders]
        if excluded and not out:
            where = os.path.relpath(self.cfg.source, self.root) if self.cfg.source else "the configuration"
            self.messages.append(f"{', '.join(excluded[:3])}{' ...' if len(excluded) > 3 else ''}: "
                                 f"{'matches' if len(excluded) == 1 else 'match'} `exclude` in {where}; "
                                 "nothing was checked")
        elif self.data and not out and len(self.data) == len(paths):
            self.messages.append("no entry point reads or names the given data files: nothing was checked")
        elif not out:
            self.unselected = True  # said after library mode, which may check their modules alone
        return list(dict.fromkeys(out))


def is_program_file(path: str) -> bool:
    """A `.py`/`.pyw` file, a notebook, or an extensionless script with a python shebang."""
    if path.endswith((".py", ".pyw")) or is_notebook(path):
        return True
    if os.path.splitext(path)[1]:
        return False
    try:
        first = fs.read(path)[:200].split(b"\n", 1)[0]
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def _changes(req: Request) -> tuple[gitdiff.ChangeSet | None, Any]:
    if not (req.staged or req.diff or req.new_only):
        return None, None  # git is not needed: do not pay for importing GitPython
    repo = gitdiff.open_repo(req.root)
    if repo is None:
        if req.staged or req.diff:
            raise SelectionError(f"{req.root} is not inside a git repository (needed by --staged / --diff)")
        return None, None
    if req.staged:
        return gitdiff.staged(repo), repo
    if req.diff:
        return gitdiff.diff(repo, req.diff), repo
    return None, repo


def in_shard(entry: str, root: str, shard: tuple[int, int] | None) -> bool:
    """Stable assignment: hash of the path relative to the root, so adding files moves no one else."""
    if shard is None:
        return True
    k, n = shard
    digest = hashlib.sha256(disc.rel(entry, root).encode()).digest()
    return int.from_bytes(digest[:8], "big") % n == k - 1


def select(req: Request, cfg: Config, graph: ImportGraph) -> Selection:
    sel = Selector(req, cfg, graph)
    changes, repo = _changes(req)
    candidates = sel.for_paths(req.paths) if req.paths else sel.all_entries()
    messages = list(sel.messages)
    entries = candidates
    if changes is not None and (not changes.complete or changes.merge_base_missing):
        messages.append(changes.message)
    if changes is not None and changes.complete and (req.staged or req.affected_only):
        affected = set(graph.affected(candidates, changes.changed))
        affected |= set(data_files.readers(changes.changed, candidates, graph, sel.root, req.cache_dir))
        entries = [e for e in candidates if e in affected]
        if req.staged and not changes.changed:
            messages.append("--staged: nothing is staged (`git add` the files to check first): nothing was checked")
    if req.new_only and changes is None:
        if repo is None:
            raise SelectionError("--new-only needs git: run inside a repository, or with --staged / --diff")
        changes = gitdiff.worktree(repo)
    entries = [e for e in entries if in_shard(e, req.root, req.shard)]
    no_entry = not candidates and (not req.paths or bool(sel.empty_folders))
    return Selection(entries, changes, messages, repo, no_entry=no_entry, no_entry_in=sel.empty_folders,
                     unselected=sel.unselected)
