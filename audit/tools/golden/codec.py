"""Golden vectors: the value encoding of the files (outputs and parameters as strict JSON).

The schema is described in the proof note (golden vectors).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any, TypeAlias

import numpy as np

__all__ = [
    "JSON",
    "Params",
    "decode_value",
    "encode_value",
]


Params: TypeAlias = dict[str, Any]
JSON: TypeAlias = Any


def encode_value(value: object) -> JSON:
    """Encode ``value`` as JSON data following the module's schema (exceptions excluded)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        x = float(value)
        if math.isfinite(x):
            return x
        return {"float": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}
    if isinstance(value, np.ndarray):
        return {
            "ndarray": [encode_value(v) for v in value.tolist()]
            if value.ndim
            else encode_value(value.item()),
            "dtype": str(value.dtype),
            "shape": list(value.shape),
        }
    if isinstance(value, list | tuple):
        return [encode_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "dataclass": type(value).__name__,
            "fields": {
                f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)
            },
        }
    if isinstance(value, Mapping):
        return {"mapping": {str(k): encode_value(v) for k, v in value.items()}}
    raise TypeError(f"cannot encode {type(value).__name__} in a golden vector: {value!r}")


def _decode_nested(data: JSON) -> Any:
    if isinstance(data, list):
        return [_decode_nested(v) for v in data]
    return decode_value(data)


def decode_value(data: JSON) -> Any:
    """Inverse of :func:`encode_value` for parameters (dataclasses stay field dicts)."""
    if isinstance(data, list):
        return [decode_value(v) for v in data]
    if isinstance(data, dict):
        if "float" in data:
            return float(data["float"])
        if "ndarray" in data:
            return np.asarray(_decode_nested(data["ndarray"]), dtype=data["dtype"]).reshape(
                data["shape"]
            )
        if "mapping" in data:
            return {k: decode_value(v) for k, v in data["mapping"].items()}
        return {k: decode_value(v) for k, v in data.items()}
    return data
