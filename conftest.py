"""pytest at the repository root: skip the doctests of modules built with mypyc.

A compiled module (GOSTOP_COMPILE=1, see setup.py) cannot be collected for doctests;
its tests in tests/ still run against it. The pure-Python build runs every doctest.
"""

from pathlib import Path

collect_ignore = [
    str(Path("calculator") / (so.name.split(".")[0] + ".py"))
    for so in (Path(__file__).parent / "calculator").glob("*.so")
]
