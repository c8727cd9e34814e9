"""What the audits accept from the code under test: nothing is computed from NaN, infinite, short,
out-of-range or mislabelled input; each case gets a ``ValueError`` naming what was wrong.

Every case here used to be accepted: a NaN-output noise-free mechanism passed the black box with
``ε_LB = -inf`` (and ``privonline check`` exited 0), actions shifted by +100 let a noiseless LinUCB
pass the stream audit, 2-D losses were flattened, and a replace-one claim was audited on add/remove
neighbours (the command line rewrote the claim's relation silently).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audit import check
from audit.methods.billboard import billboard_audit
from audit.methods.black_box import event_audit, event_audit_from_samples
from audit.methods.designs import LINEAR_GRID
from audit.methods.stream import Algorithm1Policy, stream_audit, worst_case_streams
from audit.methods.white_box import privacy_loss_audit, white_box_audit
from audit.protocols import NeighbouringPair, PrivacyClaim, check_actions
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

    class GlobalLaplaceCount:
        # draws from numpy's global generator, ignoring the one it is given
        def sample(self, data, rng, size):
            return float(np.sum(data)) + np.random.laplace(0.0, 1.0, size=(size, 1))

    class LaplaceCount:
        def __init__(self, epsilon=1.0):
            self.scale = 1.0 / epsilon

        def sample(self, data, rng, size):
            return float(np.sum(data)) + rng.laplace(0.0, self.scale, size=(size, 1))

    pair = NeighbouringPair(np.array([1, 0, 1]), np.array([1, 1, 1]), "add_remove")
"""


def test_check_reports_a_nan_mechanism_as_a_failed_target_with_exit_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # NaN outputs are the target's failure, not the user's: exit 4, the refusal in the report
    _module(tmp_path, MODULE)
    argv = ["outside_code:NanCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
    argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "2000"]
    argv += ["--out", str(tmp_path / "out")]
    assert check.main(argv) == 4
    assert "NaN" in capsys.readouterr().err
    report = json.loads((tmp_path / "out" / "check.json").read_text())
    assert report["verdict"] == "CRASHED" and report["privacy"] is None
    assert "NaN" in report["crash"] and "Traceback" in report["crash"]
    assert "## The target crashed" in (tmp_path / "out" / "check.md").read_text()


CRASHING = """
    import numpy as np

    class CrashingPolicy:
        def run(self, decision_sets, reward_tables, rng):
            raise RuntimeError("horizon must be given at construction")

    crashing = CrashingPolicy()
"""


def test_check_keeps_the_traceback_of_a_policy_that_raises(tmp_path: Path) -> None:
    (tmp_path / "outside_crash.py").write_text(textwrap.dedent(CRASHING))
    argv = ["outside_crash:crashing", "--path", str(tmp_path), "--epsilon", "1"]
    argv += ["--delta", "0.1", "--out", str(tmp_path / "out")]
    assert check.main(argv) == 4
    report = json.loads((tmp_path / "out" / "check.json").read_text())
    assert report["exit_code"] == 4 and "RuntimeError: horizon must be given" in report["crash"]


UCB1 = """
    import numpy as np

    class UCB1:
        # a non-private multi-armed bandit: it reads rewards only, never the contexts
        def run(self, decision_sets, reward_tables, rng):
            k = len(decision_sets[0])
            pulls, sums = np.zeros(k), np.zeros(k)
            actions = []
            for day, (arms, rewards) in enumerate(zip(decision_sets, reward_tables), start=1):
                m = len(arms)
                if np.any(pulls[:m] == 0):
                    a = int(np.argmin(pulls[:m]))
                else:
                    a = int(np.argmax(sums[:m] / pulls[:m] + np.sqrt(2 * np.log(day) / pulls[:m])))
                pulls[a] += 1
                sums[a] += rewards[a]
                actions.append(a)
            return np.array(actions)

    ucb1 = UCB1()
"""


