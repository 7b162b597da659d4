"""Korean and English labels for every code the engine emits (items, steps, reasons).

Apps show these next to the amounts; the codes themselves are the contract.

>>> LABELS["pi_bak"]
Label(ko='피박', en='junk penalty (pi-bak)')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple


class Label(NamedTuple):
    """A code's name in Korean and in English."""

    ko: str
    en: str


LABELS: Mapping[str, Label] = MappingProxyType(
    {
        # scoring items (SPEC §4)
        "three_brights": Label("삼광", "three brights"),
        "three_brights_rain": Label("비삼광", "three brights with the rain man"),
        "four_brights": Label("사광", "four brights"),
        "five_brights": Label("오광", "five brights"),
        "animals": Label("열끗", "animals"),
        "godori": Label("고도리", "godori (five birds)"),
        "ribbons": Label("띠", "ribbons"),
        "hongdan": Label("홍단", "red poetry ribbons (hongdan)"),
        "cheongdan": Label("청단", "blue ribbons (cheongdan)"),
        "chodan": Label("초단", "red plain ribbons (chodan)"),
        "junk": Label("피", "junk"),
        "three_double_junk": Label("쌍피 세 장", "three double junks"),
        # the winner's amount
        "go_bonus": Label("고 점수", "go points"),
        "go_multiplier": Label("고 배수", "go multiplier"),
        "shake": Label("흔들기", "shake"),
        "bomb": Label("폭탄", "bomb"),
        "meongtta": Label("멍따", "seven or more animals (meongtta)"),
        "yeokgo": Label("역고", "reverse go (yeokgo)"),
        "nagari": Label("나가리", "drawn hands before (nagari)"),
        "consecutive_bonus": Label("연속 보너스", "consecutive bonus"),
        # each loser's amount
        "winner_amount": Label("승자 점수", "winner's amount"),
        "gwang_bak": Label("광박", "bright penalty (gwang-bak)"),
        "pi_bak": Label("피박", "junk penalty (pi-bak)"),
        "meong_bak": Label("멍박", "animal penalty (meong-bak)"),
        "go_bak": Label("고박", "failed go (go-bak)"),
        "no_capture": Label("무득점 면제", "no cards captured: exempt"),
        "covers": Label("독박 대납", "pays for another loser (dokbak)"),
        "covered_by": Label("대납받음", "paid by the liable player"),
        # side payments and reasons
        "stop": Label("스톱", "stop"),
        "chongtong": Label("총통", "four of a month dealt (chongtong)"),
        "three_ppuk": Label("쓰리뻑", "three ppuk"),
        "first_ppuk": Label("첫뻑", "first-turn ppuk"),
        "consecutive_ppuk": Label("연뻑", "consecutive ppuk"),
        "ppuk_ladder": Label("연뻑 배수", "consecutive ppuk factor"),
        "first_ttadak": Label("첫따닥", "first-turn ttadak"),
        "ppuk_chips": Label("뻑 값 (칩)", "ppuk price in chips (not × stake)"),
        "ttadak_chips": Label("따닥 값 (칩)", "ttadak price in chips (not × stake)"),
        "floor_four": Label("바닥 총통 (선)", "four of a month on the table: the dealer's"),
        "gwangpal": Label("광팔기", "brights sold by the player who sat out"),
        "gwangpal_price": Label("광값", "price per card sold"),
        "gwangpal_chips": Label("광값 (칩)", "price per card sold, in chips (not × stake)"),
        "sold_cards": Label("판 광 수", "cards sold"),
        "sold_sets": Label("손패 족보", "sets in the sitter's hand (their points)"),
        "triple": Label("같은 달 세 장", "three of a month in hand"),
        # the balance variant
        "brights": Label("광", "brights"),
        "bonus": Label("보너스 패", "bonus cards"),
        "all_may": Label("초약", "all four May cards"),
        "all_october": Label("풍약", "all four October cards"),
        "all_november": Label("똥약", "all four November cards"),
        "all_december": Label("비약", "all four December cards"),
    }
)


def label(code: str) -> Label:
    """The label of ``code``; an unlabelled code labels itself (never raises)."""
    return LABELS.get(code) or Label(code, code.replace("_", " "))
