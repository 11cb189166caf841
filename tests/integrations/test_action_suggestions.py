"""`pull-request-suggestions: true`: the action posts each proven fix as a review comment with a suggested
change, against a local stand-in of the GitHub REST API (request shape, one comment per fix, nothing for a
finding without a fix, nothing when the input is off or the event is not a pull request)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.integrations.conftest import MODEL_BUG
from tests.integrations.test_action import make_pr, pr_event, run_action

# a second finding without any fix: an assert on a size that never holds (no repair is offered for asserts;
# a view of 16*8 elements into 5 columns used to be this finding, until `view(x.size(0), -1)` was proven)
NO_FIX = '''import torch


def main():
    x = torch.randn(16, 8)
    assert x.shape[1] == 5
    return x


if __name__ == "__main__":
    main()
'''


# a fix outside the pull request's diff: the pull request changes the input's width (line 14), the fix is
# the Linear's in_features (line 6), more than GitHub's 3 lines of context away from the change
FAR = '''import torch
import torch.nn as nn


def main():
    fc = nn.Linear(9, 4)
    scale = 1.0
    shift = 0.0
    scale = scale * 2
    shift = shift + 1
    scale = scale - 1
    shift = shift * 3
    scale = scale + shift
    x = torch.randn(16, 9)
    return fc(x * scale)


if __name__ == "__main__":
    main()
'''


class StandIn:
    """Records every request it receives and answers 201 like `POST /repos/{repo}/pulls/{n}/comments`."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.requests.append({"method": "POST", "path": self.path, "headers": dict(self.headers),
                                       "json": json.loads(body)})
                self.send_response(201)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"id": 1}')

            def log_message(self, *args: Any) -> None:
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()


@pytest.fixture()
def api() -> Iterator[StandIn]:
    stand_in = StandIn()
    yield stand_in
    stand_in.server.shutdown()
    stand_in.server.server_close()


def _run(tmp_path: Path, api: StandIn, event_name: str = "pull_request", far: bool = False, **inputs: str) -> Any:
    extra = {"nofix.py": NO_FIX, **({"far.py": FAR.replace("randn(16, 9)", "randn(16, 8)")} if far else {})}
    pr = make_pr(tmp_path, MODEL_BUG, extra=extra, base_extra={"far.py": FAR} if far else None)
    event = pr_event(pr) if event_name in ("pull_request", "pull_request_target") else {"after": pr.head}
    environment = {"GITHUB_API_URL": api.url, "GITHUB_REPOSITORY": "octo/shapes"}
    return pr, run_action(pr.origin, event_name, event, sha=pr.head, environment=environment,
                          **{"github-token": "t0ken", **inputs})

def test_one_review_comment_per_fix_with_a_suggestion_block(tmp_path: Path, api: StandIn) -> None:
    pr, r = _run(tmp_path, api, **{"pull-request-suggestions": "true"})
    assert [q["path"] for q in api.requests] == ["/repos/octo/shapes/pulls/7/comments"]  # the assert has no fix
    (q,) = api.requests
    assert q["headers"]["Authorization"] == "Bearer t0ken"
    assert q["headers"]["Accept"] == "application/vnd.github+json"
    body = q["json"]
    assert {k: body[k] for k in ("path", "line", "side", "commit_id")} == {
        "path": "model.py", "line": _line_of(pr.origin / "model.py", "nn.Linear(9, 4)"), "side": "RIGHT",
        "commit_id": pr.head}
    fixed_line = (pr.origin / "model.py").read_text().splitlines()[body["line"] - 1].replace("(9, 4)", "(8, 4)")
    assert f"```suggestion\n{fixed_line}\n```" in body["body"]
    assert "in_features 9 -> 8" in body["body"]
    assert r"fix: in\_features 9 -\> 8" in r.summary  # the job summary shows it (markdown-escaped)
    assert "suggested fixes on pull request #7: 1 posted as review comments; 0 not posted" in r.log
    assert "Suggested fixes: 1 posted as review comments; 0 not posted because their line is outside" in r.summary


def test_a_fix_outside_the_diff_is_not_posted_and_is_counted(tmp_path: Path, api: StandIn) -> None:
    """GitHub rejects a review comment on a line outside the pull request's diff: the fix in far.py (line 6,
    unchanged, 8 lines above the change) is proven and shown in the job summary, but not posted."""
    pr, r = _run(tmp_path, api, far=True, **{"pull-request-suggestions": "true"})
    assert r"fix: in\_features 9 -\> 8" in r.summary.split("far.py", 1)[1]  # proven, shown under its finding
    assert [(q["json"]["path"], q["json"]["line"]) for q in api.requests] == [
        ("model.py", _line_of(pr.origin / "model.py", "nn.Linear(9, 4)"))]
    assert "Suggested fixes: 1 posted as review comments; 1 not posted because their line is outside the pull " \
           "request's diff" in r.summary


def test_nothing_is_posted_when_the_input_is_off(tmp_path: Path, api: StandIn) -> None:
    _, r = _run(tmp_path, api)
    assert api.requests == []
    assert "fix:" not in r.summary


def test_nothing_is_posted_outside_a_pull_request(tmp_path: Path, api: StandIn) -> None:
    _, r = _run(tmp_path, api, event_name="push", **{"pull-request-suggestions": "true"})
    assert api.requests == []
    assert "not a pull request event" in r.log


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)




def test_a_comment_must_lie_within_one_hunk() -> None:
    """The rule of `in_diff`, on lines given directly: a one-line comment inside a hunk (its first and last
    line included), a multi-line one spanning two hunks or reaching past one, another file."""
    from pytea_ci.fixes.suggestions import in_diff

    lines = {"m.py": [(3, 9), (20, 26)]}
    items = [{"path": "m.py", "line": 3}, {"path": "m.py", "line": 26}, {"path": "m.py", "line": 10},
             {"path": "m.py", "line": 21, "start_line": 8}, {"path": "m.py", "line": 10, "start_line": 8},
             {"path": "m.py", "line": 9, "start_line": 4}, {"path": "n.py", "line": 3}]
    inside, outside = in_diff(items, lines)
    assert inside == [items[0], items[1], items[5]]
    assert outside == [items[2], items[3], items[4], items[6]]
