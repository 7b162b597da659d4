"""Guard for the optional compiled build (setup.py, GOSTOP_COMPILE=1).

A compiled module shadows its ``.py`` file. If the source was edited after compiling,
the old compiled code would run — silently wrong. So when ``_compiled.json`` is present,
every compiled source must still hash to what was compiled.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

_HERE = Path(__file__).parent


def check_compiled() -> None:
    """Raise ImportError if a compiled module's source changed since it was compiled."""
    manifest = _HERE / "_compiled.json"
    if not manifest.exists():
        if any(_HERE.rglob("*.so")) and (_HERE.parent / "setup.py").exists():
            raise ImportError(
                "compiled modules in the source tree without calculator/_compiled.json; "
                "rebuild with GOSTOP_COMPILE=1 pip install -e . or reinstall with pip "
                "install -e . (which removes them)"
            )
        return
    for path, digest in json.loads(manifest.read_text()).items():
        source = _HERE.parent / path
        if source.exists() and hashlib.sha256(source.read_bytes()).hexdigest() != digest:
            raise ImportError(
                f"{path} changed after the engine was compiled; rebuild it with "
                "GOSTOP_COMPILE=1 pip install -e . (or remove the .so files under calculator/ and "
                "calculator/_compiled.json to run the pure-Python engine)"
            )


check_compiled()
