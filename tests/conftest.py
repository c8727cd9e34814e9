"""Shared test configuration.

Hypothesis runs derandomised (a fixed example sequence) with no deadline, so the suite is
deterministic: no test can pass on one run and fail on the next.
"""

from hypothesis import settings

settings.register_profile("privonline", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("privonline")
