"""Fixed layout of the workbooks we issue and read back (contract: registration and
result workbooks).  Writers and readers both take their labels from here.
"""
from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping, Sequence

# -- registration workbook ------------------------------------------------------------
REG_SHEET = "报名表"
INSTRUCTIONS_SHEET = "填表说明"
META_SHEET = "_meta"

#: contract header labels, in the order our template writes them (order is free on read)
REG_COLUMNS = ["序号", "项目", "队号", "姓名", "工号", "性别", "联系电话", "乘车地点", "备注"]
#: labels that must be present for a sheet to be read at all
REG_REQUIRED = ["项目", "姓名"]
#: columns every registration template has whose loss (a renamed or deleted header) is said
#: (HEADER_CHANGED), though the rows are still read
REG_KEPT = ["工号", "性别", "联系电话"]
GENDERS = ("男", "女")

# -- _meta keys (hidden sheet: column A key, column B value) ---------------------------
META_KIND = "kind"                 # registration | result
META_TOURNAMENT = "tournament_id"
META_BRANCH = "branch_id"
META_VERSION = "template_version"
META_TOKEN = "token"
META_EVENT = "event_id"
META_STAGE = "stage"
META_ROUND = "round"
META_DRAW_HASH = "draw_hash"
#: a result workbook's draw itself (:func:`pairings_digest`): the inputs hash above does not
#: say which pairings they gave (the seed and the program draw from them too)
META_PAIRINGS = "pairings"
META_PICKUP = "pickup_points"      # a registration form's 乘车地点 choices when issued ("" = none)
META_TIES = "ties"                  # a 加赛 form's rows per tie, in order ("3,2": two ties)
META_TIE_ENTRIES = "tie_entries"    # … and the entry ids of each tie it was made for ("a b c|d e")
META_TIE_STAGES = "tie_stages"      # … and the stage of each tie ("group,ko"): its 阶段 cells are in Chinese
#: a 签到表's players as it lists them, per group (:func:`checkin_players`): the run writes
#: the form again only when the players it would list now are others (R2016-F2)
META_CHECKIN_PLAYERS = "checkin_players"

def pairings_digest(matches: Sequence) -> str:
    """The drawn pairings of a round as its result workbook records them (META_PAIRINGS):
    each table's stage, group, table, sides in their seats, bye and first mover.  Two draws
    of a round with this digest alike gave every table the same sides (a draw after a lost
    output folder is checked with it: published draws are never silently redrawn).

    >>> from pipeline.model import Match
    >>> a = [Match("e", "ko", 1, "", 1, ("x", "y"))]
    >>> pairings_digest(a) == pairings_digest(list(a)), pairings_digest(a) == pairings_digest([Match("e", "ko", 1, "", 1, ("y", "x"))])
    (True, False)
    """
    rows = [[m.stage, m.group, m.table, list(m.sides), bool(m.bye), m.first] for m in matches]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:16]


KIND_REGISTRATION = "registration"
KIND_RESULT = "result"
KIND_AWARDS = "awards"     # organisers' discretionary awards sheet (R2015-A1)
KIND_CHECKIN = "checkin"   # check-in / absent players sheet (R2016-F2)
KIND_PLAYOFF = "playoff"   # 加赛 results

# -- result workbook ---------------------------------------------------------------------
RESULT_SHEET = "成绩"
RESULT_KEY_COLUMNS = ["轮次", "组别", "桌号"]
SIDES_2 = ["甲方", "乙方"]
SIDES_3 = ["甲", "乙", "丙"]
SIGNATURE_SUFFIX = "签名"
REFEREE_SIGNATURE = "裁判签名"
#: after a withdrawn entry's name at a table still on a draw sheet or result workbook
#: (handbook 缺席、弃权和退赛: its remaining games are entered as 弃权); a returned sheet's
#: side cell is read without it (:func:`without_withdrawn_mark`)
WITHDRAWN_MARK = "（已退赛）"
_WITHDRAWN_MARKS = ("（已退赛）", "（已退賽）", "(已退赛)", "(已退賽)")

