"""The compiled fast loaders of the hand's schemas. GENERATED: do not edit.

Written by calculator.api.native_loaders.write_native_module() from the schemas,
which use a class here only in the compiled build (setup.py), and only while its
source is the one they generate (SOURCES holds its digest): see
calculator.api.strict_schema.StrictSchema._native.
"""

# ruff: noqa
# fmt: off
from __future__ import annotations

from typing import Any, Final


class _Missing:
    """The value of a key left out."""


MISSING: Final = _Missing()


from calculator.api.hand_requests import hand_request
from calculator.api.hand_requests import spec_by_name


class LoadHandRequestSchema:
    """The loader of calculator.api.schemas.HandRequestSchema (compiled)."""

    D0: Any
    D1: Any
    D2: Any
    D3: Any
    D5: Any
    D6: Any
    D7: Any
    Fallback: Any
    L0: Any
    L1: Any
    L2: Any
    L3: Any
    L4: Any
    L5: LoadOutcomeSchema
    L6: Any
    L7: Any
    each_events: LoadEventSchema
    each_players: LoadPlayerSchema
    isprintable: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.D0 = constants['D0']
        self.D1 = constants['D1']
        self.D2 = constants['D2']
        self.D3 = constants['D3']
        self.D5 = constants['D5']
        self.D6 = constants['D6']
        self.D7 = constants['D7']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.L2 = constants['L2']
        self.L3 = constants['L3']
        self.L4 = constants['L4']
        self.L5 = constants['L5']
        self.L6 = constants['L6']
        self.L7 = constants['L7']
        self.each_events = constants['each_events']
        self.each_players = constants['each_players']
        self.isprintable = constants['isprintable']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        f2: Any
        f3: Any
        f4: Any
        f5: Any
        f6: Any
        f7: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('ruleset', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and len(v) <= 64:
                    f0 = spec_by_name(v)
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.L0(v)
            else:
                f0 = self.D0()
            v = data.get('stake', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 1 <= v <= 1000000000000:
                    f1 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = self.L1(v)
            else:
                f1 = self.D1
            v = data.get('nagari_streak', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 64:
                    f2 = v
                elif v is None:
                    f2 = None
                else:
                    f2 = self.L2(v)
            else:
                f2 = self.D2
            v = data.get('dealer', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f3 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f3 = self.L3(v)
            else:
                f3 = self.D3
            v = data.get('players', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is list and len(v) <= 8:
                    f4 = tuple(self.each_players.load(x) for x in v)
                elif v is None:
                    raise self.Fallback
                else:
                    f4 = tuple(self.L4(v))
            else:
                raise self.Fallback
            v = data.get('outcome', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if v is None:
                    f5 = None
                else:
                    f5 = self.L5.load(v)
            else:
                f5 = self.D5
            v = data.get('events', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is list and len(v) <= 16:
                    f6 = tuple(self.each_events.load(x) for x in v)
                elif v is None:
                    raise self.Fallback
                else:
                    f6 = tuple(self.L6(v))
            else:
                f6 = self.D6
            v = data.get('compare_with', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if v is None:
                    raise self.Fallback
                else:
                    f7 = tuple(self.L7(v))
            else:
                f7 = self.D7
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return hand_request(f0, f1, f2, f4, f5, f6, f7, f3)


from calculator.cards import all_card_ids


class LoadPlayerSchema:
    """The loader of calculator.api.schemas.PlayerSchema (compiled)."""

    C8: dict[Any, Any]
    D1: Any
    D10: Any
    D11: Any
    D12: Any
    D2: Any
    D3: Any
    D4: Any
    D5: Any
    D6: Any
    D7: Any
    D8: Any
    D9: Any
    Fallback: Any
    L0: Any
    L1: Any
    L10: Any
    L11: Any
    L12: Any
    L2: LoadTallySchema
    L3: LoadDeclaredSchema
    L4: Any
    L5: Any
    L6: Any
    L7: Any
    L8: Any
    L9: Any
    R: Any
    isprintable: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.C8 = constants['C8']
        self.D1 = constants['D1']
        self.D10 = constants['D10']
        self.D11 = constants['D11']
        self.D12 = constants['D12']
        self.D2 = constants['D2']
        self.D3 = constants['D3']
        self.D4 = constants['D4']
        self.D5 = constants['D5']
        self.D6 = constants['D6']
        self.D7 = constants['D7']
        self.D8 = constants['D8']
        self.D9 = constants['D9']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.L10 = constants['L10']
        self.L11 = constants['L11']
        self.L12 = constants['L12']
        self.L2 = constants['L2']
        self.L3 = constants['L3']
        self.L4 = constants['L4']
        self.L5 = constants['L5']
        self.L6 = constants['L6']
        self.L7 = constants['L7']
        self.L8 = constants['L8']
        self.L9 = constants['L9']
        self.R = constants['R']
        self.isprintable = constants['isprintable']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        f2: Any
        f3: Any
        f4: Any
        f5: Any
        f6: Any
        f7: Any
        f8: Any
        f9: Any
        f10: Any
        f11: Any
        f12: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('id', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f0 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.L0(v)
            else:
                raise self.Fallback
            v = data.get('captured', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is list and len(v) <= 60 and all_card_ids(v):
                    f1 = tuple(v)
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = tuple(self.L1(v))
            else:
                f1 = self.D1
            v = data.get('tally', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if v is None:
                    raise self.Fallback
                else:
                    f2 = self.L2.load(v)
            else:
                f2 = self.D2
            v = data.get('declared', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if v is None:
                    raise self.Fallback
                else:
                    f3 = self.L3.load(v)
            else:
                f3 = self.D3
            v = data.get('go_count', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 20:
                    f4 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f4 = self.L4(v)
            else:
                f4 = self.D4
            v = data.get('shakes', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 12:
                    f5 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f5 = self.L5(v)
            else:
                f5 = self.D5
            v = data.get('bombs', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 12:
                    f6 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f6 = self.L6(v)
            else:
                f6 = self.D6
            v = data.get('bombs_after_shake', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 12:
                    f7 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f7 = self.L7(v)
            else:
                f7 = self.D7
            v = data.get('gukjin', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and (f8 := self.C8.get(v)) is not None:
                    pass  # made by the check
                elif v is None:
                    f8 = None
                else:
                    f8 = self.C8[self.L8(v)]
            else:
                f8 = self.D8
            v = data.get('yeokgo', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f9 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f9 = self.L9(v)
            else:
                f9 = self.D9
            v = data.get('sits_out', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f10 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f10 = self.L10(v)
            else:
                f10 = self.D10
            v = data.get('sold_brights', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 12:
                    f11 = v
                elif v is None:
                    f11 = None
                else:
                    f11 = self.L11(v)
            else:
                f11 = self.D11
            v = data.get('hand', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is list and len(v) <= 12 and all_card_ids(v):
                    f12 = tuple(v)
                elif v is None:
                    raise self.Fallback
                else:
                    f12 = tuple(self.L12(v))
            else:
                f12 = self.D12
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12,))


class LoadTallySchema:
    """The loader of calculator.api.schemas.TallySchema (compiled)."""

    D0: Any
    D1: Any
    D10: Any
    D11: Any
    D12: Any
    D13: Any
    D2: Any
    D3: Any
    D4: Any
    D5: Any
    D6: Any
    D7: Any
    D8: Any
    D9: Any
    Fallback: Any
    L0: Any
    L1: Any
    L10: Any
    L11: Any
    L12: Any
    L13: Any
    L2: Any
    L3: Any
    L4: Any
    L5: Any
    L6: Any
    L7: Any
    L8: Any
    L9: Any
    R: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.D0 = constants['D0']
        self.D1 = constants['D1']
        self.D10 = constants['D10']
        self.D11 = constants['D11']
        self.D12 = constants['D12']
        self.D13 = constants['D13']
        self.D2 = constants['D2']
        self.D3 = constants['D3']
        self.D4 = constants['D4']
        self.D5 = constants['D5']
        self.D6 = constants['D6']
        self.D7 = constants['D7']
        self.D8 = constants['D8']
        self.D9 = constants['D9']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.L10 = constants['L10']
        self.L11 = constants['L11']
        self.L12 = constants['L12']
        self.L13 = constants['L13']
        self.L2 = constants['L2']
        self.L3 = constants['L3']
        self.L4 = constants['L4']
        self.L5 = constants['L5']
        self.L6 = constants['L6']
        self.L7 = constants['L7']
        self.L8 = constants['L8']
        self.L9 = constants['L9']
        self.R = constants['R']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        f2: Any
        f3: Any
        f4: Any
        f5: Any
        f6: Any
        f7: Any
        f8: Any
        f9: Any
        f10: Any
        f11: Any
        f12: Any
        f13: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('brights', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 5:
                    f0 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.L0(v)
            else:
                f0 = self.D0
            v = data.get('rain_bright', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f1 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = self.L1(v)
            else:
                f1 = self.D1
            v = data.get('animals', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 9:
                    f2 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f2 = self.L2(v)
            else:
                f2 = self.D2
            v = data.get('godori', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f3 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f3 = self.L3(v)
            else:
                f3 = self.D3
            v = data.get('ribbons', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 10:
                    f4 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f4 = self.L4(v)
            else:
                f4 = self.D4
            v = data.get('rain_ribbon', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f5 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f5 = self.L5(v)
            else:
                f5 = self.D5
            v = data.get('hongdan', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f6 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f6 = self.L6(v)
            else:
                f6 = self.D6
            v = data.get('cheongdan', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f7 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f7 = self.L7(v)
            else:
                f7 = self.D7
            v = data.get('chodan', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f8 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f8 = self.L8(v)
            else:
                f8 = self.D8
            v = data.get('junk_value', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 60:
                    f9 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f9 = self.L9(v)
            else:
                f9 = self.D9
            v = data.get('junk_cards', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 40:
                    f10 = v
                elif v is None:
                    f10 = None
                else:
                    f10 = self.L10(v)
            else:
                f10 = self.D10
            v = data.get('double_junks', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 3:
                    f11 = v
                elif v is None:
                    f11 = None
                else:
                    f11 = self.L11(v)
            else:
                f11 = self.D11
            v = data.get('has_gukjin', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f12 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f12 = self.L12(v)
            else:
                f12 = self.D12
            v = data.get('has_may_animal', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f13 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f13 = self.L13(v)
            else:
                f13 = self.D13
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13,))


class LoadDeclaredSchema:
    """The loader of calculator.api.schemas.DeclaredSchema (compiled)."""

    C1: Any
    D0: Any
    D1: Any
    D2: Any
    D3: Any
    D4: Any
    D5: Any
    D6: Any
    Fallback: Any
    L0: Any
    L1: Any
    L2: Any
    L3: Any
    L4: Any
    L5: Any
    L6: Any
    R: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.C1 = constants['C1']
        self.D0 = constants['D0']
        self.D1 = constants['D1']
        self.D2 = constants['D2']
        self.D3 = constants['D3']
        self.D4 = constants['D4']
        self.D5 = constants['D5']
        self.D6 = constants['D6']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.L2 = constants['L2']
        self.L3 = constants['L3']
        self.L4 = constants['L4']
        self.L5 = constants['L5']
        self.L6 = constants['L6']
        self.R = constants['R']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        f2: Any
        f3: Any
        f4: Any
        f5: Any
        f6: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('points', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 0 <= v <= 10000:
                    f0 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.L0(v)
            else:
                f0 = self.D0
            v = data.get('scored', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if v is None:
                    raise self.Fallback
                else:
                    f1 = self.C1(self.L1(v))
            else:
                f1 = self.D1
            v = data.get('meongtta', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f2 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f2 = self.L2(v)
            else:
                f2 = self.D2
            v = data.get('pi_bak', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f3 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f3 = self.L3(v)
            else:
                f3 = self.D3
            v = data.get('gwang_bak', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f4 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f4 = self.L4(v)
            else:
                f4 = self.D4
            v = data.get('meong_bak', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f5 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f5 = self.L5(v)
            else:
                f5 = self.D5
            v = data.get('no_cards', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if (v is True or v is False):
                    f6 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f6 = self.L6(v)
            else:
                f6 = self.D6
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1, f2, f3, f4, f5, f6,))


class LoadOutcomeSchema:
    """The loader of calculator.api.schemas.OutcomeSchema (compiled)."""

    C0: dict[Any, Any]
    D1: Any
    D2: Any
    D3: Any
    Fallback: Any
    L0: Any
    L1: Any
    L2: Any
    L3: Any
    R: Any
    each_holders: LoadHolderSchema
    isprintable: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.C0 = constants['C0']
        self.D1 = constants['D1']
        self.D2 = constants['D2']
        self.D3 = constants['D3']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.L2 = constants['L2']
        self.L3 = constants['L3']
        self.R = constants['R']
        self.each_holders = constants['each_holders']
        self.isprintable = constants['isprintable']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        f2: Any
        f3: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('type', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and (f0 := self.C0.get(v)) is not None:
                    pass  # made by the check
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.C0[self.L0(v)]
            else:
                raise self.Fallback
            v = data.get('winner', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f1 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = self.L1(v)
            else:
                f1 = self.D1
            v = data.get('liable', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f2 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f2 = self.L2(v)
            else:
                f2 = self.D2
            v = data.get('holders', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is list and len(v) <= 4:
                    f3 = tuple(self.each_holders.load(x) for x in v)
                elif v is None:
                    raise self.Fallback
                else:
                    f3 = tuple(self.L3(v))
            else:
                f3 = self.D3
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1, f2, f3,))


class LoadHolderSchema:
    """The loader of calculator.api.schemas.HolderSchema (compiled)."""

    Fallback: Any
    L0: Any
    L1: Any
    R: Any
    isprintable: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.R = constants['R']
        self.isprintable = constants['isprintable']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('player', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f0 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.L0(v)
            else:
                raise self.Fallback
            v = data.get('month', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is int and 1 <= v <= 12:
                    f1 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = self.L1(v)
            else:
                raise self.Fallback
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1,))


class LoadEventSchema:
    """The loader of calculator.api.schemas.EventSchema (compiled)."""

    C0: dict[Any, Any]
    Fallback: Any
    L0: Any
    L1: Any
    R: Any
    isprintable: Any
    new: Any
    slow: Any  # the schema's load, set once the object is made

    def __init__(self, constants: dict[str, Any]) -> None:
        self.C0 = constants['C0']
        self.Fallback = constants['Fallback']
        self.L0 = constants['L0']
        self.L1 = constants['L1']
        self.R = constants['R']
        self.isprintable = constants['isprintable']
        self.new = constants['new']

    def load_fast(self, data: Any) -> Any:
        """StrictSchema.load_fast: by load, else by the full load (slow)."""
        try:
            return self.load(data)
        except self.Fallback:
            return self.slow(data)

    def load(self, data: Any) -> Any:
        v: Any
        f0: Any
        f1: Any
        if type(data) is not dict:
            raise self.Fallback
        found = 0
        size = len(data)
        try:
            v = data.get('type', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and (f0 := self.C0.get(v)) is not None:
                    pass  # made by the check
                elif v is None:
                    raise self.Fallback
                else:
                    f0 = self.C0[self.L0(v)]
            else:
                raise self.Fallback
            v = data.get('player', MISSING) if found < size else MISSING
            if v is not MISSING:
                found += 1
                if type(v) is str and 1 <= len(v) <= 40 and self.isprintable(v):
                    f1 = v
                elif v is None:
                    raise self.Fallback
                else:
                    f1 = self.L1(v)
            else:
                raise self.Fallback
        except TypeError:
            raise self.Fallback from None
        if found != size:  # a key no field has
            raise self.Fallback
        return self.new(self.R, (f0, f1,))


CLASSES: Final[dict[str, Any]] = {
    'calculator.api.schemas.HandRequestSchema': LoadHandRequestSchema,
    'calculator.api.schemas.PlayerSchema': LoadPlayerSchema,
    'calculator.api.schemas.TallySchema': LoadTallySchema,
    'calculator.api.schemas.DeclaredSchema': LoadDeclaredSchema,
    'calculator.api.schemas.OutcomeSchema': LoadOutcomeSchema,
    'calculator.api.schemas.HolderSchema': LoadHolderSchema,
    'calculator.api.schemas.EventSchema': LoadEventSchema,
}
SOURCES: Final[dict[str, str]] = {
    'calculator.api.schemas.HandRequestSchema': '1e71265649025cfaf7728fb578eb5c62b36e9f14cc3c2e1ea0accf067538c51e',
    'calculator.api.schemas.PlayerSchema': '9d10d898b50b7eaa6d719a6280f31a4e6636bb5e69e7389347f0b55e53bcfe4a',
    'calculator.api.schemas.TallySchema': 'a1a3cabe7ac1298aba02b606af458522018f97992292758a13ee023aa2f67998',
    'calculator.api.schemas.DeclaredSchema': 'fbbc2f7136621234df06b6c974bc5cdc9650c37a0b812613918eaaeff3c4c7b3',
    'calculator.api.schemas.OutcomeSchema': '52f20c44e9be9274ef6cccc8c07fa08f5a2140e7cc3fbf764e6881473e60a8b2',
    'calculator.api.schemas.HolderSchema': '52d7e511e8efd1e76b155f3f0c30ce205df487a52bc5f4cbc88dbfc8962b807d',
    'calculator.api.schemas.EventSchema': 'f7dce8a0354846287525435e5788dbf370ca672ffe77e9722c8a85a2a11d5fc3',
}
