"""The pan-private tree of the authors' code (``reference.tree.PanPrivateTree``) and its engines.

Oracle: a literal port of ``PanPrivTreeStrategy`` (``accum!`` / ``accumulated``, 1-based states,
the count kept modulo ``2^{m−1}``) from ``roshanshariff/PrivateBandits.jl``,
``src/DifferentialPrivacy.jl`` at commit ``49417f1``, run on symbols: a state is the multiset of
the data rows and of the noise draws (numbered in drawing order) it sums.  Checked: every release
is the exact prefix plus exactly ``m`` distinct draws, an insertion at count ``c`` draws
``tz(c) + 1`` (``m`` at ``c = 0``), the ``n = 8`` example, each row enters at most ``m − 1``
noised states before it is released; then ``PanPrivateTree`` against the port draw for draw, the
release law, a mutant the checks catch, and the reference == numpy engine == compiled engine on
Algorithm 1.  Deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import itertools
import re
import warnings
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference._typing import FloatArray
from reference.engine import BatchedPanPrivateNoise, run_gap_batch
from reference.engine.compiled import run_gap_compiled
from reference.engine.compiled.tree import tree_noise_compiled
from reference.engine.tasks import GapBatchTask
from reference.noise import NodeNoise, RandomSource, SymmetricGaussianNoise, WishartNoise
from reference.rng import NoiseStreams
from reference.shariff_sheffet.linucb import AccuracyEventWarning
from reference.shariff_sheffet.regularizers import (
    PrivacyParameters,
    ProblemConstants,
    TreeStatistics,
    Variant,
    make_regularizer,
)
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.tree import PanPrivateTree, tree_depth

PRIVACY = PrivacyParameters(epsilon=1.0, delta=0.1)
HORIZONS = [1, 2, 3, 5, 8, 31, 64, 65, 1000]

# ------------------------------------------------------------------------------------------------
# the literal port (oracle)

State = tuple[Counter[int], Counter[int]]  # (data rows, noise draw ids), each with multiplicity


def _add(state: State, x: tuple[str, int] | None) -> State:
    data, noise = Counter(state[0]), Counter(state[1])
    if x is not None:
        (data if x[0] == "data" else noise)[x[1]] += 1
    return data, noise


def _trailing_zeros(v: int) -> int:
    return (v & -v).bit_length() - 1  # v != 0; a negative v has ones above, as in Julia's Int


class JuliaPanPrivTree:
    """``PanPrivTreeStrategy`` line by line (1-based ``state``), with ``TreeAccum(s, init)``
    (``state[end] = init``, empty here: privonline adds the shift outside the tree) and the one
    insertion of ``nothing`` that starts the accumulator."""

    def __init__(self, n: int) -> None:
        self.m = 1 + (n - 1).bit_length()  # numcomposed = 1 + nbits(horizon - 1)
        self.state: list[State | None] = [None] * (self.m + 1)  # index 0 unused
        self.state[self.m] = (Counter(), Counter())
        self.count = 0
        self.draws = 0
        self.draws_per_insertion: list[tuple[int, int]] = []  # (count c, draws)
        self.entered: list[int] = []  # states each insertion's x is accumulated into
        self.accum(None)

    def noise(self) -> tuple[str, int]:
        self.draws += 1
        return ("noise", self.draws)

    def accum(self, x: tuple[str, int] | None) -> None:
        before = self.draws
        m = len(self.state) - 1
        mask = (1 << (m - 1)) - 1
        leafpos = 1 + self.count.bit_count()
        newaccum = leafpos + _trailing_zeros(self.count | ~mask)
        for i in range(m, newaccum - 1, -1):
            current = self.state[i]
            assert current is not None
            self.state[i] = _add(current, x)
        current = self.state[newaccum]
        assert current is not None
        self.state[newaccum] = _add(current, self.noise())
        for i in range(newaccum - 1, leafpos - 1, -1):
            above = self.state[i + 1]
            assert above is not None
            self.state[i] = _add(above, self.noise())
        self.draws_per_insertion.append((self.count, self.draws - before))
        self.entered.append(m - newaccum + 1)
        self.count = (self.count + 1) & mask

    def accumulated(self) -> State:
        mask = (1 << (len(self.state) - 2)) - 1
        prevcount = (self.count - 1) & mask
        state = self.state[1 + prevcount.bit_count()]
        assert state is not None
        return state


def _port_releases(n: int) -> tuple[JuliaPanPrivTree, list[State]]:
    """Algorithm 1's use: round ``t = 1..n`` reads the release, then inserts row ``t``; and the
    release after the ``n``-th insertion (never read by Algorithm 1), last."""
    port = JuliaPanPrivTree(n)
    releases = []
    for t in range(1, n + 1):
        releases.append(port.accumulated())
        port.accum(("data", t))
    releases.append(port.accumulated())
    return port, releases


def _check_exact_m(releases: list[State], m: int) -> None:
    """Releases ``1..n`` (the ones Algorithm 1 reads) are exact prefixes plus ``m`` distinct draws."""
    for t, (data, noise) in enumerate(releases[:-1], start=1):
        assert data == Counter(range(1, t)), f"release {t}: not the exact prefix"
        assert len(noise) == m and set(noise.values()) == {1}, (
            f"release {t}: draws {dict(noise)}, not exactly m={m} distinct draws"
        )


@pytest.mark.parametrize("n", HORIZONS)
def test_port_every_release_is_the_exact_prefix_plus_exactly_m_draws(n: int) -> None:
    port, releases = _port_releases(n)
    m = tree_depth(n)
    _check_exact_m(releases, m)
    construction, *insertions = port.draws_per_insertion
    assert construction == (0, m)
    for c, draws in insertions:
        assert draws == (m if c == 0 else _trailing_zeros(c) + 1)
    # the count wraps only at the n-th insertion of n = 2^(m−1), whose release is never read
    assert [c for c, _ in insertions[:-1]] == list(range(1, n))
    # each row enters at most m − 1 noised states before it is released (all rows but the last)
    assert all(entered <= m - 1 for entered in port.entered[1:n])
    if n > 1:
        assert max(port.entered[1:n]) == m - 1
    # the root's initial draw is in every release; consecutive releases share m − 2 on average
    read = releases[:-1]
    assert all(noise[1] == 1 for _, noise in read)
    if n > 2:
        shared = [len(set(a[1]) & set(b[1])) for a, b in itertools.pairwise(read)]
        assert abs(np.mean(shared) - (m - 2)) <= 2.0 * m / (n - 1)
    # the release after the n-th insertion: the whole prefix; 2m draws where the count wrapped
    data, noise = releases[-1]
    assert data == Counter(range(1, n + 1)) and set(noise.values()) == {1}
    assert len(noise) == (2 * m if n == 2 ** (m - 1) else m)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(n=st.integers(1, 300))
def test_port_exact_m_property(n: int) -> None:
    _check_exact_m(_port_releases(n)[1], tree_depth(n))


def test_port_n8_example() -> None:
    _, releases = _port_releases(8)
    ids = [tuple(sorted(noise)) for _, noise in releases[:5]]
    assert ids == [(1, 2, 3, 4), (1, 2, 3, 5), (1, 2, 6, 7), (1, 2, 6, 8), (1, 9, 10, 11)]


# ------------------------------------------------------------------------------------------------
# PanPrivateTree against the port


class CountingNoise:
    """Draw ``k`` (1-based, in drawing order) is the unit vector ``e_{k−1}`` of ``R^size``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.draws = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.size,)

    def sample(self, rng: RandomSource) -> FloatArray:
        NoiseStreams.of(rng)
        out = np.zeros(self.size)
        out[self.draws] = 1.0
        self.draws += 1
        return out

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        total = np.zeros(self.size)
        for _ in range(j):
            total = total + self.sample(rng)
        return total


