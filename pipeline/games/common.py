"""Helpers shared by the game modules: reading result cells, building results.

Everything here is pure: values come in as plain cell values, problems go out as
``RESULT_INVALID`` issues located at the cell (``row.at(label)``).  A row whose result
cells are all blank is "not yet played"; a row filled in part names every missing cell.

Cell values are normalised before they are compared with a dropdown choice: NFKC
(full-width digits and letters), spaces removed, Traditional characters read as
Simplified (T2015 prints its sheets in 繁體: ``甲方勝`` is ``甲方胜``).
"""
from __future__ import annotations

import contextvars
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator, Mapping, Sequence

from ..ingest.workbook import CellError
from ..issues import Issue, issue
from ..model import CellRef, Match, MatchResult, Outcome, SideResult
from ..text import to_simplified
from .base import ResultColumn, ResultRow

#: the two sides of a head-to-head table as printed on the sheet (Match.sides order)
SIDE_NAMES = ("甲方", "乙方")
SEAT_NAMES = ("甲", "乙", "丙")

#: forfeit choices of head-to-head games (index of the side that forfeits; 2 = both)
FORFEIT_CHOICES = ("甲方弃权", "乙方弃权", "双方弃权")
FORFEIT_LABEL = "弃权"

#: level names of the upgrade games (Shengji, Shuangkou, Guandan): index = level value
LEVEL_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "J", 12: "Q", 13: "K", 14: "A", 15: "过A"}
LEVEL_A = 14
PAST_A = 15
LEVEL_HELP = "填 2–10、J、Q、K 或 A"


# -- cell values --------------------------------------------------------------------------
@lru_cache(maxsize=4096)
def _norm_text(s: str) -> str:
    return to_simplified("".join(unicodedata.normalize("NFKC", s).split()))


def is_blank(value: Any) -> bool:
    """True for an empty cell (None, "" or only spaces).  ``is_blank("  ") is True``."""
    return value is None or (isinstance(value, str) and not value.strip())


