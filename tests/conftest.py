"""Shared test fixtures: the example data files and the hand builder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(Path(__file__).parent))


def load_data(name: str) -> dict[str, Any]:
    """A JSON data file from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))
