"""StrictSchema, the base of the request schemas, and the compiler of its fast loaders.

A :class:`StrictSchema` refuses unknown fields, naming the fields allowed there. A
marshmallow load walks every field through several layers of calls, which costs far more
than scoring a hand. So each strict field (calculator/api/fields.py) also gives a *fast
loader*: a plain function that applies the same checks and either returns the loaded
value or raises :class:`~calculator.api.fields.Fallback`. Each :class:`StrictSchema`
compiles them into its ``fast_load``; on any ``Fallback`` the caller runs the full
``load``, which produces the detailed errors. The fast path never writes an error itself,
and property tests (boundary values and random mutations) hold the two paths to exactly
the same answers: the same value, or a fallback where ``load`` refuses. What the compiler
cannot translate, it refuses when the schema is made. :class:`StrictNested`, the field of
a nested schema, is here beside the schema whose fast loader it calls.

The loaders of a hand's schemas (``NATIVE_SCHEMAS``) are also written, by the same
generator, into ``calculator/api/fast_loaders.py`` (calculator/api/native_loaders.py
writes it), which the compiled build compiles with mypyc: there a schema loads by its
compiled loader while that loader's source is still the one the schema generates
(:meth:`StrictSchema._native`; a test holds the file to the schemas); interpreted, it
loads by the loaders made here at import.

Over the house's ~400 lines: the compiler is the schema's own methods, which read its
fields, hooks and record and set its loaders, and the schema is what it compiles; apart,
each would reach into the other's insides.
"""

from __future__ import annotations

import inspect
import re
import threading
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, ClassVar

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, missing, post_load, types
from marshmallow.decorators import POST_DUMP, POST_LOAD, PRE_DUMP, VALIDATES_SCHEMA

from calculator.api import fast_loaders
from calculator.api.coded_errors import Coded
from calculator.api.fields import CodedField, Fallback, Loader, StrictList, StrictString
from calculator.api.native_loaders import (
    NATIVE_SCHEMAS,
    native_class,
    qualified_name,
    source_digest,
)
from calculator.limits import MAX_PROBLEMS

MAX_SHAPES = 16
"""The most shapes (keys in order) of an object whose own loader a record schema keeps."""
_FIXED = re.compile(r" +(f\d+) = (D\d+)")  # a field's constant default, in a generated line