def norm(value: Any) -> str:
    """A cell value as comparable text: ``norm(" 甲方勝 ") == "甲方胜"``; ``norm(3.0) == "3"``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return _norm_text(str(value))


def shown(value: Any) -> str:
    """A cell value as quoted in a message (as typed, trimmed; at most
    :data:`~pipeline.issues.QUOTE_MAX` characters, then “…”: :func:`~pipeline.issues.quoted`).
    While reading a Traditional league's sheets (:func:`sheets_in`), marked
    (:func:`pipeline.text.verbatim`) so that a page or receipt converting the message quotes it
    as the cell holds it (R2015: the referee's 黑中盘胜 was quoted 黑中盤勝, not found by
    searching the sheet for it).

    >>> shown(" 黑中盘胜 ")
    '黑中盘胜'
    >>> with sheets_in("traditional"):
    ...     from pipeline.text import convert
    ...     convert('填的是 "' + shown("黑中盘胜") + '"', "traditional")
    '填的是 "黑中盘胜"'
    """
    from ..issues import quoted

    text = quoted(value)
    script = _SHEET_SCRIPT.get()
    if script != "traditional":
        return text
    from ..text import verbatim

    return verbatim(text, script)


#: a minus sign as typed before a number (after NFKC, which makes the full-width － and ﹣ a
#: plain -): the hyphen-minus, the mathematical minus, the en and em dashes and the hyphens
#: that word processors put there (“—3”, “–3”)
MINUS_SIGNS = "-−–—‐‑"
#: the unit a score is counted in, which a referee may write after it: 斗地主 “-3分”, 叫“2分”,
#: 桥牌 “420分”, 双升 / 双扣 捡分 “40分” (:attr:`ResultColumn.unit`)
POINTS_UNIT = "分"


def to_int(value: Any, unit: str = "") -> int | None:
    """An integer cell (``3``, ``3.0``, ``"3"``, ``"－20"``) or None when it is not one.

    >>> to_int("－20"), to_int("+3"), to_int("2.0"), to_int("2_0"), to_int("1e1")
    (-20, 3, 2, None, 10)

    A minus is a minus only as the sign before the digits (“—3”, “–3” as word processors
    write it; “3—”, “--3” are no number).  ``unit`` (:data:`POINTS_UNIT` of a score column)
    may follow the number, after spaces or not (audit 39: 斗地主 “-3分” was 不是整数 while
    掼蛋 “10级” was read):

    >>> to_int("—3"), to_int("–3"), to_int("3—"), to_int("--3")
    (-3, -3, None, None)
    >>> to_int("-3分", unit="分"), to_int("－３ 分", unit="分"), to_int("-3分"), to_int("分", unit="分")
    (-3, -3, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    s = norm(value)
    if unit and s.endswith(unit):
        s = s[:-len(unit)]
    if s.startswith("+"):
        s = s[1:]
    if s[:1] in MINUS_SIGNS and s[1:2].isdigit():
        s = "-" + s[1:]
    if "_" in s:        # Python reads "2_0" as 20 (a digit separator): a referee meant no such number
        return None
    try:
        return int(s)
    except ValueError:
        try:
            f = float(s)
        except ValueError:
            return None
        return int(f) if f.is_integer() else None


def parse_level(value: Any, allow_past_a: bool = False) -> int | None:
    """A level 2..A as an int 2..14 (J=11, Q=12, K=13, A=14); text or number.

    >>> parse_level("Q"), parse_level(10), parse_level("１０"), parse_level("a")
    (12, 10, 10, 14)
    >>> parse_level("过A", allow_past_a=True), parse_level(11), parse_level("1")
    (15, None, None)

    Numbers above 10 are refused: a referee writes J/Q/K/A, and 11–14 are more likely typos.
    A level may be written with 级 after it, as it is spoken (R2016-F4, R2020-F3: “10级”
    was refused as 不是有效级数):

    >>> parse_level("10级"), parse_level("２级"), parse_level("Q 级"), parse_level("14级"), parse_level("级")
    (10, 2, 12, None, None)
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        n = to_int(value)
        return n if n is not None and 2 <= n <= 10 else None
    s = norm(value).upper()
    if s.endswith("级"):
        s = s[:-1].strip()
    if s in ("J", "Q", "K", "A"):
        return {"J": 11, "Q": 12, "K": 13, "A": 14}[s]
    if allow_past_a and s in ("过A", "A+", "已过A"):
        return PAST_A
    if s.isdigit() and 2 <= int(s) <= 10 and not s.startswith("0"):
        return int(s)
    return None


def level_name(level: int) -> str:
    """``level_name(12) == "Q"``; 15 is ``"过A"``."""
    return LEVEL_NAMES.get(level, str(level))


# -- reading one row ----------------------------------------------------------------------
def where(match: Match) -> str:
    """``第2轮 A组 第3桌`` — how a message names a table."""
    group = f" {match.group}组" if match.group and not match.group.endswith("组") else (
        f" {match.group}" if match.group else "")
    return f"第{match.round}轮{group} 第{match.table}桌"


#: the script of the sheets being read (``script`` of the tournament): the dropdown values a
#: message lists are shown as the sheet lists them (:func:`as_listed`)
_SHEET_SCRIPT: "contextvars.ContextVar[str]" = contextvars.ContextVar("sheet_script", default="simplified")


@contextmanager
def sheets_in(script: str) -> Iterator[None]:
    """While reading result sheets of a tournament in ``script`` (the runner, around a game's
    ``parse_round``)."""
    token = _SHEET_SCRIPT.set(script)
    try:
        yield
    finally:
        _SHEET_SCRIPT.reset(token)


def as_listed(*values: str) -> str:
    """Dropdown values for a message (、-joined), as the sheet's dropdown lists them: in a
    Traditional league 甲勝、乙勝 … (the referee was told to pick 甲胜 from a list of 甲勝),
    marked (:func:`pipeline.text.verbatim`) so that a page or receipt converting the message
    leaves them as they are.

    >>> as_listed("甲胜", "乙胜")
    '甲胜、乙胜'
    >>> with sheets_in("traditional"):
    ...     from pipeline.text import plain
    ...     plain(as_listed("甲胜", "乙胜"))
    '甲勝、乙勝'
    """
    script = _SHEET_SCRIPT.get()
    if script != "traditional":
        return "、".join(values)
    from ..text import listed_choice, verbatim

    return "、".join(verbatim(listed_choice(v, script), script) for v in values)


class RowReader:
    """Reads the result cells of one row, collecting ``RESULT_INVALID`` issues.

    ``ok`` turns False at the first bad cell; the game then returns no result for the row.
    ``deals`` are the table's filled detail-sheet rows (set by :func:`played_rows` for a game
    that passes its details): a cell left blank is then asked for with them in view.
    """

    #: the table's filled detail-sheet rows (R2016-C1 明细), when the game passed them
    deals: Sequence["DetailRow"] = ()

    def __init__(self, row: ResultRow, issues: list[Issue]) -> None:
        self.row = row
        self.issues = issues
        self.ok = True

    def raw(self, label: str) -> Any:
        """The cell value as read (None when the column is absent)."""
        return self.row.values.get(label)

    def blank(self, label: str) -> bool:
        """True when the cell is empty."""
        return is_blank(self.raw(label))

    def at(self, label: str) -> CellRef:
        """Where the cell is, for issues."""
        return self.row.at(label)

    def bad(self, label: str, message: str, code: str = "RESULT_INVALID") -> None:
        """Record a problem at ``label``'s cell; ``message`` follows the table name."""
        self.ok = False
        self.issues.append(issue(code, f"{where(self.row.match)}：{message}", at=self.at(label)))

    def error(self, label: str) -> bool:
        """True, with one issue saying what to change, when the cell holds an error value or a
        formula without a saved value (a detail sheet's cells reach the game as read: it was
        “叫分”填的是 "未计算的公式"，不是整数)."""
        v = self.raw(label)
        if not isinstance(v, CellError):
            return False
        at = self.at(label)
        self.bad(label, v.located(label, at.file, at.sheet, at.cell))
        return True

    def require(self, labels: Iterable[str]) -> bool:
        """True when every label is filled; otherwise one issue per missing cell."""
        missing = [l for l in labels if self.blank(l)]
        for l in missing:
            if self.deals:      # clearing the row would leave the deals: the table was played
                rows = detail_rows_text(self.deals)
                self.bad(l, f"“{l}”未填写：这一桌在{rows}记有 {len(self.deals)} 局（比赛进行了），"
                            f"请补填“{l}”；如这一桌确未比赛，请删去{rows}的记录（本行如已填了成绩，一并清空）")
            else:
                self.bad(l, f"“{l}”未填写：这一行已填了部分成绩，请补填“{l}”，或把整行清空（表示未赛）")
        return not missing

    def choice(self, label: str, choices: Sequence[str], *, aliases: Mapping[str, str] | None = None,
               blank_as: str | None = None) -> str | None:
        """The chosen value (normalised), or None with an issue when it is not a choice."""
        if self.error(label):
            return None
        if self.blank(label):
            if blank_as is not None:
                return blank_as
            self.require([label])
            return None
        v = norm(self.raw(label))
        if aliases and v in aliases:
            v = aliases[v]
        if v in choices:
            return v
        self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"，不是可选值：请从下拉列表中选择"
                        f"（{as_listed(*choices)}）")
        return None

    def integer(self, label: str, lo: int | None = None, hi: int | None = None, *,
                step: int = 1, blank_as: int | None = None, hint: str = "", unit: str = "") -> int | None:
        """An integer in lo..hi (multiple of ``step``), or None with an issue; ``unit`` (the
        column's :attr:`~pipeline.games.base.ResultColumn.unit`, 分) may follow it (:func:`to_int`)."""
        if self.error(label):
            return None
        if self.blank(label):
            if blank_as is not None:
                return blank_as
            self.require([label])
            return None
        n = to_int(self.raw(label), unit)
        rng = (f"{lo}–{hi}" if lo is not None and hi is not None else
               f"不小于 {lo}" if lo is not None else f"不大于 {hi}" if hi is not None else "")
        if n is None:
            self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"，不是整数：请填写整数"
                            + (f"（{rng}）" if rng else "") + hint)
            return None
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"，超出范围：请填写 {rng} 之间的整数{hint}")
            return None
        if step > 1 and n % step:
            self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"，应为 {step} 的倍数：请改正{hint}")
            return None
        return n

    def level(self, label: str, allow_past_a: bool = False, past_a_column: str = "") -> int | None:
        """A level cell (2..A; 过A when allowed), or None with an issue.  In a game that
        records the pass of A in a column of its own (``past_a_column``: 掼蛋, 双扣 过A方),
        过A typed in a level cell is told to be A with that side chosen there: "not a valid
        level, type 2–10, J, Q, K or A" left 过A方 blank, and the table was scored on levels."""
        if self.error(label):
            return None
        if self.blank(label):
            self.require([label])
            return None
        n = parse_level(self.raw(label), allow_past_a)
        if n is None and past_a_column and parse_level(self.raw(label), True) == PAST_A:
            side = label[0] if label[:1] in ("甲", "乙") else ""
            choose = f"“{side}”" if side else "过A的一方"
            self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"：级数栏不填“过A”——已过A的一方，"
                            f"请在本栏填 A，并在“{past_a_column}”选{choose}")
        elif n is None:
            extra = "（已过A填“过A”）" if allow_past_a else ""
            self.bad(label, f"“{label}”填的是 \"{shown(self.raw(label))}\"，不是有效级数：请{LEVEL_HELP}{extra}")
        return n


