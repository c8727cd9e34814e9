"""privonline audits: experiments, with stated error rates, that an implementation keeps its privacy
promise and meets its theorems.

The public auditing API is exported here: the plug-in protocols a third-party implementation
satisfies (:mod:`audit.protocols`), the claims and neighbouring inputs it is audited against, the
audit methods (:mod:`audit.methods`) and their typed results (:mod:`audit.results`), and the
comparison of a third-party function with the golden vectors (:func:`golden_compare`).  The
per-paper batteries and reproductions live in :mod:`audit.papers`, maintenance tools in
:mod:`audit.tools`; the command line is :mod:`audit.cli` (``privonline --help``).

Proof note: ``proofs_notes/audit/README.md``.
"""

from audit.methods.black_box import EventCounts, epsilon_lower_bound, event_audit
from audit.methods.stream import Stream, stream_audit, worst_case_streams
from audit.methods.white_box import privacy_loss_audit, white_box_audit
from audit.protocols import (
    DensityMechanism,
    Mechanism,
    NeighbouringPair,
    PrivacyClaim,
    StreamPolicy,
)
from audit.results import CurvePoint, PrivacyAuditResult
from audit.tools.golden.third_party import GoldenComparison, golden_compare

__all__ = [
    "CurvePoint",
    "DensityMechanism",
    "EventCounts",
    "GoldenComparison",
    "Mechanism",
    "NeighbouringPair",
    "PrivacyAuditResult",
    "PrivacyClaim",
    "Stream",
    "StreamPolicy",
    "epsilon_lower_bound",
    "event_audit",
    "golden_compare",
    "privacy_loss_audit",
    "stream_audit",
    "white_box_audit",
    "worst_case_streams",
]