#: a bye whose entry withdrew before its round's results were all in: not scored (handbook
#: 缺席、弃权和退赛, :meth:`pipeline.run.EventRunner.unscored_byes`) — its result's reason, and
#: what the draw sheet and the event page say beside it; a 晋级签 so held takes its entry no
#: further (:data:`WITHDRAWN_BYE_NO_ADVANCE`)
WITHDRAWN_BYE = "轮空（已退赛，不计分）"
WITHDRAWN_BYE_NO_ADVANCE = "晋级签（已退赛，不晋级）"
#: … and a knockout's walkover (不战而胜, R2011-R1: :data:`pipeline.model.WALKOVER`) so held, in
#: a round before the final: its entry goes no further either (a final's or a 三四名决赛's
#: walkover is that match's result, and stays)
WITHDRAWN_WALKOVER = "不战而胜（已退赛，不晋级）"


def without_withdrawn_mark(text: str) -> str:
    """A side cell of a returned result workbook without :data:`WITHDRAWN_MARK` (in either
    script, either width of brackets, spaces around it ignored).

    >>> [without_withdrawn_mark(x) for x in ("藥學院1隊（已退賽）", "王军 (已退赛) ", "王军")]
    ['藥學院1隊', '王军', '王军']
    """
    s = text.rstrip()
    for mark in _WITHDRAWN_MARKS:
        if s.endswith(mark):
            return s[: -len(mark)].rstrip()
    return text


def forfeit_choice(seats: int, gone: Sequence[int]) -> str:
    """What the referee chooses for a table whose sides ``gone`` (seat indexes) withdrew:
    the 弃权 of those seats as the result workbook's dropdown lists it — ``乙方弃权`` or
    ``双方弃权`` for two sides (the 结果 or 弃权 column), the seats (``甲``, ``甲丙``) in
    the 弃权 column of a table of three.

    >>> forfeit_choice(2, [1]), forfeit_choice(2, [0, 1]), forfeit_choice(3, [0, 2])
    ('乙方弃权', '双方弃权', '甲丙')
    """
    if seats == 3:
        return "".join(SIDES_3[i] for i in sorted(gone))
    return "双方弃权" if len(set(gone)) >= 2 else f"{SIDES_2[gone[0]]}弃权"


def withdrawn_note(table: str, sides: Sequence[str], names: Sequence[str], seats: int, choice: str) -> str:
    """The draw sheet's and result workbook's line for a table with withdrawn sides
    (``sides``/``names``: theirs), naming the choice (:func:`forfeit_choice`) the referee
    enters.  Handbook 缺席、弃权和退赛.

    >>> withdrawn_note("第3桌", ["乙方"], ["药学院1队"], 2, "乙方弃权")
    '第3桌乙方 药学院1队 已退赛：请裁判在成绩表中按弃权填写，选“乙方弃权”。'
    >>> withdrawn_note("第2桌", ["甲"], ["王军"], 3, "甲")
    '第2桌甲 王军 已退赛：请裁判在成绩表中按弃权填写，在“弃权”栏选“甲”。'
    """
    who = "、".join(f"{s} {n}" for s, n in zip(sides, names))
    where = "在“弃权”栏选" if seats == 3 else "选"
    return f"{table}{who} 已退赛：请裁判在成绩表中按弃权填写，{where}“{choice}”。"


# -- organisers' sheets --------------------------------------------------------------------
AWARDS_SHEET = "评奖"          # columns: 奖项, 项目, 姓名, 单位, 备注 (单位 only for 组织奖)
AWARDS_COLUMNS = ["奖项", "项目", "姓名", "工号", "单位", "备注"]
CHECKIN_SHEET = "签到"         # columns: 项目, 组别, <unit>, 队名, 姓名, 工号, 到场 (是/否)
#: the columns a returned 签到表 is read by (found by their labels: the form as written also has
#: the unit and 队名, :data:`CHECKIN_TEAM`, as earlier versions' forms did not)
CHECKIN_COLUMNS = ["项目", "组别", "姓名", "工号", "到场"]
#: the columns shown only, not read, between 组别 and 姓名: the league's unit word (分工会,
#: 单位 …: ``unit_word``) and the team (R2016-F2: the desk sees who is whose partner)
CHECKIN_TEAM = "队名"
#: a 加赛 form's 阶段 as printed (the stage codes stay in its _meta, :data:`META_TIE_STAGES`):
#: referees read 小组赛 and 淘汰赛, not group and ko
STAGE_LABELS = {"group": "小组赛", "ko": "淘汰赛", "final": "决赛", "tables": "分桌赛", "rr": "循环赛",
                "pairs": "双人赛", "swiss": "瑞士制"}
