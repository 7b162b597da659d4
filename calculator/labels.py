"""Korean and English labels for every code the engine emits (items, steps, reasons).

Apps show these next to the amounts; the codes themselves are the contract. The labels
are declared once, in the code lists of :mod:`calculator.codes`.

>>> LABELS["pi_bak"]
Label(ko='피박', en='junk penalty (pi-bak)')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from calculator.codes import CODES, Label

__all__ = ["LABELS", "Label", "label", "label_in"]

# read through a plain dict: compiled, a mapping proxy's ``get`` is a generic method call
_LABELS: Final[dict[str, Label]] = {
    code: found for name, codes in CODES.items() if name != "error" for code, found in codes.items()
}
LABELS: Final[Mapping[str, Label]] = MappingProxyType(_LABELS)


def label(code: str) -> Label:
    """The label of ``code``; an unlabelled code labels itself (never raises)."""
    return _LABELS.get(code) or Label(code, code.replace("_", " "))


def label_in(code: str, lang: str) -> str:
    """The label of ``code`` in ``lang`` (a field of :class:`Label`).

    >>> label_in("pi_bak", "ko"), label_in("pi_bak", "en")
    ('피박', 'junk penalty (pi-bak)')
    """
    found = label(code)
    # the fields by name: compiled, ``getattr`` with a variable name is a generic call
    if lang == "ko":
        return found.ko
    if lang == "en":
        return found.en
    return str(getattr(found, lang))
