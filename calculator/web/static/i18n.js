// Korean and English. The page's own words live here; every label of a score, a step or
// a payment comes from the API (its `label`), so the page never names a rule twice.
import { load, save } from "./store.js";

const STRINGS = {
  ko: {
    title: "고스톱 점수",
    otherLang: "English",
    tabHand: "한 판",
    tabTable: "테이블",
    tabs: "화면",
    loading: "불러오는 중…",
    offline: "서버에 연결할 수 없습니다. 다시 시도하세요.",
    players: "플레이어",
    playerName: "플레이어 {n} 이름",
    addPlayer: "플레이어 추가",
    removePlayer: "{id} 빼기",
    nameTaken: "{id}: 이미 다른 플레이어의 이름입니다. 플레이어마다 다른 이름을 쓰세요.",
    rules: "규칙",
    preset: "규칙 프리셋",
    stake: "점당 칩",
    options: "세부 옵션 ({n}개 변경)",
    optionDefault: "기본",
    entry: "입력 방식",
    entryCards: "패로 입력",
    entryCounts: "개수로 입력",
    pickHelp: "플레이어를 누른 뒤 카드를 누르거나, 카드를 누른 뒤 플레이어를 누르세요.",
    countsHelp: "플레이어마다 아래에 광 · 열끗 · 띠 · 피의 개수와 약을 적으세요.",
    countsFor: "{id}의 개수: 아래에서 + − 로 적으세요.",
    givingCard: "{card}: 받을 플레이어를 누르세요.",
    givingTo: "{id}의 패: 카드를 눌러 넣거나 빼세요.",
    clearCards: "모든 패 비우기",
    clearCounts: "모든 개수 비우기",
    month: "{m}월",
    bonusCards: "보너스 피",
    heldBy: "{ids} 소유",
    nobody: "아무도 안 가짐",
    cardsShort: "{n}장",
    pointsShort: "{n}점",
    mayStop: "스톱 가능",
    mayNotStop: "스톱 불가",
    counts: "개수",
    brights: "광",
    rainBright: "비광 포함",
    animals: "열끗 (국진 포함)",
    godori: "고도리",
    ribbons: "띠",
    rainRibbon: "비띠 포함",
    hongdan: "홍단",
    cheongdan: "청단",
    chodan: "초단",
    junkValue: "피 (쌍피 2, 보너스는 그 값)",
    hasGukjin: "국진(9월 열끗) 보유",
    flags: "고 · 흔들기 · 폭탄",
    goCount: "고",
    shakes: "흔들기",
    bombs: "폭탄",
    gukjin: "국진 (술잔)",
    gukjinAuto: "자동 (유리한 쪽)",
    gukjinAnimal: "열끗",
    gukjinJunk: "쌍피",
    decrease: "{what} 하나 줄이기",
    increase: "{what} 하나 늘리기",
    decreaseFor: "{who}의 {what} 하나 줄이기",
    increaseFor: "{who}의 {what} 하나 늘리기",
    countOf: "{who}의 {what}",
    preview: "미리 보기",
    previewHelp: "결과를 누르기 전, 지금 패의 점수입니다.",
    previewOffline: "연결이 끊겨 미리보기가 없습니다. 패를 다시 고치면 다시 물어봅니다.",
    showProblem: "위치 보기",
    outcome: "결과",
    stop: "스톱",
    stopBy: "{id} 스톱",
    nagari: "나가리",
    chongtong: "총통",
    chongtongBy: "{id} 총통",
    threePpuk: "쓰리뻑",
    threePpukBy: "{id} 쓰리뻑",
    result: "정산 결과",
    items: "점수",
    base: "기본 점수",
    baseChips: "기본 칩",
    noItems: "점수 없음",
    cardsOf: "카드: {cards}",
    winnerAmount: "{id}의 점수",
    payments: "지불",
    pays: "{from} → {to}",
    chipsOf: "{n}칩",
    pointsTimesStake: "{points}점 × {stake}",
    pricedInChips: "칩으로 정한 금액",
    net: "칩 합계",
    noPayments: "주고받는 칩이 없습니다.",
    whatIf: "다른 규칙이라면?",
    compare: "비교",
    underPreset: "{preset} 규칙으로",
    difference: "차이",
    times: "({n}회)",
    errors: "입력을 확인하세요",
    noAnswerHeading: "연결 문제",
    tableNight: "테이블 (오늘 밤 전체)",
    createTable: "테이블 만들기",
    roster: "참가자 (한 줄에 한 명, 2–10명)",
    rounding: "정산 단위",
    roundingNone: "반올림 안 함",
    joinByCode: "코드로 참여",
    joinCode: "참여 코드",
    join: "참여",
    joinUnknown: "그 코드로 열리는 테이블이 없습니다. 밤이 끝난(마감된) 테이블의 코드는 더 이상 쓰이지 않습니다.",
    joinCodeNeeded: "먼저 참여 코드를 적으세요 (8글자).",
    joinUnavailable: "이 서버는 아직 코드로 참여할 수 없습니다.",
    myTables: "이 기기의 테이블",
    open: "열기",
    leave: "이 테이블에서 나가기",
    scorer: "기록자",
    viewer: "보기 전용",
    shareTable: "테이블 공유",
    joinLink: "참여 링크",
    viewerLink: "보기 링크 (이 링크를 가진 사람은 볼 수 있음)",
    anotherScorer: "다른 폰도 기록하기",
    anotherScorerHint: "다른 폰이 판을 입력하고 고칠 수 있는 링크를 만듭니다. 그 폰의 이름을 적으세요: 그 폰이 바꾼 기록마다 이 이름이 남습니다.",
    scorerLabel: "폰 이름",
    makeScorerLink: "기록 링크 만들기",
    scorerLabelNeeded: "먼저 폰 이름을 적으세요.",
    scorerLink: "{label}의 기록 링크 (이 링크를 가진 사람은 점수를 바꿀 수 있음)",
    copy: "복사",
    copied: "복사했습니다",
    qr: "참여 링크 QR 코드",
    totals: "현재 합계",
    live: "실시간",
    lastChange: "마지막 변경 {time}",
    handPlayers: "이번 판 플레이어 (2–4명, 4명이면 한 명은 광을 팝니다)",
    handPlayersBalance: "이번 판 플레이어 (2–4명)",
    handPlayersFull: "한 판은 4명까지입니다: 다른 사람을 넣으려면 먼저 한 명을 빼세요.",
    sitsOut: "쉬는 사람 (광팔기)",
    satOut: "이번 판은 쉬었습니다 (판 패 없음).",
    satOutSold: "이번 판은 쉬고 {n}장을 팔았습니다.",
    balanceHand: "화투 120/80/60",
    cardsMissing: "무효 (패 {n}장 빠짐)",
    details: "자세히",
    tryAgain: "다시 시도",
    deckHeading: "패 (월별)",
    deckKeys: "화살표 키로 카드 사이를 옮겨 다닙니다.",
    balanceMissing: "아직 아무도 갖지 않은 패 {n}장: 패가 모자라면 무효입니다.",
    balanceOf: "기준 대비 {n}",
    balanceVoid: "패 {n}장이 빠져 무효입니다. 아무도 내지 않습니다:",
    balanceTarget: "기준점 {n}점 (240 ÷ 인원). 점수 차 × 점당 칩.",
    balanceTotal: "패 점수 {cards} ± 약 = {n}",
    balanceLine: "{total} − 기준 {target} = {n}",
    bonusFrom: "{set}: {id}에게서 +{n}",
    bonusTo: "{set}: {id}에게 −{n}",
    restTo: "남은 패 모두",
    restToPlayer: "남은 패 → {id}",
    scoreHand: "점수 계산",
    soldCards: "{id} · 파는 장수",
    sitterHelp: "쉬는 사람은 패를 먹지 않습니다. 파는 한 장마다 다른 사람들이 값을 냅니다.",
    enterHand: "판 입력",
    history: "기록",
    noHands: "아직 판이 없습니다.",
    handN: "{n}판",
    voided: "무효",
    correctedWhy: "정정: {reason}",
    voidedWhy: "무효: {reason}",
    changedBy: "{who}",
    tableOwner: "이 테이블 주인",
    correct: "수정",
    void: "무효로",
    reason: "이유",
    confirmVoid: "무효 처리",
    restore: "되살리기",
    confirmRestore: "다시 셈하기",
    cancel: "취소",
    correcting: "{n}판을 수정하는 중",
    saveCorrection: "결과를 누르면 수정됩니다",
    undo: "되돌리기",
    redo: "다시 하기",
    undoWould: "되돌리면: {what}",
    redoWould: "다시 하면: {what}",
    edit_added: "{n}판 추가",
    edit_corrected: "{n}판 수정",
    edit_voided: "{n}판 무효",
    edit_restored: "{n}판 되살림",
    settlement: "정산 (가장 적은 송금)",
    noTransfers: "주고받을 칩이 없습니다.",
    shareText: "공유 문구 복사",
    stale: "다른 기기에서 테이블이 바뀌었습니다. 최신 상태를 불러왔으니 다시 확인하세요.",
    staleHeading: "다른 기기가 먼저 바꿨습니다",
    correctionVoided: "{n}판이 (다른 기기에서) 무효가 되어 수정을 끝냈습니다. 수정은 저장되지 않았습니다.",
    correctionGone: "{n}판이 더 이상 없어 (되돌리기?) 수정을 끝냈습니다. 수정은 저장되지 않았습니다.",
    readOnly: "보기 전용으로 열었습니다.",
    closed: "마감된 테이블 (읽기 전용)",
    endNight: "오늘 밤 마감 (테이블 닫기)",
    endNightHint: "마감하면 테이블이 읽기 전용이 됩니다: 어느 기기에서도 판을 더 입력하거나 고칠 수 없고, 다시 열 수 없습니다. 정산과 공유는 그대로 됩니다.",
    confirmEnd: "마감하기",
    dealer: "선: {id}",
    streak: "나가리 연속: {n}",
    nagariStreak: "나가리 연속",
    nextHand: "다음 판",
    resultStale: "점수를 낸 뒤로 패가 바뀌었습니다. 이 결과는 바뀌기 전의 패입니다: 다시 점수를 내세요.",
    nextStreak: "다음 판은 나가리 {n}판 연속으로 계산합니다.",
    changed: "{n}판의 금액이 바뀌었습니다",
    undoneHand: "{n}판의 마지막 변경을 되돌렸습니다",
    redoneHand: "{n}판의 변경을 다시 했습니다",
    tableRules: "규칙: {preset}",
    liable: "독박 (모든 패자 몫을 내는 사람)",
    liableNone: "없음",
    sideEvents: "첫뻑 · 연뻑 · 첫따닥 ({n}개)",
    liveOffline: "연결 끊김 (다시 연결하는 중)",
    closedNow: "마감됨 (더 바뀌지 않습니다)",
    rateLimited: "요청이 너무 많습니다. {s}초 뒤에 다시 해 보세요.",
    tableGone: "이 테이블은 더 이상 없습니다 (삭제되었거나 이 기기의 링크가 더는 열리지 않습니다).",
    forget: "이 기기에서 지우기",
    reasonNeeded: "이유를 적어 주세요.",
    unrounded: "({n}에서)",
    settleRounded: "{n}칩 단위로 반올림한 정산입니다 (합계도 반올림):",
    keptParts: "이 판에는 이 화면에서 고칠 수 없는 부분이 있습니다 ({parts}). 수정해도 그대로 남습니다.",
    tableStake: "점당 {n}칩",
    roundedTo: "정산은 {n}칩 단위로 반올림",
    notSent: "서버의 응답을 받지 못했습니다 (네트워크?). 같은 것을 다시 누르면 다시 보냅니다: 이미 도착했다면 두 번 기록되지 않습니다.",
    noAnswer: "서버의 응답을 받지 못했습니다 (네트워크?). 다시 눌러 보세요.",
  },
  en: {
    title: "Go-Stop scorekeeper",
    otherLang: "한국어",
    tabHand: "One hand",
    tabTable: "Table night",
    tabs: "Screens",
    loading: "Loading…",
    offline: "The service cannot be reached. Try again.",
    players: "Players",
    playerName: "Player {n} name",
    addPlayer: "Add a player",
    removePlayer: "Remove {id}",
    nameTaken: "{id} is already another player's name: give each player a name of its own.",
    rules: "Rules",
    preset: "Rule set",
    stake: "Chips per point",
    options: "Options ({n} changed)",
    optionDefault: "default",
    entry: "Entry",
    entryCards: "Tap cards",
    entryCounts: "Counts",
    pickHelp: "Tap a player then cards, or a card then a player.",
    countsHelp: "For each player below, set how many brights, animals, ribbons and junk it took, and its sets.",
    countsFor: "{id}'s counts: set them below with + and −.",
    givingCard: "{card}: tap the player who took it.",
    givingTo: "{id}'s pile: tap cards to add or remove them.",
    clearCards: "Clear every pile",
    clearCounts: "Clear every count",
    month: "Month {m}",
    bonusCards: "Bonus cards",
    heldBy: "held by {ids}",
    nobody: "held by nobody",
    cardsShort: "{n} cards",
    cardsShortOne: "1 card",
    pointsShort: "{n} pt",
    mayStop: "may stop",
    mayNotStop: "may not stop",
    counts: "Counts",
    brights: "Brights",
    rainBright: "rain man among them",
    animals: "Animals (sake cup included)",
    godori: "godori",
    ribbons: "Ribbons",
    rainRibbon: "rain ribbon among them",
    hongdan: "hongdan",
    cheongdan: "cheongdan",
    chodan: "chodan",
    junkValue: "Junk value (double 2, bonus its value)",
    hasGukjin: "holds the sake cup",
    flags: "Go, shakes, bombs",
    goCount: "Go",
    shakes: "Shakes",
    bombs: "Bombs",
    gukjin: "Sake cup",
    gukjinAuto: "auto (best)",
    gukjinAnimal: "animal",
    gukjinJunk: "double junk",
    decrease: "one {what} less",
    increase: "one {what} more",
    decreaseFor: "one {what} less for {who}",
    increaseFor: "one {what} more for {who}",
    countOf: "{what} for {who}",
    preview: "Preview",
    previewHelp: "The piles' points so far, before the hand ends.",
    previewOffline: "No connection, so no preview: the next change asks again.",
    showProblem: "Show where",
    outcome: "How it ended",
    stop: "Stop",
    stopBy: "{id} stops",
    nagari: "Nagari (draw)",
    chongtong: "Chongtong",
    chongtongBy: "{id} chongtong",
    threePpuk: "Three ppuk",
    threePpukBy: "{id} three ppuk",
    result: "Result",
    items: "Points",
    base: "base points",
    baseChips: "base chips",
    noItems: "no points",
    cardsOf: "cards: {cards}",
    winnerAmount: "{id}'s amount",
    payments: "Payments",
    pays: "{from} → {to}",
    chipsOf: "{n} chips",
    chipsOfOne: "1 chip",
    pointsTimesStake: "{points} pt × {stake}",
    pricedInChips: "priced in chips",
    net: "Net chips",
    noPayments: "No chips move.",
    whatIf: "What if?",
    compare: "Compare",
    underPreset: "under {preset}",
    difference: "difference",
    times: "({n}×)",
    errors: "Please check",
    noAnswerHeading: "No connection",
    tableNight: "Table night",
    createTable: "Create a table",
    roster: "Roster (one per line, 2–10)",
    rounding: "Round the settlement to",
    roundingNone: "no rounding",
    joinByCode: "Join with a code",
    joinCode: "Join code",
    join: "Join",
    joinUnknown: "No open table has that code (a table's code stops working once its night is ended).",
    joinCodeNeeded: "Type the join code first (8 characters).",
    joinUnavailable: "This server does not offer joining by code yet.",
    myTables: "Tables on this device",
    open: "Open",
    leave: "Leave this table",
    scorer: "scorer",
    viewer: "viewer",
    shareTable: "Share the table",
    joinLink: "Join link",
    viewerLink: "Viewer link (whoever has it can watch)",
    anotherScorer: "Another phone keeps score too",
    anotherScorerHint: "Make a link that lets another phone enter and correct hands. Name that phone: every change it makes is signed with the name.",
    scorerLabel: "Phone's name",
    makeScorerLink: "Make a scorer link",
    scorerLabelNeeded: "Name the phone first.",
    scorerLink: "Scorer link for {label} (whoever has it can change the scores)",
    copy: "Copy",
    copied: "Copied",
    qr: "QR code of the join link",
    totals: "Totals",
    live: "live",
    lastChange: "last change {time}",
    handPlayers: "Playing this hand (2–4; with four, one sits out and sells)",
    handPlayersBalance: "Playing this hand (2–4)",
    handPlayersFull: "At most four play a hand: take someone out to put someone else in.",
    sitsOut: "Sits out (광팔기)",
    satOut: "Sat this hand out (sold nothing).",
    satOutSold: "Sat this hand out and sold {n} cards.",
    balanceHand: "balance hand (120/80/60)",
    cardsMissing: "void ({n} cards missing)",
    details: "Details",
    tryAgain: "Try again",
    deckHeading: "The cards, by month",
    deckKeys: "The arrow keys move between the cards.",
    balanceMissing: "{n} cards nobody holds yet: a hand with cards missing is void.",
    balanceOf: "balance {n}",
    balanceVoid: "{n} cards are missing, so the hand is void and nobody pays:",
    balanceTarget: "Break-even {n} points (240 ÷ players); the balance × the stake is paid.",
    balanceTotal: "card points {cards} ± set bonuses = {n}",
    balanceLine: "{total} − break-even {target} = {n}",
    bonusFrom: "{set}: +{n} from {id}",
    bonusTo: "{set}: −{n} to {id}",
    restTo: "All cards left",
    restToPlayer: "The rest to {id}",
    scoreHand: "Score the hand",
    soldCards: "Cards {id} sells",
    sitterHelp: "The player who sits out captures nothing; the others pay it for each card it sells.",
    enterHand: "Enter a hand",
    history: "History",
    noHands: "No hands yet.",
    handN: "Hand {n}",
    voided: "void",
    correctedWhy: "Corrected: {reason}",
    voidedWhy: "Voided: {reason}",
    changedBy: "by {who}",
    tableOwner: "the table's owner",
    correct: "Correct",
    void: "Void",
    reason: "Reason",
    confirmVoid: "Void it",
    restore: "Bring back",
    confirmRestore: "Count it again",
    cancel: "Cancel",
    correcting: "Correcting hand {n}",
    saveCorrection: "the outcome button saves the correction",
    undo: "Undo",
    redo: "Redo",
    undoWould: "Undo takes back: {what}",
    redoWould: "Redo makes again: {what}",
    edit_added: "hand {n} added",
    edit_corrected: "hand {n} corrected",
    edit_voided: "hand {n} voided",
    edit_restored: "hand {n} brought back",
    settlement: "Settlement (fewest transfers)",
    noTransfers: "Nobody owes anything.",
    shareText: "Copy the share text",
    stale: "Another phone changed the table. It is reloaded: check and try again.",
    staleHeading: "Another phone changed it first",
    correctionVoided: "Hand {n} was voided (on another phone?), so its correction was stopped; nothing was saved.",
    correctionGone: "Hand {n} is no longer on the table (undone?), so its correction was stopped; nothing was saved.",
    readOnly: "Opened read-only.",
    closed: "Closed table (read-only)",
    endNight: "End the night (close the table)",
    endNightHint: "Once closed, no phone can enter or correct a hand: the table is read-only for good. Settlement and sharing still work.",
    confirmEnd: "Close it",
    dealer: "Dealer: {id}",
    streak: "Nagari streak: {n}",
    nagariStreak: "Nagari streak",
    nextHand: "Next hand",
    resultStale: "The hand changed since it was scored: this result is for the hand as it was. Score it again.",
    nextStreak: "The next hand counts a nagari streak of {n}.",
    changed: "hand {n}'s amounts changed",
    undoneHand: "Undone: the last change to hand {n}",
    redoneHand: "Redone: the change to hand {n}",
    tableRules: "Rules: {preset}",
    liable: "Liable loser (독박: pays for every loser)",
    liableNone: "nobody",
    sideEvents: "Side events: first ppuk, consecutive ppuk, ttadak ({n})",
    liveOffline: "offline (trying again)",
    closedNow: "closed (it no longer changes)",
    rateLimited: "Too many tries: wait {s} seconds, then try again.",
    tableGone: "This table is gone (deleted, or this device's link no longer opens it).",
    forget: "Forget it on this device",
    reasonNeeded: "Say why: a reason is needed.",
    unrounded: "(from {n})",
    settleRounded: "Rounded to {n} chips (the totals too):",
    keptParts: "This hand has parts this page cannot edit ({parts}); a correction keeps them as they are.",
    tableStake: "{n} chips per point",
    roundedTo: "settlement rounded to {n} chips",
    notSent: "No answer from the service (the network?). Tap the same again to retry: if it did arrive, it is not recorded twice.",
    noAnswer: "No answer from the service (the network?). Tap again to retry.",
  },
};

