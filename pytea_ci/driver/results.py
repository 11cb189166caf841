"""The cache-aware part of a run: look each entry point up in the result cache, analyze the misses
(in worker processes when `jobs` > 1), store each new result as soon as it is known (so a run
killed midway keeps what it finished), and record the run's figures for `pytea-ci cache info`."""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pytea_ci.diagnostics.result import EntryResult, EntryStats
from pytea_ci.diagnostics.rules import INCOMPLETE
from pytea_ci.driver import data_files, fs
from pytea_ci.driver.cache import ResultCache, entry_key, write_last_run
from pytea_ci.driver.imports_graph import ImportCache, ImportGraph
from pytea_ci.driver.run import (
    Options,
    Progress,
    RunFigures,
    entry_options,
    make_decider,
    project_imports,
    run_one,
)

if TYPE_CHECKING:
    from concurrent.futures import Future

    from pytea_ci.solver import Decider

_WORKER: dict[str, Any] = {}  # the worker process's options and decider (one per process)


def _key_options(entry: str, opts: Options) -> dict[str, Any]:
    return {"budget": dataclasses.asdict(opts.budget), "solver_timeout_ms": opts.solver_timeout_ms,
            "options": entry_options(entry, opts)}


def _lookup(entries: list[str], opts: Options, cache: ResultCache,
            graph: ImportGraph | None) -> tuple[list[EntryResult | None], list[str]]:
    root = os.path.abspath(opts.root)
    if graph is None or graph.root != root:
        graph = ImportGraph(root, ImportCache(opts.cache_dir))
    found: list[EntryResult | None] = []
    keys: list[str] = []
    for e in entries:
        rel = os.path.relpath(os.path.abspath(e), root)
        key = entry_key(rel, root, graph.closure(e), _key_options(e, opts))
        keys.append(key)
        found.append(cache.get(key))
    graph.cache.save()
    return found, keys


def run_cached(entries: list[str], opts: Options, progress: Progress | None = None,
               graph: ImportGraph | None = None) -> tuple[list[EntryResult], RunFigures]:
    opts = with_share(entries, opts)
    cache = ResultCache(opts.cache_dir, fs.realpath(opts.root)) if opts.cache_dir else None
    if cache is not None:
        out, keys = _lookup(entries, opts, cache, graph)
    else:
        out, keys = [None] * len(entries), []
    figures = RunFigures(cached=sum(r is not None for r in out))
    done = figures.cached
    todo = [i for i, r in enumerate(out) if r is None]
    metered = _Metered(out, opts)
    for j, res in analyze_many([entries[i] for i in todo], opts):
        i = todo[j]
        out[i] = res
        if cache is not None:
            cache.put(keys[i], res)
        figures.analyzed += 1
        figures.z3_calls += res.stats.z3_calls
        figures.solver_cache_hits += res.stats.cache_hits
        done += 1
        if progress is not None:
            progress(done, len(entries), res.entry)
        if metered.advance():
            break  # the run budget is spent by the entry points before the ones still running
    metered.advance()
    final = metered.cut(entries)
    _journal_inputs(final, opts.root)
    data_files.record(opts.cache_dir, opts.root, final)
    if opts.cache_dir:
        write_last_run(opts.cache_dir, figures.as_dict())
    return final, figures


def with_share(entries: list[str], opts: Options) -> Options:
    """`opts` whose per-entry step budget is the entry points' share of the run budget (driver/run.py
    `RunMeter.share`): one share for all of them, fixed before any runs, so it depends neither on the order
    they finish in (`jobs`) nor on the machine; it is part of each one's result-cache key. With it, their
    share of the real time before the run's safety net (`entry_seconds`)."""
    if not entries:
        return opts
    each = opts.meter.share(opts.budget.entry_steps, len(entries))
    budget = opts.budget if each.steps == opts.budget.entry_steps else dataclasses.replace(
        opts.budget, entry_steps=max(1, each.steps))
    return dataclasses.replace(opts, budget=budget, entry_seconds=each.seconds)  # the seconds: never in a cache key


def _journal_inputs(results: list[EntryResult], root: str) -> None:
    """The data files the analyses read (a Hydra config folder, say) are questions of this run too: a
    replay of it is valid only while they are unchanged (driver/fs.py)."""
    real = fs.realpath(root)
    for rel in sorted({p for r in results for p in r.inputs}):
        try:
            fs.read(os.path.join(real, rel))
        except OSError:
            pass


