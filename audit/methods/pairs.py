"""Input search: which neighbouring pair to audit, with the false-alarm rate kept over all tried.

Candidates come from StatDP's patterns for query-answer vectors (Ding et al., CCS 2018, Sec. 5)
or from the caller (streams, datasets).  :func:`search_pairs` screens every candidate on a small
budget of its own draws, ranks them by the screening lower bound on ε, and audits the best
``top`` afresh; only those final tests are judged, as one family corrected by an explicit
:class:`~audit.familywise.FamilyWise` strategy, so screening costs no error budget.
Proof note: ``proofs_notes/audit/black_box_event.md``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from audit.familywise import FamilyWise, Holm
from audit.protocols import NeighbouringPair, NeighbourRelation
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.rng import SeedLike, as_seed_sequence, named_seed, seed_for
from reference.validation import check_callable, check_in_range, check_int_at_least, check_size

__all__ = ["PairSearchResult", "Tester", "search_pairs", "searched_audit", "statdp_patterns"]

DataT = TypeVar("DataT")

Tester = Callable[[NeighbouringPair[DataT], int, int], PrivacyAuditResult]
"""``tester(pair, samples, seed)``: one audit of the mechanism on ``pair`` (e.g.
``lambda pair, n, s: event_audit(mech, pair, claim, samples=n, seed=s)``)."""


def statdp_patterns(
    length: int = 5, relation: NeighbourRelation = "replace_one"
) -> list[NeighbouringPair[FloatArray]]:
    """StatDP's input patterns for query-answer vectors of sensitivity 1 (Ding et al., Sec. 5):
    one above, one below, one above rest below, one below rest above, half half, all above,
    all below, and the X shape.  Each pair is named in its ``description``."""
    length = check_size("length", length, 2, item_bytes=8, what="a query answer")
    ones, half = np.ones(length), length // 2
    rest = np.ones(length - 1)
    pairs = {
        "one above": np.concatenate([[2.0], rest]),
        "one below": np.concatenate([[0.0], rest]),
        "one above rest below": np.concatenate([[2.0], 0.0 * rest]),
        "one below rest above": np.concatenate([[0.0], 2.0 * rest]),
        "half half": np.concatenate([np.zeros(length - half), 2.0 * np.ones(half)]),
        "all above": 2.0 * ones,
        "all below": 0.0 * ones,
    }
    out = [
        NeighbouringPair(ones, x_prime, relation, description=name)
        for name, x_prime in pairs.items()
    ]
    x_shape = np.concatenate([np.ones(half), np.zeros(length - half)])
    out.append(NeighbouringPair(x_shape, 1.0 - x_shape, relation, description="x shape"))
    return out


@dataclass(frozen=True)
class PairSearchResult(Generic[DataT]):
    """The screening of every candidate and the judged audits of the best ones.

    ``screening[i]`` is candidate ``i``'s screening audit (selection only, never a verdict);
    ``audits`` are the fresh audits of the ``top`` candidates, with ``rejected`` their
    family-wise verdicts under ``strategy``.
    """

    candidates: tuple[NeighbouringPair[DataT], ...]
    screening: tuple[PrivacyAuditResult, ...]
    chosen: tuple[int, ...]
    audits: tuple[PrivacyAuditResult, ...]
    rejected: tuple[bool, ...]
    strategy: FamilyWise

    @property
    def violation(self) -> bool:
        """Whether any judged audit rejected its claim after the family-wise correction."""
        return any(self.rejected)

    @property
    def best(self) -> PrivacyAuditResult:
        """The judged audit with the largest ε lower bound."""
        return max(self.audits, key=lambda r: r.epsilon_lower_bound)


def _name(pair: NeighbouringPair[DataT], index: int) -> str:
    return pair.description or f"candidate {index}"


def _result(name: str, result: object) -> PrivacyAuditResult:
    """What a tester returned, which must be a :class:`~audit.results.PrivacyAuditResult`."""
    if not isinstance(result, PrivacyAuditResult):
        raise ValueError(
            f"{name} must return a PrivacyAuditResult, got {type(result).__name__} ({result!r:.80})"
        )
    return result


def search_pairs(
    candidates: Sequence[NeighbouringPair[DataT]],
    tester: Tester[DataT],
    *,
    screen_samples: int,
    samples: int,
    seed: SeedLike,
    top: int = 1,
    strategy: FamilyWise | None = None,
    screen_tester: Tester[DataT] | None = None,
) -> PairSearchResult[DataT]:
    """Screen every candidate on ``screen_samples`` draws, then audit the ``top`` best afresh
    on ``samples`` draws and correct those verdicts together (module docstring).

    ``screen_tester`` screens (default ``tester``): e.g. the same audit at a low confidence, whose
    lower bound ranks small effects by their size rather than by their uncertainty.  Its data
    never reach the judged audits, so it costs no error budget.

    Seeds follow each candidate's name (its ``description``, else its position), one stream for
    screening and another for the final audit, so the final data never saw the screening.
    """
    if not candidates:
        raise ValueError("candidates must hold at least one neighbouring pair")
    screen_samples = check_int_at_least("screen_samples", screen_samples, 4)
    samples = check_int_at_least("samples", samples, 4)
    top = check_int_at_least("top", top, 1)
    if top > len(candidates):
        raise ValueError(f"top must be in [1, {len(candidates)}] (the candidates), got {top}")
    strategy = Holm(0.05) if strategy is None else strategy
    if not isinstance(strategy, FamilyWise):
        raise ValueError(f"strategy must be a FamilyWise strategy, got {strategy!r:.80}")
    names = [_name(p, i) for i, p in enumerate(candidates)]
    if len(set(names)) != len(names):
        raise ValueError(f"candidate descriptions must be distinct, got {names}")
    root = as_seed_sequence(seed)

    def seed_of(name: str, stage: str) -> int:
        return seed_for(named_seed(root, name), stage)

    check_callable("tester", tester)
    screen = tester if screen_tester is None else check_callable("screen_tester", screen_tester)
    screen_name = "tester" if screen_tester is None else "screen_tester"
    screening = tuple(
        _result(screen_name, screen(pair, screen_samples, seed_of(name, "screen")))
        for pair, name in zip(candidates, names, strict=True)
    )
    order = sorted(range(len(candidates)), key=lambda i: -screening[i].epsilon_lower_bound)
    chosen = tuple(order[:top])
    audits = tuple(
        _result("tester", tester(candidates[i], samples, seed_of(names[i], "audit")))
        for i in chosen
    )
    rejected = tuple(strategy.reject([r.p_value for r in audits]))
    return PairSearchResult(
        tuple(candidates), screening, chosen, audits, tuple(bool(r) for r in rejected), strategy
    )


def _power(result: PrivacyAuditResult) -> tuple[int, float]:
    """Sort key: a ``"pass"`` first, then the smaller power statement (ε or δ)."""
    stated = result.detectable_epsilon
    if stated is None:
        stated = result.detectable_delta
    return (0 if result.verdict == "pass" else 1, math.inf if stated is None else stated)


def searched_audit(
    candidates: Sequence[NeighbouringPair[DataT]],
    tester_at: Callable[[float], Tester[DataT]],
    *,
    samples: int,
    seed: SeedLike,
    confidence: float,
    top: int,
    name: str,
    progress: Any = None,
) -> PrivacyAuditResult:
    """One verdict from a searched family: :func:`search_pairs` with every candidate screened on
    ``samples // 4`` draws at confidence 0.5, the ``k = min(top, len(candidates))`` best audited
    afresh on ``samples`` draws **at confidence** ``1 − (1 − confidence)/k`` (Holm's first-step
    level, so each judged audit's bounds and power statement hold at the level at which it is sure
    to be rejected), judged together by Holm at ``1 − confidence``.

    ``tester_at(level)`` returns the tester to run at that confidence; ``progress`` (a tqdm bar,
    or ``None``) is advanced once per audit run.  Returns the judged audit
    with the smallest p-value if the family rejected any, else the one with the most power (a
    ``"pass"`` first, then the smallest power statement), with ``p_value`` Holm-adjusted
    (``min(1, k·p)`` for the smallest), ``violation`` the family's verdict for it, and
    ``details["search"]`` listing every candidate's screening bound and the judged audits."""
    if not candidates:
        raise ValueError("candidates must hold at least one neighbouring pair")
    k = min(check_int_at_least("top", top, 1), len(candidates))
    alpha = 1.0 - check_in_range("confidence", confidence, 0.0, 1.0)
    check_callable("tester_at", tester_at)

    def counted(level: float) -> Tester[DataT]:
        tester = tester_at(level)

        def run(pair: NeighbouringPair[DataT], size: int, s: int) -> PrivacyAuditResult:
            result = tester(pair, size, s)
            if progress is not None:
                progress.update(1)
            return result

        return run

    found = search_pairs(
        candidates,
        counted(1.0 - alpha / k),
        screen_samples=max(4, samples // 4),
        samples=samples,
        seed=seed,
        top=k,
        strategy=Holm(alpha),
        screen_tester=counted(0.5),
    )
    audits = found.audits
    if found.violation:
        first = min(range(k), key=lambda i: audits[i].p_value)
    else:
        first = min(range(k), key=lambda i: _power(audits[i]))
    chosen = audits[first]
    names = [_name(c, i) for i, c in enumerate(found.candidates)]
    details: dict[str, Any] = dict(chosen.details)
    details["search"] = {
        "screened": {names[i]: r.epsilon_lower_bound for i, r in enumerate(found.screening)},
        "judged": [
            {
                "candidate": names[i],
                "epsilon_lower_bound": r.epsilon_lower_bound,
                "p_value": r.p_value,
                "rejected": rejected,
                "verdict": "VIOLATION" if rejected else r.verdict,
            }
            for i, r, rejected in zip(found.chosen, audits, found.rejected, strict=True)
        ],
        "family": f"Holm at {alpha:g} over {k} judged candidates (each audited at confidence "
        f"{1.0 - alpha / k:g})",
    }
    return dataclasses.replace(
        chosen,
        name=f"{name} ({names[found.chosen[first]]}; best of {len(candidates)} candidates)",
        violation=found.rejected[first],
        p_value=min(1.0, k * chosen.p_value),
        details=details,
    )
