"""privonline audits: empirical checks, with stated error rates, that an implementation keeps its
privacy promise and meets its theorems.

The audit engine (privacy-loss tests, black-box event tests, accuracy and regret audits, and the
plug-in API for third-party mechanisms) is being built on top of :mod:`reference`; the command-line
entry point is :mod:`audit.cli` (``privonline --help``).
"""

__all__: list[str] = []
