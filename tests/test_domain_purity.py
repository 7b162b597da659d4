"""The domain imports nothing from the web stack (STYLE: pure functions over frozen values)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "calculator"
WEB = {"flask", "marshmallow", "werkzeug", "apispec", "orjson", "flask_cors", "gunicorn"}


def test_domain_modules_do_not_import_the_web_stack() -> None:
    offenders = []
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in WEB]
    assert not offenders


def test_domain_records_are_frozen() -> None:
    import dataclasses

    import calculator

    for name in calculator.__all__:
        value = getattr(calculator, name)
        if dataclasses.is_dataclass(value):
            assert value.__dataclass_params__.frozen, name