def _tagged_releases(tree_class: type[PanPrivateTree], n: int) -> tuple[list[State], list[int]]:
    """The releases of ``tree_class`` in Algorithm 1's use, decoded: draw ``k`` is coordinate
    ``k − 1``, data row ``t`` coordinate ``D + t − 1``; also each release's ``noise_terms``."""
    draws = 2 * tree_depth(n) + 2 * n  # m at first, tz(c) + 1 per insertion (m at c = 0)
    noise = CountingNoise(draws + n)
    tree = tree_class(n, noise, np.random.default_rng(0))
    releases, terms = [], []
    for t in range(1, n + 2):
        release = tree.release()
        value = release.value
        np.testing.assert_array_equal(value, release.noise + tree.exact_prefix())
        assert np.array_equal(value, np.round(value))  # sums of unit vectors, exact
        data = Counter({i + 1: int(v) for i, v in enumerate(value[draws:]) if v})
        ids = Counter({i + 1: int(v) for i, v in enumerate(value[:draws]) if v})
        releases.append((data, ids))
        terms.append(release.noise_terms)
        assert release.nodes == ()
        if t <= n:
            item = np.zeros(draws + n)
            item[draws + t - 1] = 1.0
            tree.insert(item)
    assert noise.draws <= draws
    return releases, terms


