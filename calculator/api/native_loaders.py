"""The generator of ``calculator/api/fast_loaders.py``: the compiled loaders of a hand's
schemas.

Each schema of :data:`NATIVE_SCHEMAS` makes, beside its interpreted loaders, the source of
a loader class for mypyc (``StrictSchema._native`` in calculator/api/strict_schema.py, by
:func:`native_class`); :func:`native_module` gathers them into one module, and
:func:`write_native_module` writes it. The compiled build compiles it (setup.py); a schema
there loads by its compiled class while the class's source is still the one it generates
(its :func:`source_digest`), and interpreted, by the loaders made at import.
tests/api/test_fast_loaders.py holds the file to the schemas. The fields whose checks the
loaders apply are in calculator/api/fields.py.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from pathlib import Path
from typing import Any, Final

from marshmallow import Schema

NATIVE_SCHEMAS = (
    "calculator.api.schemas.HandRequestSchema",
    "calculator.api.schemas.PlayerSchema",
    "calculator.api.schemas.TallySchema",
    "calculator.api.schemas.DeclaredSchema",
    "calculator.api.schemas.OutcomeSchema",
    "calculator.api.schemas.HolderSchema",
    "calculator.api.schemas.EventSchema",
)
"""The record schemas whose loaders :func:`native_module` writes into
``calculator/api/fast_loaders.py``, which the compiled build compiles with mypyc: a hand's
(the hot path of both scoring endpoints). An interpreted loader pays a dictionary look-up
for each name it reads; compiled, it reads them from its own object's slots, calls its
nested objects' loaders directly, and looks each key up once (a shape's loader then buys
nothing: see :meth:`~calculator.api.strict_schema.StrictSchema._native`)."""
NATIVE_MODULE = "calculator/api/fast_loaders.py"
NATIVE_CALLS: Final = ("calculator.cards", "calculator.api.hand_requests")
"""The modules whose functions the compiled loaders import and call directly
(:func:`_direct`): compiled in the same build, and neither imports the loaders."""


# a name in generated code, or a string literal (a key, whose text is not a name)
_NAME_OR_STRING = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\b[A-Za-z_]\w*\b""")
_MAP = re.compile(r"(list|tuple)\(map\((\w+), v\)\)")  # a list of nested objects, loaded


def native_class(
    name: str,
    namespace: dict[str, Any],
    blocks: list[tuple[str, list[str], list[str]]],
    make: str,
    values: list[str],
    nested: dict[str, Schema],
) -> str:
    """The source of the compiled loader (a class) of the record schema ``name``, from the
    blocks of :meth:`~calculator.api.strict_schema.StrictSchema._compile` (see
    :meth:`~calculator.api.strict_schema.StrictSchema._native`)."""
    natives = {a for a, schema in nested.items() if qualified_name(schema) in NATIVE_SCHEMAS}
    body = [
        "        if type(data) is not dict:",
        "            raise Fallback",
        "        found = 0",
        "        size = len(data)",
        "        try:",
    ]
    for key, given, left_out in blocks:
        # once every key of the object is found, the fields after are left out: their
        # defaults without a look-up (a batched hand's objects give 4–6 of a player's 13
        # fields, 5 of a request's 8: ~16 look-ups of absent keys a hand, ~1k instructions)
        body += [
            f"            v = data.get({key!r}, MISSING) if found < size else MISSING",
            "            if v is not MISSING:",
            "                found += 1",
        ]
        body += ["        " + line for line in given[1:]]  # less ``v = data[key]``
        if left_out:
            body += ["            else:", *("        " + line for line in left_out)]
    if not blocks:
        body.append("            pass")
    body += [
        "        except TypeError:",
        "            raise Fallback from None",
        "        if found != size:  # a key no field has",
        "            raise Fallback",
        f"        return {make.format(', '.join(values))}",
    ]
    text = "\n".join(body)
    # a tuple of nested objects made at once from the list (compiled, the length known),
    # not through a list first
    text = _MAP.sub(
        lambda m: (
            (f"[{m[2]}(x) for x in v]" if m[1] == "list" else f"tuple({m[2]}(x) for x in v)")
            if m[2] in natives
            else m[0]
        ),
        text,
    )
    used: set[str] = set()
    imports: dict[str, str] = {}  # a function called directly: its name → its module

    def attribute(match: re.Match[str]) -> str:
        word = match[0]
        if word[0] in "'\"" or word not in namespace or word.startswith("__") or word == "load":
            return word
        module = _direct(namespace[word])
        if module is not None:
            # one name, one function: two modules' functions of one name would shadow
            if imports.setdefault(namespace[word].__name__, module) != module:
                raise ValueError(f"{word}: two functions of NATIVE_CALLS share its name")
            return str(namespace[word].__name__)
        used.add(word)
        return f"self.{word}.load" if word in natives else f"self.{word}"

    text = _NAME_OR_STRING.sub(attribute, text)
    locals_ = sorted(set(re.findall(r"\b(f\d+)\b", text)), key=lambda f: int(f[1:]))
    cls = _native_name(name)
    lines = [f"from {module} import {function}" for function, module in sorted(imports.items())]
    lines += ["", ""] if imports else []
    lines += [f"class {cls}:", f'    """The loader of {name} (compiled)."""', ""]
    used.add("Fallback")  # load_fast's
    for word in sorted(used):
        if word in natives:
            kind = _native_name(qualified_name(nested[word]))
        else:  # a table (an enum's members by value) typed: compiled, a dict's own look-ups
            kind = "dict[Any, Any]" if type(namespace[word]) is dict else "Any"
        lines.append(f"    {word}: {kind}")
    lines.append("    slow: Any  # the schema's load, set once the object is made")
    lines += ["", "    def __init__(self, constants: dict[str, Any]) -> None:"]
    lines += [f"        self.{word} = constants[{word!r}]" for word in sorted(used)]
    lines += [
        "",
        "    def load_fast(self, data: Any) -> Any:",
        '        """StrictSchema.load_fast: by load, else by the full load (slow)."""',
        "        try:",
        "            return self.load(data)",
        "        except self.Fallback:",
        "            return self.slow(data)",
    ]
    lines += ["", "    def load(self, data: Any) -> Any:", "        v: Any"]
    lines += [f"        {local}: Any" for local in locals_]
    return "\n".join([*lines, text, ""])


