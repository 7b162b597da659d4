"""The choices of the Go-Stop house-rule options: one ``StrEnum`` per option whose value
is a word (docs/rules.md §11).

Each member's value is its wire spelling. :class:`calculator.rules.GoStopRules` declares
the options that take these values; :data:`GOBAK_PAYS_ALL` groups the 고박 modes under
which the go-calling loser pays for every loser.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class GoFormula(StrEnum):
    """How the winner's go calls change its points (docs/rules.md §3.2)."""

    KOREAN_POW2 = "korean_pow2"  # +n; from the 3rd go also ×2^(n−2)
    SEED_ES_LINEAR = "seed_es_linear"  # +n; from the 3rd go also ×(n−1)
    SEED_RO = "seed_ro"  # +n; ×2 once when n ≥ 4
    TIMES_N = "times_n"  # +1 for one go; from the 2nd go ×n
    FLAT_DOUBLE_3PLUS = "flat_double_3plus"  # +n; ×2 from the 3rd go, no escalation


class GukjinMode(StrEnum):
    """How the switchable animals (국진, and the May bridge where allowed) may count."""

    CHOICE = "choice"  # animal or double junk, the owner's choice
    ALWAYS_ANIMAL = "always_animal"
    ALWAYS_JUNK = "always_junk"
    BOTH = "both"  # an animal and double junk at once (FudaWiki variant)


class GukjinChoice(StrEnum):
    """A player's reading of its switchable card(s)."""

    ANIMAL = "animal"
    JUNK = "junk"
    AUTO = "auto"  # the winner takes what pays it most, a loser what costs it least


class ShakeThenBomb(StrEnum):
    """A month first shaken, then bombed (docs/rules.md §4.2)."""

    STACK = "stack"  # both count: ×4
    ONCE = "once"  # the bomb adds no second factor
    FORBID = "forbid"  # not allowed: such a hand is rejected


class MeongbakMode(StrEnum):
    """When a loser with no animals pays double (멍박, docs/rules.md §4.6)."""

    OFF = "off"
    WINNER_SCORED_ANIMALS = "winner_scored_animals"
    WINNER_MEONGTTA = "winner_meongtta"
    WINNER_GODORI = "winner_godori"


class GwangbakEffect(StrEnum):
    """What 광박 does to the loser's amount."""

    DOUBLE = "double"
    PLUS2 = "plus2"  # +2 points before the loser's factors (FudaWiki alternative)


class PibakCount(StrEnum):
    """What the 피박 threshold is compared with."""

    VALUE = "value"  # junk value: a double junk counts 2
    CARDS = "cards"  # junk cards: every junk card counts 1


class GobakMode3p(StrEnum):
    """A go-caller who loses, with three active players (docs/rules.md §4.7)."""

    PAY_ALL = "pay_all"  # pays every loser's amount; the others pay nothing
    PAY_ALL_AND_DOUBLE = "pay_all_and_double"  # … and its own share ×2: own × 2 + others
    PAY_ALL_DOUBLED = "pay_all_doubled"  # the whole sum ×2: (own + others) × 2 (bipark)
    DOUBLE = "double"  # its own share ×2
    NONE = "none"


# The 고박 modes under which the go-calling loser pays for every loser.
GOBAK_PAYS_ALL: Final = frozenset(
    {GobakMode3p.PAY_ALL, GobakMode3p.PAY_ALL_AND_DOUBLE, GobakMode3p.PAY_ALL_DOUBLED}
)


class GobakMode2p(StrEnum):
    """A go-caller who loses in two-player Matgo."""

    DOUBLE = "double"
    NONE = "none"


class FloorFour(StrEnum):
    """Four cards of a month dealt to the table."""

    REDEAL = "redeal"  # the same dealer deals again; nothing changes
    NAGARI = "nagari"  # counts as a drawn hand: the streak grows
    DEALER_WINS = "dealer_wins"  # the dealer wins it as a 총통 (bipark/gostop-ts)


class ChongtongMode(StrEnum):
    """Four cards of a month dealt to one player's hand (총통)."""

    INSTANT_WIN = "instant_win"
    PLAY_ON_AS_SHAKE = "play_on_as_shake"  # played on; the four count as a shake


class ChongtongTie(StrEnum):
    """Two or more players dealt a 총통."""

    CANCEL = "cancel"  # nobody is paid, redeal, the streak is unchanged
    DEALER = "dealer"  # the dealer, if a holder, wins
    HIGHER_MONTH = "higher_month"  # the holder of the later month wins
    NAGARI = "nagari"  # a drawn hand: the streak grows


class PpukLadder(StrEnum):
    """What the 1st, 2nd and 3rd consecutive ppuk pay, in units of the first."""

    DOUBLING = "doubling"  # 1, 2, 4 (ZF, FudaWiki)
    LINEAR = "linear"  # 1, 2, 3 (Hangame: 7, 14, 21)


class PpukPayout(StrEnum):
    """How a player's run of consecutive ppuk is paid."""

    EACH = "each"  # every ppuk as it happens: 1, then 2 and 4 more (ladder as ppuk_ladder)
    HIGHEST = "highest"  # once, for the highest rung: 1, 2 or 4 in all (linear: 3) (ZeroFriends)


class ThreePpukMode(StrEnum):
    """What a third consecutive ppuk does."""

    INSTANT_WIN = "instant_win"  # the hand ends: a three_ppuk outcome
    SIDE_PAYMENT = "side_payment"  # paid as the ladder's third rung; the hand goes on (a house
    # reading: no source plays on; ZeroFriends ends the hand as a win, docs/rules.md §5.4)


class OrderOfOperations(StrEnum):
    """Whether shakes and bombs multiply before or after the go points are added."""

    ADD_THEN_MULTIPLY = "add_then_multiply"
    SHAKE_BEFORE_GO = "shake_before_go"


class YeokgoMode(StrEnum):
    """역고 (reverse go): a go called after an opponent's go (docs/rules.md §4.8)."""

    OFF = "off"  # not played: a yeokgo flag is rejected
    DOUBLE_AND_DOKBAK = "double_and_dokbak"  # ×2, and the earlier go-caller pays for all
    FIXED_X4 = "fixed_x4"  # go multiplier fixed at ×4, the go-caller also pays go-bak ×2


class GwangpalPayers(StrEnum):
    """Who pays the player who sits out for the brights it sells (광팔기)."""

    ALL_OTHERS = "all_others"
    NON_DEALER_ACTIVE = "non_dealer_active"


class GwangpalCards(StrEnum):
    """Which cards in the sitter's hand sell."""

    BRIGHTS = "brights"
    FUDAWIKI = "fudawiki"  # brights, bonus cards, 09-animal, 11- and 12-double-junk


class TableMode4p(StrEnum):
    """What the fourth player at a Go-Stop table does."""

    GWANGPAL = "gwangpal"  # sits out and sells brights
    OBSERVE = "observe"  # sits out and watches; nobody pays it
