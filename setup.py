"""Optional: compile the scoring core with mypyc (``GOSTOP_COMPILE=1 pip install …``).

Without GOSTOP_COMPILE=1 this is a plain setuptools build of pure Python. With it, the
hot domain modules are compiled to C extensions (about twice as fast; see
bench/RESULTS.md) and ``calculator/_compiled.json`` records the hash of each compiled
source, so that ``import calculator`` refuses a compiled module whose source has since
changed (a stale extension would otherwise shadow the edited ``.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup

COMPILED = [
    "calculator/cards.py",
    "calculator/scoring.py",
    "calculator/tables.py",
    "calculator/multipliers.py",
    "calculator/piles.py",
    "calculator/table.py",
    "calculator/side.py",
    "calculator/result.py",
    "calculator/settlement.py",
]
MANIFEST = Path("calculator/_compiled.json")

ext_modules = []
if os.environ.get("GOSTOP_COMPILE") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip's first pass asks for the build requirements (mypy among them)
        print("setup.py: mypyc is not importable yet; building pure Python for now")
    else:
        ext_modules = mypycify(COMPILED, opt_level="3")
        digests = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in COMPILED}
        MANIFEST.write_text(json.dumps(digests, indent=1) + "\n")
elif MANIFEST.exists():
    MANIFEST.unlink()

setup(ext_modules=ext_modules, package_data={"calculator": ["_compiled.json"]})