const MONTHS = {
  ko: ["송학", "매조", "벚꽃", "흑싸리", "난초", "모란", "홍싸리", "공산", "국화", "단풍", "오동", "비"],
  en: ["pine", "plum", "cherry", "wisteria", "iris", "peony", "bush clover", "pampas",
    "chrysanthemum", "maple", "paulownia", "rain"],
};

const KINDS = {
  ko: { bright: "광", animal: "열끗", ribbon: "띠", junk: "피", double_junk: "쌍피", bonus: "보너스" },
  en: { bright: "bright", animal: "animal", ribbon: "ribbon", junk: "junk",
    double_junk: "double", bonus: "bonus" },
};

// The presets in Korean, by name (GET /v1/rulesets gives English titles and descriptions):
// a preset the page does not know keeps the catalogue's English.
const PRESETS_KO = {
  standard: ["표준 고스톱",
    "흔히 치는 규칙, 모든 옵션이 기본값: 2인 7점·3인 3점 스톱, 고마다 +1점에 3고부터 ×2씩, "
    + "흔들기·폭탄·멍따 ×2, 광박·피박·고박, 나가리 때마다 ×2, 국진은 유리한 쪽으로."],
  wikipedia: ["영어 위키백과 규칙 (그대로)",
    "영어 위키백과 \"Go-Stop\" 문서를 글자 그대로 읽은 규칙: 3고부터 ×(고−1), 3인도 고박 ×2, "
    + "폭탄은 배수 없음, 멍따 없음, 나가리 다음 판 ×2 한 번."],
  gamerules: ["gamerules.com 규칙 (그대로)",
    "gamerules.com 문서를 글자 그대로 읽은 규칙: 고마다 +1점, 3고 넘으면 ×2 한 번, 고박 없음, "
    + "폭탄은 배수 없음, 멍따·광박·피박 ×2, 총통은 상대마다 5점."],
  balance: ["화투 120/80/60 (점수 계산)",
    "광 20, 열끗 10, 띠 5, 피 0점. 홍단·청단 30, 5월 넷 20, 10월 20, 11월 40, 12월 20은 다른 "
    + "사람들이 딴 사람에게 냅니다. 잔액 = 합계 − 240 ÷ 인원."],
  minhwatu: ["민화투",
    "같은 카드 점수에 홍단·청단·초단 30, 5월·10월·11월·12월 넷 20씩. 고도리와 오광(50)은 "
    + "끄고 시작합니다."],
};