def test_a_non_private_multi_armed_bandit_fails_the_policy_check(tmp_path: Path) -> None:
    # it never reads the contexts, so streams that change only a day's contexts cannot show its
    # leak (it used to pass); the designs that change a day's reward catch it
    (tmp_path / "outside_ucb.py").write_text(textwrap.dedent(UCB1))
    argv = ["outside_ucb:ucb1", "--path", str(tmp_path), "--epsilon", "1", "--delta", "0.1"]
    argv += ["--stream-runs", "200", "--runs", "4", "--out", str(tmp_path / "out")]
    assert check.main(argv) == 1
    report = json.loads((tmp_path / "out" / "check.json").read_text())
    search = report["privacy"]["details"]["search"]
    designs = sum(len(horizons) for _, horizons in LINEAR_GRID)
    assert len(search["screened"]) == designs and "reward" in report["privacy"]["name"]


def test_a_target_drawing_from_the_global_generator_gives_the_same_report_twice(
    tmp_path: Path,
) -> None:
    _module(tmp_path, MODULE)
    bounds = []
    for run in ("a", "b"):
        argv = ["outside_code:GlobalLaplaceCount", "--pair", "outside_code:pair"]
        argv += ["--path", str(tmp_path), "--epsilon", "1", "--delta", "0.001"]
        argv += ["--samples", "20000", "--out", str(tmp_path / run)]
        assert check.main(argv) == 0
        report = json.loads((tmp_path / run / "check.json").read_text())
        bounds.append(report["privacy"]["epsilon_lower_bound"])
    assert bounds[0] == bounds[1]


POSITIVE = """
    import numpy as np

    class PositiveRewardsOnly:
        # a linear policy that insists on rewards in [0, 1], as many public ones do
        def run(self, decision_sets, reward_tables, rng):
            for rewards in reward_tables:
                if np.min(rewards) < 0.0 or np.max(rewards) > 1.0:
                    raise ValueError("rewards must lie in [0, 1]")
            return rng.integers(0, [len(arms) for arms in decision_sets])

    positive = PositiveRewardsOnly()
"""


@pytest.mark.parametrize(("extra", "code"), [([], 4), (["--reward-range", "0,1"], 5)])
def test_reward_range_rescales_what_a_linear_policy_sees(
    tmp_path: Path, extra: list[str], code: int
) -> None:
    (tmp_path / "outside_positive.py").write_text(textwrap.dedent(POSITIVE))
    argv = ["outside_positive:positive", "--path", str(tmp_path), "--epsilon", "1"]
    argv += ["--delta", "0.1", "--stream-runs", "40", "--runs", "2", "--n", "30"]
    result = check.main([*argv, *extra, "--out", str(tmp_path / "out")])
    # rescaled, the random policy runs: its privacy passes (0) or is inconclusive (5) with a
    # small budget, and its regret may lose (3); it never crashes
    assert result == code if code == 4 else result in (0, 3, 5)
    if code == 4:
        crash = json.loads((tmp_path / "out" / "check.json").read_text())["crash"]
        assert "rewards must lie in [0, 1]" in crash


@pytest.mark.parametrize("value", ["1", "0,1,2", "1,0", "a,b", "0,inf"])
def test_reward_range_is_checked_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    argv = ["examples.good_policy:policy", "--path", str(Path(__file__).resolve().parents[2])]
    argv += ["--epsilon", "1", "--delta", "0.1", "--reward-range", value]
    assert check.main([*argv, "--out", str(tmp_path / "out")]) == 2
    assert "--reward-range must be" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("target", "kwargs", "message"),
    [
        ("outside_code:LaplaceCount", '{"eps": 1}', "cannot be constructed with --target-kwargs"),
        ("outside_code:LaplaceCount", "[1]", "--target-kwargs must be a JSON object"),
        ("outside_code:LaplaceCount", "{epsilon: 1}", "--target-kwargs must be a JSON object"),
        ("outside_code:pair", '{"epsilon": 1}', "already an instance"),
    ],
)
def test_target_kwargs_are_checked_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str, kwargs: str, message: str
) -> None:
    _module(tmp_path, MODULE)
    argv = [target, "--pair", "outside_code:pair", "--path", str(tmp_path), "--epsilon", "1"]
    argv += ["--delta", "0.001", "--target-kwargs", kwargs, "--out", str(tmp_path / "out")]
    assert check.main(argv) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out" / "check.json").exists()