class StrictNested(CodedField, fields.Nested):
    """A nested JSON object (not an array, not a string)."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "type": "expected an object"
    }

    def _deserialize(
        self,
        value: Any,
        attr: str | None,
        data: Mapping[str, Any] | None,
        partial: bool | types.StrSequenceOrSet | None = None,
        **kwargs: Any,
    ) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("type")
        return super()._deserialize(value, attr, data, partial, **kwargs)

    def untranslated(self) -> str | None:
        # only/exclude would re-initialize a copied schema's fields under its compiled loader
        for option in ("many", "unknown", "only", "exclude"):
            if getattr(self, option):
                return f"{option}={getattr(self, option)!r}"
        if not isinstance(self.schema, StrictSchema):
            return f"a nested {type(self.schema).__name__} (not a StrictSchema)"
        return super().untranslated()

    def fast_loader(self) -> Loader:
        schema = self.schema
        assert isinstance(schema, StrictSchema)  # untranslated() refuses other schemas
        return schema.fast_load

    def fast_refuses_null(self) -> bool:
        return True  # a schema's fast loader takes a dict only (see StrictSchema._compile)


class StrictSchema(Schema):
    """Base schema: unknown fields are errors that name the fields allowed there.

    Every instance compiles its fast loader when it is made (module-level instances, so at
    import), and refuses with a ``TypeError`` any schema or field feature the compiler
    does not translate: a new hook or field option fails loudly instead of being skipped
    on the fast path.
    """

    record: ClassVar[Callable[..., Any] | None] = None
    """The domain record (a named tuple) a load returns, or None for the loaded dict; or
    a function (a ``staticmethod``, compiled or not) that makes what the load returns
    from the fields.

    Each loaded field becomes the record's field (the function's parameter) of the same
    name, after its field's ``convert``; a field left out of the request takes the
    record's default. Both paths build it from this one declaration: marshmallow's load by
    :meth:`_make_record`, the fast loader by the code it generates, which builds the
    record in one call (a function's: with its parameters in order).
    """
    fast_load: Loader
    """The fast path: ``fast_load(data)`` is the loaded value, or raises :class:`Fallback`."""
    fast_source: str
    """The generated source of :attr:`fast_load`, for reading and debugging (with a
    :attr:`record`, of its general loader; each shape's loader has its ``source``)."""
    fast_shapes: dict[tuple[Any, ...], Loader]
    """The loaders of the shapes learned (a record schema's: :meth:`_shaped`; else empty)."""
    exactly_one_of: ClassVar[tuple[str, ...]] = ()
    """Fields of which a request gives exactly one (a session hand's ``net``, ``gostop``
    or ``balance``): the schema's own check refuses another count, and the OpenAPI
    document says the same from this declaration (a ``oneOf`` of each one ``required``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        allowed = ", ".join(sorted(self.load_fields))
        unknown = (
            f"unknown field; the fields allowed here are: {allowed}"
            if allowed
            else "unknown field; this request takes none (send no body, or {})"
        )
        self.error_messages = {
            **self.error_messages,
            "unknown": Coded(unknown, "unknown_field"),
            "type": Coded("expected a JSON object", "invalid_type"),
        }
        self.fast_shapes = {}  # a record schema's: filled as it learns (see _shaped)
        self.native_source: str | None = None  # a record schema's compiled loader, as
        self.fast_native: Any = None  # generated (_native), and its object if compiled
        self.fast_load = self._compile()
        self.load_one: Loader = self.load_fast
        """:meth:`load_fast` as one callable: compiled, the loader object's own
        ``load_fast`` (the same fallback, without a Python frame: one a batched hand)."""
        if self.fast_native is not None:
            self.fast_native.slow = self.load
            self.load_one = self.fast_native.load_fast

    def load(self, data: Any, **kwargs: Any) -> Any:
        """marshmallow's load, after refusing at once an object with more unknown fields
        than a problem lists (marshmallow would build an error for each one)."""
        if self.unknown == RAISE and type(data) is dict and len(data) > MAX_PROBLEMS:
            keys = {field.data_key or name for name, field in self.load_fields.items()}
            unknown = [key for key in data if key not in keys]
            if len(unknown) > MAX_PROBLEMS:
                shown = MAX_PROBLEMS - 1
                errors: dict[str, Any] = {
                    key: [self.error_messages["unknown"]] for key in unknown[:shown]
                }
                errors["_schema"] = [
                    Coded(f"and {len(unknown) - shown} more unknown fields", "too_many_problems")
                ]
                raise ValidationError(errors)
        try:
            return super().load(data, **kwargs)
        except ValidationError as error:
            if type(data) is dict and isinstance(error.messages, dict):
                error.messages = self._unknown_in_order(error.messages, data)
            raise

    def _unknown_in_order(self, messages: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """``messages`` with the unknown fields in the order the request gives them:
        marshmallow lists them in the order of a set of names, which changes from process
        to process (the same body got its problems, and its "first at", in another order
        from each worker). The declared fields' stay first, in the order checked."""
        known = {field.data_key or name for name, field in self.load_fields.items()}
        unknown = [key for key in data if key in messages and key not in known]
        if len(unknown) < 2:
            return messages
        found = {key: value for key, value in messages.items() if key not in unknown}
        at = next(i for i, key in enumerate(messages) if key in unknown)
        items = list(found.items())
        return dict(items[:at] + [(key, messages[key]) for key in unknown] + items[at:])

    @post_load
    def _make_record(self, data: dict[str, Any], **kwargs: Any) -> Any:
        """The :attr:`record` of the loaded fields (the slow path's; see :meth:`_compile`)."""
        if self.record is None:
            return data
        for name, field in self.load_fields.items():
            convert = getattr(field, "convert", None)
            if convert is not None and data.get(name) is not None:
                data[name] = convert(data[name])
        return self.record(**data)

    def load_fast(self, data: Any) -> Any:
        """``load(data)``, by the fast path when it is sure, else by marshmallow."""
        try:
            return self.fast_load(data)
        except Fallback:
            return self.load(data)

    def _refuse(self, feature: str, field: str | None = None) -> TypeError:
        where = type(self).__name__ + ("" if field is None else f".{field}")
        return TypeError(
            f"{where}: the fast loader does not translate {feature}; "
            "drop it or teach the compiler in calculator/api/strict_schema.py"
        )

    def _load_hooks(self) -> tuple[list[str], list[str]]:
        """The names of the schema validators and post-load methods, in marshmallow's
        order, after refusing every other loading hook or hook option."""
        validators: list[str] = []
        post_loads: list[str] = []
        for tag, name, pass_collection, options in _hooks(type(self)):
            if tag in (PRE_DUMP, POST_DUMP):
                continue  # dumping is not the loader's business
            if name == "_make_record":
                continue  # the compiler builds the record itself
            if tag not in (VALIDATES_SCHEMA, POST_LOAD):
                raise self._refuse(f"@{tag} ({name})")
            if pass_collection:
                raise self._refuse(f"@{tag}(pass_collection=True) ({name})")
            if options.get("pass_original") or not options.keys() <= _HOOK_OPTIONS:
                raise self._refuse(f"@{tag} options {options} ({name})")
            (validators if tag == VALIDATES_SCHEMA else post_loads).append(name)
        return validators, post_loads

    def _compile(self) -> Loader:
        """Generate the fast loader: one straight block of checks per field.

        A field that can say its check as an expression (:meth:`CodedField.fast_check`)
        is checked inline; the others call their fast loader. With a :attr:`record`, each
        field's value goes to a local and the record is made in one call (no dict, no
        hook); without, the loaded dict goes through the schema's validators and hooks.
        Raises ``TypeError`` for what it does not translate.
        """
        if self.many:
            raise self._refuse("many=True")
        if self.partial:
            raise self._refuse("partial loading")
        if self.unknown not in (RAISE, INCLUDE):
            raise self._refuse(f"unknown={self.unknown!r}")
        validators, post_loads = self._load_hooks()
        record = self.record
        if record is not None:
            self._check_record(record, validators + post_loads)
        namespace: dict[str, Any] = {
            "Fallback": Fallback,
            "ValidationError": ValidationError,
            "partial": self.partial,
            "unknown": self.unknown,
        }
        lines = ["def load(data):", "    if type(data) is not dict:", "        raise Fallback"]
        strict = self.unknown == RAISE
        keys = [name if f.data_key is None else f.data_key for name, f in self.load_fields.items()]
        namespace["allowed"] = frozenset(keys)
        namespace["keys_allowed"] = namespace["allowed"].issuperset  # half the cost of keys() <=
        if strict:
            lines += ["    if not keys_allowed(data):", "        raise Fallback"]
        if not record:
            lines.append("    out = {}")
        targets: dict[str, str] = {}  # record mode: field name → its local
        nested: dict[str, Schema] = {}  # the names of nested schemas' loaders: their schemas
        blocks: list[tuple[str, list[str], list[str]]] = []  # record mode: per field, its
        # key, the lines when it is present and when it is not (indented as in an ``if``)
        first = len(lines)  # the fields' checks: lines[first:last]
        for i, (key, (name, field)) in enumerate(zip(keys, self.load_fields.items(), strict=True)):
            if not isinstance(field, CodedField):
                raise self._refuse(f"a plain {type(field).__name__} field", name)
            feature = field.untranslated()
            if feature is not None:
                raise self._refuse(feature, name)
            convert = field.convert if record else None
            via = None
            if _lookup(convert) is not None:  # an enum member by its value: a subscript
                namespace[f"C{i}"] = _lookup(convert)
                via = f"C{i}[{{}}]"
            elif convert is tuple:  # by its builtin name: compiled, tuple(v) is made at
                # once, where C{i}(v) called the type object (~280 instructions a pile)
                via = "tuple({})"
            elif convert is not None:
                namespace[f"C{i}"] = convert
                via = f"C{i}({{}})"
            target = targets[name] = f"f{i}" if record else f"out[{name!r}]"
            start = len(lines)
            lines += [f"    if {key!r} in data:", f"        v = data[{key!r}]"]
            check = field.fast_check("v")
            for constant, value in field.fast_constants().items():
                if namespace.setdefault(constant, value) != value:
                    raise self._refuse(f"two values of {constant} in fast checks", name)
            namespace[f"L{i}"] = field.fast_loader()
            if isinstance(field, StrictNested):
                nested[f"L{i}"] = field.schema
            elif isinstance(field, StrictList) and isinstance(field.inner, StrictNested):
                each = field._each()
                if each is not None:
                    nested[each] = field.inner.schema
            null = "            " + (f"{target} = None" if field.allow_none else "raise Fallback")
            if check is not None:  # the common case inline, before null; the rest below
                # (as it is: a list is copied, as its loader and marshmallow do, unless the
                # record's convert makes its own: a tuple)
                if eval(check, namespace, {"v": None}) is not False:  # our own expression
                    raise self._refuse(f"a fast check that passes null ({check})", name)
                value = field.fast_value("v")
                if value == "v" and via is None and isinstance(field, StrictList):
                    value = "list(v)"
                if convert is tuple and value.startswith("list("):
                    made = f"tuple({value.removeprefix('list(')}"  # no list to copy
                else:
                    made = _via(via, value)
                table = _lookup(convert)
                if record and table is not None and _choices(field) == set(table):
                    # a choice made its member by one look-up in the members' table, which
                    # holds exactly the choices (the set's, then the table's, were two: a
                    # player's gukjin, an outcome's type; ~1k instructions a batched hand)
                    check = f"type(v) is str and ({target} := C{i}.get(v)) is not None"
                    lines += [f"        if {check}:", "            pass  # made by the check"]
                else:
                    lines += [f"        if {check}:", f"            {target} = {made}"]
                lines += ["        elif v is None:", null]
            else:
                lines += ["        if v is None:", null]
            lines += ["        else:", f"            {target} = {_via(via, f'L{i}(v)')}"]
            default = field.load_default
            if field.required:
                lines += ["    else:", "        raise Fallback"]
            elif default is missing:
                if record:  # the record's own default
                    namespace[f"D{i}"] = _record_fields(record)[name].default
                    lines += ["    else:", f"        {target} = D{i}"]
            elif callable(default) and _empty_made(default, convert) is not None:
                # an empty container converted to an empty tuple or frozenset: immutable,
                # so made once, here
                namespace[f"D{i}"] = _empty_made(default, convert)
                lines += ["    else:", f"        {target} = D{i}"]
            elif callable(default):
                namespace[f"D{i}"] = default
                lines += ["    else:", f"        {target} = D{i}()"]
                if via is not None:  # null stays null, as in _make_record
                    lines += [
                        f"        if {target} is not None:",
                        f"            {target} = {_via(via, target)}",
                    ]
            else:  # a constant: converted once, here
                fixed = convert(default) if convert and default is not None else default
                namespace[f"D{i}"] = fixed
                lines += ["    else:", f"        {target} = D{i}"]
            block = lines[start + 1 :]
            split = block.index("    else:") if "    else:" in block else len(block)
            blocks.append((key, block[:split], block[split + 1 :]))
        last = len(lines)
        if record:
            namespace["R"] = record
            values = []
            for j, (name, parameter) in enumerate(_record_fields(record).items()):
                if name not in targets:  # not on the wire: the record's default
                    namespace[f"R{j}"] = parameter.default
                values.append(targets.get(name, f"R{j}"))
            if isinstance(record, type):
                # tuple.__new__, as the record's own _make, without its call and length check
                namespace["new"] = tuple.__new__
                make = "new(R, ({},))"
            else:
                make = "R({})"
            shaped = self._shaped(lines, first, last, namespace, blocks, make, values)
            return self._native(namespace, blocks, make, values, nested) or shaped
        if not strict:
            lines += ["    for key in data.keys() - allowed:", "        out[key] = data[key]"]
        if validators:
            namespace["validators"] = [getattr(self, name) for name in validators]
            lines += [
                "    try:",
                "        for validator in validators:",
                "            validator(out, partial=partial, many=False, unknown=unknown)",
                "    except ValidationError:",
                "        raise Fallback from None",
            ]
        for j, name in enumerate(post_loads):
            namespace[f"P{j}"] = getattr(self, name)
            lines.append(f"    out = P{j}(out, many=False, partial=partial, unknown=unknown)")
        lines.append("    return out")
        return self._exec(lines, first, last, namespace)

    def _shaped(
        self,
        lines: list[str],
        first: int,
        last: int,
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
    ) -> Loader:
        """The record loader of ``lines`` (which test each field's key), behind a table of
        loaders by the keys of the object, in order: its *shapes*.

        A shape's loader is the same lines less the key tests, which its keys answer:
        each field's lines for a present key, or for an absent one. The general loader
        learns the shape of an object it loads (up to :data:`MAX_SHAPES`; then it goes on
        alone): clients send their requests in a few shapes, and an object of a known
        shape then takes no test for each of the fields it leaves out.
        """
        shapes: dict[tuple[Any, ...], Loader] = {}
        namespace["shapes"] = self.fast_shapes = shapes

        learning = threading.Lock()  # threads that learn at once stay within the bound

        def learn(data: dict[Any, Any]) -> None:
            keys = tuple(data)
            with learning:
                if len(shapes) < MAX_SHAPES and keys not in shapes:
                    shapes[keys] = self._shape(keys, namespace, blocks, make, values)

        namespace["learn"] = learn
        lines = [
            *lines,
            f"    made = {make.format(', '.join(values))}",
            f"    if len(shapes) < {MAX_SHAPES}:",
            "        learn(data)",
            "    return made",
        ]
        general = self._exec(lines, first, last, namespace)
        dispatch = [
            "def load(data):",
            "    if type(data) is not dict:",
            "        raise Fallback",
            "    return shape(tuple(data), general)(data)",
        ]
        scope: dict[str, Any] = {"Fallback": Fallback, "shape": shapes.get, "general": general}
        exec(compile("\n".join(dispatch), f"<fast load: {type(self).__name__}>", "exec"), scope)
        loader: Loader = scope["load"]
        return loader

    def _shape(
        self,
        keys: tuple[Any, ...],
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
    ) -> Loader:
        """The loader of an object of exactly ``keys`` (see :meth:`_shaped`)."""
        present = set(keys)
        lines = ["def load(data):", "    try:"]
        values = list(values)
        for key, given, left_out in blocks:
            if key in present:
                lines += given
                continue
            fixed = _FIXED.fullmatch(left_out[0]) if len(left_out) == 1 else None
            if fixed and fixed[1] in values:  # a constant default: straight into the record
                values[values.index(fixed[1])] = fixed[2]
            else:
                lines += left_out
        made = make.format(", ".join(values))
        if len(lines) == 2:  # nothing to check: no field given
            lines.append("        pass")
        lines += ["    except TypeError:", "        raise Fallback from None", f"    return {made}"]
        source = "\n".join(lines)
        scope = dict(namespace)
        exec(compile(source, f"<fast load: {type(self).__name__} {keys}>", "exec"), scope)
        loader: Loader = scope["load"]
        loader.source = source  # type: ignore[attr-defined]
        return loader

    def _native(
        self,
        namespace: dict[str, Any],
        blocks: list[tuple[str, list[str], list[str]]],
        make: str,
        values: list[str],
        nested: dict[str, Schema],
    ) -> Loader | None:
        """The compiled loader of this schema (``calculator/api/fast_loaders.py``), if the
        build compiled it and its source there is still the one generated here; else None
        (the interpreted loaders of :meth:`_shaped` serve).

        The source (:attr:`native_source`, a class, written by
        :func:`~calculator.api.native_loaders.native_class`) is the general loader's, for
        mypyc: the names the interpreted loader reads from its namespace are attributes of
        an object made with those values (a function of
        :data:`~calculator.api.native_loaders.NATIVE_CALLS`: imported, and called by its
        name); each key is looked up once (``get``, with a sentinel), none
        once the object's keys are all found, and the keys found are counted, so that an
        unknown key, which the count misses, falls back as ``keys_allowed`` does; a nested
        schema of :data:`NATIVE_SCHEMAS` is called by its object's ``load``, without a
        Python call.
        """
        name = f"{type(self).__module__}.{type(self).__qualname__}"
        if name not in NATIVE_SCHEMAS:
            return None
        self.native_source = source = native_class(name, namespace, blocks, make, values, nested)
        if not fast_loaders.__file__ or fast_loaders.__file__.endswith(".py"):
            return None  # interpreted: the shapes' loaders are faster
        if fast_loaders.SOURCES.get(name) != source_digest(source):
            return None  # out of date (tests/api/test_fast_loaders.py says so)
        constants = dict(namespace)
        for attribute, schema in nested.items():
            if qualified_name(schema) in NATIVE_SCHEMAS:  # called natively, by its object
                if not isinstance(schema, StrictSchema) or schema.fast_native is None:
                    return None  # it loads interpreted (out of date): so does this one
                constants[attribute] = schema.fast_native
        self.fast_native = fast_loaders.CLASSES[name](constants)
        loader: Loader = self.fast_native.load
        return loader

    def _check_record(self, record: Callable[..., Any], hooks: list[str]) -> None:
        """Refuse a :attr:`record` the load could not build from the fields alone."""
        if isinstance(record, type) and not hasattr(record, "_make"):
            raise self._refuse(f"record={record.__name__} (not a named tuple)")
        # a function compiled (mypyc) is a builtin one; its parameters and defaults are
        # read from its text signature, as a Python function's are from its code
        function = inspect.isfunction(record) or inspect.isbuiltin(record)
        if not isinstance(record, type) and not function:
            raise self._refuse(f"record={record!r} (not a named tuple or a function)")
        if hooks:
            raise self._refuse(f"hooks beside record= ({', '.join(hooks)})")
        if self.unknown != RAISE:
            raise self._refuse("unknown fields with record=")
        try:
            parameters = _record_fields(record)
        except ValueError:  # a builtin function that does not say its parameters
            raise self._refuse(f"record={record!r} (no signature to read)") from None
        if any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in parameters.values()):
            raise self._refuse(f"record={record.__name__} (a parameter not by position)")
        for name, field in self.load_fields.items():
            if name not in parameters:
                raise self._refuse(f"a field that {record.__name__} does not have", name)
            if (
                not field.required
                and field.load_default is missing
                and parameters[name].default is parameters[name].empty
            ):
                raise self._refuse(f"an optional field without {record.__name__}'s default", name)
        for name, parameter in parameters.items():
            if name not in self.load_fields and parameter.default is parameter.empty:
                raise self._refuse(f"{record.__name__}.{name} without a field or default")

    def _exec(self, lines: list[str], first: int, last: int, namespace: dict[str, Any]) -> Loader:
        # The fields' checks under one try (free in Python 3.11 until something raises): a
        # TypeError there (an unhashable value) means "not sure", as Fallback does. Hooks
        # and the record's construction stay outside: an error of theirs is not hidden.
        checks = ["    " + line for line in lines[first:last]] or ["        pass"]  # no fields
        lines = [
            *lines[:first],
            "    try:",
            *checks,
            "    except TypeError:",
            "        raise Fallback from None",
            *lines[last:],
        ]
        self.fast_source = "\n".join(lines)
        exec(compile(self.fast_source, f"<fast load: {type(self).__name__}>", "exec"), namespace)
        loader: Loader = namespace["load"]
        return loader


def _empty_made(default: Callable[[], Any], convert: Loader | None) -> Any:
    """What ``convert(default())`` makes, when ``default`` is a builtin container type (a
    new empty one every call) and ``convert`` makes an empty tuple or frozenset of it; else
    None."""
    if convert is None or default not in (list, tuple, dict, set, frozenset):
        return None
    made = convert(default())
    return made if type(made) in (tuple, frozenset) and not made else None


def _record_fields(record: Callable[..., Any]) -> Mapping[str, inspect.Parameter]:
    """The fields of a record (a named tuple's, in order) or a function's parameters, each
    with its default (``inspect.Parameter.empty`` if none)."""
    return inspect.signature(record).parameters


def _via(convert: str | None, value: str) -> str:
    """Generated code: ``value`` through ``convert`` (a call or a subscript, with ``{}`` for
    the value), if any."""
    return value if convert is None else convert.format(value)


def _choices(field: CodedField) -> set[str] | None:
    """The strings a field takes, if it takes only some (a :class:`StrictString`'s
    ``choices``); else None."""
    choices = field.choices if isinstance(field, StrictString) else None
    return None if choices is None else set(choices)


def _lookup(convert: Loader | None) -> dict[Any, Any] | None:
    """The dict whose ``__getitem__`` ``convert`` is (a value → enum member table), if it
    is one: generated code subscripts it, cheaper than calling the bound method."""
    table = getattr(convert, "__self__", None)
    if type(table) is dict and getattr(convert, "__name__", None) == "__getitem__":
        return table
    return None


# The options of the hooks the compiler translates (pass_original=False only); with no
# field errors on the fast path, skip_on_field_errors changes nothing.
_HOOK_OPTIONS = frozenset({"pass_original", "skip_on_field_errors"})


@cache  # per class: nested fields make several instances of each schema
def _hooks(cls: type[Schema]) -> tuple[tuple[str, str, bool, dict[str, Any]], ...]:
    """(tag, method name, pass_collection, options) of every hook of ``cls``.

    Found as marshmallow finds them, without its private tables: the public decorators
    tag a method with ``__marshmallow_hook__``; the class's own (or nearest inherited)
    attribute of each name counts, in name order.
    """
    found = []
    for name in dir(cls):
        tags = getattr(inspect.getattr_static(cls, name), "__marshmallow_hook__", None) or {}
        for tag, entries in tags.items():
            found += [(tag, name, many, dict(options)) for many, options in entries]
    return tuple(found)
