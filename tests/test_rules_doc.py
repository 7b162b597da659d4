"""docs/rules.md: its generated option tables are current, the package ships it unchanged,
and every section an option cites is a heading the option's link reaches."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from calculator.api import rules_document
from calculator.balance import BalanceRules
from calculator.options import OptionSpec, specs
from calculator.rules import GoStopRules
from tests_support import load_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    return load_tool("rules_doc")


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


def _all_specs() -> list[OptionSpec]:
    return [spec for rules_type in (GoStopRules, BalanceRules) for spec in specs(rules_type)]


def test_the_package_ships_the_document_unchanged() -> None:
    tool = _tool()
    assert tool.PACKAGED.read_bytes() == tool.DOC.read_bytes(), (
        "calculator/api/rules.md differs from docs/rules.md: run python tools/rules_doc.py"
    )
    assert rules_document.text() == tool.DOC.read_text(encoding="utf-8")


def test_check_mode_notices_a_stale_packaged_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = _tool()
    doc, copy = tmp_path / "rules.md", tmp_path / "copy.md"
    doc.write_text(tool.render(tool.DOC.read_text(encoding="utf-8")), encoding="utf-8")
    copy.write_text("an older text\n", encoding="utf-8")
    monkeypatch.setattr(tool, "DOC", doc)
    monkeypatch.setattr(tool, "PACKAGED", copy)
    assert tool.main(["--check"]) == 1
    assert tool.main([]) == 0
    assert copy.read_bytes() == doc.read_bytes()
    assert tool.main(["--check"]) == 0


def test_every_option_cites_a_numbered_heading_of_the_document() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    numbers = {h.split(" ", 1)[0].rstrip(".") for h in rules_document.headings(text)}
    for spec in _all_specs():
        assert re.fullmatch(r"docs/rules\.md §\d+(\.\d+)?", spec.section), spec.section
        assert spec.section.removeprefix("docs/rules.md §") in numbers, (spec.name, spec.section)


def test_every_link_reaches_a_heading_anchor() -> None:
    anchors = [rules_document.anchor(h) for h in rules_document.headings(rules_document.text())]
    assert len(anchors) == len(set(anchors)), (
        "two headings share an anchor: links would be ambiguous"
    )
    for spec in _all_specs():
        path, _, fragment = rules_document.link(spec.section).partition("#")
        assert path == "/v1/rules"
        assert fragment in anchors, (spec.name, fragment)
    assert rules_document.link("docs/rules.md §4.5") == "/v1/rules#45-피박-pi-bak"
    assert rules_document.link("docs/rules.md W13").startswith("/v1/rules#w13-")


def test_a_citation_of_a_missing_section_has_no_link() -> None:
    with pytest.raises(KeyError):
        rules_document.link("docs/rules.md §99.9")
    with pytest.raises(KeyError):
        rules_document.link("rules.md §8 #10")


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("1. The deck and card IDs", "1-the-deck-and-card-ids"),
        ("4.7 고박 and 독박 (go-bak, dok-bak)", "47-고박-and-독박-go-bak-dok-bak"),
        ("7. The 120/80/60 balance variant", "7-the-1208060-balance-variant"),
        ("W17. Three and more gos under each formula", "w17-three-and-more-gos-under-each-formula"),
        ("Go-Stop (`POST /v1/gostop/hands`)", "go-stop-post-v1gostophands"),
        ("a_b  c", "a_b--c"),  # underscores kept; each space is a hyphen, none merged
    ],
)
def test_anchors_are_the_ones_a_markdown_renderer_makes(heading: str, expected: str) -> None:
    assert rules_document.anchor(heading) == expected


def test_headings_skip_code_blocks() -> None:
    text = "# Title\n\n```sh\n# a shell comment\n```\n\n## 1. Next ##\n"
    assert rules_document.headings(text) == ["Title", "1. Next"]


def test_every_worked_example_has_its_heading() -> None:
    found = rules_document.sections()
    assert [f"W{n}" for n in range(1, 37) if f"W{n}" not in found] == []
    assert not re.search(r"/work/|shared/reference|shared/seeds", rules_document.text())
