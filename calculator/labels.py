"""Korean and English labels for every code the engine emits (items, steps, reasons).

Apps show these next to the amounts; the codes themselves are the contract. The labels
are declared once, in the code lists of :mod:`calculator.codes`.

>>> LABELS["pi_bak"]
Label(ko='피박', en='junk penalty (pi-bak)')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from calculator.codes import CODES, Label

__all__ = ["LABELS", "Label", "label"]

LABELS: Mapping[str, Label] = MappingProxyType(
    {
        code: found
        for name, codes in CODES.items()
        if name != "error"
        for code, found in codes.items()
    }
)


def label(code: str) -> Label:
    """The label of ``code``; an unlabelled code labels itself (never raises)."""
    return LABELS.get(code) or Label(code, code.replace("_", " "))
