"""Named rule sets: a registry of presets, resolution with overrides, fingerprints.

A rule set is a preset plus optional overrides of single options (SPEC §3). Resolving
one checks every override, fills in every other option from the preset, and gives the
result a fingerprint so that a table can lock a rule set and a client can tell two apart.

>>> standard = resolve("standard")
>>> wiki = resolve("standard", {"go_formula": "seed_es_linear"})
>>> wiki.rules.go_formula, wiki.fingerprint == standard.fingerprint
(<GoFormula.SEED_ES_LINEAR: 'seed_es_linear'>, False)
>>> resolve("seed_es").preset  # aliases find the preset they name
'wikipedia'
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from calculator import options
from calculator.errors import InvalidRulesError, Issue
from calculator.limits import Suggestions, quote
from calculator.options import OptionValue
from calculator.rule_choices import GobakMode2p, GobakMode3p, GoFormula, GukjinChoice, TableMode4p
from calculator.rules import GoStopRules
from calculator.tables import tables_for


class Variant(StrEnum):
    """Which game a rule set scores; each has its own endpoint."""

    GOSTOP = "gostop"  # POST /v1/gostop/hands
    BALANCE = "balance"  # POST /v1/balance/hands


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set as published: its options, and what it is meant to reproduce."""

    name: str
    variant: Variant
    title: str
    description: str
    rules: Any  # GoStopRules, or BalanceRules for the balance variant
    aliases: tuple[str, ...] = ()

    def __reduce__(
        self,
    ) -> tuple[type[Preset], tuple[str, Variant, str, str, Any, tuple[str, ...]]]:
        # made again by its fields, as RuleSet is (compiled, a frozen dataclass refuses
        # copy's and pickle's setting of them one by one)
        fields = (self.name, self.variant, self.title, self.description, self.rules, self.aliases)
        return (Preset, fields)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A resolved rule set: the preset it starts from, every option, and the fingerprint."""

    preset: str
    variant: Variant
    rules: Any
    fingerprint: str

    def __reduce__(self) -> tuple[type[RuleSet], tuple[str, Variant, Any, str]]:
        # made again by its fields: compiled (mypyc, setup.py), copy and pickle would set
        # them one by one on a new object, which a frozen dataclass refuses
        return (RuleSet, (self.preset, self.variant, self.rules, self.fingerprint))

    def options(self) -> dict[str, options.OptionValue]:
        """Every resolved option, as plain JSON values."""
        return options.values(self.rules)

    def overrides(self) -> dict[str, OptionValue]:
        """The options that differ from the preset's, as plain JSON values: with the
        preset's name, all it takes to resolve this rule set again.

        >>> resolve("wikipedia", {"bomb_multiplier": 2, "go_formula": "seed_es_linear"}).overrides()
        {'bomb_multiplier': 2}
        """
        base = options.values(_REGISTRY[self.preset].rules)
        return {name: value for name, value in self.options().items() if base[name] != value}


_STANDARD = GoStopRules()

_GOSTOP_PRESETS = (
    Preset(
        name="standard",
        variant=Variant.GOSTOP,
        title="Standard Korean Go-Stop",
        description=(
            "Mainstream Korean practice, every option's default (docs/rules.md §9.1): stop at 7 "
            "(2 players) or 3 (3 players); go +n and from the 3rd go ×2^(n−2); shake and bomb "
            "×2 each; 멍따 ×2; 광박 ×2 (the rain man protects); 피박 ×2 at ≤7 (2p) / ≤5 (3p) "
            "junk with a zero-junk exemption; 고박 ×2 (2p) or pay-all (3p); nagari ×2 per "
            "drawn hand, stacking; the sake cup read as its owner prefers."
        ),
        rules=_STANDARD,
        aliases=("kr_gostop", "kr_gostop_3p", "kr_matgo_2p"),
    ),
    Preset(
        name="wikipedia",
        variant=Variant.GOSTOP,
        title="English Wikipedia, read literally",
        description=(
            'The Spanish seed (English Wikipedia "Go-Stop") read literally: go ×(n−1) from '
            "the 3rd go, 고박 ×2 also with three players, bombs do not multiply, no 멍따, the "
            "December ribbon not counted in the ribbon total, the May bridge switchable like "
            'the sake cup (both "generally" counted as double junk), 피박 below 6 junk for 2 '
            "and 3 players with no zero-junk exemption, one ×2 after a drawn hand."
        ),
        rules=replace(
            _STANDARD,
            go_formula=GoFormula.SEED_ES_LINEAR,
            gobak_mode_3p=GobakMode3p.DOUBLE,
            bomb_multiplier=1,
            meongtta_enabled=False,
            dec_ribbon_counts_in_ribbon_total=False,
            may_animal_switchable=True,
            gukjin_default=GukjinChoice.JUNK,
            pibak_max_pi_2p=5,
            pibak_max_pi_3p=5,
            pibak_zero_exempt=False,
            nagari_stacking=False,
        ),
        aliases=("seed_es",),
    ),
    Preset(
        name="gamerules",
        variant=Variant.GOSTOP,
        title="gamerules.com, read literally",
        description=(
            'The Romanian seed (gamerules.com "Go Stop") read literally: +1 per go and a '
            "single ×2 above 3 gos, no 고박, bombs do not multiply, 멍따 (7+ animals) ×2, 광박 "
            "×2, 피박 at ≤5 junk for 2 and 3 players with no zero-junk exemption, the December "
            "ribbon counted, only the sake cup switchable, 총통 = 5 points from each opponent "
            "(the seed counts in chips, one a point), one ×2 "
            "after a drawn hand, a fourth player only watches."
        ),
        rules=replace(
            _STANDARD,
            go_formula=GoFormula.SEED_RO,
            gobak_mode_2p=GobakMode2p.NONE,
            gobak_mode_3p=GobakMode3p.NONE,
            bomb_multiplier=1,
            pibak_max_pi_2p=5,
            pibak_max_pi_3p=5,
            pibak_zero_exempt=False,
            chongtong_points=5,
            nagari_stacking=False,
            table_mode_4p=TableMode4p.OBSERVE,
        ),
        aliases=("seed_ro",),
    ),
)

_REGISTRY: dict[str, Preset] = {}
_ALIASES: dict[str, str] = {}


def register(preset: Preset) -> None:
    """Add a preset to the registry (presets of other variants register themselves)."""
    assert preset.name not in _REGISTRY, preset.name
    _REGISTRY[preset.name] = preset
    for alias in (preset.name, *preset.aliases):
        _ALIASES[alias] = preset.name


for _preset in _GOSTOP_PRESETS:
    register(_preset)
    tables_for(_preset.rules)  # built at import, so that a worker's first hand does not wait


def presets() -> Mapping[str, Preset]:
    """Every preset, by name, in registration order."""
    return MappingProxyType(_REGISTRY)


def find_preset(name: str) -> Preset | None:
    """The preset called ``name`` or one of its aliases, or ``None``."""
    canonical = _ALIASES.get(name)
    return None if canonical is None else _REGISTRY[canonical]


def resolve(
    preset: object = "standard",
    overrides: Mapping[str, object] | None = None,
    *,
    variant: Variant | None = None,
) -> RuleSet:
    """Resolve a preset name plus option overrides into a complete :class:`RuleSet`.

    ``variant``, when given, must be the preset's variant (a Go-Stop hand cannot be scored
    under the balance rules). Raises :class:`InvalidRulesError` naming every problem.
    Resolved rule sets are cached by preset, options and variant (a few dozen µs on a miss:
    the lookup tables are cached apart, by the few options that shape them).
    """
    if not overrides and type(preset) is str:  # most requests: a preset by name alone
        named = _NAMED.get(preset)
        if named is not None and named[0] is variant:
            return named[1]
        found = _cached(_cache_key(preset, overrides, variant), preset, overrides, variant)
        _NAMED[preset] = (variant, found)  # resolved: a registered name, so a bounded cache
        return found
    return _cached(_cache_key(preset, overrides, variant), preset, overrides, variant)


_Key = tuple[object, tuple[tuple[str, object], ...], Variant | None]
"""What a resolution depends on: the preset (its name, as given), the options (sorted
name, value pairs) and the variant."""


def _cached(
    key: _Key | None,
    preset: object,
    overrides: Mapping[str, object] | None,
    variant: Variant | None,
) -> RuleSet:
    """:func:`resolve` given the cache key of its arguments (a :class:`Resolver` has
    computed it already)."""
    found = _RESOLVED.get(key) if key is not None else None
    if found is None:
        # Problems are reported in the order the caller gave the options.
        found = _resolve(preset, dict(overrides or {}), variant)
        if key is not None:
            if len(_RESOLVED) >= _CACHE_SIZE:
                _forget_overridden()
            _RESOLVED[key] = found
    return found


def _forget_overridden() -> None:
    """Empty the cache of rule sets with options (bounded; refilling costs µs per rule
    set), keeping the presets named alone: there are only as many as names and variants,
    and each stays the one object that :data:`_NAMED` and every :class:`Resolver` hand
    out (emptied too, a preset resolved again was a second object equal to the first)."""
    named = {key: found for key, found in _RESOLVED.items() if not key[1]}
    _RESOLVED.clear()
    _RESOLVED.update(named)


_CACHE_SIZE = 512
_MAX_KEYED = 128  # more than any rule set has options
_RESOLVED: dict[_Key, RuleSet] = {}
# A preset named without options, by its name alone, with the variant it was resolved for
# (as Resolver.named): the full key holds the variant, whose hash is Enum's, written in
# Python, and a resolution by key hashes it twice (about 1 µs of a hand request's 5 in
# resolve_spec, 2026-12-05).
_NAMED: dict[str, tuple[Variant | None, RuleSet]] = {}


def _cache_key(
    preset: object, overrides: Mapping[str, object] | None, variant: Variant | None
) -> _Key | None:
    """What a resolution depends on, or None when it cannot be a key (an unhashable value:
    such options are refused, so there is nothing to cache)."""
    if not overrides:
        key: _Key = (preset, (), variant)  # most requests: a preset by name, no options
    elif len(overrides) > _MAX_KEYED:
        return None  # more options than exist: refused at once, never sorted or cached
    else:
        key = (preset, tuple(sorted(overrides.items())), variant)
    try:
        hash(key)
    except TypeError:
        return None
    return key


MAX_RULESETS = 16
"""Most distinct rule sets one request may name (its rule sets and ``compare_with`` entries,
over every hand of a batch or session): each costs a resolution and maybe new tables."""


class TooManyRulesetsError(InvalidRulesError):
    """A request names more distinct rule sets than :class:`Resolver` allows."""


class Resolver:
    """The rule sets of one request: each distinct one resolved once, at most ``limit``.

    A request (one hand, a batch, a session) resolves every rule set it names through one
    resolver, so that a batch whose hands each carry different options cannot make the
    server build tables without end.

    >>> resolver = Resolver(limit=2)
    >>> resolver.resolve("standard") is resolver.resolve("standard")
    True
    >>> _ = resolver.resolve("wikipedia")
    >>> resolver.resolve("gamerules")
    Traceback (most recent call last):
    ...
    calculator.presets.TooManyRulesetsError: too_many_rulesets at ruleset: ...
    """

    __slots__ = ("_seen", "limit", "named")

    def __init__(self, *, limit: int = MAX_RULESETS) -> None:
        self.limit = limit
        self._seen: dict[_Key, RuleSet] = {}
        # a preset named without options (most hands of a batch): by its name alone, with
        # the variant it was resolved for. The full key is a tuple holding the variant,
        # whose hash is Enum's, written in Python: two calls a hand for one lookup.
        self.named: dict[str, tuple[Variant | None, RuleSet]] = {}
        """The rule sets resolved by a preset name alone (a ``str``, no overrides), by
        that name, each with the variant it was resolved for: what :meth:`resolve` gives
        again for them (read-only outside: only :meth:`resolve` looks them up)."""

    def resolve(
        self,
        preset: object = "standard",
        overrides: Mapping[str, object] | None = None,
        *,
        variant: Variant | None = None,
    ) -> RuleSet:
        """:func:`resolve`, counted: raises :class:`TooManyRulesetsError` (at ``ruleset``)
        for a new rule set past the limit."""
        # a preset by name alone (the name narrowed here: ``preset`` is any value a
        # library caller gives, refused as an unknown preset unless a string)
        name = preset if not overrides and type(preset) is str else None
        if name is not None:
            named = self.named.get(name)
            if named is not None and named[0] is variant:
                return named[1]
        key = _cache_key(preset, overrides, variant)
        found = self._seen.get(key) if key is not None else None
        if found is not None:
            return found
        if len(self._seen) >= self.limit:
            raise TooManyRulesetsError(
                [
                    Issue(
                        "too_many_rulesets",
                        f"this request names more than {self.limit} different rule sets "
                        f"(rulesets and compare_with entries together); use at most "
                        f"{self.limit}, or split the request",
                        ("ruleset",),
                    )
                ]
            )
        found = _cached(key, preset, overrides, variant)
        if key is not None:
            self._seen[key] = found
        if name is not None:
            self.named[name] = (variant, found)
        return found


def unknown_preset(preset: object, variant: Variant | None = None) -> str:
    """What an unknown preset name's problem says: the presets of ``variant`` (of every
    variant for None), and the name or alias it is closest to (``kr_gostp`` →
    ``kr_gostop``, an alias of standard; ``STANDARD`` → ``standard``: names are matched
    whatever their case, and only the exact name is accepted), within the request's "did
    you mean" budget."""
    presets = [p for p in _REGISTRY.values() if variant is None or p.variant is variant]
    said = f"there is no preset {quote(preset)}; use one of {', '.join(p.name for p in presets)}"
    names = {name.lower(): (name, p.name) for p in presets for name in (p.name, *p.aliases)}
    close: list[str] = []
    if isinstance(preset, str) and len(preset) <= options.MAX_NAME and Suggestions().take():
        close = difflib.get_close_matches(preset.lower(), names, n=1)
    if not close:
        return said
    meant, name = names[close[0]]
    alias = "" if name == meant else f", an alias of {name}"
    return f"{said} (did you mean {meant!r}{alias}?)"


def _resolve(preset: object, overrides: dict[str, object], variant: Variant | None) -> RuleSet:
    found = find_preset(preset) if isinstance(preset, str) else None
    if found is None:
        raise InvalidRulesError(
            [Issue("unknown_preset", unknown_preset(preset, variant), ("ruleset", "preset"))]
        )
    if variant is not None and found.variant is not variant:
        raise InvalidRulesError(
            [
                Issue(
                    "wrong_variant",
                    f"preset {found.name!r} scores the {found.variant} variant, not {variant}; "
                    f"use a {variant} preset",
                    ("ruleset", "preset"),
                )
            ]
        )
    rules = options.override(found.rules, overrides) if overrides else found.rules
    return RuleSet(
        preset=found.name,
        variant=found.variant,
        rules=rules,
        fingerprint=options.fingerprint(found.variant.value, rules),
    )