# -- the notice's rules of play ---------------------------------------------------------------
#: the point keys whose values a notice states (a bye's or a forfeit's points are the program's)
STATED_POINTS = ("win", "draw", "loss")


def time_option(options: Mapping[str, Any], key: str, game: str) -> int | None:
    """A time of ``game_options`` (minutes or seconds) the notice prints: a whole number
    above 0, or None when the key is not there.  ValueError (in Chinese, naming the key)
    for anything else: the notice would print ``每局比赛时间不超过“一小时”分钟``.

    >>> time_option({"game_minutes": 60}, "game_minutes", "象棋"), time_option({}, "game_minutes", "象棋")
    (60, None)
    """
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{game}的 game_options.{key} 为“{value}”，应为大于 0 的整数（如 60）")
    return value


def duration_text(minutes: int) -> str:
    """Minutes as the client's notices write them: whole hours in 小时 (R2011-F3 每局不超过1小时,
    R2011-D1 每桌最长进行2小时), else 分钟.

    >>> duration_text(60), duration_text(120), duration_text(90), duration_text(30)
    ('1小时', '2小时', '90分钟', '30分钟')
    """
    return f"{minutes // 60}小时" if minutes % 60 == 0 else f"{minutes}分钟"


def points_text(points: Mapping[str, int], draw: bool = True) -> str:
    """An event's points as R2011-F1 states them.

    >>> points_text({"win": 3, "draw": 1, "loss": 0}), points_text({"win": 2, "loss": 0}, draw=False)
    ('胜得3分，平1分，输0分', '胜得2分，输0分')
    """
    middle = f"平{points['draw']}分，" if draw else ""
    return f"胜得{points['win']}分，{middle}输{points['loss']}分"