/** A preset's title and description in the page's language. */
export function presetText(preset) {
  const ko = current === "ko" ? PRESETS_KO[preset.name] : undefined;
  return { title: ko?.[0] ?? preset.title, description: ko?.[1] ?? preset.description };
}

let current = pick();

function pick() {
  const saved = load("lang");
  if (saved === "ko" || saved === "en") return saved;
  return (navigator.language || "ko").toLowerCase().startsWith("ko") ? "ko" : "en";
}

/** The page's language, "ko" or "en". */
export function lang() {
  return current;
}

/** Switch the language and remember it on this device. */
export function setLang(next) {
  current = next;
  save("lang", next);
  document.documentElement.lang = next;
}

/** A page string with its {placeholders} filled in. */
export function t(key, vars = {}) {
  // English counts one in the singular: "{key}One" where the text has one ("1 card")
  const one = vars.n === 1 || vars.n === "1" ? STRINGS[current][`${key}One`] : undefined;
  const text = one ?? STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

// Code → {ko, en} of each published list of GET /v1/codes ("reason:stop"): the labels
// an answer leaves out (a payment's reason), learnt once at boot.
const CODES = new Map();

/** Remember the code lists of GET /v1/codes. */
export function learnCodes(lists) {
  for (const list of lists) {
    for (const entry of list.codes) CODES.set(`${list.name}:${entry.code}`, entry.label);
  }
}

/** The name of a code of a published list (GET /v1/codes), or the code itself. */
export function codeLabel(list, code) {
  const found = CODES.get(`${list}:${code}`);
  return found ? label(found) : code;
}

// The facts of an English detail a Korean message keeps (the limit, the count): the
// detail's pattern → the Korean sentence with its numbers.
const KO_FACTS = [
  [/length (\d+); use (\d+) to (\d+) characters/, "{0}자: {1}–{2}자로 쓰세요"],
  [/(\d+) items; at most (\d+)/, "{0}개: 많아야 {1}개"],
  [/has (\d+) to (\d+) people/, "{0}–{1}명"],
  // a name with an apostrophe is quoted with ", and a rule may add a (…) before the ";"
  [/(['"])(.*?)\1 has (\d+) points? toward the stop minimum(?: \([^)]*\))?; stopping needs at least (\d+)/,
    (m) => `${m[1]}${m[2]}${m[1]} ${m[3]}점: ${m[4]}점 이상이어야 스톱`],
  [/^(-?[\d,.]+) is below the minimum (-?[\d,.]+)/, "{0}: 최소 {1}"],
  [/^(-?[\d,.]+) is above the maximum (-?[\d,.]+)/, "{0}: 최대 {1}"],
  [/the players hold (\d+) ([a-z ]+?) in all \(([^)]*)\); one deck has (\d+)/,
    (m) => `${KO_WORDS[m[2]] ?? m[2]} ${m[1]}장 (${m[3]}): 한 벌에 ${m[4]}장`],
  [/^([a-z_ ]+) is held by (.+); one deck has it once/,
    (m) => `${KO_WORDS[m[1]] ?? m[1]}: ${m[2]} (한 벌에 하나)`],
  [/^(\d+) players?: /, "{0}명"],
  // 광팔기: more brights sold than the deck has left (the rain man left, not sold alone)
  [/^sold_brights is (\d+), but the players hold (\d+) of the deck's (\d+) brights \(([^)]*)\); the bright left is the rain man/,
    (m) => `${m[1]}장 팔기: 광 ${m[3]}장 중 ${m[2]}장을 이미 가짐 (${m[4]}), 남은 비광은 혼자 `
      + "팔 수 없음 → 덜 팔거나 광 고치기"],
  [/^sold_brights is (\d+), but the players hold (\d+) of the deck's (\d+) brights \(([^)]*)\)/,
    (m) => `${m[1]}장 팔기: 광 ${m[3]}장 중 ${m[2]}장을 이미 가짐 (${m[4]}) → 덜 팔거나 광 고치기`],
  // a pile's counts that no pile holds: what to tick or count fewer, by the page's words
  [/^(\d+) (brights|animals|ribbons) cannot be held without .+?: set (\w+) to true/,
    (m) => `${KO_WORDS[m[2]]} ${m[1]}장 → '${flagName(m[3])}' 체크, 또는 ${KO_WORDS[m[2]]} 줄이기`],
  [/^(brights|animals|ribbons) is (\d+), but a pile without .+ holds at most (\d+): set the flags of what is held \(([^)]*)\)/,
    (m) => `${KO_WORDS[m[1]]} ${m[2]}장: ${flagNames(m[4])} 없이 최대 ${m[3]}장 → 가진 것 체크, `
      + `또는 ${KO_WORDS[m[1]]} 줄이기`],
  [/^godori needs the three bird animals, and animals is (\d+)/,
    "고도리는 새 열끗 3장이 있어야 함 (열끗 {0}장)"],
  [/^(\d+) ribbon sets? needs? (\d+) ribbons of their months, and ribbons is (\d+)/,
    "띠 세트 {0}개에 띠 {1}장 필요 (띠 {2}장)"],
];
// The English words of the API's sentences that KO_FACTS keeps, in Korean.
const KO_WORDS = { brights: "광", animals: "열끗", ribbons: "띠", "junk cards": "피",
  hongdan: "홍단", cheongdan: "청단", chodan: "초단", godori: "고도리" };
// A tally's flags (the API's field names) as the counts' checkboxes read them
const FLAG_KEYS = { rain_bright: "rainBright", rain_ribbon: "rainRibbon", godori: "godori",
  hongdan: "hongdan", cheongdan: "cheongdan", chodan: "chodan", has_gukjin: "hasGukjin" };

function flagName(field) {
  return FLAG_KEYS[field] ? t(FLAG_KEYS[field]) : field;
}

/** "hongdan, cheongdan or chodan" as the checkboxes read, joined with "·" (Korean) or as
 * the sentence had them (English). */
function flagNames(list) {
  const names = list.split(/, | or /).map(flagName);
  return current === "en" ? names.map((x) => `"${x}"`).join(" or ") : names.join("·");
}

/** An English detail that names a tally's flags by their fields, said by the checkboxes'
 * words: "set rain_bright to true" is "tick "rain man among them"". */
function byTheirLabels(detail) {
  return detail
    .replace(/set the flags of what is held \(([^)]*)\) to true/,
      (_, list) => `tick what is held (${flagNames(list)})`)
    .replace(/set (\w+) to true/, (whole, field) =>
      (FLAG_KEYS[field] ? `tick "${flagName(field)}"` : whole));
}

