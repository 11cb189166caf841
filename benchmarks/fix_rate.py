"""Verified fixes on the acceptance corpus (issue 34): for every bug, the finding on the marked line and
the fix proven for it (`pytea-ci check --suggest-fixes`); then torch runs each fixed program the way the
corpus labels are made (`_oracle/run_case.py`: seeded, CPU, argparse defaults, the torchvision stand-in,
one fresh fork per case) and must not raise at that statement.

Usage: python benchmarks/fix_rate.py [CORPUS] [-k SUBSTRING]...
       python benchmarks/fix_rate.py --fuzz START COUNT [--prefix]
Prints one line per bug and a summary; the analysis never imports torch (the oracle runs in a separate
process, `--oracle PLAN`). `--fuzz` does the same for the shape fuzzer's failing programs
(tests/oracle/fuzz.py, seeds START.. until COUNT failing programs torch and the analyzer agree on were
seen; with --prefix each cut after the statement torch fails at): the fix proven for the finding at
torch's line, then the fixed program run under torch, which must not raise at that statement.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SCORER_RULES = ("PT001", "PT002", "PT003", "PT004", "PT006", "PT007")
ENV = {"TV_STANDIN_LEN_MOD": "640", "ACCEPT_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
       "CUDA_VISIBLE_DEVICES": "", "PYTHONHASHSEED": "0", "PYTHONWARNINGS": "ignore", "PYTHONDONTWRITEBYTECODE": "1"}
TIMEOUT = 120
FUZZ_TIMEOUT = 20  # seconds for one fixed fuzzer program under torch


def analyze(corpus: Path, case: dict, work: Path) -> dict:
    """The marked finding, its proven fix, and the fixed copy of the case folder (when there is a fix)."""
    from pytea_ci.driver.run import Options, run
    from pytea_ci.fixes import attach
    from pytea_ci.fixes.source import Sources, replace

    folder = corpus / case["id"]
    opts = Options(root=str(folder))
    t0 = time.monotonic()
    result = run([str(folder / case["entry"])], opts)
    marked = (case["file"], case["line"])
    at = [d for d in result.diagnostics if d.rule in SCORER_RULES and (os.path.relpath(
        os.path.join(folder, d.span.path), folder), d.span.line) == marked]
    if not at:
        return {"id": case["id"], "outcome": "not found"}
    attach(result, opts, str(folder))
    fixed = [d for d in result.diagnostics if d.fix is not None]
    d = next((x for x in result.diagnostics if x.key() == at[0].key() and x.fix is not None), None)
    out = {"id": case["id"], "kind": case["kind"], "seconds": round(time.monotonic() - t0, 2),
           "offered": len(fixed)}
    if d is None or d.fix is None:
        from pytea_ci.fixes.candidates import candidates

        tried = len(candidates(at[0], Sources(str(folder))))
        return {**out, "outcome": "no proven fix" if tried else "no candidate", "candidates": tried}
    copy = work / case["id"]
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__", ".pytea_cache"))
    src = Sources(str(folder))
    for edit in d.fix.edits:
        rel = os.path.relpath(src.path(edit.span.path), folder)
        text = (copy / rel).read_text()
        (copy / rel).write_text(replace(text, edit.span, edit.text))
    return {**out, "outcome": "fix", "title": d.fix.title, "safe": d.fix.safe, "dir": str(copy)}


def oracle(plan_path: str) -> int:
    """In a process of its own: import torch once, then run each fixed case in a fresh fork."""
    plan = json.loads(Path(plan_path).read_text())
    sys.path.insert(0, plan["oracle"])
    import run_case  # type: ignore[import-not-found]

    run_case.warm_up()
    results = {}
    for item in plan["cases"]:
        results[item["id"]] = _fork(run_case, item["dir"])
    Path(plan_path).with_suffix(".out.json").write_text(json.dumps(results))
    return 0


def _fork(run_case: object, case_dir: str) -> dict:
    tmp = tempfile.mkdtemp(prefix="fixrate_")
    out = os.path.join(tmp, "result.json")
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.chdir(tmp)
            fd = os.open(os.path.join(tmp, "log"), os.O_WRONLY | os.O_CREAT, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.environ.update(ENV)
            res = run_case.run(case_dir, "main.py")  # type: ignore[attr-defined]
            with open(out, "w") as f:
                json.dump(res, f)
        except BaseException:  # noqa: BLE001
            code = 70
        finally:
            os._exit(code)
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.2)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return {"status": "timeout"}
    try:
        return json.loads(Path(out).read_text())
    except (OSError, ValueError):
        return {"status": "crash"}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fuzz(start: int, count: int, prefix: bool) -> int:
    """Fix rate and torch agreement over the shape fuzzer's failing programs (torch in this process, as
    benchmarks/fuzz_differential.py runs it; the analysis still never imports the program). With `prefix`,
    each program ends at the statement torch fails at: the fuzzer draws the lines after a failure without
    fitting them, so they mostly fail too, and the proof rightly rejects a fix the next line undoes."""
    from pytea_ci.driver.run import Options, run
    from pytea_ci.fixes import attach
    from pytea_ci.fixes.source import replace
    from tests.oracle.fuzz import make_program, run_torch_at

    seen = fixed = rejected = completed = elsewhere = crashes = reported = 0
    seed = start

    def summary() -> None:
        print(f"SUMMARY fuzz fixes: {seen} failing programs (seeds {start}..{seed - 1}, torch's error found); "
              f"verified fix {fixed} ({100 * fixed / max(1, seen):.0f}%); torch rejects {rejected} (raises at the "
              f"statement), {elsewhere} raise elsewhere, {completed} run to completion; analyzer crashes {crashes}",
              flush=True)

    while seen < count:
        if seen % 50 == 0 and seen != reported:  # a figure to stop at, on a shared machine
            reported = seen
            summary()
        lines = make_program(seed)
        seed += 1
        want, reached = run_torch_at(lines)
        if want is None:
            continue
        if prefix:  # the chunks up to the one torch was running
            ends = [sum(c.count("\n") + 1 for c in lines[:i + 1]) for i in range(len(lines))]
            lines = lines[:next(i for i, end in enumerate(ends) if end >= reached) + 1]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "prog.py")
            Path(path).write_text("\n".join(lines) + "\n")
            opts = Options(root=d, strict=True)
            try:
                result = run([path], opts)
            except Exception as e:  # noqa: BLE001  (a model that raised under strict mode: an analyzer bug)
                crashes += 1
                print(f"--- seed {seed - 1}: analyzer crash {type(e).__name__}: {e}")
                continue
            if not any(x.span.line == want for x in result.diagnostics if x.rule in SCORER_RULES):
                continue  # torch's error not found (the fuzzer's detection rate says how often)
            seen += 1
            try:
                attach(result, opts, d)
            except Exception as e:  # noqa: BLE001  (a re-analysis that raised under strict mode)
                crashes += 1
                print(f"--- seed {seed - 1}: analyzer crash in a proof {type(e).__name__}: {e}")
                continue
            d_ = next((x for x in result.diagnostics if x.span.line == want and x.fix is not None), None)
            if d_ is None or d_.fix is None:
                continue
            fixed += 1
            text = Path(path).read_text()
            (edit,) = d_.fix.edits
            new = replace(text, edit.span, edit.text)
            moved = edit.text.count("\n") - ((edit.span.end_line or edit.span.line) - edit.span.line)
            at = want + moved if want > edit.span.line else want  # the marked statement in the fixed text
            line = _torch_error_line(new)
            completed += line is None
            if line == at:
                rejected += 1
                print(f"--- seed {seed - 1}: torch rejects {d_.fix.title!r} (still raises at line {line})")
            elif line is not None:
                elsewhere += 1
                print(f"--- seed {seed - 1}: {d_.fix.title!r}: the fixed program raises at line {line} "
                      f"({ {-1: 'not a shape error', -2: f'no end in {FUZZ_TIMEOUT} s'}.get(line, 'another statement')})")
    summary()
    return 0 if rejected == 0 else 1


def _torch_error_line(text: str) -> int | None:
    """The line of the fixed program where torch raises a shape error; None when it runs, -1 for another
    exception, -2 when it has not ended in FUZZ_TIMEOUT seconds."""
    import traceback

    from tests.oracle.fuzz import SHAPE_ERRORS

    def stop(*_: object) -> None:
        raise TimeoutError

    signal.signal(signal.SIGALRM, stop)
    signal.alarm(FUZZ_TIMEOUT)  # a fix may leave a loop that never ends (`while len(rows) < n`)
    try:
        exec(compile(text, "<fuzz>", "exec"), {})  # noqa: S102  (the oracle runs real torch on purpose)
    except TimeoutError:
        return -2
    except SHAPE_ERRORS as e:
        return [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<fuzz>"][-1]
    except Exception:  # noqa: BLE001  (another exception is not a shape error at the statement)
        return -1
    finally:
        signal.alarm(0)
    return None


def main(argv: list[str]) -> int:
    if argv[:1] == ["--oracle"]:
        return oracle(argv[1])
    if argv[:1] == ["--fuzz"]:
        return fuzz(int(argv[1]), int(argv[2]), "--prefix" in argv)
    keys = [argv[i + 1] for i, a in enumerate(argv) if a == "-k"]
    rest = [a for i, a in enumerate(argv) if a != "-k" and (i == 0 or argv[i - 1] != "-k")]
    corpus = Path(rest[0]) if rest else Path(__file__).resolve().parents[2] / "shared" / "acceptance"
    cases = [c for c in json.loads((corpus / "cases.json").read_text()) if c["verdict"] == "error"
             and (not keys or any(k in c["id"] for k in keys))]
    work = Path(tempfile.mkdtemp(prefix="fix_rate_"))
    rows = [analyze(corpus, c, work) for c in cases]
    fixed = [r for r in rows if r["outcome"] == "fix"]
    plan = work / "plan.json"
    plan.write_text(json.dumps({"oracle": str(corpus / "_oracle"), "cases": fixed}))
    subprocess.run([sys.executable, __file__, "--oracle", str(plan)], check=True)
    torch = json.loads(plan.with_suffix(".out.json").read_text())
    for r in rows:
        if r["outcome"] == "fix":
            res = torch[r["id"]]
            case = next(c for c in cases if c["id"] == r["id"])
            r["torch"] = res.get("status")
            r["accepted"] = res.get("status") in ("ok", "exit") or (
                res.get("status") == "error" and (res.get("file"), res.get("line")) != (case["file"], case["line"]))
            if res.get("status") == "error":
                r["torch"] += f" at {res.get('file')}:{res.get('line')}: {res.get('exception')}: " \
                              f"{str(res.get('message'))[:80]}"
        print(json.dumps({k: v for k, v in r.items() if k != "dir"}))
    accepted = sum(1 for r in fixed if r.get("accepted"))
    completed = sum(1 for r in fixed if r.get("torch") in ("ok", "exit"))
    print(f"SUMMARY fix_rate: {len(fixed)}/{len(rows)} bugs with a verified fix "
          f"({100 * len(fixed) / max(1, len(rows)):.0f}%), {sum(r['safe'] for r in fixed)} safe; "
          f"torch accepts {accepted}/{len(fixed)} ({completed} run to completion); unfixed: "
          + ", ".join(f"{o} {sum(r['outcome'] == o for r in rows)}" for o in ("not found", "no candidate",
                                                                         "no proven fix")))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