def states_points(stated: Iterable[str]) -> bool:
    """Whether the event's spec sets its win/draw/loss points itself (``stated``: the keys of
    its ``points``): the notice states them then.  A game's default points are the
    program's (Xiangqi's 2/1/0 are half-points ×2), which no client notice states."""
    return any(k in STATED_POINTS for k in stated)


# -- building results ---------------------------------------------------------------------
def merged_points(default: Mapping[str, int], points: Mapping[str, int] | None) -> dict[str, int]:
    """The event's point system over the game's defaults (the runner merges too; harmless)."""
    return {**default, **(points or {})}


def two_sided(match: Match, winner: int | None, points: Mapping[str, int], *,
              scores: tuple[int, int] | None = None, match_points: tuple[int, int] | None = None,
              reason: str = "", source: CellRef | None = None,
              detail: dict[str, Any] | None = None, games: tuple[int, int] | None = None) -> MatchResult:
    """A played head-to-head result: ``winner`` is 0 or 1 (Match.sides order) or None for a draw.

    Match points come from ``points`` (win/draw/loss) unless ``match_points`` is given.
    ``games``: each side's games won, for a match of several games (R2020-F2).
    """
    if winner is None:
        outcomes = (Outcome.DRAW, Outcome.DRAW)
        mp = match_points or (points["draw"], points["draw"])
    else:
        outcomes = tuple(Outcome.WIN if i == winner else Outcome.LOSS for i in (0, 1))
        mp = match_points or tuple(points["win"] if i == winner else points["loss"] for i in (0, 1))
    sc = scores or mp
    gw = games or (None, None)
    sides = tuple(SideResult(outcome=o, points=p, score=s, games=g) for o, p, s, g in zip(outcomes, mp, sc, gw))
    return MatchResult(match=match, sides=sides, reason=reason, source=source, detail=detail or {})


