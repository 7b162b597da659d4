"""Every code the service emits, in published lists, each code with its Korean and English
label (the codes are the contract; apps map them to their own words and icons).

The lists feed :mod:`calculator.labels`, ``GET /v1/codes`` and the ``enum`` of each code
field in the OpenAPI document, so a code missing here breaks the suite's contract checks.

>>> CODES["reason"]["first_ppuk"]
Label(ko='첫뻑', en='first-turn ppuk')
>>> "multiply" in CODE_LISTS["op"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple


class Label(NamedTuple):
    """A code's name in Korean and in English."""

    ko: str
    en: str


_ITEM = {
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
}

_REASON = {
    "stop": Label("스톱", "stop"),
    "chongtong": Label("총통", "four of a month dealt (chongtong)"),
    "three_ppuk": Label("쓰리뻑", "three ppuk"),
    "first_ppuk": Label("첫뻑", "first-turn ppuk"),
    "consecutive_ppuk": Label("연뻑", "consecutive ppuk"),
    "first_ttadak": Label("첫따닥", "first-turn ttadak"),
    "gwangpal": Label("광팔기", "brights sold by the player who sat out"),
}

_STEP = {
    # the winner's amount
    "go_bonus": Label("고 점수", "go points"),
    "go_multiplier": Label("고 배수", "go multiplier"),
    "shake": Label("흔들기", "shake"),
    "bomb": Label("폭탄", "bomb"),
    "meongtta": Label("멍따", "many animals (meongtta)"),
    "yeokgo": Label("역고", "reverse go (yeokgo)"),
    "nagari": Label("나가리", "drawn hands before (nagari)"),
    "consecutive_bonus": Label("연속 보너스", "consecutive bonus"),
    # each loser's amount
    "winner_amount": Label("승자 점수", "winner's amount"),
    "gwang_bak": Label("광박", "bright penalty (gwang-bak)"),
    "pi_bak": Label("피박", "junk penalty (pi-bak)"),
    "meong_bak": Label("멍박", "animal penalty (meong-bak)"),
    "go_bak": Label("고박", "failed go (go-bak)"),
    "no_capture": Label("먹은 패 없음: 면제", "no cards captured: exempt"),
    "covers": Label("대납", "pays for another loser"),
    "covered_by": Label("대납받음", "paid by the liable player"),
    # side payments and instant wins (their first step is the reason itself)
    **_REASON,
    "ppuk_ladder": Label("연뻑 배수", "consecutive ppuk factor"),
    "chongtong_chips": Label("총통 값 (칩)", "chongtong price in chips (not × stake)"),
    "ppuk_chips": Label("뻑 값 (칩)", "ppuk price in chips (not × stake)"),
    "ttadak_chips": Label("따닥 값 (칩)", "ttadak price in chips (not × stake)"),
    "floor_four": Label("바닥 총통 (선)", "four of a month on the table: the dealer's"),
    "gwangpal_price": Label("광값", "price per card sold"),
    "gwangpal_chips": Label("광값 (칩)", "price per card sold, in chips (not × stake)"),
    "sold_cards": Label("팔린 패 수", "cards sold"),
    "sold_sets": Label("손패 족보", "sets in the sitter's hand (their points)"),
    "triple": Label("같은 달 세 장", "three of a month in hand"),
}

_OP = {
    "start": Label("시작", "start"),
    "add": Label("더하기", "add"),
    "multiply": Label("곱하기", "multiply"),
}

_BALANCE_ITEM = {
    "brights": Label("광", "brights"),
    "animals": _ITEM["animals"],
    "ribbons": _ITEM["ribbons"],
    "junk": _ITEM["junk"],
    "bonus": Label("보너스 패", "bonus cards"),
}

_SET_BONUS = {
    "hongdan": _ITEM["hongdan"],
    "cheongdan": _ITEM["cheongdan"],
    "chodan": _ITEM["chodan"],
    "godori": _ITEM["godori"],
    "five_brights": _ITEM["five_brights"],
    "all_may": Label("초약", "all four May cards"),
    "all_october": Label("풍약", "all four October cards"),
    "all_november": Label("똥약", "all four November cards"),
    "all_december": Label("비약", "all four December cards"),
}

