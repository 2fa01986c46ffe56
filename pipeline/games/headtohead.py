"""One-game head-to-head board games (Xiangqi, Go): a result dropdown and a reason dropdown.

The result choice holds the forfeits too (甲方弃权 / 乙方弃权 / 双方弃权), so one cell says
what happened; the reason must fit the result (a draw cannot be 将死).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Collection, Sequence

from ..issues import Issue, issue
from ..model import MatchResult, Round
from .base import DetailSheet, ResultColumn, ResultRow
from .common import (FORFEIT_CHOICES, RowReader, as_listed, duration_text, forfeit, merged_points, norm, points_text,
                     row_blank, shown, states_points, time_option, two_sided, where)

RESULT_LABEL = "结果"
REASON_LABEL = "原因"
RESULTS = ("甲胜", "乙胜", "和棋") + FORFEIT_CHOICES
RESULT_ALIASES = {"甲方胜": "甲胜", "乙方胜": "乙胜", "和": "和棋", "平": "和棋", "平局": "和棋", "和局": "和棋",
                  "甲弃权": "甲方弃权", "乙弃权": "乙方弃权",
                  # half a point (the cell as norm() reads it: NFKC turns ½ into 1⁄2, １/２ into
                  # 1/2); half a point each, ½-½, is a score pair (_PAIR_RESULT)
                  **{half: "和棋" for half in ("1⁄2", "1/2", "0.5")}}
#: a result written as the two sides' points, 甲方's first as the sheet's columns run (R2011-F3,
#: audit 39): 1-0, 1:0 (NFKC makes 1：0 so), 1比0, 0-1, ½-½ (1⁄2 after NFKC), 0.5-0.5, 1/2-1/2;
#: any dash a word processor puts between them.  The pairs a game result gives are _PAIRS; any
#: other (2-0, 1-1) is refused, naming these
_POINT = r"\d+(?:\.\d+)?|\.\d+|1[⁄/]2"
_PAIR_RESULT = re.compile(rf"({_POINT})(?:[-:~比]|[−–—‐‑])({_POINT})")
_PAIRS = {(Fraction(1), Fraction(0)): "甲胜", (Fraction(0), Fraction(1)): "乙胜",
          (Fraction(1, 2), Fraction(1, 2)): "和棋"}
FORFEIT_REASON = "弃权"
#: a result written by colour (黑中盘胜, 红先胜, 白胜3/4子, 黑负): the colour, what may stand
#: between it and 胜/负 (中盘, 超时, 先 …) and a margin after it (3/4子, 1目半, 2.5目) — none
#: of them another colour, a result or a forfeit
_COLOUR_RESULT = r"({colours})(?:方|棋)?([^{stop}]{{0,4}})(胜|负)([^{stop}]{{0,8}})"
_COLOUR_STOP = "黑白红胜负和平弃"
#: Go's SGF result (B+R, W+2.5, B+T, B+Resign, W+0.5目, B+): not B+F (a forfeit: 弃权 is a choice)
_LETTER_RESULT = re.compile(r"([A-Z])\+(R|RESIGN|T|TIME|\d+(?:\.\d+)?目?)?")

#: Swiss chain (R2015-F1 default format) and round-robin chain (R2011-F1), from the digest
SWISS_TIEBREAKS = ("buchholz", "progressive", "wins", "black_wins", "direct")
ROUND_ROBIN_TIEBREAKS = ("direct", "wins", "sonneborn_berger", "playoff")


def game_points(outcome_index: int | None) -> tuple[int, int]:
    """Game points ×2 (integers): a win 2, a draw 1 each. ``game_points(0) == (2, 0)``."""
    if outcome_index is None:
        return (1, 1)
    return (2, 0) if outcome_index == 0 else (0, 2)


@dataclass
class HeadToHeadGame:
    """A one-game board game whose referee picks a result and a reason (R2011-F3)."""

    id: str
    title: str
    win_reasons: tuple[str, ...]
    draw_reasons: tuple[str, ...]
    first_note: str = ""
    #: the colours of the side that moves first and of the other (围棋 黑/白, 象棋 红/黑), in
    #: which a referee may write the result (黑中盘胜); ``letters`` the same in SGF (B+R)
    colours: tuple[str, str] = ()
    letters: tuple[str, str] = ()
    seats: int = 2
    default_points: dict[str, int] = field(default_factory=lambda: {
        "win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2, "forfeit_loss": 0})
    default_tiebreaks: tuple[str, ...] = SWISS_TIEBREAKS
    #: the game_options it reads (registries.check_game_options names a typo of one): the
    #: time control the notice states (R2011-F3: 每局不超过1小时, 每着不超过15秒)
    option_keys: tuple[str, ...] = ("game_minutes", "move_seconds")

    def check_options(self, options: dict[str, Any]) -> None:
        """ValueError for a time control that is not a whole number above 0."""
        for key in self.option_keys:
            time_option(options, key, self.title)

    def notice_rules(self, options: dict[str, Any], points: dict[str, int],
                     stated: Collection[str] = ()) -> list[str]:
        """The notice's rules of play: the event's points when its spec sets them (R2011-F1:
        胜得3分，平1分，输0分), the time control (R2011-F3, ``game_minutes``, ``move_seconds``)
        and R2020-F2 (落子无悔，采用一局制)."""
        parts: list[str] = []
        if states_points(stated):
            parts.append(points_text(merged_points(self.default_points, points)))
        minutes = time_option(options, "game_minutes", self.title)
        seconds = time_option(options, "move_seconds", self.title)
        clock = ([f"每局比赛时间不超过{duration_text(minutes)}"] if minutes else []) + \
                ([f"每方走一着棋的时间原则上不得超过{seconds}秒"] if seconds else [])
        if clock:
            parts.append("，".join(clock))
        return parts + ["落子无悔", "每场一局定胜负"]

    @property
    def reasons(self) -> tuple[str, ...]:
        """Every reason choice, in dropdown order (弃权 once)."""
        out: list[str] = []
        for r in (*self.win_reasons, *self.draw_reasons, FORFEIT_REASON):
            if r not in out:
                out.append(r)
        return tuple(out)

    def tiebreaks_for(self, format_name: str) -> tuple[str, ...]:
        """Default chain by format: Swiss → Buchholz first; round robin/groups → direct first."""
        return SWISS_TIEBREAKS if format_name in ("swiss", "瑞士制") else ROUND_ROBIN_TIEBREAKS

    def columns(self, options: dict[str, Any]) -> list[ResultColumn]:
        """结果 (required) and 原因 (optional, must fit the result)."""
        return [
            ResultColumn(RESULT_LABEL, "choice", RESULTS, help="甲胜 / 乙胜 / 和棋；未到场选弃权"),
            ResultColumn(REASON_LABEL, "choice", self.reasons, required=False,
                         help="胜负或和棋的原因，须与结果相符"),
        ]

    def detail(self, options: dict[str, Any]) -> DetailSheet | None:
        """No detail sheet."""
        return None

    def parse_round(self, rnd: Round, rows: Sequence[ResultRow], points: dict[str, int],
                    options: dict[str, Any], details: dict[tuple, list[dict[str, Any]]] | None = None
                    ) -> tuple[list[MatchResult], list[Issue]]:
        """One result per filled row (R2011-F3): win 2/draw 1/loss 0 game points (score)."""
        pts = merged_points(self.default_points, points)
        cols = self.columns(options)
        results: list[MatchResult] = []
        issues: list[Issue] = []
        for row in rows:
            if row_blank(row, cols):
                continue
            r = RowReader(row, issues)
            if not r.require([RESULT_LABEL]):
                continue
            read, paired = self.colour_result(row), False
            if read is None:        # (1-0, 0-1, ½-½: a score pair)
                read = self.pair_result(row)
                paired = read is not None
            if read is not None:
                res = read
                if res not in RESULTS:      # a colour the game has not, a forfeit, B+F …
                    r.bad(RESULT_LABEL, res)
                    continue
            else:
                res = r.choice(RESULT_LABEL, RESULTS, aliases=RESULT_ALIASES)
            reason = r.choice(REASON_LABEL, self.reasons, blank_as="")
            if not r.ok or res is None or reason is None:
                continue
            problem = self.reason_problem(res, reason)
            if problem:
                r.bad(REASON_LABEL, problem)
                continue
            if read in ("甲胜", "乙胜"):
                issues.append(self._pair_note(row, res) if paired else self._read_note(row, res))
            src = row.at(RESULT_LABEL)
            if res in FORFEIT_CHOICES:
                who = FORFEIT_CHOICES.index(res)
                results.append(forfeit(row.match, who, pts, win_score=2, source=src))
                continue
            winner = {"甲胜": 0, "乙胜": 1, "和棋": None}[res]
            results.append(two_sided(row.match, winner, pts, scores=game_points(winner), reason=reason,
                                     source=src, detail={"first": row.match.first}))
        return results, issues

    def colours_text(self, first: int = 0) -> str:
        """Who holds which colour at a table: ``甲方执黑先行，乙方执白`` ("" for a game without)."""
        if not self.colours:
            return ""
        sides = ("甲方", "乙方") if first == 0 else ("乙方", "甲方")
        return f"{sides[0]}{self.first_note}，{sides[1]}执{self.colours[1]}"

    def colour_result(self, row: ResultRow) -> str | None:
        """A result written by colour, as the choice it stands for (R2015-F1: 甲方 moves first,
        ``Match.first``): 围棋 黑中盘胜 / B+R → 甲胜, 白胜3/4子 / W+2.5 → 乙胜, 黑负 → 乙胜; 象棋
        红胜 → 甲胜, 黑胜 → 乙胜, 红先和 → 和棋.  None when the cell is not written by colour (read as a choice);
        a Chinese sentence (not a choice) when it is but cannot be read (红胜 on a Go sheet,
        B+F): it says who holds which colour, so the referee knows what to pick."""
        raw = row.values.get(RESULT_LABEL)
        if not self.colours or not isinstance(raw, str):
            return None
        text = norm(raw)
        first = row.match.first if row.match.first in (0, 1) else 0
        side = None
        m = re.fullmatch(_COLOUR_RESULT.format(colours="|".join(self.colours), stop=_COLOUR_STOP), text)
        if m:
            colour = self.colours.index(m.group(1))
            side = colour if m.group(3) == "胜" else 1 - colour
        m = _LETTER_RESULT.fullmatch(text.upper()) if self.letters and side is None else None
        if m and m.group(1) in self.letters:
            side = self.letters.index(m.group(1))
        if side is not None:
            return ("甲胜", "乙胜")[side if first == 0 else 1 - side]
        if re.fullmatch(rf"({'|'.join(self.colours)})(?:方|棋)?先?(?:和|和棋|和局|平|平局)", text):
            return "和棋"           # 红先和: a draw, whoever held red
        said = set(text) & set(_COLOUR_STOP[:3]) or re.match(r"[BW]\+", text.upper())
        if not said:
            return None
        a, b = self.colours
        win = ("甲胜", "乙胜") if first == 0 else ("乙胜", "甲胜")
        return (f"“{RESULT_LABEL}”填的是 \"{shown(raw)}\"，读不出是哪一方胜：这一桌{self.colours_text(first)}，"
                f"{a}方胜请选{as_listed(win[0])}，{b}方胜请选{as_listed(win[1])}，和棋选{as_listed('和棋')}，"
                f"未到场选弃权（{as_listed(*RESULTS)}）")

    def cell_reading(self, column: ResultColumn, row: ResultRow) -> str | None:
        """The choice a 结果 cell stands for (:func:`pipeline.games.common.cell_reading`):
        written by colour (R2015-F1: 黑中盘胜 → 甲胜 when 甲方 holds black) or as an alias
        (½ → 和棋, 甲方胜 → 甲胜); None for another column, or a value that is neither."""
        if column.label != RESULT_LABEL:
            return None
        read = self.colour_result(row)
        if read is None:
            read = self.pair_result(row)
        if read in RESULTS:
            return read
        if read is not None:
            return None
        v = norm(row.values.get(RESULT_LABEL))
        v = RESULT_ALIASES.get(v, v)
        return v if v in RESULTS else None

    def pair_result(self, row: ResultRow) -> str | None:
        """A result written as the two sides' points (:data:`_PAIR_RESULT`), the first number
        甲方's — the first-named side, as the sheet's columns run, whoever held red or black
        (R2011-F3; audit 39: 1-0 and 1:0 were refused while 红胜 and ½ were read): 1-0 → 甲胜,
        0-1 → 乙胜, ½-½ → 和棋.  "1:0" typed in Excel is kept as the time 01:00: read as 1:0.
        None when the cell is not a pair; a Chinese sentence (not a choice) for a pair no game
        result gives (2-0, 1-1), naming the pairs read and the choices.

        >>> from pipeline.games.xiangqi import XIANGQI
        >>> from pipeline.model import Match
        >>> m = Match("xiangqi", "s", 1, "", 1, ("a", "b"))
        >>> [XIANGQI.pair_result(ResultRow(m, {RESULT_LABEL: v})) for v in ("1-0", "0：1", "½-½", "甲胜")]
        ['甲胜', '乙胜', '和棋', None]
        >>> XIANGQI.pair_result(ResultRow(m, {RESULT_LABEL: "2-0"})).split("：")[0]
        '“结果”填的是 "2-0"，读不出是哪一方胜'
        """
        raw = row.values.get(RESULT_LABEL)
        m = _PAIR_RESULT.fullmatch(_pair_text(raw)) if isinstance(raw, (str, dt.time)) else None
        if m is None:
            return None
        read = _PAIRS.get(tuple(Fraction(p.replace("⁄", "/")) for p in m.groups()))
        if read is not None:
            return read
        return (f"“{RESULT_LABEL}”填的是 {_pair_quoted(raw)}，读不出是哪一方胜：比分按表上甲方、乙方的顺序写，"
                f"1-0（或 1:0）为{as_listed('甲胜')}，0-1 为{as_listed('乙胜')}，½-½（或 0.5-0.5）为{as_listed('和棋')}；"
                f"请改填，或从下拉列表中选择（{as_listed(*RESULTS)}）")

    def _pair_note(self, row: ResultRow, result: str) -> Issue:
        """The note (info) saying how a result written as a score pair was read: by the sheet's
        column order, 甲方's points first — with who held which colour, for a referee who
        wrote the colour's points first (:meth:`pair_result`)."""
        first = row.match.first if row.match.first in (0, 1) else 0
        raw = row.values.get(RESULT_LABEL)
        side = ("甲方", "乙方")[("甲胜", "乙胜").index(result)]
        colours = f"（这一桌{self.colours_text(first)}）" if self.colours else ""
        return issue("RESULT_READ_AS",
                     f"{where(row.match)}：“{RESULT_LABEL}”填的是 {_pair_quoted(raw)}，按{side}胜计：比分按表上"
                     f"甲方、乙方的顺序读，前一个数是甲方的{colours}；如不是这样，请改选后重发",
                     at=row.at(RESULT_LABEL))

    def _read_note(self, row: ResultRow, result: str) -> Issue:
        """The note (info) saying how a result written by colour was read (R2015-F1)."""
        first = row.match.first if row.match.first in (0, 1) else 0
        winner = ("甲胜", "乙胜").index(result)
        side = ("甲方", "乙方")[winner]
        colour = self.colours[0 if winner == first else 1]
        return issue("RESULT_READ_AS",
                     f"{where(row.match)}：“{RESULT_LABEL}”填的是 \"{shown(row.values.get(RESULT_LABEL))}\"，"
                     f"按{side}（执{colour}）胜计（这一桌{self.colours_text(first)}）；如不是这样，请改选后重发",
                     at=row.at(RESULT_LABEL))

    def reason_problem(self, result: str, reason: str) -> str:
        """Chinese sentence when ``reason`` does not fit ``result`` (R2011-F3), else ""."""
        if not reason:
            return ""
        if result in FORFEIT_CHOICES:
            ok, kind = reason == FORFEIT_REASON, "弃权"
        elif result == "和棋":
            ok, kind = reason in self.draw_reasons, "和棋"
        else:
            ok, kind = reason in self.win_reasons, "胜负"
        if ok:
            return ""
        # (the values as the sheet's dropdowns list them: as_listed)
        if reason == FORFEIT_REASON:
            return (f"结果为“{as_listed(result)}”而原因填 \"{as_listed(reason)}\"：弃权请在“结果”中选择"
                    + "、".join(f"“{as_listed(c)}”" for c in FORFEIT_CHOICES))
        allowed = as_listed(*(self.draw_reasons if kind == "和棋" else
                              self.win_reasons if kind == "胜负" else (FORFEIT_REASON,)))
        return (f"原因 \"{as_listed(reason)}\" 与结果“{as_listed(result)}”不符：{kind}的原因只能是 {allowed}，"
                "请改正原因或结果")


def _pair_text(raw: Any) -> str:
    """A 结果 cell as :data:`_PAIR_RESULT` reads it: the text as :func:`norm` compares it, or a
    time Excel made of "1:0" (01:00) as 1:0."""
    if isinstance(raw, dt.time):
        typed = raw.hour < 10 and raw.minute < 10 and not (raw.second or raw.microsecond)
        return f"{raw.hour}:{raw.minute}" if typed else ""       # (a time of day, 13:05, is no score)
    return norm(raw)


def _pair_quoted(raw: Any) -> str:
    """A 结果 cell quoted as a message says it (``"1-0"``): a time as the cell shows it, and
    what it was read as (``"1:00"（读作比分 1:0）``)."""
    if isinstance(raw, dt.time):
        return f"\"{raw.hour}:{raw.minute:02d}\"（读作比分 {_pair_text(raw)}）"
    return f"\"{shown(raw)}\""
