"""The case runner, name-keyed seeds and the family-wise strategies.

Known-good and broken cases (a Gaussian mechanism at its exact guarantee, and with half the noise),
the property that a case's draws follow its name and nothing else, and the false-alarm rate of
each strategy measured by simulation next to its nominal level.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Sequence

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from audit.cases import AuditCase, AuditResult, case_seed, run_case_groups, run_cases
from audit.familywise import P_FLOOR, Bonferroni, FamilyWise, Holm, PerTest
from audit.methods.binomial import RunAuditResult
from audit.methods.white_box import gaussian_losses, privacy_loss_audit
from audit.protocols import PrivacyClaim
from audit.results import PrivacyAuditResult
from reference.accounting import gaussian_epsilon
from reference.rng import child_seeds, named_seed, seed_for

MU = 0.5  # correct Gaussian mechanism: L ~ N(mu^2/2, mu^2)
DELTA = 1e-3
EXACT = PrivacyClaim(
    gaussian_epsilon(DELTA, mu=MU), DELTA, "replace_one", "exact (correct mechanism)"
)


def _gaussian_case(name: str, mu: float, role: str, bug: str | None) -> AuditCase:
    def run(seed: np.random.SeedSequence) -> Sequence[AuditResult]:
        rng_p, rng_q = (np.random.default_rng(s) for s in seed.spawn(2))
        losses_p, losses_q = gaussian_losses(rng_p, 50_000, mu), gaussian_losses(rng_q, 50_000, mu)
        return [
            privacy_loss_audit(
                losses_p, losses_q, EXACT, name=f"{name} vs exact", mechanism=f"mu={mu}"
            )
        ]

    return AuditCase(name, role, run, bug)  # type: ignore[arg-type]


def _accuracy_case(name: str, ratio: float) -> AuditCase:
    def run(seed: np.random.SeedSequence) -> Sequence[AuditResult]:
        rng = np.random.default_rng(seed)
        ratios = rng.uniform(0.0, ratio, size=200)
        return [
            RunAuditResult.from_ratios(
                f"{name}/event", {"x": ratios}, 0.05, confidence=0.99, seed=0, started=0.0
            )
        ]

    return AuditCase(name, "correct", run)


CASES = [
    _gaussian_case("gaussian", MU, "correct", None),
    _gaussian_case("gaussian_half_noise", 2 * MU, "broken", "half the noise"),
    _accuracy_case("event", 1.0),
]


def test_known_good_passes_and_the_broken_case_is_caught() -> None:
    report = run_cases(CASES, seed=7, strategy=Holm(0.05))
    assert report.false_alarms == [] and report.missed == []
    assert report.bugs() == {"half the noise": True}
    assert report.verdict == "pass"
    rows = {r.case: r for r in report.rows}
    assert rows["gaussian"].in_family and not rows["gaussian_half_noise"].in_family
    assert not rows["event"].in_family  # accuracy tests are judged at their own level
    data = report.to_dict()
    assert data["family_wise"] == {"method": "holm", "alpha": 0.05} and "schema_version" in data


def test_a_missed_bug_and_a_false_alarm_fail_the_run() -> None:
    hidden = _gaussian_case("no_bug_really", MU, "broken", "not a bug")  # same as correct
    false = _gaussian_case("too_strong_claim", 2 * MU, "correct", None)
    report = run_cases([hidden, false], seed=7, strategy=Holm(0.05))
    assert report.missed == ["not a bug"]
    assert report.false_alarms == ["too_strong_claim: too_strong_claim vs exact"]
    assert report.verdict == "FAIL"


def test_a_case_draws_depend_on_its_name_only() -> None:
    """Adding, removing or reordering cases leaves every other case's draws unchanged."""
    alone = run_cases(CASES[:1], seed=11, strategy=Holm(0.05)).rows[0].result
    crowd = run_cases([*reversed(CASES)], seed=11, strategy=Holm(0.05))
    again = next(r.result for r in crowd.rows if r.case == "gaussian")
    assert isinstance(alone, PrivacyAuditResult) and isinstance(again, PrivacyAuditResult)
    assert alone.p_value == again.p_value and alone.epsilon_lower_bound == again.epsilon_lower_bound


def test_named_seed_rule() -> None:
    a, b = named_seed(3, "alpha"), named_seed(3, "beta")
    assert named_seed(3, "alpha").generate_state(4).tolist() == a.generate_state(4).tolist()
    assert a.generate_state(4).tolist() != b.generate_state(4).tolist()
    positional = {tuple(s.generate_state(4)) for s in child_seeds(3, 0, 64)}
    assert tuple(a.generate_state(4)) not in positional
    # the rule is pinned: changing it moves every audit's draws, so it must be deliberate
    assert a.spawn_key == (2918634382, 2660588392, 1361211565, 1828133518)
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        named_seed(3, "")