_ERROR = {
    # the request's shape (schemas)
    "required": Label("필수 항목 없음", "a required field is missing"),
    "null": Label("null 불가", "null is not allowed here"),
    "invalid_type": Label("잘못된 형식", "wrong JSON type"),
    "unknown_field": Label("알 수 없는 항목", "unknown field"),
    "invalid_length": Label("잘못된 길이", "too short or too long"),
    "control_character": Label("제어 문자", "control characters in a name"),
    "format_character": Label("서식 문자", "invisible format characters (bidi, zero-width)"),
    "not_allowed": Label("허용되지 않는 값", "not one of the allowed values"),
    "too_small": Label("최솟값 미만", "below the minimum"),
    "too_large": Label("최댓값 초과", "above the maximum"),
    "too_many": Label("항목이 너무 많음", "too many items"),
    "negative_count": Label("음수 개수", "a negative count"),
    "entry_mode": Label("입력 방식 오류", "one entry mode per player"),
    # rule sets
    "unknown_preset": Label("알 수 없는 규칙", "unknown rule set"),
    "unknown_option": Label("알 수 없는 옵션", "unknown option"),
    "invalid_option": Label("잘못된 옵션 값", "option value not allowed"),
    "wrong_variant": Label("다른 게임의 규칙", "a rule set of the other variant"),
    "too_many_options": Label("옵션이 너무 많음", "more option names than there are options"),
    "too_many_rulesets": Label("규칙이 너무 많음", "too many distinct rule sets in one request"),
    "fingerprint_mismatch": Label("지문 불일치", "the rules do not resolve to this fingerprint"),
    # players, cards and counts
    "player_count": Label("인원 오류", "wrong number of players"),
    "duplicate_player": Label("중복 플레이어", "the same player twice"),
    "unknown_player": Label("알 수 없는 플레이어", "not a player of this hand"),
    "unknown_card": Label("알 수 없는 패", "unknown card ID"),
    "duplicate_card": Label("중복된 패", "the same card twice"),
    "card_not_in_deck": Label("덱에 없는 패", "card not in the deck under these rules"),
    "deck_exceeded": Label("덱 초과", "more cards than the deck holds"),
    "impossible_tally": Label("불가능한 집계", "impossible counts"),
    "impossible_count": Label("불가능한 개수", "impossible count"),
    "points_below_scored": Label(
        "신고한 점수가 족보 최소 점수보다 적음", "fewer points than the scored categories give"
    ),
    "missing_count": Label("개수 누락", "a count these rules need is missing"),
    "uneven_deck": Label(
        "점수 합을 인원수로 나눌 수 없음", "the deck's points do not divide among the players"
    ),
    "invalid_stake": Label("잘못된 판돈", "stake out of range"),
    "amount_too_large": Label("금액 초과", "an amount too large to return exactly"),
    # the outcome, flags and events
    "winner_required": Label("승자 필요", "the outcome needs a winner"),
    "winner_sits_out": Label("쉬는 사람이 승자", "the winner sat out"),
    "below_stop_minimum": Label("스톱 점수 미달", "below the stop minimum"),
    "impossible_flags": Label("불가능한 표시", "flags that cannot all be true"),
    "bak_not_played": Label("적용하지 않는 박", "a bak these rules do not play"),
    "bak_not_triggered": Label("박 조건 불충족", "a bak flag the cards do not support"),
    "bak_on_winner": Label("승자의 박", "a bak flag on the winner"),
    "meongtta_not_winner": Label("패자의 멍따", "멍따 set on a loser"),
    "meongtta_not_played": Label("멍따 없음", "these rules do not play meongtta"),
    "unexpected_field": Label("필요 없는 항목", "a field this outcome does not take"),
    "invalid_holders": Label("잘못된 총통 보유자", "invalid chongtong holders"),
    "chongtong_played_on": Label("총통 계속 진행", "these rules play a chongtong on"),
    "invalid_liable": Label("잘못된 독박 지정", "cannot be the liable player"),
    "liable_required": Label("독박 지정 필요", "name the liable player"),
    "liable_conflict": Label("고박 우선", "go-bak comes before a named liable player"),
    "yeokgo_not_played": Label("역고 없음", "these rules do not play yeokgo"),
    "gukjin_fixed": Label("국진 고정", "these rules fix how the sake cup counts"),
    "yeokgo_not_winner": Label("역고 조건 불충족", "yeokgo needs the winner's earlier go"),
    "impossible_event": Label("불가능한 사건", "an event that cannot have happened"),
    "event_player_sits_out": Label("쉬는 사람의 사건", "an event of a player who sat out"),
    "events_without_play": Label("진행 없는 사건", "events in a hand that was not played"),
    "flags_without_play": Label("진행 없는 표시", "go, shake or bomb in a hand not played"),
    "cards_without_play": Label("진행 없는 패", "captured cards in a hand not played"),
    "dealer_required": Label("선 필요", "these rules need the dealer"),
    "dealer_sits_out": Label("쉬는 사람이 선", "the dealer sat out this hand"),
    "three_ppuk_ends_hand": Label(
        "쓰리뻑으로 끝난 판", "a third consecutive ppuk ended the hand: send three_ppuk"
    ),
    "three_ppuk_played_on": Label(
        "쓰리뻑은 사건으로", "these rules play three ppuk on: send it as an event"
    ),
    # four players
    "too_many_sitters": Label("쉬는 사람이 너무 많음", "more than one player sits out"),
    "sitter_required": Label("쉬는 사람 필요", "four players: one must sit out"),
    "unexpected_sitter": Label("쉴 수 없음", "no one sits out at this table"),
    "not_a_sitter": Label("쉬는 사람 아님", "only the player who sits out sells"),
    "sitter_pile": Label("쉬는 사람의 패", "a player who sat out captured nothing"),
    "sitter_flags": Label("쉬는 사람의 표시", "a player who sat out has no flags"),
    "gwangpal_not_played": Label("광팔기 없음", "these rules do not play gwangpal"),
    "hand_required": Label("손패 필요", "give the sitter's hand or sold count"),
    "shake_then_bomb_forbidden": Label("흔들고 폭탄 불가", "shake then bomb is not allowed"),
    # sessions
    "net_not_zero_sum": Label("합계 불일치", "a hand's net does not sum to zero"),
    "invalid_unit": Label("잘못된 단위", "rounding unit out of range"),
    # tables (the ledger)
    "outcome_required": Label("결과 필요", "a table hand needs its outcome"),
    "unknown_hand": Label("없는 판", "the table has no such hand"),
    "hand_voided": Label("무효된 판", "the hand is voided"),
    "nothing_to_undo": Label("되돌릴 것 없음", "nothing to undo"),
    "nothing_to_redo": Label("다시 할 것 없음", "nothing to redo"),
    "table_closed": Label("닫힌 테이블", "the table is closed (read-only)"),
    "table_full": Label("가득 찬 테이블", "the table holds its most events: close it"),
    "table_too_costly": Label(
        "테이블 한도 초과", "replaying the log would cost too much: close it"
    ),
    "forbidden_field": Label("테이블이 정하는 항목", "the table sets this field"),
    "unauthorized": Label("토큰 없음", "send Authorization: Bearer <token>"),
    "unknown_table": Label("없는 테이블", "no table opens with this token"),
    "read_only_token": Label("읽기 전용 토큰", "a viewer token cannot write"),
    "key_reused": Label("다른 요청에 쓴 키", "Idempotency-Key used with another body"),
    "key_in_flight": Label("처리 중인 키", "a request with this key is in progress"),
    "precondition_required": Label("헤더 필요", "send If-Match and Idempotency-Key"),
    "version_mismatch": Label("버전 불일치", "the table changed: stale If-Match"),
    "malformed_if_match": Label("잘못된 If-Match", 'If-Match is the quoted ETag: "12"'),
    "invalid_join_code": Label("잘못된 참가 코드", "not a join code: 8 characters, 0-9 A-Z"),
    "unknown_join_code": Label("없는 참가 코드", "no open table has this join code"),
    "unknown_token": Label("없는 토큰", "the table has no such token"),
    "last_scorer_token": Label("마지막 기록자 토큰", "the table's last scorer token stays"),
    "too_many_tokens": Label("토큰이 너무 많음", "the table has too many tokens: revoke some"),
    "label_taken": Label("이미 쓰는 이름", "another token of the table has this label"),
    "reserved_label": Label("예약된 이름", "the service names its own tokens so"),
    # sharing: the share text read back, and imports
    "share_line_missing": Label("요약 줄 없음", "no GS1: compact line in the text"),
    "share_version_unsupported": Label("모르는 요약 버전", "a compact line of another version"),
    "share_line_malformed": Label("요약 줄 손상", "the compact line is cut or malformed"),
    "share_checksum_mismatch": Label("검사값 불일치", "the compact line's check does not match"),
    "share_line_mismatch": Label("내용 불일치", "a visible line disagrees with the compact line"),
    "share_inconsistent": Label("정산 불일치", "the compact line's transfers do not settle"),
    "import_too_costly": Label("가져오기 한도 초과", "replaying the log scores too many hands"),
    "event_out_of_order": Label("이벤트 순서 오류", "events are numbered 1, 2, … in order"),
    "missing_created": Label("생성 이벤트 없음", "the log starts with the created event"),
    "unexpected_created": Label("생성 이벤트 중복", "only the first event is created"),
    "invalid_time": Label("잘못된 시각", "a UTC time in ISO 8601"),
    "inconsistent_version": Label("버전 불일치", "the version is the last event's seq"),
    # HTTP
    "bad_request": Label("잘못된 요청", "bad request"),
    "malformed_json": Label("잘못된 JSON", "the body is not valid JSON"),
    "duplicate_key": Label("중복된 이름", "an object gives the same name twice"),
    "duplicate_parameter": Label("중복된 매개변수", "a query parameter is given twice"),
    "empty_body": Label("빈 요청", "the body is empty"),
    "body_too_large": Label("요청이 너무 큼", "the body is over the size limit"),
    "answer_too_large": Label("답이 너무 큼", "the batch's answer could pass its size limit"),
    "unsupported_media_type": Label("JSON이 아님", "send application/json"),
    "unsupported_content_encoding": Label("지원하지 않는 압축", "send the body uncompressed"),
    "not_found": Label("없음", "no such path"),
    "method_not_allowed": Label("허용되지 않는 메서드", "method not allowed here"),
    "http_error": Label("HTTP 오류", "HTTP error"),
    "weak_idempotency_key": Label("추측 가능한 키", "a create or join key must be long and random"),
    "invalid_idempotency_key": Label("잘못된 키", "an Idempotency-Key is printable ASCII"),
    "too_many_problems": Label("문제가 더 있음", "more problems than a problem lists"),
    "deadline_exceeded": Label("처리 시간 초과", "the request took too long: retry later"),
    # gunicorn's own refusals, before the app (calculator/api/worker.py)
    "uri_too_long": Label("요청 줄이 너무 김", "the request line is too long"),
    "http_version_not_supported": Label("지원하지 않는 HTTP 버전", "send HTTP/1.1"),
    "unsupported_transfer_coding": Label(
        "지원하지 않는 전송 인코딩", "send a Content-Length or chunked"
    ),
    "expectation_failed": Label("지원하지 않는 Expect", "send Expect: 100-continue or none"),
    # the proxy in front (deploy/run)
    "request_timeout": Label("요청 시간 초과", "the request was sent too slowly"),
    "rate_limited": Label("요청이 너무 많음", "too many requests: retry later"),
    "header_too_large": Label("헤더가 너무 큼", "request headers too large"),
    "misdirected_request": Label("잘못된 호스트", "this server does not answer to that Host"),
    "bad_gateway": Label("서비스 응답 없음", "the service did not answer"),
    "unavailable": Label("일시적으로 사용 불가", "the service is unavailable: retry later"),
    "gateway_timeout": Label("서비스 시간 초과", "the service took too long"),
}