PLAYOFF_SHEET = "加赛"         # columns: 项目, 阶段, 组别, 名次, 姓名/队名
PLAYOFF_COLUMNS = ["项目", "阶段", "组别", "名次", "参赛者"]
PLAYOFF_NOTE = "说明"          # the 加赛 form's last column: which tie a row is of (加赛1 …; not read)

#: the 阶段 written on a 加赛表 for a tie in an event's final order (its awards wait for it)
FINAL_PLACES = "最终名次"

#: control characters (C0 but tab, line feed and carriage return; DEL; C1): pasted along into
#: a cell (Excel keeps U+0008 as _x0008_), invisible, and refused by every workbook writer —
#: removed from what is read (ingest.workbook.INVISIBLE_CHARS) and from messages (issues.issue)
CONTROL_CHARS = "".join(map(chr, (*range(0x00, 0x09), 0x0b, 0x0c, *range(0x0e, 0x20), 0x7f, *range(0x80, 0xa0))))


#: the word for a team as a 队号 ends in it, in either script: a Traditional league's form
#: itself says 同隊隊員填相同的“队号”, and its captains type 1隊
TEAM_WORDS = ("队", "隊")

#: a 队号 that is a number written with 队 or 隊 (1队, 第1隊), NFKC-ed and without spaces
_NUMBERED_TEAM = re.compile(r"第?(\d+)[队隊]?")


def entry_word(entries: Sequence[object]) -> str:
    """What an entry is called in notes, by its players: 人, 对 (pairs) or 队 (teams) —
    人数为奇数 read wrong for eleven 双升 pairs, 2人加赛 for two 掼蛋 pairs.

    >>> class E:
    ...     def __init__(self, n): self.players = ("x",) * n
    >>> entry_word([E(1)]), entry_word([E(2), E(2)]), entry_word([E(4)]), entry_word([])
    ('人', '对', '队', '人')
    """
    size = max((len(getattr(e, "players", ())) for e in entries), default=1)
    return "人" if size <= 1 else "对" if size == 2 else "队"


def team_number(team_no: str) -> str:
    """A 队号 as read (R2020-Q3): a number typed with 队 (or 隊, in either script) — ``1队``,
    ``１队``, ``第1队``, ``1 队``, ``第1隊`` — is that number, the team of a partner who typed
    ``1`` (it was taken for a team name such as ``梦之队``, printed without its unit); any
    other text is kept as typed.

    >>> [team_number(t) for t in ("1", "1队", "１队", "第1队", "1 队", "第 12 队", "梦之队", "A")]
    ['1', '1', '1', '1', '1', '12', '梦之队', 'A']
    >>> [team_number(t) for t in ("1隊", "第1隊", "１ 隊", "第１２隊", "夢之隊")]
    ['1', '1', '1', '12', '夢之隊']
    """
    m = _NUMBERED_TEAM.fullmatch("".join(unicodedata.normalize("NFKC", team_no).split()))
    return m.group(1) if m else team_no


_CN_DIGITS = {ch: n for n, ch in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2, "兩": 2}
#: a 队号 that is a number in words or digits: 02, 一, 第二队, 十二組 (its number: :func:`team_value`)
_VALUED_TEAM = re.compile(r"第?([0-9]+|[零〇一二两兩三四五六七八九十]+)(?:队|隊|组|組|号|號)?")