def test_case_names_must_be_distinct_and_roles_consistent() -> None:
    with pytest.raises(ValueError, match="distinct"):
        run_cases([CASES[0], CASES[0]], seed=1, strategy=Holm(0.05))
    with pytest.raises(ValueError, match="strategy must be a FamilyWise strategy"):
        run_cases(CASES[:1], seed=1, strategy="holm")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bug must be None for a correct case"):
        AuditCase("x", "correct", CASES[0].run, bug="b")
    with pytest.raises(ValueError, match="role"):
        AuditCase("x", "wrong", CASES[0].run)  # type: ignore[arg-type]


def test_strategies_match_their_definitions() -> None:
    p = [0.001, 0.01, 0.02, 0.04, 0.3]
    reference = multipletests(p, alpha=0.05, method="holm")
    assert Holm(0.05).reject(p) == list(reference[0])
    assert Holm(0.05).decide(p).adjusted == list(reference[1])
    assert Bonferroni(0.05).decide(p).adjusted == [0.005, 0.05, 0.1, 0.2, 1.0]
    assert Bonferroni(0.05).reject(p) == [True, True, False, False, False]  # alpha/m = 0.01
    assert PerTest(0.05).reject(p) == [True, True, True, True, False]
    assert Holm(0.05).reject([0.0]) == [True] and Holm(0.05).reject([]) == []
    assert P_FLOOR > 0
    for bad in ([math.nan], [1.5], [-0.1]):
        with pytest.raises(ValueError, match="pvalues must lie in"):
            Holm(0.05).reject(bad)
    with pytest.raises(ValueError, match="alpha"):
        Holm(1.5)


@pytest.mark.parametrize(("strategy", "bound"), [(Holm(0.05), 0.05), (Bonferroni(0.05), 0.05)])
def test_family_wise_false_alarm_rate_by_simulation(
    strategy: FamilyWise, bound: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the null (10 independent uniform p-values), the rate of families with any rejection
    is measured over 20,000 families and must not exceed the nominal level beyond its sampling
    error (3 standard errors).  Measured at this seed: 0.0482 for both (Holm rejects something
    exactly when Bonferroni does); with no correction (:class:`PerTest`) it is 0.408, near
    ``1 − 0.95¹⁰ = 0.401``."""
    # statsmodels' multipletests runs gc.collect() on every call (45 ms here); a battery calls it
    # once, this simulation 20,000 times, so the collection is skipped for the simulation only
    monkeypatch.setattr(gc, "collect", lambda *a: 0)
    rng = np.random.default_rng(2026)
    families = 20_000
    alarms = sum(any(strategy.reject(list(rng.uniform(size=10)))) for _ in range(families))
    rate = alarms / families
    assert rate <= bound + 3 * math.sqrt(bound * (1 - bound) / families)
    assert rate >= bound / 2  # and the strategy is not vacuous


def test_case_seed_is_the_integer_seed_of_the_name() -> None:
    root = 2026
    for name in ("gaussian", "dp_nas/A_drawn_once", "ctl_correct/worst_case/white_box"):
        assert case_seed(named_seed(root, name)) == seed_for(root, name)
    with pytest.raises(ValueError, match="seed must be a numpy SeedSequence"):
        case_seed(7)  # type: ignore[arg-type]


def test_case_groups_share_one_family_and_name_their_roots() -> None:
    groups = {"paper_a": CASES[:1], "paper_b": [*CASES[:1], CASES[2]]}
    reports = run_case_groups(groups, seed=11, strategy=Bonferroni(0.05))
    assert list(reports) == ["paper_a", "paper_b"]
    for group, report in reports.items():
        # each group's draws are those of run_cases from the group's named root
        alone = run_cases(groups[group], seed=seed_for(11, group), strategy=PerTest(0.05))
        assert report.seed == seed_for(11, group)
        assert [r.p_value for r in report.rows] == [r.p_value for r in alone.rows]
        for row in report.rows:
            if row.in_family:
                # one family of 2 correct privacy tests across the groups
                assert row.p_value is not None and row.adjusted_p_value is not None
                assert row.adjusted_p_value == pytest.approx(
                    min(1.0, 2 * max(row.p_value, P_FLOOR))
                )
            else:
                assert row.adjusted_p_value is None
