"""README.md: its preset table is generated from the registry and current, so every preset
and alias the service accepts is listed; its documented query parameters exist."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

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


def _fence_problems(text: str) -> list[str]:
    """Where a Markdown document's code fences go wrong (CommonMark): a fence left open at
    the end, or a fence with an info string (```sh) inside a fence, which can only be an
    opening fence whose block before it was never closed: everything between becomes code
    (a heading included)."""
    import re

    problems = []
    opened: tuple[int, str] | None = None  # (line, fence) of the block we are in
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r" {0,3}(`{3,}|~{3,})(.*)$", line)
        if match is None:
            continue
        fence, info = match[1], match[2].strip()
        if opened is None:
            opened = (number, fence)
        elif fence[0] == opened[1][0] and len(fence) >= len(opened[1]) and not info:
            opened = None
        elif fence[0] == opened[1][0] and info:
            problems.append(f"line {number}: a fence opens inside the one of line {opened[0]}")
    if opened is not None:
        problems.append(f"line {opened[0]}: a fence never closed")
    return problems


def test_every_code_fence_is_closed() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        assert _fence_problems(doc.read_text(encoding="utf-8")) == [], doc.name


def test_the_fence_check_finds_an_unclosed_block() -> None:
    closed = "text\n```sh\nls\n```\n\n## Next\n\n```json\n{}\n```\n"
    assert _fence_problems(closed) == []
    unclosed = "```sh\nls\n\n## Next\n\n```json\n{}\n```\n"
    assert _fence_problems(unclosed) == ["line 6: a fence opens inside the one of line 1"]
    assert _fence_problems("```\nls\n") == ["line 1: a fence never closed"]


def test_the_phone_section_runs_the_stack_and_warns_against_plain_gunicorn() -> None:
    """Phones at a table are the clients that stall sync workers (a phone asleep holds its
    connection): README's advice for them is deploy/run, and the plain gunicorn only with
    the warning (RELIABILITY.md has the figures)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### From a phone on the same network", 1)[1].split("\n## ", 1)[0]
    first_block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert first_block is not None
    commands = [line for line in first_block[1].splitlines() if not line.startswith("#")]
    assert commands
    assert all("deploy/run" in line for line in commands), commands
    if "gunicorn" in section:
        assert "30 s" in section
        assert "RELIABILITY.md" in section


# A section cited by a message or a document: README.md, "<heading or bold paragraph>".
_CITATION = re.compile(r'README\.md,\s+"?([^"()]+?)"?\)')


def _readme_sections(text: str) -> set[str]:
    """The README's headings and bold paragraph leads (``**Deleting and expiry.**``)."""
    headings = {m.group(1) for m in re.finditer(r"^#+ (.+)$", text, re.MULTILINE)}
    leads = {m.group(1) for m in re.finditer(r"^\*\*([^*]+?)\.\*\*", text, re.MULTILINE)}
    return headings | leads


def test_every_readme_section_the_code_cites_exists() -> None:
    """A message that sends the reader to a section of the README names one it has (the
    purge's refusal once cited "Purging", a section that never was)."""
    sections = _readme_sections((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"Deleting and expiry", "Tables: a night of play"} <= sections
    cited = {
        (path.relative_to(ROOT).as_posix(), name.strip())
        for path in sorted((ROOT / "calculator").rglob("*.py"))
        for name in _CITATION.findall(" ".join(path.read_text(encoding="utf-8").split()))
    }
    assert ("calculator/api/cli.py", "Deleting and expiry") in cited
    assert {c for c in cited if c[1] not in sections} == set()


def test_the_purge_refusal_cites_the_section_that_says_how_to_run_it() -> None:
    from calculator.api.cli import _require_ttl
    from calculator.api.config import SettingsError

    with pytest.raises(SettingsError) as refused:
        _require_ttl({})
    assert str(refused.value).endswith(
        'run it with the service\'s environment file (README.md, "Deleting and expiry")'
    )