// The fields of a hand the page does not edit (a correction keeps them), by their words:
// an API field name read in a Korean sentence said nothing to a player.
const FIELD_WORDS = {
  ko: { declared: "선언 점수", dealer: "선", events: "사건", bombs_after_shake: "흔든 뒤 폭탄",
    yeokgo: "역고", "outcome.holders": "총통을 든 사람" },
  en: { declared: "declared points", dealer: "dealer", events: "side events",
    bombs_after_shake: "bombs after a shake", yeokgo: "reverse go (yeokgo)",
    "outcome.holders": "who was dealt a chongtong" },
};

/** A hand's field (`declared`, `outcome.holders`…) in the page's words; its name if none. */
export function fieldName(name) {
  return FIELD_WORDS[current]?.[name] ?? name;
}

/** A problem entry ({pointer, code, detail}) for people: in English the API's detail
 * (it names the field and the fix); in Korean the code's name from GET /v1/codes, when
 * known, with the detail's facts: a limit or a count where the sentence is known
 * (KO_FACTS), else the names in quotes alone (a bare number out of an English sentence
 * says nothing); without the code's name, that detail. */
export function problemText(entry) {
  const found = current === "en" ? null : CODES.get(`error:${entry.code}`);
  if (!found) return entry.code === "impossible_tally" ? byTheirLabels(entry.detail ?? "")
    : entry.detail;
  const detail = entry.detail ?? "";
  for (const [pattern, text] of KO_FACTS) {
    const match = pattern.exec(detail);
    if (!match) continue;
    const facts = typeof text === "function" ? text(match)
      : text.replace(/\{(\d)\}/g, (_, i) => match[Number(i) + 1]);
    return `${label(found)} (${facts})`;
  }
  const facts = detail.match(/'[^']*'|"[^"]*"/g);
  return facts ? `${label(found)} (${facts.join(", ")})` : label(found);
}

