"""Hydra's composition (pytea_ci/models/hydra_.py) against hydra-core itself: on random config folders
(groups and options, nested group defaults, `_self_` anywhere or absent, optional and null entries,
keys the primary config shares with its groups, `${a.b}` interpolations) the analyzer either gives up
(an unknown config) or composes exactly the config `hydra.compose` gives with no overrides."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from pytea_ci.diagnostics import Span
from pytea_ci.models import hydra_
from pytea_ci.models.values import Instance, Unknown

hydra = pytest.importorskip("hydra")  # the oracle (installed by .ci/run, like torch); pyyaml comes with it
import yaml  # noqa: E402
from hydra import compose, initialize_config_dir  # noqa: E402
from omegaconf import OmegaConf  # noqa: E402


class _Ctx:
    """What hydra_.compose asks of the interpreter: file texts and unknowns."""

    span = Span("main.py", 1, 0)
    root = "/"

    def project_text(self, name: str, base: str | None = None) -> str | None:
        path = os.path.join(base or ".", name)
        return open(path).read() if os.path.isfile(path) else None

    def unknown(self, reason: str = "") -> Unknown:
        return Unknown(reason)


def _plain(v: Any) -> Any:
    if isinstance(v, Instance):
        return {k: _plain(x) for k, x in v.attrs.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return "<unknown>" if isinstance(v, Unknown) else v


def _write(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(doc, sort_keys=False) if doc else "")


def _defaults(rng: random.Random, groups: list[str], options: int) -> list[Any]:
    out: list[Any] = [{g: rng.choice([f"o{rng.randrange(options)}", None] if rng.random() < 0.15
                                     else [f"o{rng.randrange(options)}"])}
                      for g in rng.sample(groups, rng.randint(0, len(groups)))]
    if rng.random() < 0.2:
        out.append({f"optional {rng.choice(groups)}": "absent"})
    if rng.random() < 0.7:
        out.insert(rng.randint(0, len(out)), "_self_")
    return out


def _values(rng: random.Random, keys: list[str], refs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k in rng.sample(keys, rng.randint(1, len(keys))):
        out[k] = rng.choice([rng.randint(1, 64), f"${{{rng.choice(refs)}}}" if refs and rng.random() < 0.3 else 8])
    return out


def _folder(rng: random.Random, root: Path) -> None:
    groups, keys = ["model", "data", "optim"], ["a", "b", "c"]
    refs = [f"{g}.{k}" for g in groups for k in keys]  # may be absent: then the analyzer must give up
    for g in groups:
        for o in range(2):
            doc: dict[str, Any] = _values(rng, keys, refs)
            if rng.random() < 0.3:  # a group config's own defaults: relative to its group
                doc = {"defaults": _defaults(rng, ["sub"], 2), **doc}
                for so in range(2):
                    _write(root / g / "sub" / f"o{so}.yaml", _values(rng, keys, []))
            _write(root / g / f"o{o}.yaml", doc)
    primary: dict[str, Any] = {"defaults": _defaults(rng, groups, 2)}
    primary.update(_values(rng, keys, refs))
    for g in rng.sample(groups, rng.randint(0, 2)):  # the primary config sets keys of a group too
        primary[g] = _values(rng, keys, [])
    _write(root / "config.yaml", primary)


def _hydra(root: Path) -> Any:
    with initialize_config_dir(config_dir=str(root), version_base=None):
        cfg = compose(config_name="config")
    try:
        return OmegaConf.to_container(cfg, resolve=True)
    except Exception:  # an interpolation of a key that is not there: hydra raises when it is read
        return None


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("seed", range(80))
def test_composes_what_hydra_composes_or_gives_up(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    _folder(rng, tmp_path)
    try:
        expected = _hydra(tmp_path)
    except Exception:  # hydra rejects the folder (a missing non-optional config): we must not compose it
        expected = "error"
    mine = _plain(hydra_.compose(_Ctx(), str(tmp_path), "config"))  # type: ignore[arg-type]
    if mine == "<unknown>":
        return
    assert expected != "error"
    if expected is None:  # hydra fails on reading a value: ours is unknown there
        assert "<unknown>" in repr(mine)
        return
    assert _fill(mine, expected) == expected


def _fill(mine: Any, expected: Any) -> Any:
    """`mine` with its unknown values taken from `expected` (an unknown is never wrong), after
    checking that the known values are the same."""
    if mine == "<unknown>":
        return expected
    if isinstance(mine, dict) and isinstance(expected, dict):
        return {k: _fill(v, expected.get(k)) for k, v in mine.items()}
    if isinstance(mine, list) and isinstance(expected, list):
        return [_fill(a, b) for a, b in zip(mine, expected)] + ([None] if len(mine) != len(expected) else [])
    return mine


def test_the_oracle_generator_composes_nontrivially(tmp_path: Path) -> None:
    """The generated folders are composed by the analyzer in most cases (else the test above says little)."""
    composed = 0
    for seed in range(60):
        d = tmp_path / str(seed)
        _folder(random.Random(seed), d)
        composed += _plain(hydra_.compose(_Ctx(), str(d), "config")) != "<unknown>"  # type: ignore[arg-type]
    assert composed >= 40