class _Metered:
    """Charges the run budget with the entry points' steps in their given order, whatever order they
    finish in, and finds the first entry point that must not have started."""

    def __init__(self, out: list[EntryResult | None], opts: Options) -> None:
        self.out, self.meter, self.next = out, opts.meter, 0
        self.root = os.path.abspath(opts.root)
        self.stop: int | None = None
        self.imports: list[EntryStats] = []  # the stats of the entry points charged, in order (`cut`)

    def advance(self) -> bool:
        """Charge the finished prefix; True once the budget is spent before an unfinished entry point."""
        while self.stop is None and self.next < len(self.out) and self.out[self.next] is not None:
            if self.meter.exhausted:
                self.stop = self.next
                break
            self.meter.charge(self.out[self.next].stats.steps)  # type: ignore[union-attr]
            self.imports.append(self.out[self.next].stats)  # type: ignore[union-attr]
            self.next += 1
        if self.stop is None and self.meter.exhausted and self.next < len(self.out):
            self.stop = self.next
        return self.stop is not None

    def cut(self, entries: list[str]) -> list[EntryResult]:
        """The results, the entry points past the budget not analyzed; then the run is charged the cold runs of
        the project imports they kept (once each): after them, since their shares were fixed to fit the run
        before any ran, so what is left for library mode pays them."""
        if self.stop is None:
            out = [r for r in self.out if r is not None]
        else:
            out = [r for r in self.out[:self.stop] if r is not None] + [
                self.meter.not_analyzed(os.path.relpath(os.path.abspath(e), self.root)) for e in entries[self.stop:]]
        for stats in self.imports:
            self.meter.charge_entry(dataclasses.replace(stats, steps=0))
        return out


def analyze_many(entries: list[str], opts: Options) -> Iterator[tuple[int, EntryResult]]:
    """(index, result) for each entry point, in completion order."""
    if not entries:
        return  # everything came from the cache: load neither the analyzer nor the solver
    jobs = opts.jobs if opts.jobs > 0 else (os.cpu_count() or 1)
    if jobs <= 1 or len(entries) <= 1 or opts.strict:
        decider, imports = make_decider(opts), project_imports()
        for i, e in enumerate(entries):
            yield i, run_one(e, opts, decider, imports)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(entries)), mp_context=ctx, initializer=_init_worker,
                             initargs=(dataclasses.replace(opts, progress=None), os.getpid())) as pool:
        futures: dict[Future[EntryResult], int] = {pool.submit(_work, e): i for i, e in enumerate(entries)}
        try:
            for fut in as_completed(futures):
                yield futures[fut], _result(fut, entries[futures[fut]], opts)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _init_worker(opts: Options, parent: int) -> None:
    _WORKER["opts"] = opts
    _WORKER["decider"] = make_decider(opts)
    _WORKER["imports"] = project_imports()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="pytea-ci parent watch").start()


PARENT_POLL = 0.5  # seconds between a worker's looks at its parent


def _exit_with(parent: int) -> None:
    """A worker ends when the run that started it is gone: a run killed from outside (a CI timeout, a
    CPU limit, SIGKILL) cannot shut its pool down, and its workers would wait for work forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(3)


def _work(entry: str) -> EntryResult:
    opts: Options = _WORKER["opts"]
    decider: Decider = _WORKER["decider"]
    return run_one(entry, opts, decider, _WORKER["imports"])


def _result(fut: Future[EntryResult], entry: str, opts: Options) -> EntryResult:
    """The worker's result; a worker that died (killed, out of memory) is that entry's internal error."""
    import pickle
    from concurrent.futures import BrokenExecutor

    try:
        return fut.result()
    except (BrokenExecutor, pickle.PicklingError, OSError) as e:
        rel = os.path.relpath(os.path.abspath(entry), os.path.abspath(opts.root))
        from pytea_ci.diagnostics import Diagnostic, Severity, Span

        text = f"internal error: worker failed: {type(e).__name__}: {e}"
        d = Diagnostic(INCOMPLETE.id, Severity.NOTE, Span(rel, 1, 0), f"analysis failed: {text}", entry=rel)
        return EntryResult(rel, [d], status="internal-error", error=text)