/** What an API error says, for people: a rate limit with its wait, else each problem. */
export function errorText(error) {
  if (error.status === 429) return t("rateLimited", { s: error.retryAfter ?? "…" });
  return error.entries.map(problemText).join(" ");
}

/** An API label: {ko, en} or, from a server that answers in one language, a string. */
export function label(value) {
  if (value == null) return "";
  if (typeof value === "string") return value;
  return value[current] ?? value.en ?? value.ko ?? "";
}

/** The month's flower name. */
export function monthName(month) {
  return MONTHS[current][month - 1];
}

/** The card kind in a word. */
export function kindName(kind) {
  return KINDS[current][kind] ?? kind;
}

/** A number as people read it here (thousands separators, a real minus sign). */
export function num(value) {
  return new Intl.NumberFormat(current === "ko" ? "ko-KR" : "en-US").format(value).replace("-", "−");
}

/** A moment (an ISO 8601 time, as the events give it) as a clock reads it here: 오후 9:43,
 * 9:43 PM; null for a time that is none. */
export function clockTime(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return null;
  return new Intl.DateTimeFormat(current === "ko" ? "ko-KR" : "en-US",
    { hour: "numeric", minute: "2-digit" }).format(when);
}

/** A signed number: +1,200 or −400. */
export function signed(value) {
  return (value > 0 ? "+" : "") + num(value);
}
