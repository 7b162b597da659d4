"""Go-Stop house rules: every contested rule of docs/rules.md §11 as one explicit option.

:class:`GoStopRules` is a frozen record; its defaults are the ``standard`` preset (the
recommended defaults of docs/rules.md §11). Each field is declared with
:func:`calculator.options.option`, which records its meaning and source, so the
catalogue served by ``GET /v1/rulesets`` is read from this file.

Options that differ by player count come in ``_2p`` / ``_3p`` pairs; a four-player
table plays as three (one player sits out). The choices of the options whose value is a
word are in :mod:`calculator.rule_choices`.

Over ~400 lines for a reason: the module is the one record, and its fields are the
catalogue in declaration order; splitting them would take a base class per section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from calculator.options import option
from calculator.rule_choices import (
    ChongtongMode,
    ChongtongTie,
    FloorFour,
    GobakMode2p,
    GobakMode3p,
    GoFormula,
    GukjinChoice,
    GukjinMode,
    GwangbakEffect,
    GwangpalCards,
    GwangpalPayers,
    MeongbakMode,
    OrderOfOperations,
    PibakCount,
    PpukLadder,
    PpukPayout,
    ShakeThenBomb,
    TableMode4p,
    ThreePpukMode,
    YeokgoMode,
)

_DOC = "docs/rules.md §"  # the section of the rules document that explains it
_MAX_CHIPS: Final = 1_000_000_000  # a side price in chips; a net beyond 2^53 − 1 is refused anyway


@dataclass(frozen=True, slots=True, kw_only=True)
class GoStopRules:
    """A complete, resolved Go-Stop rule set. The defaults are the ``standard`` preset."""

    # --- scoring (docs/rules.md §2) ---
    four_brights_points: int = option(
        4,
        summary="Points for four brights without the rain man.",
        section=_DOC + "2.1",
        minimum=0,
        maximum=1000,
    )
    four_brights_with_rain_points: int = option(
        4,
        summary="Points for four brights including the rain man.",
        section=_DOC + "2.1",
        minimum=0,
        maximum=1000,
    )
    five_brights_points: int = option(
        15,
        summary="Points for all five brights (houses play 15 to 50).",
        section=_DOC + "2.1",
        minimum=0,
        maximum=1000,
    )
    godori_points: int = option(
        5,
        summary="Points for godori, the three bird animals.",
        section=_DOC + "2.2",
        minimum=0,
        maximum=1000,
    )
    dec_ribbon_counts_in_ribbon_total: bool = option(
        True,
        summary="The December ribbon counts toward the five-ribbon total.",
        section=_DOC + "2.3",
    )
    dec_ribbon_completes_chodan: bool = option(
        False,
        summary="비초단: the December ribbon may stand in for one chodan ribbon.",
        section=_DOC + "2.3",
    )
    gukjin_mode: GukjinMode = option(
        GukjinMode.CHOICE,
        summary="How the sake cup (09-animal) may count.",
        section=_DOC + "2.5",
    )
    gukjin_default: GukjinChoice = option(
        GukjinChoice.AUTO,
        summary="The reading used when a player does not say how its switchable card counts.",
        section=_DOC + "2.5",
    )
    may_animal_switchable: bool = option(
        False,
        summary="The May bridge (05-animal) may count as double junk like the sake cup.",
        section=_DOC + "2.5",
    )
    bonus_a_junk_value: int = option(
        2,
        summary="Junk value of bonus-a; 0 takes it out of the deck.",
        section=_DOC + "1.3",
        minimum=0,
        maximum=5,
    )
    bonus_b_junk_value: int = option(
        3,
        summary="Junk value of bonus-b; 0 takes it out of the deck.",
        section=_DOC + "1.3",
        minimum=0,
        maximum=5,
    )
    bonus_c_junk_value: int = option(
        0,
        summary="Junk value of bonus-c; 0 takes it out of the deck.",
        section=_DOC + "1.3",
        minimum=0,
        maximum=5,
    )
    bonus_d_junk_value: int = option(
        0,
        summary="Junk value of bonus-d; 0 takes it out of the deck.",
        section=_DOC + "1.3",
        minimum=0,
        maximum=5,
    )
    three_double_pi_bonus: int = option(
        0,
        summary="Extra points for holding the three double junks (sake cup as junk, "
        "11- and 12-double-junk); they do not count toward the stop minimum. 0 = off.",
        section=_DOC + "2.4",
        minimum=0,
        maximum=100,
    )
    # --- go and stop (docs/rules.md §3) ---
    min_points_to_stop_2p: int = option(
        7,
        summary="Points needed to call go or stop with two players (맞고); 0 = no minimum. "
        "Options whose null means the stop minimum then pay 0.",
        section=_DOC + "3.1",
        minimum=0,
        maximum=100,
    )
    min_points_to_stop_3p: int = option(
        3,
        summary="Points needed to call go or stop with three players (four play as three); "
        "0 = no minimum. Options whose null means the stop minimum then pay 0.",
        section=_DOC + "3.1",
        minimum=0,
        maximum=100,
    )
    go_formula: GoFormula = option(
        GoFormula.KOREAN_POW2,
        summary="How the winner's go calls change its points.",
        section=_DOC + "3.2",
    )
    go_points_with_multiplier: bool = option(
        True,
        summary="Once a go multiplier applies, the +n go points are still added before it.",
        section=_DOC + "3.2",
    )
    # --- multipliers (docs/rules.md §4) ---
    shake_multiplier: int = option(
        2,
        summary="Factor per shake (흔들기) when the shaker wins.",
        section=_DOC + "4.1",
        minimum=1,
        maximum=10,
    )
    shake_cap: int | None = option(
        None,
        summary="Most shakes that multiply.",
        section=_DOC + "4.1",
        minimum=0,
        maximum=20,
        null_means="no cap",
    )
    bomb_multiplier: int = option(
        2,
        summary="Factor per bomb (폭탄) when the bomber wins; 1 = bombs do not multiply.",
        section=_DOC + "4.2",
        minimum=1,
        maximum=10,
    )
    shake_then_bomb_same_month: ShakeThenBomb = option(
        ShakeThenBomb.STACK,
        summary="A month shaken and then bombed.",
        section=_DOC + "4.2",
    )
    meongtta_enabled: bool = option(
        True,
        summary="멍따: a winner with many animals is paid double.",
        section=_DOC + "4.3",
    )
    meongtta_threshold: int = option(
        7,
        summary="Animals the winner needs for 멍따.",
        section=_DOC + "4.3",
        minimum=5,
        maximum=9,
    )
    meongbak_mode: MeongbakMode = option(
        MeongbakMode.OFF,
        summary="멍박: when a loser with no animals pays double.",
        section=_DOC + "4.6",
    )
    gwangbak_enabled: bool = option(
        True,
        summary="광박: a loser with no bright pays more when the winner scored brights.",
        section=_DOC + "4.4",
    )
    gwangbak_rain_protects: bool = option(
        True,
        summary="A loser holding only the rain man escapes 광박.",
        section=_DOC + "4.4",
    )
    gwangbak_effect: GwangbakEffect = option(
        GwangbakEffect.DOUBLE,
        summary="What 광박 does to the loser's amount.",
        section=_DOC + "4.4",
    )
    pibak_max_pi_2p: int = option(
        7,
        summary="피박 with two players: the loser's junk is at or below this.",
        section=_DOC + "4.5",
        minimum=0,
        maximum=30,
    )
    pibak_max_pi_3p: int = option(
        5,
        summary="피박 with three players: the loser's junk is at or below this.",
        section=_DOC + "4.5",
        minimum=0,
        maximum=30,
    )
    pibak_zero_exempt: bool = option(
        True,
        summary="A loser with no junk at all escapes 피박 (면박).",
        section=_DOC + "4.5",
    )
    pibak_count: PibakCount = option(
        PibakCount.VALUE,
        summary="What the 피박 threshold is compared with.",
        section=_DOC + "4.5",
    )
    gobak_mode_2p: GobakMode2p = option(
        GobakMode2p.DOUBLE,
        summary="고박 with two players: a go-caller who loses.",
        section=_DOC + "4.7",
    )
    gobak_mode_3p: GobakMode3p = option(
        GobakMode3p.PAY_ALL,
        summary="고박 with three players: a go-caller who loses. pay_all: it pays every "
        "loser's amount (each with its own baks), the others pay nothing; pay_all_and_double: "
        "the same, with its own share doubled first (own × 2 + others); pay_all_doubled: "
        "the whole sum doubled ((own + others) × 2, so the other losers' shares are doubled "
        "too); double: its own share × 2, the others pay their own; none: no 고박.",
        section=_DOC + "4.7",
    )
    nagari_multiplier: int = option(
        2,
        summary="Factor per drawn hand (나가리) carried into the next decided hand.",
        section=_DOC + "4.9",
        minimum=1,
        maximum=10,
    )
    nagari_stacking: bool = option(
        True,
        summary="Consecutive drawn hands stack (×2, ×4, ×8…) instead of one factor.",
        section=_DOC + "4.9",
    )
    nagari_max_multiplier: int | None = option(
        None,
        summary="Cap on the nagari factor.",
        section=_DOC + "4.9",
        minimum=1,
        maximum=1 << 20,
        null_means="no cap",
    )
    floor_four_of_month: FloorFour = option(
        FloorFour.REDEAL,
        summary="Four cards of a month dealt to the table: redeal (nothing changes), nagari "
        "(a drawn hand: the streak grows) or dealer_wins (the dealer wins it as a 총통: "
        "chongtong_points, or chongtong_chips, from each opponent, "
        "chongtong_apply_multipliers too; the hand must name its dealer).",
        section=_DOC + "5.2",
    )
    order_of_operations: OrderOfOperations = option(
        OrderOfOperations.ADD_THEN_MULTIPLY,
        summary="Whether shakes and bombs multiply before the go points are added.",
        section=_DOC + "4.10",
    )
    no_capture_exemption: bool = option(
        False,
        summary="A loser who captured no card pays nothing.",
        section=_DOC + "4.11",
    )
    yeokgo_mode: YeokgoMode = option(
        YeokgoMode.OFF,
        summary="역고: a go called after an opponent's go.",
        section=_DOC + "4.8",
    )
    # --- special endings and side payments (docs/rules.md §5) ---
    chongtong_mode: ChongtongMode = option(
        ChongtongMode.INSTANT_WIN,
        summary="Four of a month dealt to one hand (총통).",
        section=_DOC + "5.1",
    )
    chongtong_points: int | None = option(
        None,
        summary="Points each opponent pays a 총통 holder.",
        section=_DOC + "5.1",
        minimum=0,
        maximum=1000,
        null_means="the stop minimum",
    )
    chongtong_chips: int | None = option(
        None,
        summary="A 총통's price in chips, paid by each opponent (instead of "
        "chongtong_points; a floor four the dealer wins too). A chip price is not multiplied "
        "by the stake: such a payment has points 0 and priced_in chips, and the winner's "
        "part counts chips.",
        section=_DOC + "5.1",
        minimum=0,
        maximum=_MAX_CHIPS,
        null_means="priced in points: chongtong_points × stake",
    )
    chongtong_apply_multipliers: bool = option(
        False,
        summary="The nagari factor applies to a 총통 payout.",
        section=_DOC + "5.1",
    )
    chongtong_tie: ChongtongTie = option(
        ChongtongTie.CANCEL,
        summary="Two or more players dealt a 총통.",
        section=_DOC + "5.1",
    )
    first_ppuk_points: int | None = option(
        None,
        summary="Points each opponent pays for a first-turn ppuk (첫뻑).",
        section=_DOC + "5.3",
        minimum=0,
        maximum=1000,
        null_means="the stop minimum",
    )
    ppuk_ladder: PpukLadder = option(
        PpukLadder.DOUBLING,
        summary="What the 2nd and 3rd consecutive ppuk pay (연뻑).",
        section=_DOC + "5.3",
    )
    ppuk_payout: PpukPayout = option(
        PpukPayout.EACH,
        summary="How a run of ppuk is paid: each (every ppuk when it happens: 1×, then 2× "
        "and 4× more on the doubling ladder, 2× and 3× on the linear one) or highest (once, "
        "for the highest rung reached: 1×, 2× or 4× in total on the doubling ladder, 1×, 2× "
        "or 3× on the linear one).",
        section=_DOC + "5.3",
    )
    ppuk_chips: int | None = option(
        None,
        summary="A first ppuk's price in chips, paid by each opponent; the ladder multiplies "
        "it for the 2nd and 3rd. A chip price is not multiplied by the stake: such a "
        "payment has points 0 and priced_in chips.",
        section=_DOC + "5.3",
        minimum=0,
        maximum=_MAX_CHIPS,
        null_means="priced in points: first_ppuk_points × stake",
    )
    three_ppuk_mode: ThreePpukMode = option(
        ThreePpukMode.INSTANT_WIN,
        summary="A third consecutive ppuk: instant_win (a three_ppuk outcome ends the hand) "
        "or side_payment (it is paid as the ladder's third rung, the second "
        "consecutive_ppuk event, and the hand goes on; a three_ppuk outcome is refused).",
        section=_DOC + "5.4",
    )
    three_ppuk_points: int | None = option(
        None,
        summary="Points each opponent pays for three ppuk (쓰리뻑), an instant win.",
        section=_DOC + "5.4",
        minimum=0,
        maximum=1000,
        null_means="the stop minimum",
    )
    three_ppuk_consecutive_bonus: int = option(
        0,
        summary="Extra points per opponent when the three ppuk were consecutive.",
        section=_DOC + "5.4",
        minimum=0,
        maximum=1000,
    )
    three_ppuk_apply_multipliers: bool = option(
        False,
        summary="The nagari factor applies to a three-ppuk payout (as "
        "chongtong_apply_multipliers does for 총통).",
        section=_DOC + "5.4",
    )
    first_ttadak_points: int | None = option(
        None,
        summary="Points each opponent pays for a first-turn ttadak (첫따닥).",
        section=_DOC + "5.5",
        minimum=0,
        maximum=1000,
        null_means="the stop minimum",
    )
    ttadak_chips: int | None = option(
        None,
        summary="A first-turn ttadak's price in chips, paid by each opponent. A chip price is "
        "not multiplied by the stake: such a payment has points 0 and priced_in chips.",
        section=_DOC + "5.5",
        minimum=0,
        maximum=_MAX_CHIPS,
        null_means="priced in points: first_ttadak_points × stake",
    )
    # --- four players (docs/rules.md §6) ---
    table_mode_4p: TableMode4p = option(
        TableMode4p.GWANGPAL,
        summary="What the fourth player at the table does.",
        section=_DOC + "6.1",
    )
    gwangpal_price: int = option(
        2,
        summary="Points per sold card, paid by each payer to the player who sits out.",
        section=_DOC + "6.2",
        minimum=0,
        maximum=1000,
    )
    gwangpal_chips: int | None = option(
        None,
        summary="Price per sold card in chips, paid by each payer to the player who sits out "
        "(instead of gwangpal_price). A chip price is not multiplied by the stake: such a "
        "payment has points 0 and priced_in chips.",
        section=_DOC + "6.2",
        minimum=0,
        maximum=_MAX_CHIPS,
        null_means="priced in points: gwangpal_price × stake",
    )
    gwangpal_counts_sets: bool = option(
        False,
        summary="The sitter's sale also counts the points of the sets complete in its hand "
        "(godori, hongdan, cheongdan, chodan) as sold cards: two brights and godori sell "
        "2 + 5 = 7. Needs the sitter's hand.",
        section=_DOC + "6.2",
    )
    gwangpal_payers: GwangpalPayers = option(
        GwangpalPayers.ALL_OTHERS,
        summary="Who pays the player who sits out.",
        section=_DOC + "6.1",
    )
    gwangpal_cards: GwangpalCards = option(
        GwangpalCards.BRIGHTS,
        summary="Which cards in the sitter's hand sell.",
        section=_DOC + "6.2",
    )
    gwangpal_triple_doubles: bool = option(
        False,
        summary="A sitter holding three cards of a month is paid double.",
        section=_DOC + "6.2",
    )
    gwangpal_rain_alone: bool = option(
        False,
        summary="The rain man sells even when it is the sitter's only bright.",
        section=_DOC + "6.2",
    )

    def bonus_values(self) -> dict[str, int]:
        """Junk value of each bonus card in the deck (cards valued 0 are not in it)."""
        found = {
            "bonus-a": self.bonus_a_junk_value,
            "bonus-b": self.bonus_b_junk_value,
            "bonus-c": self.bonus_c_junk_value,
            "bonus-d": self.bonus_d_junk_value,
        }
        return {card_id: value for card_id, value in found.items() if value}