CODES: Mapping[str, Mapping[str, Label]] = MappingProxyType(
    {
        "item": MappingProxyType(_ITEM),
        "step": MappingProxyType(_STEP),
        "reason": MappingProxyType(_REASON),
        "op": MappingProxyType(_OP),
        "balance_item": MappingProxyType(_BALANCE_ITEM),
        "set_bonus": MappingProxyType(_SET_BONUS),
        "error": MappingProxyType(_ERROR),
    }
)
"""List name → code → label: items, steps, payment reasons, step operations, the balance
variant's items and set bonuses, and problem codes."""

DESCRIPTIONS: Mapping[str, str] = MappingProxyType(
    {
        "item": "players[].items[].code: the scoring combinations of a pile",
        "step": "steps[].code: each line explaining an amount",
        "reason": "payments[].reason: why a payment is made",
        "op": "steps[].op: how a step changes the running amount",
        "balance_item": "balance players[].items[].kind: card points by kind",
        "set_bonus": "balance set_bonuses[].code: the sets that pay a bonus",
        "error": "problem errors[].code: what is wrong with a request",
    }
)
"""List name → where its codes appear in the API."""

CODE_LISTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"code_list": tuple(CODES), **{name: tuple(codes) for name, codes in CODES.items()}}
)
"""List name → its codes, in order (the ``enum`` of each code field); ``code_list`` is the
list of the lists' names."""
"""List name → its codes, in order (the ``enum`` of each code field)."""