def forfeit(match: Match, who: int, points: Mapping[str, int], *, win_score: int = 0,
            source: CellRef | None = None, reason: str = "弃权") -> MatchResult:
    """A head-to-head forfeit: ``who`` = 0/1 is the side that forfeits, 2 = both (ABSENT).

    The other side gets ``forfeit_win`` points and ``win_score`` game points.
    """
    if who == 2:
        loss = points.get("absent", points["forfeit_loss"])
        sides = (SideResult(Outcome.ABSENT, loss, 0), SideResult(Outcome.ABSENT, loss, 0))
    else:
        sides = tuple(
            SideResult(Outcome.FORFEIT_LOSS, points["forfeit_loss"], 0) if i == who else
            SideResult(Outcome.FORFEIT_WIN, points["forfeit_win"], win_score)
            for i in (0, 1))
    return MatchResult(match=match, sides=sides, reason=reason, source=source)


def forfeit_column(help: str = "") -> ResultColumn:
    """The optional 弃权 dropdown of head-to-head games whose result is not one choice."""
    return ResultColumn(FORFEIT_LABEL, "choice", FORFEIT_CHOICES, required=False,
                        help=help or "一方或双方未到场 / 迟到超过 15 分钟时选择；选了它，其他成绩栏留空")


def read_forfeit(r: RowReader) -> int | None:
    """Index of the forfeiting side from the 弃权 column (2 = both), None when blank or bad."""
    if r.blank(FORFEIT_LABEL):
        return None
    v = r.choice(FORFEIT_LABEL, FORFEIT_CHOICES, aliases={"甲弃权": "甲方弃权", "乙弃权": "乙方弃权"})
    return None if v is None else FORFEIT_CHOICES.index(v)


def played_rows(rows: Sequence[ResultRow], columns: Sequence[ResultColumn], issues: list[Issue],
                results: list[MatchResult], points: Mapping[str, int], *, win_score: int,
                source: str, details: Mapping[tuple, Sequence[Any]] | None = None,
                deal_labels: Sequence[str] = ()) -> Iterator[tuple[ResultRow, RowReader]]:
    """The row loop every two-sided game with a 弃权 column shares: skips rows not yet
    played, turns a filled 弃权 into a forfeit result (appended to ``results``; the winner
    gets ``win_score`` game points) and yields ``(row, reader)`` for the rows still to read.

    A game with a detail sheet passes ``details`` (Match.key → the table's detail rows) and
    ``deal_labels`` (the detail columns a deal fills; the pre-numbered 局号 is not one): a
    弃权 beside deals on the detail sheet is a contradiction (:func:`forfeit_without_deals`,
    R2016-F4: a forfeit is a table not played), and the reader's ``deals`` let a blank cell be
    asked for with the deals in view (a row left blank was told to be cleared)."""
    for row in rows:
        if row_blank(row, columns):
            continue
        r = RowReader(row, issues)
        r.deals = filled_deals((details or {}).get(row.match.key), deal_labels) if details else []
        who = read_forfeit(r)
        if not r.ok:
            continue
        if who is not None:
            alone = forfeit_alone(r, columns, who, win_score)
            if not (forfeit_without_deals(r) and alone):
                continue
            results.append(forfeit(row.match, who, points, win_score=win_score, source=row.at(source)))
            continue
        yield row, r