@pytest.mark.parametrize("n", HORIZONS)
def test_pan_private_tree_equals_the_port_draw_for_draw(n: int) -> None:
    releases, terms = _tagged_releases(PanPrivateTree, n)
    assert releases == _port_releases(n)[1]
    assert terms == [sum(ids.values()) for _, ids in releases]


class CopiesBeforeNoise(PanPrivateTree):
    """A mutant: the copies down the path are taken before ``N[newaccum]`` gets its draw, so the
    releases below ``newaccum`` lack it (fewer than ``m`` draws)."""

    def _accumulate_noise(self, c: int) -> None:
        leafpos = c.bit_count()
        newaccum = leafpos + ((c & -c).bit_length() - 1 if c else self.m - 1)
        for i in range(newaccum - 1, leafpos - 1, -1):
            self._noise[i] = self._noise[i + 1] + self.noise.sample(self._streams)
            self._terms[i] = self._terms[i + 1] + 1
        self._noise[newaccum] = self._noise[newaccum] + self.noise.sample(self._streams)
        self._terms[newaccum] += 1


def test_the_exact_m_check_catches_a_mutant() -> None:
    releases, _ = _tagged_releases(CopiesBeforeNoise, 8)
    with pytest.raises(AssertionError, match="not exactly m=4 distinct draws"):
        _check_exact_m(releases, 4)


def test_release_law_is_m_draws_of_the_node_law() -> None:
    """Exactly: the release noise is the sum of the ``m`` draws the port names (each an
    independent draw of the law, so the sum has law ``sample_sum(m)``: variance ``m σ²`` off the
    diagonal); and a loose statistical check of that variance."""
    n, sigma = 13, 0.7
    law = SymmetricGaussianNoise(3, sigma)
    recorded: list[FloatArray] = []

    class Recording(SymmetricGaussianNoise):
        def sample(self, rng: RandomSource) -> FloatArray:
            recorded.append(super().sample(rng))
            return recorded[-1]

    tree = PanPrivateTree(n, Recording(3, sigma), np.random.default_rng(1))
    for t, (_, ids) in enumerate(_port_releases(n)[1][:n], start=1):
        expected = np.sum([recorded[k - 1] for k in ids], axis=0)
        np.testing.assert_allclose(tree.release().noise, expected, rtol=0.0, atol=1e-12)
        if t < n:
            tree.insert(np.zeros((3, 3)))
    m = tree_depth(n)
    off_diagonal = [
        PanPrivateTree(n, law, np.random.default_rng(seed)).release().noise[0, 1]
        for seed in range(4000)
    ]
    assert np.var(off_diagonal) == pytest.approx(m * sigma**2, rel=0.1)


