"""README.md: its preset table is generated from the registry and current, so every preset
and alias the service accepts is listed; its documented query parameters exist."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from calculator.presets import presets
from tests_support import load_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    return load_tool("readme_presets")


def test_the_readme_preset_table_is_current() -> None:
    tool = _tool()
    text = tool.README.read_text(encoding="utf-8")
    assert tool.render(text) == text, "README.md is stale: run python tools/readme_presets.py"


def test_every_preset_and_alias_is_in_the_readme() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for preset in presets().values():
        for name in (preset.name, *preset.aliases):
            assert f"`{name}`" in text, name


def test_rendering_replaces_only_the_marked_block() -> None:
    tool = _tool()
    text = f"# Title\n\nbefore\n\n{tool.BEGIN}\nold rows\n{tool.END}\n\nafter\n"
    fresh = tool.render(text)
    assert fresh.startswith("# Title\n\nbefore\n\n")
    assert fresh.endswith("\n\nafter\n")
    assert "old rows" not in fresh
    assert "`standard`" in fresh
