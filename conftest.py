"""pytest at the repository root: skip the doctests of modules built with mypyc.

A compiled module (GOSTOP_COMPILE=1, see setup.py) cannot be collected for doctests;
its tests in tests/ still run against it. The pure-Python build runs every doctest.
"""

from pathlib import Path

_ROOT = Path(__file__).parent
collect_ignore = [
    str(so.relative_to(_ROOT).with_name(so.name.split(".")[0] + ".py"))
    for so in (_ROOT / "calculator").rglob("*.so")  # calculator/api/serialize too
]
