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


def _run(tmp_path: Path, api: StandIn, event_name: str = "pull_request", **inputs: str) -> Any:
    pr = make_pr(tmp_path, MODEL_BUG, extra={"nofix.py": NO_FIX})
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
    assert "posted 1 suggested fix(es) on pull request #7" in r.log


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


