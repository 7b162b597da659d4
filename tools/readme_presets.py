"""Regenerate the README's table of presets and aliases from the preset registry.

Only the text between the two markers below is rewritten::

    python tools/readme_presets.py          # rewrite README.md's preset table
    python tools/readme_presets.py --check  # exit 1 if it is stale

tests/test_readme.py fails when the committed README differs from what this writes, so
a preset or an alias added in calculator/presets.py (or calculator/balance.py) shows up
in the README the day it is added.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- BEGIN GENERATED: presets (python tools/readme_presets.py) -->"
END = "<!-- END GENERATED: presets -->"


def table() -> str:
    """The generated block: one row per preset, with its aliases and fingerprint."""
    from calculator.presets import presets, resolve

    rows = [
        BEGIN,
        "",
        "| preset | aliases | endpoint | what it is | fingerprint |",
        "|---|---|---|---|---|",
    ]
    for preset in presets().values():
        aliases = ", ".join(f"`{alias}`" for alias in preset.aliases) or "—"
        endpoint = f"`POST /v1/{preset.variant.value}/hands`"
        fingerprint = resolve(preset.name).fingerprint
        rows.append(
            f"| `{preset.name}` | {aliases} | {endpoint} | {preset.title} | `{fingerprint}` |"
        )
    return "\n".join([*rows, "", END])


def render(text: str) -> str:
    """``text`` with its generated block replaced by the current table."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{README} lacks the markers {BEGIN!r} … {END!r}")
    return text[:start] + table() + text[end + len(END) :]


def main(argv: list[str]) -> int:
    """Rewrite README.md's preset table, or with ``--check`` say whether it is current."""
    sys.path.insert(0, str(ROOT))
    text = README.read_text(encoding="utf-8")
    fresh = render(text)
    if "--check" in argv:
        if fresh != text:
            print("README.md's preset table is stale: run python tools/readme_presets.py")
            return 1
        return 0
    README.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