def filled_deals(items: Iterable[Any] | None, labels: Sequence[str]) -> list["DetailRow"]:
    """The detail rows of one table that record a deal: some cell of ``labels`` filled (a row
    holding only its pre-numbered 局号 is no deal)."""
    return [d for d in detail_rows(items or ()) if any(not is_blank(d.values.get(l)) for l in labels)]


def _row_number(d: "DetailRow") -> int | None:
    for ref in d.cells.values():
        digits = "".join(ch for ch in (getattr(ref, "cell", "") or "") if ch.isdigit())
        if digits:
            return int(digits)
    return None


def detail_rows_text(deals: Sequence["DetailRow"]) -> str:
    """Where the deals are, as a message names them: ``“明细”表第 5–6、9 行`` (runs of rows
    joined); ``明细`` when their cells are not known."""
    sheet = next((ref.sheet for d in deals for ref in d.cells.values() if getattr(ref, "sheet", "")), "") or "明细"
    numbers = sorted({n for n in map(_row_number, deals) if n is not None})
    if not numbers:
        return f"“{sheet}”表"
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    said = "、".join(f"{a}–{b}" if a != b else f"{a}" for a, b in runs)
    return f"“{sheet}”表第 {said} 行"


def forfeit_without_deals(r: RowReader) -> bool:
    """R2016-F4 (and every game with a detail sheet): a chosen 弃权 says the table was not
    played, deals on the detail sheet say it was.  True when the table has no deal;
    otherwise RESULT_INVALID at the 弃权 cell naming the detail rows, and False: nothing is
    scored for the table until the referee clears one of the two (a 弃权 beside a 明细 of
    deals was scored as the forfeit without a word)."""
    if not r.deals:
        return True
    rows = detail_rows_text(r.deals)
    r.bad(FORFEIT_LABEL, f"选了“{shown(r.raw(FORFEIT_LABEL))}”，{rows}又记了这一桌的 {len(r.deals)} 局，两者矛盾，"
                         f"这一桌暂不计成绩：比赛进行了的，请清空“弃权”（本行成绩按明细填写，或留空由明细逐局计算）；确为弃权的，"
                         f"请删去{rows}这一桌的记录")
    return False


def forfeit_alone(r: RowReader, columns: Sequence[ResultColumn], who: int, win_score: int) -> bool:
    """A chosen 弃权 with the row's score columns blank, as the column's help asks ("选了它，
    其他成绩栏留空"), or saying what the forfeit gives; otherwise RESULT_INVALID at the 弃权
    cell and False.  A forfeit chosen beside a played score (0:2) was scored as the forfeit
    without a word: the player who had won went out.  Text columns may hold anything, a
    choice of 无 is a blank one, and two numbers that are the forfeit's own score (乙方弃权
    beside 2:0) agree with it."""
    filled = [c for c in columns if c.label != FORFEIT_LABEL and c.kind != "text" and not r.blank(c.label)
              and not (c.kind == "choice" and norm(r.raw(c.label)) == "无")]
    if not filled:
        return True
    if who in (0, 1) and len(filled) == 2 and all(c.kind == "int" for c in filled) and \
            [to_int(r.raw(c.label), c.unit) for c in filled] == [0 if side == who else win_score for side in (0, 1)]:
        return True
    said = "、".join(f"{c.label} {shown(r.raw(c.label))}" for c in filled)
    r.bad(FORFEIT_LABEL, f"选了“{shown(r.raw(FORFEIT_LABEL))}”，本行又填了成绩（{said}），两者矛盾：比赛进行了的，"
                         "请清空“弃权”；确为弃权的，请清空成绩栏")
    return False


def required_labels(columns: Sequence[ResultColumn]) -> list[str]:
    """Labels of the required columns."""
    return [c.label for c in columns if c.required]


