"""The data fuzzer (issue 20, CI-sized; `benchmarks/fuzz_differential.py --data` runs 3000 programs):
training scripts whose sizes and labels come from data never get a finding where torch never fails,
never get an error where a run with the program's defaults passes, and their failures are found."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from tests.oracle.fuzz_data import Verdict, compare, describe, judge  # noqa: E402

SEEDS = range(40)


def test_judgement_of_the_oracle() -> None:
    never, always = Verdict("never", {}, 12, 12, 12), Verdict("always", {20: 12}, 12, 0, 0)
    sometimes = Verdict("sometimes", {20: 4}, 12, 8, 8, {19, 20})
    assert judge(never, {}) == "ok" and judge(never, {20: "warning"}) == "false-alarm"
    assert judge(always, {20: "error"}) == "found" and judge(always, {20: "warning"}) == "found-as-warning"
    assert judge(always, {15: "warning", 20: "error"}) == "false-alarm"  # a line every run went through
    assert judge(always, {15: "warning", 20: "error"}, {15}) == "found"  # a planted bug torch did not reach
    assert judge(sometimes, {20: "warning"}) == "found" and judge(sometimes, {20: "error"}) == "overclaimed"
    assert judge(sometimes, {}) == "missed"
    unreached = Verdict("sometimes", {20: 4}, 12, 8, 8, {19})  # the runs that passed never reached line 20
    assert judge(unreached, {20: "error"}) == "found"


def test_no_false_alarms_and_failures_found() -> None:
    outcomes = [compare(seed) for seed in SEEDS]
    wrong = [o for o in outcomes if o[0] in ("false-alarm", "overclaimed")]
    assert not wrong, "\n\n".join(describe(p, v, g) for _, p, v, g in wrong[:3])
    failing = [o for o in outcomes if o[2].kind in ("always", "sometimes")]
    found = [o for o in failing if o[0] in ("found", "found-as-warning")]
    assert failing and len(found) / len(failing) >= 0.8, [(o[2].kind, o[0]) for o in failing if o not in found]


def test_extreme_draws_show_a_failure_is_not_certain() -> None:
    """A label tensor of draws one of which is out of range fails in almost every seeded run, yet a run
    whose draws all land in range passes: the oracle's extreme draws find it, so it is not "always";
    labels that are out of range whatever the draws stay "always"."""
    from tests.oracle.fuzz_data import HEADER, Program, oracle

    head = HEADER.splitlines()
    chance = Program(head + ["Y = torch.randint(0, 5, (64,))", "out0 = nn.Embedding(4, 2)(Y)"])
    v = oracle(chance, 0)
    assert v.kind == "sometimes" and v.by_chance and v.seeded_passed == 0, v
    certain = Program(head + ["Y = torch.randint(0, 5, (64,)) + 4", "out0 = nn.Embedding(4, 2)(Y)"])
    assert oracle(certain, 0).kind == "always"


def test_each_input_value_is_tried() -> None:
    """A failure needing one value of an environment variable (B = 5 leaves a last batch of 4 rows that
    `view(B, -1)` cannot split) is seen: each value is run at least once (the sweep), others pass."""
    from tests.oracle.fuzz_data import HEADER, Program, oracle

    lines = HEADER.splitlines() + ["B = int(os.environ.get('FZ_B', '4'))", "X = torch.randn(24, 6, 4)",
                                   "for xb in DataLoader(X, batch_size=B):", "    out0 = xb.view(B, -1)"]
    v = oracle(Program(lines, env={"FZ_B": (4, 5)}), 0)
    assert v.kind == "sometimes" and set(v.lines) == {len(lines)} and v.passed, v


def test_config_file_values_are_tried() -> None:
    """A size read from the config file the oracle writes for each run (FZ_DATA/cfg.json) takes each
    of its values: B = 5 leaves a last batch `view(B, -1)` cannot split, B = 4 passes."""
    from tests.oracle.fuzz_data import HEADER, Program, oracle

    lines = HEADER.splitlines() + ["with open(os.path.join(os.environ.get('FZ_DATA', 'data'), 'cfg.json')) as fh:",
                                   "    cfg_file = json.load(fh)", "B = int(cfg_file['data']['b'])",
                                   "X = torch.randn(24, 6, 4)", "for xb in DataLoader(X, batch_size=B):",
                                   "    out0 = xb.view(B, -1)"]
    v = oracle(Program(lines, folders={"cfg:data.b": (4, 5)}), 0)
    assert v.kind == "sometimes" and set(v.lines) == {len(lines)} and v.passed, v


def test_generator_composes_files_and_configs() -> None:
    """Sizes from a config file and from files the program saved, data round-tripped through
    torch.save/np.save, and consumers that read a config size again all occur (at random, in varied
    company: not one template)."""
    from tests.oracle.fuzz_data import make_program

    texts = [make_program(seed).text for seed in range(120)]
    for marker in ("cfg_file = json.load(fh)", "torch.load(", "np.load(", "tmp_dir = tempfile.mkdtemp()"):
        assert 5 <= sum(marker in t for t in texts) <= 110, marker
    rereads = [t for t in texts if any("out" in line and "cfg_file[" in line for line in t.splitlines())]
    assert len(rereads) >= 3
    assert len({t.split("cfg_file = json.load(fh)")[1][:200] for t in texts if "json.load(fh)" in t}) > 5


IMAGE_SEEDS = range(8)


def test_image_folders_with_a_crop_helper() -> None:
    """Issue 37: scripts over a folder of images of random sizes and modes, brought to one size by a
    helper of their own (a PIL crop, a NumPy slice, a resize) or not: no finding where torch never
    fails (a crop helper's items are all `[C, S, S]`: no collate warning), no error where a run with the
    defaults passes, and the failures of every run are found (as errors or, for sizes from data, warnings)."""
    pytest.importorskip("PIL")
    from tests.oracle.fuzz_data_images import compare as compare_images

    outcomes = [compare_images(seed) for seed in IMAGE_SEEDS]
    wrong = [o for o in outcomes if o[0] in ("false-alarm", "overclaimed")]
    assert not wrong, "\n\n".join(describe(p, v, g) for _, p, v, g in wrong[:3])
    always = [o for o in outcomes if o[2].kind == "always"]
    assert always and all(o[0] in ("found", "found-as-warning") for o in always), \
        "\n\n".join(describe(p, v, g) for _, p, v, g in always if _ != "found")
    assert any(o[2].kind == "never" for o in outcomes)
