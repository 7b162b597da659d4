"""Request schemas of a rule set: a preset's name or ``{"preset": name, "options": {…}}``
of one variant (:class:`RulesetField`, loading a :class:`RulesetSpec`), and the schemas of
its options, which also document them.

The hand's schemas that use them are in :mod:`calculator.api.schemas`; the query strings'
schemas in :mod:`calculator.api.query_schemas`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import INCLUDE, ValidationError, types

from calculator import options as option_specs
from calculator.api.coded_errors import fail
from calculator.api.fields import (
    CodedField,
    Fallback,
    Loader,
    StrictBoolean,
    StrictInteger,
    StrictString,
)
from calculator.api.hand_requests import RulesetSpec, spec_by_name
from calculator.api.strict_schema import StrictNested, StrictSchema
from calculator.balance import BalanceRules
from calculator.presets import Variant, presets
from calculator.rules import GoStopRules

MAX_PRESET_NAME = 64  # a rule set given by name: the full load, the fast check and loader


def options_schema(rules_type: type, name: str) -> type[StrictSchema]:
    """A schema with one strict field per option of ``rules_type`` (for docs and types)."""
    declared: dict[str, Any] = {}
    for spec in option_specs.specs(rules_type):
        default = getattr(spec.default, "value", spec.default)  # an enum member's wire value
        description = f"{spec.summary} Default {json.dumps(default)}. ({spec.section})"
        if spec.nullable:
            description += f" null = {spec.null_means}."
        meta = {"description": description, "default": default}
        nullable = spec.nullable
        if spec.type == "boolean":
            declared[spec.name] = StrictBoolean(allow_none=nullable, metadata=meta)
        elif spec.type == "integer":
            declared[spec.name] = StrictInteger(
                minimum=spec.minimum or 0,
                maximum=spec.maximum or 10**6,
                allow_none=nullable,
                metadata=meta,
            )
        else:
            assert spec.choices is not None
            declared[spec.name] = StrictString(
                max_length=64, choices=spec.choices, allow_none=nullable, metadata=meta
            )
    schema = _OptionsBase.from_dict(declared, name=name)
    assert issubclass(schema, StrictSchema)  # from_dict subclasses the class it is called on
    return schema


class _OptionsBase(StrictSchema):
    class Meta:
        unknown = INCLUDE  # the domain names unknown options, with a suggestion


def ruleset_object_schema(
    options: type, default: str, name: str, variant: Variant
) -> type[StrictSchema]:
    """``{"preset": name, "options": {…}}`` for one variant's presets and options; it also
    takes a response's rule set echo back (``overrides``, ``fingerprint``, ``variant``)."""
    schema = StrictSchema.from_dict(
        {
            "preset": StrictString(
                max_length=64,
                load_default=default,
                metadata={"description": "A preset name (GET /v1/rulesets)"},
            ),
            "options": StrictNested(
                options,
                load_default=dict,
                metadata={"description": "Overrides of single options"},
            ),
            "overrides": StrictNested(
                options,
                load_default=dict,
                metadata={
                    "description": "Overrides too, as a response's rule set echo names them "
                    "(a name in both options and overrides must have one value)"
                },
            ),
            "fingerprint": StrictString(
                max_length=64,
                metadata={
                    "description": "Optional: the fingerprint these rules must resolve to "
                    "(from a response's echo); a mismatch is a 422 fingerprint_mismatch"
                },
            ),
            "variant": StrictString(
                max_length=16,
                choices=(variant.value,),
                metadata={"description": "Optional (a response's echo carries it)"},
            ),
        },
        name=name,
    )
    assert issubclass(schema, StrictSchema)  # from_dict subclasses the class it is called on
    return schema


GoStopOptionsSchema = options_schema(GoStopRules, "GoStopOptions")
RulesetObjectSchema = ruleset_object_schema(
    GoStopOptionsSchema, "standard", "RulesetObject", Variant.GOSTOP
)
BalanceOptionsSchema = options_schema(BalanceRules, "BalanceOptions")
BalanceRulesetObjectSchema = ruleset_object_schema(
    BalanceOptionsSchema, "balance", "BalanceRulesetObject", Variant.BALANCE
)
RULESET_OBJECTS = {Variant.GOSTOP: RulesetObjectSchema, Variant.BALANCE: BalanceRulesetObjectSchema}


if RulesetSpec._fields != ("preset", "options", "by_name", "fingerprint"):
    # RulesetField.fast_value writes a spec by position in generated source, which
    # tests/test_records.py (it reads the source's _new calls) cannot see
    raise ImportError(
        "calculator.api.ruleset_schemas: RulesetField.fast_value no longer fits RulesetSpec"
    )


def _spec(loaded: Mapping[str, Any]) -> RulesetSpec:
    """A loaded rule set object as a spec: ``options`` and ``overrides`` together (a full
    echo carries both); a name given two different values is refused."""
    options, overrides = loaded["options"], loaded["overrides"]
    if overrides:
        clash = {
            name: [fail("invalid_option", f"{name} has another value in options").messages[0]]
            for name, value in overrides.items()
            if name in options and options[name] != value
        }
        if clash:
            raise ValidationError({"overrides": clash})
        options = {**options, **overrides}
    return RulesetSpec(loaded["preset"], options, False, loaded.get("fingerprint"))


class RulesetField(CodedField):
    """A preset name, or ``{"preset": name, "options": {…}}``, of one variant."""

    default_error_messages: types.ErrorMessages = {  # noqa: RUF012
        "invalid": "expected a preset name or an object"
    }

    def __init__(self, *, variant: Variant = Variant.GOSTOP, **kwargs: Any) -> None:
        self.variant = variant
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            if len(value) > MAX_PRESET_NAME:
                raise fail(
                    "invalid_length", f"preset names are at most {MAX_PRESET_NAME} characters"
                )
            return spec_by_name(value)
        if isinstance(value, Mapping):
            return _spec(_ruleset_object(self.variant).load(value))
        raise self.make_error("invalid")

    def fast_check(self, name: str) -> str | None:
        # a name: its spec, made by fast_value
        return f"type({name}) is str and len({name}) <= {MAX_PRESET_NAME}"

    def fast_value(self, name: str) -> str:
        # compiled, a C call (native_loaders.NATIVE_CALLS); it was written out here, a bound
        # dict.get and a tuple.__new__ through the loader's attributes (~0.2k instructions
        # a hand more)
        return f"spec_by_name({name})"

    def fast_constants(self) -> dict[str, Any]:
        return {"spec_by_name": spec_by_name}

    def fast_loader(self) -> Loader:
        nested = _ruleset_object(self.variant).fast_load

        def load(value: Any) -> RulesetSpec:
            if type(value) is str and len(value) <= MAX_PRESET_NAME:
                return spec_by_name(value)
            try:
                return _spec(nested(value))
            except ValidationError:  # the full load writes the error
                raise Fallback from None

        return load


@cache
def _ruleset_object(variant: Variant) -> StrictSchema:
    """The (shared) schema of ``{preset, options}`` for a variant."""
    return RULESET_OBJECTS[variant]()


def ruleset_field(
    description: str, variant: Variant = Variant.GOSTOP, default: str = "standard"
) -> RulesetField:
    """The ``ruleset`` field of a request, defaulting to ``default``."""
    names = [name for name, p in presets().items() if p.variant is variant]
    return RulesetField(
        variant=variant,
        load_default=lambda: spec_by_name(default),
        metadata={"description": description + f" (presets: {', '.join(names)})"},
    )
