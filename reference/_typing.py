"""Array type aliases shared by the reference implementations.

Proof note: ``proofs_notes/README.md``.
"""

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

FloatArray: TypeAlias = NDArray[np.float64]
"""A float64 array of any shape."""

IntArray: TypeAlias = NDArray[np.int64]
"""An int64 array of any shape."""

__all__ = ["FloatArray", "IntArray"]
