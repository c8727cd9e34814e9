"""``privonline check`` on the worked third-party examples of the ``examples`` package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit import check, targets
from audit.cli import main as privonline_main

REPO = str(Path(__file__).resolve().parents[2])  # the folder that holds the examples package
CLAIM = ["--epsilon", "1", "--delta", "0.1", "--path", REPO]


def test_a_correct_third_party_policy_passes_and_says_what_was_tested(tmp_path: Path) -> None:
    # nothing fails, and the audited event (chosen for its power, as the data show no evidence)
    # would have caught a violation of at most twice the claimed epsilon: a pass (exit 0)
    code = privonline_main(["check", "examples.good_policy:policy", *CLAIM, "--out", str(tmp_path)])
    assert code == 0
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["verdict"] == "pass" and report["kind"] == "third_party_check"
    assert report["privacy_verdict"] == "pass" and report["utility_verdict"] == "pass"
    assert not report["privacy"]["violation"] and report["regret"]["passed"]
    assert report["privacy"]["detectable_epsilon"] <= 2.0
    assert report["privacy"]["details"]["chosen_for"] == "power"
    assert (tmp_path / "check.png").stat().st_size > 0


def test_too_few_stream_runs_are_inconclusive_never_a_pass(tmp_path: Path) -> None:
    # one stage of 40 runs per stream: no event could show a violation of 1.5 times the claim
    code = privonline_main(
        ["check", "examples.good_policy:policy", *CLAIM, "--stream-runs", "40", "--max-stages",
         "1", "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 5
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["verdict"] == report["privacy_verdict"] == "inconclusive"
    assert float(report["privacy"]["detectable_epsilon"]) > 1.5  # "inf" in JSON
    assert report["privacy"]["details"]["ended_by"] == "stages"


def test_a_planted_privacy_bug_fails_the_check(tmp_path: Path) -> None:
    # the privacy switch is ignored: no noise, ridge 1 -- the joint-DP audit rejects (1, 0.1)
    code = privonline_main(
        ["check", "examples.buggy_policy:policy", *CLAIM, "--out", str(tmp_path)]
    )
    assert code == 1
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["verdict"] == "PRIVACY VIOLATION" and report["privacy"]["violation"]
    assert report["privacy"]["epsilon_lower_bound"] > 2.0
    assert "**VIOLATION**" in (tmp_path / "check.md").read_text()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("no_colon", "target must be 'module:attribute'"),
        ("examples.missing_module:policy", "cannot be imported"),
        ("examples.good_policy:nothing", "has no attribute 'nothing'"),
        ("examples.good_policy:math", "must satisfy an audit.protocols.StreamPolicy"),
    ],
)
def test_bad_targets_are_reported(
    target: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert privonline_main(["check", target, *CLAIM]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("target", "code"), [("good", 0), ("buggy", 1)])
def test_third_party_mechanisms_are_checked_white_box(
    target: str, code: int, tmp_path: Path
) -> None:
    # σ = √(2 ln(1.25/δ)) meets (1, 1e-5); σ/4 has true δ(1) ≈ 0.27.  White box, 200k samples.
    args = ["check", f"examples.mechanisms:{target}", "--pair", "examples.mechanisms:pair"]
    assert (
        privonline_main(
            [*args, *CLAIM[:2], "--delta", "1e-5", "--path", REPO, "--out", str(tmp_path)]
        )
        == code
    )
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["privacy"]["method"] == "white_box" and report["regret"] is None
    assert report["claim"]["relation"] == "replace_one"


def test_a_mechanism_needs_a_pair(capsys: pytest.CaptureFixture[str]) -> None:
    assert privonline_main(["check", "examples.mechanisms:good", *CLAIM]) == 2
    assert "pass --pair module:attribute (a NeighbouringPair)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "value"), [("--epsilon", "nan"), ("--epsilon", "-1"), ("--delta", "2")]
)
def test_claim_flags_are_checked_when_the_command_line_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    argv = ["examples.good_policy:policy", "--path", REPO, "--epsilon", "1", "--delta", "0.1"]
    argv += [flag, value, "--out", str(tmp_path / "never")]
    with pytest.raises(SystemExit) as exc:
        check.main(argv)
    assert exc.value.code == 2
    assert f"argument {flag}" in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


def test_multi_armed_policies_are_checked_for_pure_epsilon_against_dp_se(tmp_path: Path) -> None:
    # a pure-ε claim is accepted for a multi-armed policy; DP-SE's first 8130 actions are a fixed
    # round robin, so its actions show nothing (inconclusive), but its first release (the epoch-1
    # noisy means, white box) passes: exit 0, with DP-SE's regret; non-private UCB1 is caught
    # through a changed reward (exit 1)
    base = ["--kind", "multi_armed", "--path", REPO, "--epsilon", "1", "--delta", "0"]
    base += ["--runs", "4", "--n", "3000"]
    good = privonline_main(
        ["check", "examples.multi_armed:PrivateSuccessiveElimination", *base,
         "--out", str(tmp_path / "good")]
    )  # fmt: skip
    report = json.loads((tmp_path / "good" / "check.json").read_text())
    assert good == 0 and report["utility_verdict"] == "pass"
    assert report["privacy"]["verdict"] == "inconclusive" and report["release"]["verdict"] == "pass"
    assert report["release"]["method"] == "white_box"
    assert report["regret"]["horizon"] == 3000 and report["claim"]["delta"] == 0.0
    bad = privonline_main(
        ["check", "examples.multi_armed:UCB1", *base, "--out", str(tmp_path / "bad")]
    )
    assert bad == 1
    assert (
        "rewards at day"
        in json.loads((tmp_path / "bad" / "check.json").read_text())["privacy"]["name"]
    )


def test_a_pure_epsilon_claim_for_a_linear_policy_is_compared_with_the_non_private_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Algorithm 1's private variants need δ > 0: with no --reference the check compares the regret
    # with the non-private Algorithm 1 and says so; a private reference asked for is refused
    argv = ["check", "examples.good_policy:policy", "--path", REPO, "--epsilon", "1"]
    argv += ["--delta", "0", "--stream-runs", "40", "--runs", "2", "--n", "40", "--budget", "20"]
    assert privonline_main([*argv, "--out", str(tmp_path)]) in (0, 3, 5)
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["regret"]["name"].endswith("vs reference nonprivate")
    assert "non-private Algorithm 1" in report["reference_note"]
    assert "Reference: the non-private Algorithm 1" in (tmp_path / "check.md").read_text()
    capsys.readouterr()
    argv += ["--reference", "gaussian", "--out", str(tmp_path / "never")]
    assert privonline_main(argv) == 2
    assert "reference 'gaussian' needs δ > 0" in capsys.readouterr().err


def test_the_report_compares_the_claim_with_the_calibration_the_target_states(
    tmp_path: Path,
) -> None:
    base = ["check", "examples.good_policy:GaussianTreeLinUCB", *CLAIM]
    base += ["--stream-runs", "100", "--runs", "4"]
    privonline_main([*base, "--target-kwargs", '{"epsilon": 2}', "--out", str(tmp_path / "a")])
    report = json.loads((tmp_path / "a" / "check.json").read_text())
    assert report["stated_calibration"] == {"epsilon": 2.0, "delta": 0.1}
    assert report["calibration_note"].startswith("the claim differs")
    privonline_main([*base, "--out", str(tmp_path / "b")])
    note = json.loads((tmp_path / "b" / "check.json").read_text())["calibration_note"]
    assert note.startswith("the claim matches")
    assert targets.stated_calibration(object()) is None


FAST = ["--stream-runs", "200", "--runs", "4", "--n", "400"]


def test_online_learners_are_checked_on_loss_sequences_and_their_tree_releases(
    tmp_path: Path,
) -> None:
    # the correct tree learner passes through its release (white box); the learner whose tree
    # noise uses the loss set's radius instead of its diameter (pure ε = 2 against a claimed 1) is
    # caught there exactly, and from its points alone on the split-loss designs
    base = ["--kind", "online_full", "--path", REPO, "--epsilon", "1", "--delta", "0", *FAST]
    good = privonline_main(
        ["check", "examples.online:TreeFTRLExperts", *base, "--out", str(tmp_path / "good")]
    )
    report = json.loads((tmp_path / "good" / "check.json").read_text())
    assert good == 0 and report["release"]["method"] == "white_box"
    assert report["regret"]["feedback"] == "full" and report["utility_verdict"] == "pass"
    assert "Agarwal & Singh Definition 2.1" in report["claim"]["label"]
    bad = privonline_main(
        ["check", "examples.online:RadiusTreeFTRL", *base, "--out", str(tmp_path / "bad")]
    )
    report = json.loads((tmp_path / "bad" / "check.json").read_text())
    assert bad == 1 and report["release"]["violation"]
    assert report["release"]["p_value"] == 0.0
    assert 1.0 < float(report["release"]["epsilon_lower_bound"]) <= 2.0 + 1e-9
    assert "worst case" in report["release"]["name"]  # ±1 losses: the learner's own [−1, 1]^N
    points_only = privonline_main(
        ["check", "examples.online:RadiusTreeFTRL", *base, "--actions-only", "--out",
         str(tmp_path / "points")]
    )  # fmt: skip
    report = json.loads((tmp_path / "points" / "check.json").read_text())
    assert points_only == 1 and report["release"] is None and report["privacy"]["violation"]
    assert "split at day 1" in report["privacy"]["name"]


def test_anchored_levels_add_the_anchored_design_to_a_linear_check(tmp_path: Path) -> None:
    """``--anchored-levels`` adds the reused-noise anchored design to the designs searched, and
    names it in the report; a bad list is a usage error naming the flag."""
    argv = ["check", "examples.linear_zoo:gaussian_tree", "--path", REPO, "--epsilon", "1"]
    argv += ["--delta", "0.1", "--actions-only", "--anchored-levels", "4", "--max-stages", "1"]
    assert privonline_main([*argv, *FAST, "--out", str(tmp_path / "good")]) in (0, 5)
    text = (tmp_path / "good" / "check.md").read_text()
    assert "reused-noise anchors, 12 days (a tree of 16 leaves)" in text
    bad = ["--anchored-levels", "four"]
    assert privonline_main([*argv[:-4], *bad, "--out", str(tmp_path / "bad")]) == 2
    assert not (tmp_path / "bad" / "check.json").exists()


def test_a_tree_that_ignores_the_gram_sensitivity_is_caught_at_the_release_level(
    tmp_path: Path,
) -> None:
    argv = ["check", "examples.linear_zoo:laplace_tree", "--path", REPO, "--epsilon", "1"]
    argv += ["--delta", "0", "--reference", "nonprivate", *FAST, "--out", str(tmp_path)]
    assert privonline_main(argv) == 1
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["privacy_verdict"] == "VIOLATION" and report["release"]["violation"]
    assert "release-level" in (tmp_path / "check.md").read_text()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["examples.online:TreeFTRLExperts"], "pass --kind online_full or --kind online_bandit"),
        (["examples.good_policy:policy", "--kind", "online_full"], "needs an audit.protocols"),
        (
            ["examples.good_policy:policy", "--loss-set", "box01"],
            "loss_set (--loss-set) applies to --kind online_full, online_bandit only",
        ),
        (["examples.good_policy:policy", "--reference", "dp_se"], "reference must be one of"),
        (
            ["examples.multi_armed:UCB1", "--kind", "multi_armed", "--reference", "gaussian"],
            "reference must be one of 'dp_se', 'dp_ucb'",
        ),
        (
            ["examples.online:TreeFTRLExperts", "--kind", "online_full", "--reference", "dp_se"],
            "is fixed for online_full",
        ),
    ],
)
def test_a_policy_of_the_wrong_kind_is_a_usage_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = privonline_main(["check", *argv, "--path", REPO, "--epsilon", "1", "--delta", "0.1"])
    assert code == 2
    assert message in capsys.readouterr().err