# ------------------------------------------------------------------------------------------------
# engines


@pytest.mark.parametrize("law", [WishartNoise(3, 5, 0.7), SymmetricGaussianNoise(3, 1.2)])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 37])
def test_batched_and_compiled_noise_equal_the_reference_tree(law: NodeNoise, n: int) -> None:
    seeds = [4, 5, 6]
    trees = [PanPrivateTree(n, law, np.random.default_rng(s)) for s in seeds]
    batched = [
        BatchedPanPrivateNoise(n, law, [np.random.default_rng(s) for s in seeds], block_rounds=b)
        for b in (1, 3, 256)
    ]
    want = []
    for _ in range(n):
        want.append(np.stack([tree.release().noise for tree in trees]))
        for engine in batched:
            np.testing.assert_allclose(engine.release_noise(), want[-1], rtol=0.0, atol=1e-12)
            engine.insert()
        for tree in trees:
            tree.insert(np.zeros(law.shape))
    compiled = tree_noise_compiled(n, law, seeds, tree="pan_private", workers=2)
    np.testing.assert_allclose(compiled, np.stack(want, axis=1), rtol=0.0, atol=1e-12)


def _equal_runs(variant: Variant, seeds: list[int], **kw: Any) -> None:
    n = kw["n"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccuracyEventWarning)
        refs = [
            run_gap_experiment(variant, seed=s, privacy=PRIVACY, tree="pan_private", **kw)
            for s in seeds
        ]
        common: dict[str, Any] = {
            "seeds": seeds,
            "privacy": PRIVACY,
            "checkpoints": np.arange(1, n + 1),
            "trace": True,
            "tree": "pan_private",
        }
        runs = [
            run_gap_batch(variant, block_rounds=16, **common, **kw),
            run_gap_compiled(variant, **common, **kw),
        ]
    for run in runs:
        assert run.actions is not None and run.betas is not None
        for r, ref in enumerate(refs):
            np.testing.assert_array_equal(run.actions[r], ref.actions)
            np.testing.assert_allclose(
                run.cumulative_regret[r], ref.cumulative_regret, rtol=1e-12, atol=1e-12
            )
            np.testing.assert_allclose(run.betas[r], ref.betas, rtol=1e-12)
            assert run.repairs[r] == ref.repairs


@pytest.mark.parametrize("variant", ["gaussian", "wishart", "wishart_unshifted"])
def test_engines_equal_the_reference_with_the_pan_private_tree(variant: Variant) -> None:
    _equal_runs(variant, [3, 17], d=3, num_arms=6, gap=0.1, n=300)
    _equal_runs(variant, [5, 8], d=2, num_arms=4, gap=0.1, n=64)  # n = 2^(m−1): the count wraps


def test_gaussian_tight_calibration_and_reshift_with_the_pan_private_tree() -> None:
    _equal_runs("gaussian", [2], d=4, num_arms=9, gap=0.1, n=80, calibration="tight")
    _equal_runs("wishart", [4], d=3, num_arms=9, gap=0.1, n=60, target_rho_min=500.0)


def test_compiled_pan_private_tree_resumes_across_chunks() -> None:
    from reference.engine.compiled.linucb import CHUNK_ROUNDS

    n = CHUNK_ROUNDS + 50
    kw: dict[str, Any] = {"d": 2, "num_arms": 3, "gap": 0.1, "n": n, "privacy": PRIVACY}
    marks = [1, CHUNK_ROUNDS, CHUNK_ROUNDS + 1, n]
    numpy_engine = run_gap_batch("gaussian", seeds=[1, 2], checkpoints=marks, tree="pan_private",
                                 **kw)  # fmt: skip
    compiled = run_gap_compiled("gaussian", seeds=[1, 2], checkpoints=marks, tree="pan_private",
                                **kw)  # fmt: skip
    np.testing.assert_allclose(
        compiled.cumulative_regret, numpy_engine.cumulative_regret, rtol=1e-12, atol=1e-9
    )


