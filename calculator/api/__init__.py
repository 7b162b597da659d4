"""The HTTP API: a Flask app factory; the v1 endpoints are flask-smorest blueprints.

This package is the only part of ``calculator`` that imports the web stack; it maps the
wire format to the domain in :mod:`calculator.api.schemas` and back in
:mod:`calculator.api.serialize`. The OpenAPI document is generated from the blueprints'
declarations (:mod:`calculator.api.docs`, :mod:`calculator.api.spec_setup`,
:mod:`calculator.api.openapi`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calculator.api.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app``, loaded when first asked for: the web stack (Flask, SQLAlchemy,
    Alembic…) comes with the app, not with every module of this package. What scores
    without HTTP (bench.corpus, bench.engine, the golden master) imports the schemas
    alone, in a fifth of the time: under valgrind (bench.instructions), a minute less."""
    if name == "create_app":
        from calculator.api.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