def team_value(team_no: str) -> int | None:
    """The number a 队号 (as read: :func:`team_number`) writes, however written — ``02``,
    ``一``, ``第二队``, ``十二组`` — else None (``梦之队``, ``A``, ``1-2``).  Only to tell a
    captain that two rows are one number written two ways (TEAM_INCOMPLETE, R2020-Q3): the
    team is its 队号 as read, so an entry's id stays what the captain typed.

    >>> [team_value(t) for t in ("2", "02", "一", "第二队", "十二组", "二十", "梦之队", "A", "1-2", "")]
    [2, 2, 1, 2, 12, 20, None, None, None, None]
    """
    m = _VALUED_TEAM.fullmatch("".join(unicodedata.normalize("NFKC", team_no).split()))
    if m is None:
        return None
    words = m.group(1)
    if words.isdigit():
        return int(words)
    if "十" not in words:
        return int("".join(str(_CN_DIGITS[ch]) for ch in words))
    tens, _, ones = words.partition("十")
    if len(tens) > 1 or len(ones) > 1 or "十" in ones:
        return None
    return (_CN_DIGITS[tens] if tens else 1) * 10 + (_CN_DIGITS[ones] if ones else 0)


def names_team(team_no: str) -> bool:
    """Whether a 队号 (as read: :func:`team_number`) is a team name the captain wrote —
    ``梦之队``, ``夢之隊`` — printed as it is, without its unit.

    >>> [names_team(t) for t in ("1", "梦之队", "夢之隊", "A")]
    [False, True, True, False]
    """
    return team_no.endswith(TEAM_WORDS)


def team_label(unit_name: str, team_no: str) -> str:
    """A team's label as entries, draw sheets and result sheets print it: its unit's short
    name (else full name) and its 队号 — ``行政一1队`` — or the 队号 alone when the captain
    wrote it as a team name (``梦之队``, ``夢之隊``: never 队 twice); a number typed with 队
    or 隊 is a number (:func:`team_number`).

    >>> team_label("行政一", "1"), team_label("行政一", "梦之队"), team_label("行政一", "第1队")
    ('行政一1队', '梦之队', '行政一1队')
    >>> team_label("中醫", "1隊"), team_label("中醫", "第１隊"), team_label("中醫", "夢之隊")
    ('中醫1队', '中醫1队', '夢之隊')
    """
    team_no = team_number(team_no)
    return team_no if names_team(team_no) else f"{unit_name}{team_no}队"


# -- the 加赛 form's ties (pure: the run compares a form's ties without importing openpyxl) --
@dataclass(frozen=True)
class PlayoffTie:
    """One tie that needs a 加赛: where it is and who is tied (labels as printed)."""

    stage: str
    group: str
    contenders: tuple[str, ...]
    note: str = ""
    ids: tuple[str, ...] = ()       # the contenders' entry ids (the form's _meta records them)
    #: R2020-F4: the places of the tie that are one prize and may stay level, as the form says
    #: them (第2–3名同为二等奖，可不分先后); "" when none may
    level: str = ""


def tie_entries(ties: Sequence[PlayoffTie]) -> str:
    """The _meta record (:data:`META_TIE_ENTRIES`) of the ties a 加赛 form is made for: each
    tie's entry ids."""
    return "|".join(" ".join(t.ids) for t in ties)


#: the longest text an Excel cell holds: a longer record of a 签到表's players is its digest
CELL_MAX = 32767


def checkin_people(rows: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """The (姓名, 工号) of a 签到表's rows, whatever else a row shows (unit, 队名).

    >>> checkin_people([("贺芳", "001033", "机关第一分工会", "机关一1队"), ("董涛强", None)])
    [('贺芳', '001033'), ('董涛强', '')]
    """
    return [(r[0], r[1] or "") for r in rows]


def checkin_players(groups: Mapping[str, Sequence[tuple[str, str]]]) -> str:
    """The _meta record (:data:`META_CHECKIN_PLAYERS`) of the players a 签到表 lists (R2016-F2):
    each group's (姓名, 工号) in the form's order, as compact JSON — or, for a field too long
    for one cell, ``sha256:`` and its digest (compared all the same).

    >>> checkin_players({"": [("贺芳", "001033"), ("董涛强", "")]})
    '[["",[["贺芳","001033"],["董涛强",""]]]]'
    """
    text = json.dumps([[g, [[n, s or ""] for n, s in checkin_people(players)]] for g, players in groups.items()],
                      ensure_ascii=False, separators=(",", ":"))
    return text if len(text) < CELL_MAX else "sha256:" + hashlib.sha256(text.encode()).hexdigest()