def test_block_task_passes_the_tree_and_records_it() -> None:
    kw: dict[str, Any] = {"d": 2, "num_arms": 4, "gap": 0.1, "n": 60, "epsilon": 1.0}
    seeds = [np.random.SeedSequence(3)]
    task = GapBatchTask("gaussian", delta=0.1, tree="pan_private", **kw)
    direct = run_gap_compiled("gaussian", seeds=seeds, privacy=PRIVACY, d=2, num_arms=4,
                              gap=0.1, n=60, tree="pan_private")  # fmt: skip
    np.testing.assert_array_equal(task(seeds)["cumulative_regret"], direct.cumulative_regret)
    dyadic = GapBatchTask("gaussian", delta=0.1, **kw)
    assert dyadic.tree == "dyadic" and dyadic != task


# ------------------------------------------------------------------------------------------------
# input checks

_ALLOWED = re.escape("tree must be one of 'dyadic', 'pan_private', got 'binary'")


def test_bad_tree_values_are_refused_everywhere() -> None:
    consts = ProblemConstants(d=2)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=_ALLOWED):
        make_regularizer("gaussian", consts, 10, 0.1, rng, PRIVACY, tree="binary")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=_ALLOWED):
        make_regularizer("nonprivate", consts, 10, 0.1, rng, tree="binary")  # type: ignore[arg-type]
    kw: dict[str, Any] = {"d": 2, "num_arms": 3, "gap": 0.1, "n": 10, "privacy": PRIVACY}
    with pytest.raises(ValueError, match=_ALLOWED):
        run_gap_batch("gaussian", seeds=[1], tree="binary", **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=_ALLOWED):
        run_gap_compiled("gaussian", seeds=[1], tree="binary", **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=_ALLOWED):
        run_gap_experiment("gaussian", seed=1, tree="binary", **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=_ALLOWED):
        tree_noise_compiled(4, SymmetricGaussianNoise(2, 1.0), [1], tree="binary")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pad must be 'fresh' with tree='pan_private'"):
        make_regularizer("gaussian", consts, 10, 0.1, rng, PRIVACY, tree="pan_private", pad="none")
    with pytest.raises(ValueError, match="tree must be 'dyadic' for variant 'factorized'"):
        make_regularizer("factorized", consts, 10, 0.1, rng, PRIVACY, calibration="tight",
                         tree="pan_private")  # fmt: skip
    with pytest.raises(ValueError, match="tree must be 'dyadic' for variant 'factorized'"):
        run_gap_compiled("factorized", seeds=[1], calibration="tight", tree="pan_private", **kw)
    # non-private: checked, then ignored
    plain = make_regularizer("nonprivate", consts, 10, 0.1, rng, tree="pan_private")
    assert not isinstance(plain, TreeStatistics)


def test_pan_private_tree_bad_input_and_horizon() -> None:
    law = SymmetricGaussianNoise(2, 1.0)
    with pytest.raises(ValueError, match="n must be"):
        PanPrivateTree(0, law, np.random.default_rng(0))
    with pytest.raises(ValueError, match="noise must be"):
        PanPrivateTree(3, "gaussian", np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rng must be"):
        PanPrivateTree(3, law, None)  # type: ignore[arg-type]
    tree = PanPrivateTree(2, law, np.random.default_rng(0))
    with pytest.raises(ValueError, match="item must"):
        tree.insert(np.zeros((3, 3)))
    tree.insert(np.eye(2))
    tree.insert(np.eye(2))
    with pytest.raises(ValueError, match="at most n=2 leaves"):
        tree.insert(np.eye(2))
    # after the wrapped n-th insertion of n = 2^(m−1): 2m draws, honestly counted
    assert tree.release().noise_terms == 2 * tree.m
    np.testing.assert_array_equal(tree.exact_prefix(), 2 * np.eye(2))
    with pytest.raises(RuntimeError, match="release_noise"):
        BatchedPanPrivateNoise(2, law, [np.random.default_rng(0)]).insert()
