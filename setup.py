"""Optional: compile the scoring core with mypyc (``GOSTOP_COMPILE=1 pip install …``).

Without GOSTOP_COMPILE=1 this is a plain setuptools build of pure Python, and it removes
compiled modules left in the source tree by an earlier compiled build. With it, the hot
domain modules and the answer's serializer are compiled to C extensions (about twice as
fast; bench/RESULTS.md) and
``calculator/_compiled.json`` records the hash of each compiled source, so that
``import calculator`` refuses a compiled module whose source has since changed (a stale
extension would otherwise shadow the edited ``.py``). If the C compiler fails, the build
falls back to pure Python with a warning: the service runs either way.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "calculator/records.py",
    "calculator/cards.py",
    "calculator/hand.py",
    "calculator/scoring.py",
    "calculator/tables.py",
    "calculator/multipliers.py",
    "calculator/piles.py",
    "calculator/deck_fit.py",
    "calculator/table.py",
    "calculator/ending.py",
    "calculator/side.py",
    "calculator/result.py",
    "calculator/settlement.py",
    # settle's steps: the readings, a stop's payment, a declared pile's bak flags
    "calculator/readings.py",
    "calculator/hand_payment.py",
    "calculator/declared_baks.py",
    # the answer's builders: labels, sentences, a hand's JSON text and the JSON dicts of
    # every other response
    "calculator/codes.py",
    "calculator/labels.py",
    "calculator/explain.py",
    "calculator/api/serialize.py",
    "calculator/api/balance_json.py",
    "calculator/api/session_json.py",
    "calculator/api/reference_json.py",
    # the size and answer bound of each hand of a batch, measured before any is scored
    "calculator/api/batch_bounds.py",
    # the entries of every body's objects, counted to find a name given twice (json_keys)
    "calculator/api/json_counts.py",
    # the fast loaders of a hand's schemas, generated from them (calculator/api/native_loaders.py)
    "calculator/api/fast_loaders.py",
    # the loaded hand request's records and its rule sets' resolution (a batched hand's
    # record builder, resolve_spec and Resolver.resolve; the deadline's check)
    "calculator/api/hand_requests.py",
    "calculator/presets.py",
    "calculator/limits.py",
    # a loaded hand request to its answer, and a batch's hands one by one
    "calculator/api/score_requests.py",
]
MANIFEST = Path("calculator/_compiled.json")


def _remove_compiled() -> None:
    MANIFEST.unlink(missing_ok=True)
    for path in Path("calculator").rglob("*.so"):  # calculator/api/serialize too
        path.unlink()
    for path in Path(".").glob("*__mypyc*.so"):
        path.unlink()


class BuildOrFallBack(build_ext):
    """Compile the extensions; on failure, warn and leave the pure-Python package."""

    def finalize_options(self) -> None:
        super().finalize_options()
        # Every extension at once, on every core, unless pip or the command line set
        # build_ext --parallel (the modules' shim libraries beside the one of their C)
        if self.parallel is None:
            self.parallel = True

    def run(self) -> None:
        _remove_compiled()  # what an earlier build left, perhaps for another set of modules
        try:
            super().run()
        except Exception as error:
            print(f"setup.py: compiling the engine failed ({error}); using pure Python")
            _remove_compiled()
            self.extensions = []
            return
        digests = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest() for path in COMPILED}
        MANIFEST.write_text(json.dumps(digests, indent=1) + "\n")


# pip runs this file three times for one build: for the build requirements (egg_info), for
# the metadata (dist_info), then to build. Only the build needs the extensions, and each
# mypycify type-checks every compiled module (~15 s): the metadata passes skip it.
METADATA_ONLY = len(sys.argv) > 1 and sys.argv[1] in ("egg_info", "dist_info")

ext_modules = []
if os.environ.get("GOSTOP_COMPILE") != "1":
    _remove_compiled()
elif not METADATA_ONLY:
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip installs the build requirements (mypy among them) first
        print("setup.py: mypyc is not importable; building pure Python")
    else:
        try:
            # One C file and one shared library for every module (not separate=True, a
            # library per module: its C compiled on every core at once, the build ~50 s
            # shorter). Per module, each library held its own copy of mypyc's runtime
            # (~110 kB of text; 4.5 MB for the 20 modules against 2.0 MB) and called the
            # other modules through a table: a hand request ran its helpers from ~15
            # copies, and the workers under load spent ~6 % more CPU on a hand request
            # (bench/RESULTS.md, thirty-first session), 0.7 % more instructions.
            ext_modules = mypycify(COMPILED, opt_level="3", separate=False)
            if sys.platform.startswith("linux"):  # gcc and clang
                # The library's functions hidden (each module's PyInit_ stays visible, and
                # the modules find the library by importing it and through capsules, not
                # by its symbols): ~14,000 of its calls of its own runtime and of each
                # other's functions are made directly, not through the PLT as calls that
                # another library could interpose (bench/RESULTS.md, thirty-first session).
                for extension in ext_modules:
                    extension.extra_compile_args.append("-fvisibility=hidden")
        except BaseException as error:
            print(f"setup.py: mypyc could not compile the engine ({error}); using pure Python")
            _remove_compiled()

setup(
    ext_modules=ext_modules,
    cmdclass={"build_ext": BuildOrFallBack},
    # GET /v1/rules serves rules.md; / serves the scorekeeper page (calculator/api/page.py)
    package_data={"calculator": ["_compiled.json", "api/rules.md", "web/static/*"]},
)
