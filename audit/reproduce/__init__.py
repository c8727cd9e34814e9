"""Shared machinery of the reproductions: the :class:`~.experiment.Experiment` type
(:mod:`.experiment`), the one ``privonline reproduce PAPER`` command line (:mod:`.command`), the
typed report and its one renderer (:mod:`.report`), the resumable cell store and the one executor
(:mod:`.common`).  Each paper's experiments live in ``audit.papers.<paper>.reproduce``.

Proof note: ``proofs_notes/audit/README.md``.
"""

__all__: list[str] = []
