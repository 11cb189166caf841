"""Analyses off the event loop: one worker thread takes the file whose debounce delay ran out first and
runs it. A newer request for the same file supersedes the run in progress (checked between entry points,
its results are dropped) and restarts the delay, so a burst of keystrokes costs one run, on the newest
text. The editor never waits: handlers only enqueue."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Job = Callable[[str, Callable[[], bool]], None]  # (path, superseded?) -> None


class Scheduler:
    def __init__(self, job: Job) -> None:
        self._job = job
        self._cond = threading.Condition()
        self._due: dict[str, float] = {}  # path -> monotonic time its run may start
        self._stopped = False
        self._busy = False
        self._thread = threading.Thread(target=self._loop, name="pytea-ci-lsp-worker", daemon=True)
        self._thread.start()

    def request(self, path: str, delay: float) -> None:
        with self._cond:
            self._due[path] = time.monotonic() + max(0.0, delay)
            self._cond.notify_all()

    def superseded(self, path: str) -> bool:
        with self._cond:
            return path in self._due or self._stopped

    def idle(self) -> bool:
        with self._cond:
            return not self._due and not self._busy

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    def _next(self) -> str | None:
        with self._cond:
            while not self._stopped:
                if self._due:
                    path, due = min(self._due.items(), key=lambda kv: kv[1])
                    wait = due - time.monotonic()
                    if wait <= 0:
                        del self._due[path]
                        self._busy = True
                        return path
                    self._cond.wait(wait)
                else:
                    self._cond.wait()
            return None

    def _loop(self) -> None:
        while (path := self._next()) is not None:
            try:
                self._job(path, lambda p=path: self.superseded(p))  # type: ignore[misc]
            except Exception:  # a bug in one run must not stop the worker: say it on stderr (the client's log)
                import traceback

                traceback.print_exc()
            finally:
                with self._cond:
                    self._busy = False
