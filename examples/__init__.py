"""Worked examples of third-party implementations checked by ``privonline check`` (see README)."""