def _direct(value: Any) -> str | None:
    """The module of ``value``, if it is a function of :data:`NATIVE_CALLS` that a
    compiled loader imports and calls directly (else None: an attribute of the loader
    object, called through Python's protocol).

    Compiled together, a direct call is a C call: through an attribute, each call of a
    compiled function went through its Python wrapper, which parses its arguments again
    (a hand's record builder: ~0.3k instructions; a pile's ``all_card_ids``: ~0.15k)."""
    module = getattr(value, "__module__", None)
    if module not in NATIVE_CALLS or not callable(value) or isinstance(value, type):
        return None
    name = getattr(value, "__name__", None)
    return module if getattr(importlib.import_module(module), name or "", None) is value else None


def qualified_name(schema: Schema) -> str:
    """The name of ``schema``'s class as :data:`NATIVE_SCHEMAS` names it (module and
    qualified name)."""
    return f"{type(schema).__module__}.{type(schema).__qualname__}"


def _native_name(name: str) -> str:
    """The class of the schema ``name``'s compiled loader."""
    return "Load" + name.rpartition(".")[2]


def source_digest(source: str) -> str:
    """The digest of a compiled loader's source that the generated module keeps (its
    ``SOURCES``), by which a schema knows the compiled class is still the one it makes."""
    return hashlib.sha256(source.encode()).hexdigest()


def native_module() -> str:
    """The source of ``calculator/api/fast_loaders.py``: the compiled loaders of
    :data:`NATIVE_SCHEMAS`, as their schemas generate them now (``write_native_module``
    writes it; tests/api/test_fast_loaders.py holds the file to it)."""
    classes, digests = [], []
    for name in NATIVE_SCHEMAS:
        module, _, qualname = name.rpartition(".")
        schema = getattr(importlib.import_module(module), qualname)()
        source = schema.native_source
        assert source is not None, name
        classes.append(source)
        digests.append(f"    {name!r}: {source_digest(source)!r},")
    table = [f"    {name!r}: {_native_name(name)}," for name in NATIVE_SCHEMAS]
    return "\n".join(
        [
            '"""The compiled fast loaders of the hand\'s schemas. GENERATED: do not edit.',
            "",
            "Written by calculator.api.native_loaders.write_native_module() from the schemas,",
            "which use a class here only in the compiled build (setup.py), and only while its",
            "source is the one they generate (SOURCES holds its digest): see",
            "calculator.api.strict_schema.StrictSchema._native.",
            '"""',
            "",
            "# ruff: noqa",
            "# fmt: off",
            "from __future__ import annotations",
            "",
            "from typing import Any, Final",
            "",
            "",
            "class _Missing:",
            '    """The value of a key left out."""',
            "",
            "",
            "MISSING: Final = _Missing()",
            "",
            "",
            *(f"{c}\n" for c in classes),
            "CLASSES: Final[dict[str, Any]] = {",
            *table,
            "}",
            "SOURCES: Final[dict[str, str]] = {",
            *digests,
            "}",
            "",
        ]
    )


def write_native_module() -> None:
    """Write ``calculator/api/fast_loaders.py`` (:func:`native_module`), then rebuild."""
    Path(__file__).parent.joinpath("fast_loaders.py").write_text(native_module())
