"""docs/rules.md holds the option tables generated from the declarations, and is current."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from calculator.balance import BalanceRules
from calculator.options import specs
from calculator.rules import GoStopRules

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rules_doc", ROOT / "tools" / "rules_doc.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_rules_doc_is_current() -> None:
    tool = _tool()
    text = tool.DOC.read_text(encoding="utf-8")
    assert tool.render(text) == text, "docs/rules.md is stale: run python tools/rules_doc.py"


def test_every_option_has_its_row() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rules_type in (GoStopRules, BalanceRules):
        for spec in specs(rules_type):
            assert f"\n| `{spec.name}` |" in text, spec.name


def test_rendering_keeps_what_is_outside_the_markers() -> None:
    tool = _tool()
    text = f"# Title\n\nbefore\n\n{tool.BEGIN}\nold rows\n{tool.END}\n\nafter\n"
    fresh = tool.render(text)
    assert fresh.startswith("# Title\n\nbefore\n\n")
    assert fresh.endswith("\n\nafter\n")
    assert "old rows" not in fresh
    assert "| `ppuk_payout` |" in fresh
