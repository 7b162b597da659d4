"""Every code the service can emit is in a published list (calculator/codes.py).

Problem codes are written where each check is made, across the package; this reads the
source and finds every code literal handed to the functions that raise or collect a
problem, so a new check with an unlisted code fails here (the contract checks of the API
tests then catch any code emitted another way, through the document's enums).
"""

from __future__ import annotations

import ast
from pathlib import Path

from calculator.codes import CODE_LISTS, CODES
from calculator.labels import LABELS

PACKAGE = Path(__file__).parents[1] / "calculator"
# function name → the position of the code argument
RAISERS = {"Issue": 0, "add": 0, "fail": 0, "_issue": 0, "coded": 1}


def _emitted_codes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            position = RAISERS.get(name or "")
            if position is None or len(node.args) <= position:
                continue
            for sub in ast.walk(node.args[position]):
                value = sub.value if isinstance(sub, ast.Constant) else None
                if isinstance(value, str) and value.isidentifier() and value.islower():
                    found.setdefault(value, set()).add(path.name)
    return found


def test_every_emitted_problem_code_is_listed() -> None:
    emitted = _emitted_codes()
    assert len(emitted) >= 50  # the scan still finds the checks
    missing = {code: sorted(where) for code, where in emitted.items() if code not in CODES["error"]}
    assert not missing, f"add these codes to calculator/codes.py (error list): {missing}"


def test_code_lists_have_no_duplicates_and_labels_agree() -> None:
    for name, codes in CODE_LISTS.items():
        assert len(codes) == len(set(codes)), name
    for name, codes in CODES.items():
        if name != "error":
            for code, label in codes.items():
                assert LABELS[code] == label, code


def test_the_proxys_problem_codes_are_listed() -> None:
    """deploy/run writes nginx's own problem bodies; their codes are published too."""
    import re

    script = (PACKAGE.parent / "deploy" / "run").read_text(encoding="utf-8")
    codes = set(re.findall(r'code="([a-z_]+)"', script))
    assert len(codes) >= 7
    assert codes <= set(CODES["error"]), codes - set(CODES["error"])