def test_target_kwargs_build_the_class(tmp_path: Path) -> None:
    # a Laplace count built with ε = 1 against a claim of ε = 1: a pass; built with ε = 4
    # against the same claim: the violation is found
    _module(tmp_path, MODULE)
    for built, code in (("1", 0), ("4", 1)):
        argv = ["outside_code:LaplaceCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
        argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "20000"]
        argv += ["--target-kwargs", f'{{"epsilon": {built}}}', "--out", str(tmp_path / built)]
        assert check.main(argv) == code


def test_check_instantiates_a_class_and_audits_under_the_pairs_relation(tmp_path: Path) -> None:
    _module(tmp_path, MODULE)
    argv = ["outside_code:LaplaceCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
    argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "20000"]
    argv += ["--out", str(tmp_path / "out")]
    assert check.main(argv) == 0
    report = (tmp_path / "out" / "check.json").read_text()
    assert '"relation": "add_remove"' in report


# ------------------------------------------------------------------------------------------------
# Each side named, one output space, nothing computed from a malformed sample
# ------------------------------------------------------------------------------------------------


class _SideMech(_Mech):
    """Corrupts only the outputs drawn under ``x'`` (data summing to 1)."""

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        out = super().sample(data, rng, size)
        if float(np.sum(data)) < 0.5:
            return out
        if self.corrupt == "nan_prime":
            out[:3] = np.nan
        elif self.corrupt == "wide_prime":
            out = np.hstack([out, out])
        return out


def test_the_white_box_names_the_side_of_a_nan_output() -> None:
    with pytest.raises(ValueError, match=r"outputs under x' contain 3 NaN values"):
        white_box_audit(_SideMech("nan_prime"), PAIR, CLAIM, samples=1000, seed=1)
    with pytest.raises(ValueError, match=r"outputs under x' contain 3 NaN values"):
        event_audit(_SideMech("nan_prime"), PAIR, CLAIM, samples=1000, seed=1)


def test_outputs_of_another_shape_under_x_prime_are_refused() -> None:
    # (size, 1) under x against (size, 2) under x': used to be read through the first column
    match = r"outputs under x and outputs under x' must have the same shape per output"
    with pytest.raises(ValueError, match=match):
        event_audit(_SideMech("wide_prime"), PAIR, CLAIM, samples=1000, seed=1)
    with pytest.raises(ValueError, match=match):
        white_box_audit(_SideMech("wide_prime"), PAIR, CLAIM, samples=1000, seed=1)
    with pytest.raises(ValueError, match=match):
        event_audit_from_samples(
            np.zeros((100, 1)), np.zeros((100, 2)), CLAIM, name="n", mechanism="m"
        )
    with pytest.raises(ValueError, match=r"features under x and features under x'"):
        event_audit_from_samples(
            np.ones((100, 2)),
            np.zeros((100, 2)),
            CLAIM,
            name="n",
            mechanism="m",
            features=lambda o: o if o.sum() > 0 else o[:, 0],
        )


