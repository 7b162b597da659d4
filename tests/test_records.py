"""Records the compiled engine builds with ``tuple.__new__`` are checked here.

On the hot path the domain builds some named tuples with ``_new(Record, (…))`` —
``tuple.__new__`` — because compiled code calls a named tuple's class through its
interpreted ``__new__`` (~2.5k instructions). Nothing checks such a call at run time: a
missing element makes a short tuple (no default is applied), and two swapped values of
one type pass mypy. This test reads every such call in ``calculator/`` and holds it to the
record's fields: every field given, in order, a value named like one of the record's
fields at that field's place, and a literal (a string, number, None or tuple display) only
where the field's annotation admits it.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import calculator

PACKAGE = Path(calculator.__file__).parent


def _calls() -> list[tuple[str, int, str, list[ast.expr]]]:
    """(module, line, record name, elements) of every ``_new(Record, (…))`` call."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_new"
            ):
                record, values = node.args
                assert isinstance(record, ast.Name), f"{module}:{node.lineno}: a record by name"
                assert isinstance(values, ast.Tuple), f"{module}:{node.lineno}: a tuple display"
                found.append((module, node.lineno, record.id, values.elts))
    return found


def _name(element: ast.expr) -> str | None:
    """The name a value is written with (``x`` or ``a.x``), if it is one."""
    if isinstance(element, ast.Name):
        return element.id
    if isinstance(element, ast.Attribute):
        return element.attr
    return None


def _annotations(record: Any) -> dict[str, str]:
    """The record's field annotations as written in its module (a compiled module's
    classes hold evaluated ones, where ``str | None`` is no longer readable)."""
    path = PACKAGE.parent / Path(*record.__module__.split(".")).with_suffix(".py")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == record.__name__:
            return {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
    raise AssertionError(f"no class {record.__name__} in {path}")


def _fits(element: ast.expr, annotation: str) -> bool:
    """Whether a literal can be a value of a field annotated ``annotation`` (other
    expressions are left to mypy and the tests)."""
    if isinstance(element, ast.Tuple):
        return "tuple" in annotation or annotation == "Facts"  # Facts: a tuple of pairs
    if not isinstance(element, ast.Constant):
        return True
    value = element.value
    if value is None:
        return "None" in annotation
    for kind in (bool, int, str):  # bool first: a bool is an int
        if isinstance(value, kind):
            return kind.__name__ in annotation
    return True


CALLS = _calls()


def _record(module: str, name: str) -> Any:
    """The class a call names: the record itself, or a module's ``Final`` alias of it
    (``_STEP = Step``: compiled, a Final name is read without a look-up in the globals)."""
    return getattr(importlib.import_module(module), name)


def test_the_calls_are_found() -> None:
    # the engine's own records are native classes now (calculator.records), built by a
    # direct call: what is left are the request's records and the echoed Outcome
    assert len(CALLS) >= 3
    built = {_record(module, name).__name__ for module, _, name, _ in CALLS}
    assert built >= {"Hand", "Outcome"}


def test_every_record_built_with_tuple_new_gets_each_field_in_its_place() -> None:
    wrong = []
    for module, line, name, elements in CALLS:
        record = _record(module, name)
        fields = record._fields
        where = f"{module}:{line} {record.__name__}"
        if len(elements) != len(fields):
            wrong.append(f"{where}: {len(elements)} values for {len(fields)} fields {fields}")
            continue
        for index, element in enumerate(elements):
            written = _name(element)
            if written in fields and fields.index(written) != index:
                wrong.append(f"{where}: {written} is field {fields.index(written)}, not {index}")
            annotation = _annotations(record)[fields[index]]
            if not _fits(element, annotation):
                literal = ast.unparse(element)
                wrong.append(f"{where}: {literal} for {fields[index]}: {annotation}")
    assert not wrong, "\n".join(wrong)
