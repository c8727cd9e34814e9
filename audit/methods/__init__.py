"""Audit methods, each independent of any paper: one module per method.

* :mod:`~audit.methods.white_box` -- exact privacy-loss laws and the sampled hockey-stick test;
* :mod:`~audit.methods.black_box` -- event counts with Clopper–Pearson bounds on sampled outputs;
* :mod:`~audit.methods.stream` -- joint DP of a bandit policy on neighbouring streams;
* :mod:`~audit.methods.billboard` -- the billboard (prefix releases) of the tree mechanism;
* :mod:`~audit.methods.closed_form` -- the verdict read off an exact output law (no sampling);
* :mod:`~audit.methods.binomial` -- failure counts of an event over independent trials;
* :mod:`~audit.methods.scaling` -- log-log fits against a theorem's own bound.

Proof note: ``proofs_notes/audit/README.md``.
"""

__all__: list[str] = []
