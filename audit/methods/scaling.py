"""Scaling audits: log-log fits of a measured quantity against a theorem's own bound.

:func:`fit_against_form` fits ``ln R̂`` on ``ln f`` (OLS), :func:`fit_mean_against_form` the mean
``E R̂ = e^a f^b`` (log-link GLM), where ``f`` is the theorem's bound as a function of the scaled
variable, so the log factors are the theorem's and not a bare power law.  Standard errors are
clustered by replicate (statsmodels); the fit is *consistent* with the theorem unless the one-sided
``t`` test of ``b ≤ 1`` (``R − 1`` degrees of freedom) rejects at level ``1 − confidence``.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import statsmodels.api as sm
from scipy import stats

from reference._typing import FloatArray
from reference.validation import check_array, check_in_range

__all__ = ["ScalingFit", "fit_against_form", "fit_mean_against_form"]


def _confidence(confidence: float) -> float:
    return check_in_range("confidence", confidence, 0.0, 1.0)


@dataclass(frozen=True)
class ScalingFit:
    """OLS of ``ln R̂`` on ``ln f`` (``f`` the theorem's bound), clustered by replicate.

    Attributes:
        name: what was scaled and against which theorem.
        slope: the fitted ``b`` (1 when regret grows exactly like the bound's form).
        ci_low, ci_high: its two-sided confidence interval at ``confidence``.
        pvalue_above_one: one-sided p-value of ``b ≤ 1`` against ``b > 1``.
        consistent: ``pvalue_above_one ≥ 1 − confidence`` (no evidence of growth beyond the bound).
        observations: points in the fit; replicates: clusters.
        theorem_exponent: the exponent the theorem states for the scaled variable (for the report).
        bare_power_exponent: the slope of ``ln R̂`` on ``ln x`` (the variable itself), for comparison.
        x, form, mean_values: the scaled variable, the form and the mean over replicates at each
            point (for plots and reports).
    """

    name: str
    slope: float
    ci_low: float
    ci_high: float
    pvalue_above_one: float
    consistent: bool
    observations: int
    replicates: int
    theorem_exponent: str
    bare_power_exponent: float
    confidence: float
    x: tuple[float, ...] = ()
    form: tuple[float, ...] = ()
    mean_values: tuple[float, ...] = ()


def _fit_slope(
    name: str,
    x: FloatArray,
    form: FloatArray,
    values: FloatArray,
    *,
    model: Literal["log_ols", "log_link"],
    theorem_exponent: str,
    confidence: float,
) -> ScalingFit:
    """The fit behind :func:`fit_against_form` (``"log_ols"``) and :func:`fit_mean_against_form`
    (``"log_link"``): validation, the clustered model on ``ln form`` and on ``ln x``, and the
    one-sided ``t`` test of ``b ≤ 1`` with ``R − 1`` degrees of freedom."""
    label = "regrets" if model == "log_ols" else "values"
    confidence = _confidence(confidence)
    x = check_array("x", x)
    form = check_array("form", form)
    y = check_array(label, values)
    if y.ndim == 2 and y.shape[0] == 0:
        raise ValueError(f"{label} must hold at least one replicate (row), got shape {y.shape}")
    if y.ndim != 2 or y.shape[1] != form.size or x.shape != form.shape:
        raise ValueError(f"{label} must have shape (R, {form.size}) matching x and form")
    if form.size < 2 or np.ptp(np.log(form)) == 0.0:
        raise ValueError("form must take at least two distinct values")
    means = y.mean(axis=0)
    if model == "log_ols" and (np.any(y <= 0) or np.any(form <= 0)):
        raise ValueError("regrets and form must be positive (logs are fitted)")
    if model == "log_link":
        if np.any(form <= 0) or np.any(x <= 0):
            raise ValueError("form and x must be positive (their logs are the regressors)")
        if np.any(means <= 0):
            raise ValueError(f"the mean of values must be positive at every point, got {means}")
    R, J = y.shape
    groups = np.repeat(np.arange(R), J)
    cluster: dict[str, Any] = {"cov_type": "cluster", "cov_kwds": {"groups": groups}}

    def slope_on(regressor: FloatArray) -> tuple[float, float, float, float]:
        design = sm.add_constant(np.tile(np.log(regressor), R))
        # identical replicates (deterministic algorithms) give a clustered variance of 0, which
        # rounding can make slightly negative: statsmodels then takes sqrt of it
        with np.errstate(invalid="ignore"):
            if model == "log_ols":
                fit = sm.OLS(np.log(y).ravel(), design).fit(**cluster)
            else:
                start = np.polyfit(np.log(regressor), np.log(means), 1)[::-1]
                family = sm.families.Gaussian(sm.families.links.Log())
                fit = sm.GLM(y.ravel(), design, family=family).fit(start_params=start, **cluster)
            slope, variance = float(fit.params[1]), float(np.asarray(fit.cov_params())[1, 1])
            if not variance > 0.0:  # no sampling variation: a zero-width interval
                return slope, 0.0, slope, slope
            low, high = (float(v) for v in fit.conf_int(alpha=1.0 - confidence)[1])
        return slope, math.sqrt(variance), low, high

    slope, se, low, high = slope_on(form)
    df = max(R - 1, 1)  # cluster-robust inference uses t with (clusters − 1) d.f.
    p_above = float(stats.t.sf((slope - 1.0) / se, df)) if se > 0 else float(slope <= 1.0)
    return ScalingFit(
        name=name,
        slope=slope,
        ci_low=low,
        ci_high=high,
        pvalue_above_one=p_above,
        consistent=p_above >= 1.0 - confidence,
        observations=R * J,
        replicates=R,
        theorem_exponent=theorem_exponent,
        bare_power_exponent=slope_on(x)[0],
        confidence=confidence,
        x=tuple(float(v) for v in x),
        form=tuple(float(v) for v in form),
        mean_values=tuple(float(v) for v in means),
    )


def fit_against_form(
    name: str,
    x: FloatArray,
    form: FloatArray,
    regrets: FloatArray,
    *,
    theorem_exponent: str,
    confidence: float = 0.95,
) -> ScalingFit:
    """Fit ``ln regrets[r, j] = a + b ln form[j]`` over replicates ``r`` and points ``j`` (OLS,
    standard errors clustered by replicate); ``bare_power_exponent`` is the slope on ``ln x``.

    Args:
        x: the scaled variable at each point (``n``, ``d`` or ``1/ε``), shape ``(J,)``.
        form: the theorem's bound at each point, shape ``(J,)``.
        regrets: shape ``(R, J)``, positive.
    """
    return _fit_slope(
        name, x, form, regrets, model="log_ols", theorem_exponent=theorem_exponent,
        confidence=confidence,
    )  # fmt: skip


def fit_mean_against_form(
    name: str,
    x: FloatArray,
    form: FloatArray,
    values: FloatArray,
    *,
    theorem_exponent: str,
    confidence: float = 0.95,
) -> ScalingFit:
    """Fit ``E[values[r, j]] = exp(a) · form[j]^b`` (Gaussian quasi-likelihood with log link,
    statsmodels GLM, standard errors clustered by replicate ``r``); the slope test is that of
    :func:`fit_against_form`.

    Use it for quantities that can be zero or negative in single runs (a paired difference of
    regrets) but whose mean is positive: OLS on logs needs every value positive.
    ``bare_power_exponent`` is the same model's slope on ``ln x``.
    """
    return _fit_slope(
        name, x, form, values, model="log_link", theorem_exponent=theorem_exponent,
        confidence=confidence,
    )  # fmt: skip
