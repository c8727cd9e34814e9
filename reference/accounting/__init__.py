"""Exact privacy curves: the one home of every ``δ(ε)`` and ``ε(δ)`` of a noise law or mechanism.

Naming rule: ``<law>_delta(epsilon, …)`` gives ``δ(ε)`` and ``<law>_epsilon(delta, …)`` gives
``ε(δ)``, the privacy parameter first and the law's parameters by keyword; calibrations that
return a law parameter for ``(ε, δ)`` are ``<law>_<parameter>_for(epsilon, delta, …)``.  Modules
by law: :mod:`~reference.accounting.gaussian`, :mod:`~reference.accounting.laplace`,
:mod:`~reference.accounting.wishart` (on :mod:`~reference.accounting.chi2`).

Proof note: ``proofs_notes/audit/exact_privacy_curves.md``.
"""

from __future__ import annotations

from reference.accounting.chi2 import LocationDirection, chi2_location_loss_cdf, chi2_location_pld
from reference.accounting.gaussian import gaussian_delta, gaussian_epsilon, gaussian_mu_for
from reference.accounting.grid import DEFAULT_INTERVAL
from reference.accounting.laplace import (
    laplace_composition_epsilon,
    laplace_delta,
    laplace_epsilon,
    laplace_tree_delta,
    laplace_tree_epsilon,
    laplace_tree_epsilon_0_for,
)
from reference.accounting.wishart import (
    REPLACEMENT_CELLS,
    WishartRelation,
    wishart_tree_delta,
    wishart_tree_delta_lower,
    wishart_tree_epsilon,
    wishart_tree_epsilon_lower,
    wishart_tree_meets,
)

__all__ = [
    "DEFAULT_INTERVAL",
    "REPLACEMENT_CELLS",
    "LocationDirection",
    "WishartRelation",
    "chi2_location_loss_cdf",
    "chi2_location_pld",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mu_for",
    "laplace_composition_epsilon",
    "laplace_delta",
    "laplace_epsilon",
    "laplace_tree_delta",
    "laplace_tree_epsilon",
    "laplace_tree_epsilon_0_for",
    "wishart_tree_delta",
    "wishart_tree_delta_lower",
    "wishart_tree_epsilon",
    "wishart_tree_epsilon_lower",
    "wishart_tree_meets",
]