def unset(column: ResultColumn, value: Any) -> bool:
    """A cell that says nothing: blank, or an optional choice's 无 (过A方, 加赛胜者), which
    every game reads as blank.  A 掼蛋 row holding only 过A方 = 无 (the dropdown's first
    value) was a half-filled result (“甲方级数”未填写) instead of a table not yet played."""
    return is_blank(value) or (column.kind == "choice" and not column.required and "无" in column.choices
                                and norm(value) == "无")


def row_blank(row: ResultRow, columns: Sequence[ResultColumn]) -> bool:
    """A row with every result column blank (:func:`unset`): not yet played."""
    return all(unset(c, row.values.get(c.label)) for c in columns)


def cell_reading(column: ResultColumn, row: ResultRow, game: Any = None) -> Any:
    """What a game reads from one result cell, as far as the cell alone tells (handbook
    RESULT_CONFLICT: two rows of a table differ where what the game reads from them differs,
    not where they were typed differently).  The game's own ``cell_reading(column, row)``
    when it has one and it answers (not None: 围棋 黑中盘胜 is 甲胜, 桥牌 PASS is 0), else:
    unset (:func:`unset`) is ""; an integer column the integer (with the column's unit:
    斗地主 ``-3分`` is -3); a level the level (:func:`parse_level`: ``10级`` is 10); otherwise
    the text as :func:`norm` compares it.
    Used only to say *where* two rows differ: whether they do is the game's reading of the
    round (:meth:`pipeline.run.EventRunner._read_sheet`).

    >>> lv = ResultColumn("甲方级数", "choice", tuple(LEVEL_NAMES[n] for n in range(2, 15)))
    >>> m = Match("go", "main", 1, "", 1, ("a", "b"))
    >>> cell_reading(lv, ResultRow(m, {"甲方级数": "10级"})) == cell_reading(lv, ResultRow(m, {"甲方级数": 10}))
    True
    """
    value = row.values.get(column.label)
    own = getattr(game, "cell_reading", None)
    if own is not None:
        read = own(column, row)
        if read is not None:
            return read
    if unset(column, value):
        return ""
    if isinstance(value, CellError):
        return ("error", str(value))
    if column.kind == "int":
        n = to_int(value, column.unit)
        if n is not None:
            return n
    elif column.kind == "choice" and "A" in column.choices and "2" in column.choices:
        n = parse_level(value, allow_past_a="过A" in column.choices)
        if n is not None:
            return n
    return norm(value)


@dataclass(frozen=True)
class DetailRow:
    """One detail-sheet row with its cell locations (rows may come as dicts or ResultRows)."""

    values: dict[str, Any]
    cells: dict[str, CellRef]

    def at(self, label: str) -> CellRef:
        """Where the cell is (blank CellRef when unknown)."""
        return self.cells.get(label, CellRef())


def detail_rows(items: Iterable[Any]) -> list[DetailRow]:
    """Accept plain dicts (cells under an optional ``"_cells"`` key) or ResultRow-like objects."""
    out: list[DetailRow] = []
    for it in items:
        if hasattr(it, "values") and not isinstance(it, Mapping):
            out.append(DetailRow(dict(it.values), dict(getattr(it, "cells", {}) or {})))
        else:
            d = dict(it)
            cells = d.pop("_cells", {}) or {}
            out.append(DetailRow(d, dict(cells)))
    return out


class DetailReader(RowReader):
    """A RowReader over a detail-sheet row (issues name the table and the hand number)."""

    def __init__(self, row: DetailRow, match: Match, issues: list[Issue], hand_label: str) -> None:
        self.row = row  # type: ignore[assignment]
        self.match = match
        self.issues = issues
        self.ok = True
        self.hand = shown(row.values.get(hand_label, "")) or "?"

    def bad(self, label: str, message: str, code: str = "RESULT_INVALID") -> None:
        """Record a problem at the detail cell, naming the table and the hand."""
        self.ok = False
        self.issues.append(issue(code, f"{where(self.match)} 明细第 {self.hand} 局：{message}", at=self.at(label)))