@pytest.mark.parametrize(
    ("outputs", "match"),
    [
        (np.zeros((0, 1)), r"outputs under x must hold at least one output"),
        ([[1.0], [1.0, 2.0]], r"outputs under x must be a numeric array"),
        (np.array([["a"]] * 10), r"outputs under x must be a numeric array"),
    ],
)
def test_empty_ragged_or_text_samples_are_named(outputs: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        event_audit_from_samples(outputs, np.zeros((10, 1)), CLAIM, name="n", mechanism="m")


class _BadDensity(_Mech):
    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        dens = super().log_density(data, outputs)
        generating = float(np.sum(data)) < 0.5  # x's density, at x's own outputs first
        if self.corrupt == "posinf_other" and not generating:
            dens[:2] = np.inf
        if self.corrupt == "nan_other" and not generating:
            dens[:4] = np.nan
        if self.corrupt == "text":
            return np.array(["a"] * len(dens))
        return dens


@pytest.mark.parametrize(
    ("how", "match"),
    [
        ("posinf_other", r"log_density under x' at the outputs drawn under x contain 2 \+inf"),
        ("nan_other", r"log_density under x' at the outputs drawn under x contain 4 NaN"),
        ("text", r"log_density under x at the outputs drawn under x must be a numeric array"),
    ],
)
def test_log_density_refusals_name_the_input_and_the_outputs(how: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        white_box_audit(_BadDensity(how), PAIR, CLAIM, samples=100, seed=1)


@pytest.mark.parametrize(
    ("losses", "match"),
    [
        (np.array(["a", "b"]), "losses_p must be a numeric 1-D array"),
        (np.zeros(1), "at least 2 losses"),
    ],
)
def test_privacy_loss_audit_names_text_or_single_losses(losses: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        privacy_loss_audit(losses, np.zeros(100), CLAIM, name="n", mechanism="m")


@pytest.mark.parametrize(
    "grid",
    [np.array([0.0, np.nan]), np.array([-1.0, 0.5]), np.array([np.inf]), np.zeros((2, 2)), []],
)
def test_the_epsilon_grid_is_checked(grid: Any) -> None:
    # a negative grid point used to be reported as the epsilon lower bound (-1.0)
    with pytest.raises(ValueError, match="epsilons must be"):
        privacy_loss_audit(
            np.zeros(100), np.zeros(100), CLAIM, name="n", mechanism="m", epsilons=grid
        )
    with pytest.raises(ValueError, match="epsilons must be"):
        white_box_audit(_Explodes(), PAIR, CLAIM, samples=100, seed=1, epsilons=grid)


class _Explodes(_Mech):
    """A mechanism that must never be sampled (arguments are checked first)."""

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        raise AssertionError("sampled before the arguments were checked")


@pytest.mark.parametrize("seed", [None, -1, 1.5, True, np.random.SeedSequence(1)])
def test_seeds_are_checked_before_anything_is_drawn(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed"):
        event_audit(_Explodes(), PAIR, CLAIM, samples=100, seed=seed)
    with pytest.raises(ValueError, match="seed"):
        white_box_audit(_Explodes(), PAIR, CLAIM, samples=100, seed=seed)
    with pytest.raises(ValueError, match="seed"):
        billboard_audit(_exploding_tree, n=8, replicates=10, seed=seed)


def test_confidence_is_checked_before_anything_is_drawn() -> None:
    with pytest.raises(ValueError, match="confidence"):
        event_audit(_Explodes(), PAIR, CLAIM, samples=100, seed=1, confidence=1.5)
    with pytest.raises(ValueError, match="confidence"):
        white_box_audit(_Explodes(), PAIR, CLAIM, samples=100, seed=1, confidence=1.5)
    with pytest.raises(ValueError, match="confidence"):
        billboard_audit(_exploding_tree, n=8, replicates=10, seed=1, confidence=1.5)


def _exploding_tree(*args: Any) -> Any:
    raise AssertionError("simulated before the arguments were checked")


def test_billboard_needs_a_later_release_containing_leaf_t() -> None:
    # t = n used to divide by zero (no release contains leaf n)
    with pytest.raises(ValueError, match=r"t must be in \[1, n - 1\] = \[1, 7\]"):
        billboard_audit(_exploding_tree, n=8, t=8, replicates=10, seed=1)
    with pytest.raises(ValueError, match="replicates must be an integer >= 2"):
        billboard_audit(_exploding_tree, n=8, replicates=1, seed=1)


def test_reports_record_the_seed_as_a_plain_integer_or_none_for_caller_samples() -> None:
    seed: Any = np.int64(3)  # a numpy integer seed, recorded as a plain int
    result = event_audit(_Mech(), PAIR, CLAIM, samples=200, seed=seed)
    assert result.seed == 3 and type(result.seed) is int
    good = np.random.default_rng(0).normal(size=(200, 1))
    # None: the caller drew the samples; recorded as such
    assert event_audit_from_samples(good, good, CLAIM, name="n", mechanism="m").seed is None
    losses = np.zeros(100)
    assert privacy_loss_audit(losses, losses, CLAIM, name="n", mechanism="m").seed is None


class _Tampered2(_Tampered):
    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        actions = np.asarray(self.inner.run(decision_sets, reward_tables, rng), dtype=float)
        if self.how == "inf":
            actions[4] = np.inf
        elif self.how == "huge":
            actions[5] = 1e30  # an exact integer far outside [0, K): must not wrap around
        elif self.how == "ragged":
            return [0, [1, 2]] + [0] * (len(actions) - 2)
        elif self.how == "exact_floats":
            pass
        return actions


@pytest.mark.parametrize(
    ("how", "match"),
    [
        ("inf", r"returned on run 1 contain 1 \+inf values"),
        ("huge", r"the action of day 6 must be in \[0, 2\) \(the arms of that day\), got 1e\+30"),
        ("ragged", r"must be an array of shape \(8,\)"),
    ],
)
def test_more_invalid_actions_are_named(how: str, match: str) -> None:
    s, sp = worst_case_streams(8, 1)
    with pytest.raises(ValueError, match=match):
        stream_audit(_Tampered2(how), s, sp, 1, STREAM_CLAIM, runs=8, seed=0)


def test_exact_integer_float_actions_audit_as_their_integers() -> None:
    s, sp = worst_case_streams(8, 1)
    floats = stream_audit(_Tampered2("exact_floats"), s, sp, 1, STREAM_CLAIM, runs=200, seed=0)
    ints = stream_audit(_Tampered("none"), s, sp, 1, STREAM_CLAIM, runs=200, seed=0)
    assert floats.epsilon_lower_bound == ints.epsilon_lower_bound and floats.violation


def test_run_check_refuses_a_claim_under_another_relation_instead_of_rewriting_it(
    tmp_path: Path,
) -> None:
    _module(tmp_path, MODULE)
    with pytest.raises(ValueError, match=r"claim\.relation must equal pair\.relation"):
        check.run_check(
            "outside_code:LaplaceCount",
            CLAIM,  # replace_one, but the pair are add/remove neighbours
            paths=[str(tmp_path)],
            pair="outside_code:pair",
            samples=1000,
        )


def test_check_states_the_relation_it_built_the_claim_under(tmp_path: Path) -> None:
    _module(tmp_path, MODULE)
    argv = ["outside_code:LaplaceCount", "--pair", "outside_code:pair", "--path", str(tmp_path)]
    argv += ["--epsilon", "1", "--delta", "0.001", "--samples", "2000"]
    argv += ["--out", str(tmp_path / "out")]
    assert check.main(argv) in (0, 1)
    label = "claimed (ε, δ) under 'add_remove' (the relation of --pair outside_code:pair)"
    assert json.loads((tmp_path / "out" / "check.json").read_text())["claim"]["label"] == label
    assert f"Claim: {label}." in (tmp_path / "out" / "check.md").read_text()


def test_check_refuses_a_pair_for_a_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a t-neighbouring pair used to be ignored silently, another relation gave a confusing error
    body = MODULE + "\n    tpair = NeighbouringPair(1, 2, 't_neighbouring')\n"
    (tmp_path / "outside_pairs.py").write_text(textwrap.dedent(body))
    repo = str(Path(__file__).resolve().parents[2])
    for pair in ("outside_pairs:pair", "outside_pairs:tpair"):
        argv = ["examples.good_policy:policy", "--pair", pair, "--path", str(tmp_path)]
        argv += ["--path", repo, "--epsilon", "1", "--delta", "0.1"]
        argv += ["--out", str(tmp_path / "out")]
        assert check.main(argv) == 2
        assert "pair (--pair) is for mechanisms only" in capsys.readouterr().err
