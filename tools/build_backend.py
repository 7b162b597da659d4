"""PEP 517 build backend: setuptools, plus mypy when the compiled engine is asked for.

``GOSTOP_COMPILE=1 pip install …`` compiles the scoring core with mypyc (see setup.py);
only then does the build need mypy, so only then is it added to the build requirements.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import build_meta as _meta
from setuptools.build_meta import *  # noqa: F403 - re-export the setuptools backend

_MYPY = "mypy>=1.13,<3"


def _extra() -> list[str]:
    if os.environ.get("GOSTOP_COMPILE") != "1":
        return []
    # mypyc type-checks what it compiles, and calculator/api/serialize.py imports its
    # package (Flask, marshmallow, orjson…): without the project's own dependencies in
    # pip's build environment a fresh environment's first install fell back to pure Python.
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [_MYPY, *project["dependencies"]]


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    return _meta.get_requires_for_build_wheel(config_settings) + _extra()


def get_requires_for_build_editable(config_settings=None):  # type: ignore[no-untyped-def]
    return _meta.get_requires_for_build_editable(config_settings) + _extra()
