"""Regenerate the option tables of docs/rules.md from the option declarations.

Only the text between the two markers below is rewritten; everything else in the file
(the hand-written sections) is kept as it is. The package ships a copy of the document,
calculator/api/rules.md, which the service serves at GET /v1/rules; this writes it too::

    python tools/rules_doc.py          # rewrite docs/rules.md and its packaged copy
    python tools/rules_doc.py --check  # exit 1 if either is stale

tests/test_rules_doc.py fails when the committed files differ from what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
PACKAGED = ROOT / "calculator" / "api" / "rules.md"  # kept identical to DOC
BEGIN = "<!-- BEGIN GENERATED: option tables (python tools/rules_doc.py) -->"
END = "<!-- END GENERATED: option tables -->"


def tables() -> str:
    """The generated block: one table per variant, one row per option."""
    from calculator.balance import BalanceRules
    from calculator.options import markdown_table
    from calculator.rules import GoStopRules

    return "\n".join(
        [
            BEGIN,
            "",
            "### Go-Stop (`POST /v1/gostop/hands`)",
            "",
            markdown_table(GoStopRules),
            "",
            "### The 120/80/60 balance variant (`POST /v1/balance/hands`)",
            "",
            markdown_table(BalanceRules),
            "",
            END,
        ]
    )


def render(text: str) -> str:
    """``text`` with its generated block replaced by the current tables."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{DOC} lacks the markers {BEGIN!r} … {END!r}")
    return text[:start] + tables() + text[end + len(END) :]


def main(argv: list[str]) -> int:
    """Rewrite docs/rules.md and its packaged copy, or with ``--check`` say whether both
    are current."""
    sys.path.insert(0, str(ROOT))
    text = DOC.read_text(encoding="utf-8")
    fresh = render(text)
    if "--check" in argv:
        copy = PACKAGED.read_text(encoding="utf-8") if PACKAGED.exists() else None
        if fresh != text or copy != fresh:
            print(f"{DOC} or {PACKAGED} is stale: run python tools/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(fresh, encoding="utf-8")
    PACKAGED.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
