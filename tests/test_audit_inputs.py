"""What the audits accept from the code under test: nothing is computed from NaN, infinite, short,
out-of-range or mislabelled input; each case gets a ``ValueError`` naming what was wrong.

Every case here used to be accepted: a NaN-output noise-free mechanism passed the black box with
``ε_LB = -inf`` (and ``privonline check`` exited 0), actions shifted by +100 let a noiseless LinUCB
pass the stream audit, 2-D losses were flattened, and a replace-one claim was audited on add/remove
neighbours (the command line rewrote the claim's relation silently).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audit import check
from audit.blackbox import event_audit, event_audit_from_samples
from audit.exact import privacy_loss_audit, white_box_audit
from audit.protocols import NeighbouringPair, PrivacyClaim, check_actions
from audit.stream import Algorithm1Policy, stream_audit, worst_case_streams
from reference._typing import FloatArray, IntArray
from reference.shariff_sheffet import ProblemConstants, make_policy

PAIR = NeighbouringPair(np.array([0.0]), np.array([1.0]), "replace_one")
CLAIM = PrivacyClaim(1.0, 1e-3, "replace_one")


class _Mech:
    """A counting mechanism whose outputs can be corrupted on purpose."""

    def __init__(self, corrupt: str = "", scale: float = 1.0) -> None:
        self.corrupt = corrupt
        self.scale = scale

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        out = float(np.sum(data)) + self.scale * rng.laplace(size=(size, 1))
        if self.corrupt == "nan":
            out[::7] = np.nan
        elif self.corrupt == "allnan":
            out[:] = np.nan
        elif self.corrupt == "inf":
            out[3] = np.inf
        elif self.corrupt == "short":
            out = out[:-1]
        return out

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        dens = -np.abs(outputs[:, 0] - float(np.sum(data))) / self.scale
        if self.corrupt == "nan_density":
            dens[::5] = np.nan
        return dens


@pytest.mark.parametrize("corrupt", ["nan", "allnan", "inf", "short"])
def test_black_and_white_box_refuse_corrupt_outputs(corrupt: str) -> None:
    with pytest.raises(ValueError, match="outputs"):
        event_audit(_Mech(corrupt), PAIR, CLAIM, samples=1000, seed=1)
    with pytest.raises(ValueError, match="outputs"):
        white_box_audit(_Mech(corrupt), PAIR, CLAIM, samples=1000, seed=1)


def test_white_box_refuses_a_nan_density() -> None:
    with pytest.raises(ValueError, match="log_density"):
        white_box_audit(_Mech("nan_density"), PAIR, CLAIM, samples=1000, seed=1)


def test_a_noise_free_nan_mechanism_is_refused_not_passed() -> None:
    outputs = np.full((2000, 1), np.nan)
    with pytest.raises(ValueError, match=r"outputs under x contain 2000 NaN"):
        event_audit_from_samples(outputs, outputs.copy(), CLAIM, name="n", mechanism="m")
    good = np.zeros((2000, 1))
    with pytest.raises(ValueError, match=r"features under x contain 2000 NaN"):
        event_audit_from_samples(
            good, good, CLAIM, name="n", mechanism="m", features=lambda o: o * np.nan
        )


@pytest.mark.parametrize(
    ("losses", "match"),
    [
        (np.zeros((100, 2)), "1-D"),
        (np.zeros(0), "non-empty"),
        (np.array([0.1, np.nan, 0.2]), "NaN"),
        (np.array([0.1, -np.inf, 0.2]), "-inf"),
    ],
)
def test_privacy_loss_audit_refuses_malformed_losses(losses: FloatArray, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        privacy_loss_audit(losses, np.zeros(100), CLAIM, name="n", mechanism="m")
    # +inf losses (outputs impossible under the other input) remain valid evidence
    result = privacy_loss_audit(np.full(100, np.inf), np.zeros(100), CLAIM, name="n", mechanism="m")
    assert result.violation


def test_claim_and_pair_relations_must_agree() -> None:
    claim = PrivacyClaim(1.0, 1e-3, "add_remove")
    with pytest.raises(ValueError, match=r"claim\.relation must equal pair\.relation"):
        white_box_audit(_Mech(), PAIR, claim, samples=1000, seed=1)
    with pytest.raises(ValueError, match=r"claim\.relation must equal pair\.relation"):
        event_audit(_Mech(), PAIR, claim, samples=1000, seed=1)


@pytest.mark.parametrize("seed", [None, -1, 1.5, True])
def test_audit_seeds_follow_the_one_seed_rule(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed"):
        event_audit(_Mech(), PAIR, CLAIM, samples=1000, seed=seed)
    with pytest.raises(ValueError, match="seed"):
        white_box_audit(_Mech(), PAIR, CLAIM, samples=1000, seed=seed)


def _noiseless(n: int, rng: np.random.Generator) -> Any:
    return make_policy("nonprivate", ProblemConstants(d=2), n, 1.0 / n, rng, None)


class _Tampered:
    """Algorithm 1 without noise, with its actions corrupted on the way out."""

    def __init__(self, how: str) -> None:
        self.inner = Algorithm1Policy(_noiseless, "noiseless")
        self.how = how

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        actions: IntArray = self.inner.run(decision_sets, reward_tables, rng)
        if self.how == "shift":
            return actions + 100
        if self.how == "short":
            return actions[:-1]
        if self.how == "fraction":
            return actions + 0.5
        if self.how == "nan":
            out = actions.astype(float)
            out[2] = np.nan
            return out
        if self.how == "negative":
            return actions - 1
        return actions


STREAM_CLAIM = PrivacyClaim(1.0, 0.1, "t_neighbouring")


@pytest.mark.parametrize(
    ("how", "match"),
    [
        ("shift", r"must be in \[0, "),
        ("short", "shape"),
        ("fraction", "non-integer"),
        ("nan", "NaN"),
        ("negative", r"must be in \[0, "),
    ],
)
def test_stream_audit_refuses_invalid_actions(how: str, match: str) -> None:
    s, sp = worst_case_streams(8, 1)
    with pytest.raises(ValueError, match=match):
        stream_audit(_Tampered(how), s, sp, 1, STREAM_CLAIM, runs=8, seed=0)


def test_stream_audit_still_catches_the_untampered_noiseless_policy() -> None:
    s, sp = worst_case_streams(8, 1)
    result = stream_audit(_Tampered("none"), s, sp, 1, STREAM_CLAIM, runs=200, seed=0)
    assert result.violation


def test_stream_audit_needs_a_t_neighbouring_claim() -> None:
    s, sp = worst_case_streams(8, 1)
    with pytest.raises(ValueError, match="t_neighbouring"):
        stream_audit(_Tampered("none"), s, sp, 1, CLAIM, runs=8, seed=0)


def test_check_actions_accepts_exact_integer_floats_and_refuses_bools() -> None:
    days = [np.zeros((3, 2))] * 4
    assert check_actions(np.array([0.0, 1.0, 2.0, 0.0]), days, "a").dtype == np.int64
    with pytest.raises(ValueError, match="integer arm indices"):
        check_actions(np.array([True, False, True, True]), days, "a")


def _module(tmp_path: Path, body: str) -> None:
    (tmp_path / "outside_code.py").write_text(textwrap.dedent(body))


MODULE = """
    import numpy as np
    from audit.protocols import NeighbouringPair

    class NanCount:
        def sample(self, data, rng, size):
            return np.full((size, 1), np.nan)

    class LaplaceCount:
        def __init__(self, epsilon=1.0):
            self.scale = 1.0 / epsilon

        def sample(self, data, rng, size):
            return float(np.sum(data)) + rng.laplace(0.0, self.scale, size=(size, 1))

    pair = NeighbouringPair(np.array([1, 0, 1]), np.array([1, 1, 1]), "add_remove")
"""


def test_check_refuses_a_nan_mechanism_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _module(tmp_path, MODULE)
    argv = ["outside_code:NanCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
    argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "2000"]
    argv += ["--out", str(tmp_path / "out")]
    assert check.main(argv) == 2
    assert "NaN" in capsys.readouterr().err


def test_check_instantiates_a_class_and_audits_under_the_pairs_relation(tmp_path: Path) -> None:
    _module(tmp_path, MODULE)
    argv = ["outside_code:LaplaceCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
    argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "20000"]
    argv += ["--out", str(tmp_path / "out")]
    assert check.main(argv) == 0
    report = (tmp_path / "out" / "check.json").read_text()
    assert '"relation": "add_remove"' in report
