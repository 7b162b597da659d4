"""The domain imports nothing from the web stack (STYLE: pure functions over frozen values)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "calculator"
WEB = {"flask", "marshmallow", "werkzeug", "apispec", "orjson", "flask_cors", "gunicorn"}
STORAGE = {"sqlalchemy", "alembic", "psycopg"}
EDGES = ("api", "store")  # the HTTP layer and the database: the only impure packages


def test_domain_modules_do_not_import_the_web_stack() -> None:
    """Nor the database: the ledger (calculator/ledger) is domain; storage is an edge."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).parts[0] in EDGES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.relative_to(PACKAGE)}: {n}"
                for n in names
                if n.split(".")[0] in WEB | STORAGE
            ]
    assert not offenders


def test_domain_records_are_frozen() -> None:
    import dataclasses

    import calculator

    for name in calculator.__all__:
        value = getattr(calculator, name)
        if dataclasses.is_dataclass(value):
            assert value.__dataclass_params__.frozen, name


def test_request_records_are_immutable() -> None:
    """The request records are named tuples (cheap to build); they stay unassignable."""
    from calculator.hand import Hand, Outcome, OutcomeType, PlayerHand

    hand = Hand(
        players=(PlayerHand(id="A"), PlayerHand(id="B")),
        outcome=Outcome(type=OutcomeType.STOP, winner="A"),
    )
    for record, attribute in (
        (hand, "stake"),
        (hand.players[0], "go_count"),
        (hand.outcome, "winner"),
    ):
        with pytest.raises(AttributeError):
            setattr(record, attribute, 2)
