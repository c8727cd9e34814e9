"""The kind registry: ``privonline check`` finds every kind of target through it, so adding a kind
is one module plus one registry line.  A toy kind registered here is checked by
``privonline check --kind`` without any other edit."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import audit.kinds as registry
from audit.check import build_parser
from audit.cli import main as privonline_main
from audit.kinds import KINDS, by_name, default, names, registered
from audit.kinds.base import Kind

TOY_KIND = '''
"""A toy kind: a coin policy answers a vector of bits with noisy bits (randomised response)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from audit.kinds.base import Kind
from audit.methods.black_box import event_audit
from audit.methods.regret import paired_runs, paired_wilcoxon
from audit.protocols import NeighbouringPair


@runtime_checkable
class CoinPolicy(Protocol):
    def flip(self, bits: Any, rng: np.random.Generator) -> Any: ...


class Answers:
    """The policy's answers as a mechanism on bit vectors."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        return np.array([self.policy.flip(data, rng) for _ in range(size)], dtype=float)


@dataclass(frozen=True)
class CoinRegret:
    candidate_mean: float
    reference_mean: float
    wilcoxon_pvalue: float
    worse: bool

    @property
    def passed(self) -> bool:
        return not self.worse


class CoinKind(Kind):
    name = "coin"
    help = "a coin policy (flip(bits, rng) -> bits; errors vs randomised response)"
    protocol = CoinPolicy
    protocol_text = "a CoinPolicy (flip(bits, rng) -> bits)"
    default_horizon = 50
    claim_source = "one bit changed"
    privacy_label = "local DP"

    def candidates(self, settings: Any, seed: int) -> list[Any]:
        zeros = np.zeros(4)
        return [NeighbouringPair(zeros, np.eye(4)[i], "t_neighbouring", f"bit {i + 1}")
                for i in range(2)]

    def tester(self, policy: Any, claim: Any, settings: Any, name: str) -> Any:
        def at(level: float) -> Any:
            def test(pair: Any, samples: int, seed: int) -> Any:
                return event_audit(Answers(policy), pair, claim, samples=samples, seed=seed,
                                   name=f"{name}: {pair.description}", confidence=level)
            return test
        return at

    def regret(self, policy: Any, claim: Any, settings: Any, *, seed: int, name: str) -> Any:
        keep = np.exp(claim.epsilon) / (1.0 + np.exp(claim.epsilon))

        def run(i: int, gens: Any) -> tuple[float, float]:
            bits = (gens["environment"].random(settings.n) < 0.5).astype(float)
            errors = float(np.sum(policy.flip(bits, gens["candidate"]) != bits))
            return errors, float(np.sum(gens["reference"].random(settings.n) > keep))

        mine, reference = paired_runs(run, runs=settings.runs, seed=seed,
                                      streams=("environment", "candidate", "reference"))
        p, worse = paired_wilcoxon(mine, reference, confidence=settings.confidence)
        return CoinRegret(float(mine.mean()), float(reference.mean()), p, worse)

    def regret_rows(self, result: Any) -> list[str]:
        return [f"| errors vs randomised response | {result.candidate_mean:.1f} vs "
                f"{result.reference_mean:.1f} | {'**WORSE**' if result.worse else 'pass'} |"]


KIND = CoinKind()
'''

TOY_TARGETS = """
import numpy as np


class RandomisedResponse:
    def __init__(self, epsilon=1.0):
        self.keep = np.exp(epsilon) / (1.0 + np.exp(epsilon))

    def flip(self, bits, rng):
        bits = np.asarray(bits, dtype=float)
        return np.where(rng.random(bits.shape) < self.keep, bits, 1.0 - bits)


class Honest:
    def flip(self, bits, rng):
        return np.asarray(bits, dtype=float)
"""


def test_the_registry_lists_every_kind_module_once() -> None:
    assert len(set(KINDS)) == len(KINDS) and len(set(names())) == len(names())
    folder = Path(registry.__file__).parent
    shared = {"__init__", "base", "online"}  # what the kinds share, not kinds
    modules = sorted(f"audit.kinds.{p.stem}" for p in folder.glob("*.py") if p.stem not in shared)
    assert sorted(KINDS) == modules
    for kind in registered():
        assert by_name(kind.name) is kind and kind.help and kind.protocol_text
        assert kind.takes_pair or kind.claim_source
        assert not kind.references or kind.default_reference in kind.references
    assert default(pair=False).name == "linear" and default(pair=True).name == "mechanism"


def test_an_unknown_kind_names_the_choices() -> None:
    with pytest.raises(ValueError, match="kind must be one of 'linear', 'multi_armed'"):
        by_name("nope")


def test_the_command_line_lists_the_registry() -> None:
    kind = next(a for a in build_parser()._actions if a.dest == "kind")
    assert tuple(kind.choices or ()) == names()
    for registered_kind in registered():
        assert registered_kind.help in (kind.help or "")


@pytest.fixture
def toy_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Kind]:
    (tmp_path / "toy_coin_kind.py").write_text(textwrap.dedent(TOY_KIND))
    (tmp_path / "toy_coin_targets.py").write_text(textwrap.dedent(TOY_TARGETS))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "KINDS", (*KINDS, "toy_coin_kind"))
    yield by_name("coin")
    for name in [m for m in sys.modules if m.startswith("toy_coin")]:
        del sys.modules[name]


def test_a_registered_toy_kind_is_checked(toy_kind: Kind, tmp_path: Path) -> None:
    base = ["check", "--kind", "coin", "--path", str(tmp_path), "--epsilon", "1", "--delta", "0"]
    base += ["--stream-runs", "2000", "--runs", "4"]
    good = privonline_main([*base[:1], "toy_coin_targets:RandomisedResponse", *base[1:],
                            "--out", str(tmp_path / "good")])  # fmt: skip
    report = json.loads((tmp_path / "good" / "check.json").read_text())
    assert good in (0, 5) and report["privacy_verdict"] in ("pass", "inconclusive")
    assert report["claim"]["label"] == "claimed (ε, δ) under 't_neighbouring' (one bit changed)"
    assert report["privacy"]["name"].startswith("toy_coin_targets:RandomisedResponse local DP")
    assert report["regret"]["passed"] and report["utility_verdict"] == "pass"
    assert "| errors vs randomised response |" in (tmp_path / "good" / "check.md").read_text()
    leaky = privonline_main([*base[:1], "toy_coin_targets:Honest", *base[1:],
                             "--out", str(tmp_path / "leaky")])  # fmt: skip
    assert leaky == 1
    assert json.loads((tmp_path / "leaky" / "check.json").read_text())["privacy"]["violation"]
