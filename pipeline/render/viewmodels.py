"""View-models of the printed documents: plain dataclasses of ready-to-print strings.

Each ``*_vm`` function takes a :class:`~pipeline.state.LeagueState` (or part of one) and
returns a dataclass whose fields are strings, lists of strings and :class:`Table` s, so the
Jinja templates only loop.  Text stays in the spec's script (normally Simplified): the
templates pass the whole body through the ``zh`` filter, which converts it to Traditional
once, at the end, when ``spec.script == "traditional"`` (R2015: the T2015 documents are in
Traditional Chinese).

Nothing here does I/O; tests build small states by hand and compare the view-models.
"""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Sequence

from ..layout import (REG_COLUMNS, SIDES_2, SIDES_3, WITHDRAWN_BYE, WITHDRAWN_BYE_NO_ADVANCE, WITHDRAWN_MARK,
                      WITHDRAWN_WALKOVER)
from ..model import Entry, Match, Person, Round
from ..timeutil import cn_date, cn_datetime
from .anchors import Anchors, TocItem, toc_worth
from ..validate.checks import quota_entries, quota_for

if TYPE_CHECKING:
    from ..spec import EventSpec, TournamentSpec
    from ..state import AwardRow, EventState, LeagueState, StandingTable

# --------------------------------------------------------------------------------------
# small formatting helpers
# --------------------------------------------------------------------------------------
_DIGITS = "零一二三四五六七八九"
_WEEKDAYS = "一二三四五六日"


def cn_number(n: int) -> str:
    """Chinese numeral for section and team numbers: ``cn_number(11) == "十一"``."""
    if n < 0:
        return "负" + cn_number(-n)
    if n < 10:
        return _DIGITS[n]
    if n < 20:
        return "十" + (_DIGITS[n % 10] if n % 10 else "")
    if n < 100:
        return _DIGITS[n // 10] + "十" + (_DIGITS[n % 10] if n % 10 else "")
    return str(n)


def cn_weekday(d: dt.date) -> str:
    """``cn_weekday(date(2020, 11, 10)) == "周二"``."""
    return "周" + _WEEKDAYS[d.weekday()]


def _entry_word(team_size: int) -> str:
    """Measure word of one entry: 名 (individual), 对 (pair), 队 (team)."""
    return {1: "名", 2: "对"}.get(team_size, "队")


def _team_word(team_size: int) -> str:
    return {1: "个人", 2: "两人一对"}.get(team_size, f"{team_size}人一队")


def sentence(text: str) -> str:
    """``text`` ending with its full stop: one added only where it has none — a message
    of the draw's (:class:`pipeline.draw.base.Waiting`) may end with its own, and the award
    list printed “…请录入加赛结果后再抽淘汰赛。。”.

    >>> sentence("比赛尚未结束"), sentence("请录入加赛结果后再抽淘汰赛。"), sentence("")
    ('比赛尚未结束。', '请录入加赛结果后再抽淘汰赛。', '')
    """
    text = text.rstrip()
    return text if not text or text.endswith(("。", "！", "？", ".", "!", "?")) else text + "。"


def yuan(amount: int) -> str:
    """``yuan(1200) == "1,200"``; zero prints as a dash."""
    return f"{amount:,}" if amount else "—"


# --------------------------------------------------------------------------------------
# generic pieces
# --------------------------------------------------------------------------------------
#: headings of the columns that hold a team's or a person's name (a draw's sides too): on a
#: phone such a cell is not broken inside a name ("经济2 / 队"), only between names
NAME_HEADS = frozenset({"队名", "姓名", "队员", "获奖人", "选手", "甲方", "乙方"})
#: headings of the columns that name a unit: on a phone the first to wrap, so the names fit
UNIT_HEADS = frozenset({"单位", "分工会", "部门"})


#: a draw sheet's side columns: 甲方 乙方, 甲 乙 丙 (a table of three), with a seat (甲方（南北）)
_SIDE_HEAD = re.compile(r"^(?:[甲乙丙丁]方?)(?:（.*）)?$")


def column_kind(heading: str) -> str:
    """A column's class from its heading: ``"name"``, ``"unit"`` or ``""`` — on a phone
    (templates/base.html) a name is kept whole and a unit wraps first; on a screen and on
    paper each name of such a column is a span kept on one line (the ``names`` filter).

    >>> column_kind("队名"), column_kind("分工会"), column_kind("积分"), column_kind("甲方（南北）"), column_kind("丙")
    ('name', 'unit', '', 'name', 'name')
    """
    if heading in NAME_HEADS or _SIDE_HEAD.match(heading):
        return "name"
    if heading in UNIT_HEADS:
        return "unit"
    return ""


#: the longest piece kept on one line: a person's name (阿卜杜热合曼·买买提依明 is 12), a
#: team's, a unit's (机关第二分工会); a longer run is a sentence (a bye's note), which wraps
NAME_MAX = 16
#: …a unit's (马克思主义学院分工会): a longer one wraps where it must
UNIT_MAX = 10
#: where a list of names may break: between them (/ 、 ， ； a space or a line break),
#: before a bracketed part (苏建旭|（重组）, 后勤4队|（执红先行）, 继续教育学院|（网络教育学院）|分工会)
#: and before a unit's 分工会 (基础医学院|分工会: on a phone not 基礎|醫學|院分|工會)
#: (no ";": the names filter cuts text escaped for HTML, &lt; and all)
NAME_PIECE = re.compile(r"（[^（）\n]*）|\([^()\n]*\)|[^\s/、，；,（(]{2,}?(?=分工[会會](?![^\s/、，；,（(]))|[^\s/、，；,（(]+")


#: the pieces a unit's name ends with, after which its other pieces (基础医学院) are whole
UNIT_WORDS = ("分工会", "分工會")


def name_pieces(text: str, longest: int = NAME_MAX) -> list[tuple[str, bool]]:
    """``text`` cut into its names and what lies between them: (piece, is a name) in order,
    a name being a piece of at most ``longest`` characters that no line may break inside
    (司徒端木欣|怡, 阿依努尔·吐尔|逊, a "·" opening a line: print has no ``keep-all``).

    >>> name_pieces("机关一2队\\n张三/李四（重组）")
    [('机关一2队', True), ('\\n', False), ('张三', True), ('/', False), ('李四', True), ('（重组）', True)]
    >>> name_pieces("甲、乙 同志"), name_pieces("")
    ([('甲', True), ('、', False), ('乙', True), (' ', False), ('同志', True)], [])
    >>> [p for p, _ in name_pieces("基础医学院分工会、分工会、机关第二分工会2队")]
    ['基础医学院', '分工会', '、', '分工会', '、', '机关第二分工会2队']
    """
    out: list[tuple[str, bool]] = []
    at = 0
    for m in NAME_PIECE.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], False))
        out.append((m.group(), len(m.group()) <= longest))
        at = m.end()
    if at < len(text):
        out.append((text[at:], False))
    return out


def _least_em(text: str) -> float:
    """The width in em (:func:`_em`) of ``text``'s widest unbreakable piece: a name column's
    narrowest width with each name kept on one line."""
    return max((_em(p) for p, whole in name_pieces(text) if whole), default=0.0)


@dataclass
class Table:
    """A printable table: header labels, rows of cell strings (``\\n`` breaks a line in a
    cell), per-column alignment classes and per-row classes (``playoff``, ``total``)."""

    head: list[str]
    rows: list[list[str]]
    align: list[str] = field(default_factory=list)     # "" | "num" | "center" per column
    row_class: list[str] = field(default_factory=list)
    caption: str = ""
    #: column widths in em (a ``<col>`` each; a column still grows to its content): the
    #: same for sibling tables (:func:`same_widths`), so groups A–D line up on paper
    widths: list[float] = field(default_factory=list)
    #: the heading the table sits under (an event, a pick-up point) and what its rows belong
    #: to (``part``, that and the table's own title: 跳棋 最终名次; the section when not given):
    #: on paper a later page the table runs onto says it at its head, ``双升（续）``, and one
    #: that opens with a further table of the section says the section's (print.css) — the
    #: repeated column heads alone did not say whose rows they were
    section: str = ""
    part: str = ""
    #: the table's ``id`` on its page (:mod:`.anchors`: a group's table in the standings), "" for none
    anchor: str = ""
    #: its link in the page's 目录 when not its caption (a standings caption without what it
    #: counts, （积分含轮空…）)
    label: str = ""

    def __post_init__(self) -> None:
        self.part = self.part or self.section
        if not self.align:
            self.align = [""] * len(self.head)
        if not self.row_class:
            self.row_class = [""] * len(self.rows)
        long = next((r for r in self.rows if len(r) > len(self.align)), None)
        if long is not None:   # the template pairs cells with columns: a cell without one would be lost
            raise ValueError(f"table row has {len(long)} cells for {len(self.align)} columns: {long!r}")

    @property
    def col_class(self) -> list[str]:
        """Each column's cell class: its alignment and its kind (:func:`column_kind`),
        ``"num"``, ``"name"``, ``"center unit"``…"""
        return [" ".join(c for c in (al, column_kind(h)) if c) for h, al in zip(self.head, self.align)]

    @property
    def keep(self) -> list[int]:
        """Each column's longest piece kept on one line (the ``names`` filter): a name's in a
        name column, a unit's in a unit column, 0 (none) in another."""
        return [{"name": NAME_MAX, "unit": UNIT_MAX}.get(column_kind(h), 0) for h in self.head]


def _em(text: str) -> float:
    """Estimated width of ``text``'s longest line in em (:func:`pipeline.render.svg.text_width`
    at 1 em: a wide (CJK) character 1, others 0.6)."""
    from .svg import text_width

    return max((text_width(line, 1) for line in text.split("\n")), default=0.0)


#: the A4 page's width in em of a document's tables (print.css: 178 mm, 48 em of 10.5 pt)
PAGE_EM = 48.0
#: …and of the standings' (9 pt: 56 em, less their borders and the estimate's error)
STANDINGS_PAGE_EM = 54.0


def same_widths(tables: list[Table], page: float = PAGE_EM) -> list[Table]:
    """Give tables with the same header (an event's groups, A组 … D组) the same column
    widths — each column as wide as its widest cell or heading in any of them — so their
    columns line up one under another instead of each table sizing its own.  A lone table
    is left to size itself.

    The widths are shares of the page (templates/docs/_macros.html: a fixed layout), so
    they fit ``page`` em: when the widest cells do not (阿卜杜热合曼·买买提依明/迪丽热巴·迪力木拉提,
    22.8 em of 队员, ran the standings off the A4 page), the name and unit columns give way,
    down to their longest single name — they wrap between names; numbers never wrap.  When
    even that does not fit, no widths: each table sizes itself.

    >>> a, b = Table(["姓名", "积分"], [["张三", "12"]]), Table(["姓名", "积分"], [["欧阳中华", "3"]])
    >>> [t.widths for t in same_widths([a, b])]
    [[5.0, 3.0], [5.0, 3.0]]
    >>> a, b = Table(["队员", "积分"], [["欧阳中华/司马光", "1"]]), Table(["队员", "积分"], [["张三/李四", "3"]])
    >>> [t.widths for t in same_widths([a, b], page=9.0)]
    [[6.0, 3.0], [6.0, 3.0]]
    """
    by_head: dict[tuple[str, ...], list[Table]] = {}
    for t in tables:
        by_head.setdefault(tuple(t.head), []).append(t)
    for siblings in by_head.values():
        if len(siblings) < 2:
            continue
        cols = len(siblings[0].head)
        widest = [_em(h) for h in siblings[0].head]
        wraps = [column_kind(h) in ("name", "unit") for h in siblings[0].head]
        least = [_em(h) if w else 0.0 for h, w in zip(siblings[0].head, wraps)]
        for t in siblings:
            for row in t.rows:
                for i, cell in enumerate(row[:cols]):
                    widest[i] = max(widest[i], _em(cell))
                    if wraps[i]:
                        least[i] = max(least[i], _least_em(cell))
        pad = 1.0       # (+ the cell's padding, and the estimate is not the font)
        widths = [round(w + pad, 1) for w in widest]
        if sum(widths) > page:
            low = [round(x + pad, 1) if wrap else w for x, w, wrap in zip(least, widths, wraps)]
            give, room = sum(widths) - sum(low), page - sum(low)
            # each wrapping column its narrowest and a share of the room left, by what it would
            # use; none when the narrowest do not fit either
            widths = [round(x + room * (w - x) / give, 1) for w, x in zip(widths, low)] if room >= 0 and give else []
        for t in siblings:
            t.widths = list(widths)
    return tables


@dataclass
class Doc:
    """What every document carries for ``base.html``."""

    title: str
    tournament: str
    updated: str
    script: str


def _doc(state: "LeagueState", title: str) -> Doc:
    spec = state.tournament.spec
    return Doc(title=title, tournament=spec.name, updated=cn_datetime(state.updated), script=spec.script)


def _unit_name(spec: "TournamentSpec", unit_id: str) -> str:
    u = spec.unit(unit_id)
    return u.name if u else unit_id


def _unit_short(spec: "TournamentSpec", unit_id: str) -> str:
    u = spec.unit(unit_id)
    return (u.short or u.name) if u else unit_id


def award_units(spec: "TournamentSpec", a: "AwardRow") -> str:
    """The units an award names, joined by 、: ``机关第二分工会、会计学院分工会`` for a pair
    from two units (R2015-Q2 cross-unit pairs, R2016-F2 pairs re-formed at check-in), else
    its one unit."""
    return "、".join(_unit_name(spec, u) for u in a.unit_ids)


def shared_awards_note(unit_word: str, money: bool, total_row: bool) -> str:
    """What the units' award totals say when an award is a cross-unit pair's (R2015-Q2,
    R2016-F2): it counts for each of its units — so the units' counts add up to more than
    the awards given — and its prize money is shared between them."""
    share = "（奖金按单位平分）" if money else ""
    more = f"，各{unit_word}的合计之和因此多于总计" if total_row else ""
    return f"跨{unit_word}组队的获奖计入其每个{unit_word}{share}{more}。"


# --------------------------------------------------------------------------------------
# quotas (R2020-Q1, R2015-Q1/Q2/Q3, R2016-Q1)
# --------------------------------------------------------------------------------------
def branch_quota(ev: "EventSpec", unit) -> int | None:
    """The quota printed for one branch: exactly the rule validation enforces."""
    return quota_for(ev, unit)


def quota_rule_text(ev: "EventSpec", unit_word: str) -> str:
    """One Chinese sentence stating an event's quota rule, for the notice."""
    q = ev.quota
    w = _entry_word(ev.team_size)
    if q.rule == "open":
        return f"{ev.name}：不限名额，凡工会会员均可报名。"
    if q.rule == "fixed":
        n = q.per_branch or 0
        extra = f"（{n * ev.team_size}人）" if ev.team_size > 1 else ""
        return f"{ev.name}：每个{unit_word}限报{n}{w}{extra}。"
    if q.rule == "bands":
        bands = sorted(q.bands, key=lambda b: b.min_members)
        parts = []
        for i, b in enumerate(bands):
            upper = bands[i + 1].min_members if i + 1 < len(bands) else None
            if upper is None:
                parts.append(f"{b.min_members}人及以上报{b.entries}{w}")
            elif b.min_members == 0:
                parts.append(f"{upper}人以下报{b.entries}{w}")
            else:
                parts.append(f"{b.min_members}人至{upper - 1}人报{b.entries}{w}")
        text = f"{ev.name}：按{unit_word}会员人数确定名额，" + "，".join(parts)
        if q.extra_every:
            text += f"，此后每增加{q.extra_every}人增报1{w}"
        return text + "。"
    pct = f"{(q.ratio or 0) * 100:g}%"
    rounding = {"floor": "向下取整", "ceil": "向上取整", "round": "四舍五入"}[q.rounding]
    return (f"{ev.name}：参赛人数不超过{unit_word}会员人数的{pct}（{rounding}），"
            f"每个{unit_word}至少{q.minimum}{w}。")


# --------------------------------------------------------------------------------------
# notice (通知)
# --------------------------------------------------------------------------------------
@dataclass
class Section:
    """A heading with its paragraphs and tables in a document: ``tables`` after every
    paragraph, ``after[i]`` right after paragraph ``i`` (an event's 级差计分表 under its
    比赛办法 line, R2016-S1)."""

    heading: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    after: dict[int, list[Table]] = field(default_factory=dict)


@dataclass
class NoticeVM(Doc):
    """View-model of the competition notice (通知)."""

    greeting: str = ""
    intro: str = ""
    sections: list[Section] = field(default_factory=list)
    closing: str = ""
    signature: str = ""
    date: str = ""
    attachment_title: str = ""
    attachment_meta: list[str] = field(default_factory=list)
    form: Table | None = None
    form_notes: list[str] = field(default_factory=list)
    #: "附件：" line's items (the form alone, or "1．…报名表", "2．《…规则》", …)
    attachment_list: list[str] = field(default_factory=list)
    #: the further attachments after the form: (title, paragraphs), tournament.yaml notice_attachments
    more_attachments: list[tuple[str, list[str]]] = field(default_factory=list)


#: a half-width space between a Chinese character (or full-width punctuation) and a digit,
#: either way round: the messages for captains set numbers apart (第 12 行), a printed notice
#: does not (共5轮, 比赛时间限定30分钟, 11月9日15:00 — as the client's notices write them)
_CJK_DIGIT_SPACE = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]) (?=\d)|(?<=\d) (?=[\u4e00-\u9fff])")


def cjk_spacing(text: str) -> str:
    """A notice paragraph without the half-width spaces that set numbers apart in Chinese.

    >>> cjk_spacing("共 5 轮，积 3 分；报名截止时间：2020年11月9日 15:00。")
    '共5轮，积3分；报名截止时间：2020年11月9日15:00。'
    """
    return _CJK_DIGIT_SPACE.sub("", text)


def _describe_format(ev: "EventSpec", format_title: str, rounds: Sequence[Round] = ()) -> str:
    """The format's own Chinese paragraph (``Format.describe``), else a plain sentence.  A Swiss
    event's rounds as its draw plans them (``of``: capped by the field, R2015-F1) — the notice
    said 共50轮 for an event of 13."""
    try:
        from ..draw import FORMATS
        from ..games import GAMES

        game = GAMES.get(ev.game) if ev.game in GAMES else None
        options = dict(ev.format.options)
        planned = [r.plan.get("of") for r in rounds if r.plan.get("kind") == "swiss"]
        if planned and isinstance(planned[-1], int):
            options["rounds"] = planned[-1]
        text = FORMATS.get(ev.format.type).describe(options, game=game)
        if text:
            return text
    except Exception:  # noqa: BLE001 - a format that cannot describe itself must not stop the notice
        pass
    return f"采用{format_title or ev.format.type}。"


def _play_rules(ev: "EventSpec", format_type: str = "") -> str:
    """The rules of play the notice states after the format: a time limit the event sets
    (``game_options.time_limit_minutes``), then the game's own (``notice_rules``): the
    event's points when its spec sets them (R2011-F1), its time control (R2011-F3,
    R2011-D1) and play and scoring rules (R2020-F2/F3, R2020-D3, R2011-D1/D2 …); then what a
    bye scores (the game's ``notice_bye``, R2016-F3) where the format — ``format_type``, the
    one the event's rounds were drawn in, else the spec's — scores one."""
    from ..draw import byes_scored
    from ..games import GAMES, event_points

    parts: list[str] = []
    game = GAMES.get(ev.game) if ev.game in GAMES else None
    try:
        if game is not None and hasattr(game, "notice_rules"):
            parts += game.notice_rules(ev.game_options, event_points(ev), stated=frozenset(ev.points or ()))
        # what a bye scores (R2016-F3 掼蛋: 52), only where the format scores one — not a round
        # robin's rest nor a knockout's 晋级签 (the handbook: 不计分)
        if game is not None and hasattr(game, "notice_bye") and byes_scored(format_type or ev.format.type):
            parts.append(game.notice_bye(event_points(ev)))
    except Exception:  # noqa: BLE001 - a game that cannot say its rules must not stop the notice
        parts = []
    minutes = ev.game_options.get("time_limit_minutes")
    if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes > 0:
        parts.insert(0, f"比赛时间限定 {minutes} 分钟")
    return "；".join(parts) + "。" if parts else ""


def _play_tables(ev: "EventSpec") -> list[Table]:
    """The tables the game prints under its rules of play (``notice_tables``): T2016's
    级差计分表 (R2016-S1), computed by the game from its rules and the event's options and
    points; none for most games."""
    from ..games import GAMES, event_points

    game = GAMES.get(ev.game) if ev.game in GAMES else None
    try:
        made = game.notice_tables(ev.game_options, event_points(ev)) if hasattr(game, "notice_tables") else []
    except Exception:  # noqa: BLE001 - a game that cannot make its table must not stop the notice
        return []
    # the first column labels the rows (胜方得分), the others share the rest of the width
    # evenly, their numbers centred under 一级 … 十二级, as the seed's table sets them
    return [Table(list(t.head), [list(r) for r in t.rows], ["center"] * len(t.head), caption=t.caption,
                  widths=[4.0] + [3.0] * (len(t.head) - 1)) for t in made]


def _session_line(s, venue_of_all: str = "") -> str:
    """One session: date, weekday, times, and its place when it is not the tournament's own
    (printed once below: T2016's 仙林校区教工食堂 was printed twice)."""
    venue = f"，地点：{s.venue}" if s.venue and s.venue != venue_of_all else ""
    return f"{cn_date(s.date)}（{cn_weekday(s.date)}）{s.start:%H:%M}—{s.end:%H:%M}{venue}"


def _time_and_place(spec: "TournamentSpec") -> list[str]:
    """The notice's 时间地点: the sessions, then the place (the tournament's, with an event's
    own venue beside it).  A time or place not fixed yet is said to follow, as the client's
    notices say (具体比赛时间和地点将另行通知), never left out without a word.  The spec's
    ``notice_time`` is printed instead when given: the sessions a league is scheduled in
    (its draw sheets, its rounds' dates) are not always what its notice may announce yet
    (T2015's notice says only 具體比賽時間和地點將另行通知)."""
    if spec.notice_time:
        return list(spec.notice_time)
    lines: list[str] = []
    own = [ev for ev in spec.events if ev.venue and ev.venue != spec.venue]
    placed = bool(spec.venue) or any(s.venue for s in spec.sessions) or (own and len(own) == len(spec.events))
    if spec.sessions:
        times = [_session_line(s, spec.venue) for s in spec.sessions]
        # one session on one line, not numbered （1） alone
        lines += [f"比赛时间：{times[0]}"] if len(times) == 1 else \
            ["比赛时间：", *(f"（{i}）{t}" for i, t in enumerate(times, 1))]
        lines.append("时间如有变动另行通知。")
    elif not placed and not own:
        return ["具体比赛时间和地点将另行通知。"]
    else:
        lines.append("具体比赛时间将另行通知。")
    places = "；".join(f"{ev.name}：{ev.venue}" for ev in own)
    if spec.venue:
        lines.append(f"比赛地点：{spec.venue}" + (f"（{places}）" if places else ""))
    elif own:
        lines.append(f"比赛地点：{places}" + ("" if placed else "；其余项目的地点将另行通知"))
    elif not placed:
        lines.append("比赛地点将另行通知。")
    return lines


def _award_text(ev: "EventSpec") -> str:
    """An event's awards in words, from its award scheme: 一等奖一名、二等奖两名（奖金200元）…"""
    from ..score import AWARD_SCHEMES

    parts = []
    scheme = AWARD_SCHEMES.get(ev.awards.scheme)      # (an alias, 各组前N名, is the same scheme)
    for name, n in scheme.places(ev.awards.options):
        money = ev.awards.prizes.get(name)
        count = "" if n == 1 and name.endswith("名") else f"{'两' if n == 2 else cn_number(n)}名"
        parts.append(f"{name}{count}" + (f"（奖金{money:,}元）" if money else ""))
    # 每组 only where the format ranks each group apart (groups_standings): a tournament.yaml
    # edited by hand that gives 各组前N名 to a knockout or Swiss event awards the event's
    # places (one group), and its notice said 每组一等奖一名
    from ..draw import FORMATS

    fmt = FORMATS.get(ev.format.type) if ev.format.type in FORMATS else None
    by_group = bool(getattr(scheme, "by_group", False))
    each = by_group and bool(getattr(fmt, "ranks_each_group", False))
    if by_group:     # 每组第一名、第二名 (not 每组小组第一名、小组第二名)
        parts = [p.removeprefix("小组") for p in parts]
    text = ("每组" if each else "") + "、".join(parts)
    rest = ev.awards.options.get("rest")
    money = ev.awards.prizes.get(str(rest)) if rest else None     # (R2020-A1: 参与奖=20 was not printed)
    return text + (f"，其余参赛者获{rest}" + (f"（奖金{money:,}元）" if money else "") if rest else "")


def _units_section(spec: "TournamentSpec") -> Section:
    """Who takes part, as the spec's ``notice_units`` words it: T2020's teams with captains
    (以分工会为单位参赛，队长由分工会干事担任：第一队……), T2011's departments in one line, or
    only who may enter (T2015 参加人员：凡学校工会会员均可报名参加; T2016 参赛人员：本校工会会员).
    A captain is said to be the branch's 干事 only when the teams are listed with captains."""
    nu, uw = spec.notice_units, spec.unit_word
    text = nu.text
    if not text:
        if nu.listing == "none":
            text = f"以{uw}为单位报名参赛。"
        elif nu.listing == "teams" and any(u.captain for u in spec.units):
            text = f"以{uw}为单位参赛，队长由{uw}干事担任："
        else:
            text = f"以{uw}为单位参赛："
    lines = [text]
    if nu.listing == "teams":
        for i, u in enumerate(spec.units, 1):
            cap = f"，队长{u.captain}" if u.captain else ""
            end = "。" if i == len(spec.units) else "；"
            lines.append(f"第{cn_number(i)}队：{u.name}{cap}{end}")
    elif nu.listing == "names" and spec.units:
        lines.append("、".join(u.name for u in spec.units) + "。")
    return Section(nu.heading, lines)


def _contact_words(contact: str) -> str:
    """联系人及电话 as the notice prints it: a name and a phone number typed apart ("王老师
    13800000000") keep apart — the notice closes up spaces between Chinese and digits
    (:func:`cjk_spacing`), which ran them together as 王老师13800000000.

    >>> _contact_words("王老师 13800000000"), _contact_words("王老师 0511-88791234。"), _contact_words("王老师")
    ('王老师，电话13800000000', '王老师，电话0511-88791234', '王老师')
    """
    text = contact.strip().rstrip("。.")
    name, _, phone = text.rpartition(" ")
    if name.strip() and re.fullmatch(r"[0-9０-９+()（）-]{5,}", phone) and "电话" not in name:
        return f"{name.strip().rstrip('，,')}，电话{phone}"
    return text


def notice_vm(state: "LeagueState") -> NoticeVM:
    """The 通知 (T2020/T2015/T2016 style): greeting, purpose, numbered sections, signature
    and date, then the registration form as an attachment."""
    spec = state.tournament.spec
    uw = spec.unit_word
    vm = NoticeVM(**vars(_doc(state, f"关于举办{spec.name}的通知")))
    vm.greeting = f"各{uw}："
    host = spec.host or spec.organizer or "工会"
    purpose = spec.purpose.rstrip("。，, ") if spec.purpose else "为丰富教职工业余文化生活，增进彼此交流与友谊"
    # T2015: "……，校工会定于2015年9月至12月期间举办教职工棋牌比赛" (tournament.yaml period)
    decided = f"定于{spec.period}举办" if spec.period else "决定举办"
    if purpose.startswith(("为", "根据", "按照", "依据")):     # "为…，工会决定举办…"
        vm.intro = f"{purpose}，{host}{decided}{spec.name}，现将有关事项通知如下："
    else:       # "通过这次活动，让…" is what the event does, not why the union decided: its own sentence
        vm.intro = f"{host}{decided}{spec.name}。{purpose}。现将有关事项通知如下："

    sections: list[Section] = []
    if spec.theme:
        sections.append(Section("活动主题", [spec.theme]))

    org: list[str] = []
    if spec.host:
        org.append(f"主办单位：{spec.host}")
    if spec.organizer and spec.organizer != spec.host:
        org.append(f"承办单位：{spec.organizer}")
    if spec.co_organizers:
        org.append("协办单位：" + "、".join(spec.co_organizers))
    if spec.committee:
        org.append("为使本次活动顺利开展，特成立比赛组委会：")
        org.extend(f"{r.role}：" + "、".join(r.names) for r in spec.committee)
    if org:
        sections.append(Section("组织机构", org))

    sections.append(_units_section(spec))

    sections.append(Section("比赛项目", [f"{i}、{ev.name}（{_team_word(ev.team_size)}）"
                                         for i, ev in enumerate(spec.events, 1)]))

    quota_lines = [f"{i}、{quota_rule_text(ev, uw)}" for i, ev in enumerate(spec.events, 1)]
    if spec.one_event_per_person:
        quota_lines.append(f"{len(quota_lines) + 1}、每人只能参加一个项目，不得同时参加多项。")
    quota_tables: list[Table] = []
    varying = [ev for ev in spec.events if ev.quota.rule in ("bands", "ratio")]
    if varying:
        head = [uw, "会员人数"] + [f"{ev.name}（{_entry_word(ev.team_size)}）" for ev in varying]
        rows = [[u.name, str(u.members)] + [str(branch_quota(ev, u))
                                            for ev in varying] for u in spec.units]
        quota_tables.append(Table(head, rows, ["", "num"] + ["num"] * len(varying), caption="各单位名额"))
    sections.append(Section("参赛名额", quota_lines, quota_tables))

    sections.append(Section("时间地点", _time_and_place(spec)))

    fmt_lines = []
    fmt_tables: dict[int, list[Table]] = {}
    for i, ev in enumerate(spec.events, 1):
        es = state.events.get(ev.id)
        # the format the event's rounds were drawn in (FORMAT_CHANGED: not a later edit of the spec)
        fmt_lines.append(f"（{cn_number(i)}）{ev.name}：{_describe_format(es.spec if es else ev, es.format_title if es else '', es.rounds if es else ())}"
                         f"{_play_rules(ev, (es.spec if es else ev).format.type)}")
        tables = _play_tables(ev)       # under the event's own line (R2016-S1: 见下表)
        if tables:
            fmt_tables[len(fmt_lines) - 1] = tables
    sections.append(Section("比赛办法", fmt_lines, after=fmt_tables))

    award_lines = []
    for i, ev in enumerate(spec.events, 1):
        award_lines.append(f"{i}、{ev.name}：{_award_text(ev)}。")
    extra = list(spec.discretionary_awards)
    if spec.branch_award and spec.branch_award not in extra:
        extra.append(spec.branch_award)
    if extra:
        award_lines.append("另设" + "、".join(extra) + "等奖项若干。")
    if spec.award_note:             # T2015 同时颁发证书和奖品; T2011 (cash), T2016, T2020: none promised ("")
        award_lines.append(spec.award_note)
    sections.append(Section("奖项设置", award_lines))

    reg = []
    # R2020-Q4: an event without a deadline (deleted from tournament.yaml by hand) is open until
    # the office sets one (DEADLINE_MISSING): its deadline is 另行通知, not left out — the
    # notice's 报名办法 named only the others (the key None, after the dated ones)
    by_deadline: dict[dt.datetime | None, list[str]] = {}
    for ev in spec.events:
        # an event drawn already: the deadline it was drawn under (TERMS_CHANGED: a later edit
        # does not apply to it), as the runner ran it
        es = state.events.get(ev.id)
        deadline = es.spec.deadline if es is not None else ev.deadline
        by_deadline.setdefault(deadline or None, []).append(ev.name)
    if None in by_deadline:
        by_deadline[None] = by_deadline.pop(None)
    shared = [d for d, names in by_deadline.items() if len(names) == len(spec.events) > 1]
    if shared:      # every event the same deadline: said once (T2020 printed it four times)
        reg.append(f"各项目报名截止时间：{cn_datetime(shared[0])}。" if shared[0] else "各项目报名截止时间另行通知。")
    elif len(by_deadline) == 1:     # one event (several sharing one deadline are said above): not numbered
        ((d, _),) = by_deadline.items()
        reg.append(f"报名截止时间：{cn_datetime(d)}。" if d else "报名截止时间另行通知。")
    else:       # events sharing a deadline on one line (T2015: 围棋、中国象棋项目……于10月30日前)
        reg += [f"{i}、{'、'.join(names)}：" + (f"报名截止时间为{cn_datetime(d)}。" if d else "报名截止时间另行通知。")
                for i, (d, names) in enumerate(by_deadline.items(), 1)]
    to = spec.submit_to or (_contact_words(spec.contact) if spec.contact else "") or "工会办公室"
    # 附件1 when the notice has further attachments (the rules): 见附件 alone named two
    form_ref = "附件1" if spec.notice_attachments else "附件"
    # the contact (联系人及电话, which league new says is printed on the notice) beside the
    # address the forms go to: it was left out whenever submit_to was set
    contact = (f"联系人：{_contact_words(spec.contact)}。"
               if spec.submit_to and spec.contact and spec.contact != spec.submit_to else "")
    reg.append(f"报名表（见{form_ref}）由各{uw}统一填写后发送至{to}，"
               f"逾期{'不予受理' if spec.late_policy == 'reject' else '将另行标注'}。{contact}")
    sections.append(Section("报名办法", reg))

    if spec.notes:
        sections.append(Section("注意事项", [f"{i}、{n}" for i, n in enumerate(spec.notes, 1)]))

    for i, s in enumerate(sections, 1):
        s.heading = f"{cn_number(i)}、{s.heading}"
        s.paragraphs = [cjk_spacing(p) for p in s.paragraphs]
    vm.intro = cjk_spacing(vm.intro)
    vm.sections = sections
    vm.closing = f"{cn_number(len(sections) + 1)}、未尽事宜，由组委会负责解释说明。"
    vm.signature = spec.issuer
    vm.date = cn_date(spec.notice_date)
    vm.attachment_title = f"{spec.name}报名表"
    # T2015: 附件：1.教职工棋牌比赛报名表 2．《双扣比赛规则》, each printed after the signature
    vm.more_attachments = [(a.title, [line.strip() for line in a.text.splitlines() if line.strip()])
                           for a in spec.notice_attachments]
    vm.attachment_list = [vm.attachment_title] if not vm.more_attachments else \
        [f"1．{vm.attachment_title}"] + [f"{i}．《{t}》" for i, (t, _) in enumerate(vm.more_attachments, start=2)]
    vm.attachment_meta = [f"{uw}名称：", "队长：", "联系电话：", "填报时间："]
    vm.form = Table(list(REG_COLUMNS), [[str(i)] + [""] * (len(REG_COLUMNS) - 1) for i in range(1, 16)],
                    ["center"] + [""] * (len(REG_COLUMNS) - 1))
    notes = ["项目：" + "、".join(ev.name for ev in spec.events) + "，每行填写一人。"]
    # the form has every contract column (队号, 乘车地点) whatever the league: the notes say
    # which stay blank here (T2011 has no pair events, only T2016 runs buses)
    if any(ev.team_size > 1 for ev in spec.events):
        notes.append("队号：双人或团体项目填写同一队号以组成一对/一队，个人项目不填。")
    else:
        notes.append("队号：本次比赛均为个人项目，不填。")
    if spec.pickup_points:
        # only what the form's list offers (a 自行到达 the list lacked was refused as BAD_VALUE)
        notes.append("乘车地点：请每人填写，从下拉列表中选择（" + "、".join(spec.pickup_points) + "）。")
    else:
        notes.append("乘车地点：本次比赛不安排班车，不填。")
    notes.append("请使用工会下发的电子报名表（Excel）填写后发回，勿更改表头。")
    vm.form_notes = notes
    return vm


# --------------------------------------------------------------------------------------
# draw sheets (对阵表) and table cards (桌签)
# --------------------------------------------------------------------------------------
@dataclass
class DrawVM(Doc):
    """View-model of one event round's draw sheet (对阵表)."""

    event: str = ""
    stage: str = ""
    round_label: str = ""
    session: str = ""
    venue: str = ""
    referee: str = ""
    table: Table | None = None
    byes: list[str] = field(default_factory=list)
    bye_title: str = "轮空（直接晋级）"
    notes: list[str] = field(default_factory=list)
    seed_line: str = ""
    #: the boards every table of the round plays (R2015-F1 桥牌: ``4—6``), "" for other games
    boards: str = ""


@dataclass
class Card:
    """One table card (桌卡) of a round."""

    title: str
    event: str
    round_label: str
    table_label: str
    group: str
    session: str
    sides: list[tuple[str, str, str]]      # (side label, team / name, branch)
    #: which match of its round the table is, when the round has more than one kind (决赛 /
    #: 三四名决赛, R2011-F2)
    match: str = ""
    #: the boards the table plays (R2015-F1: ``本轮牌号 4—6``)
    boards: str = ""


@dataclass
class CardsVM(Doc):
    """View-model of one event round's table cards."""

    cards: list[Card] = field(default_factory=list)


def _first_move(ev: "EventSpec") -> str:
    """What a draw sheet writes after the side that moves first: the game's own words
    (执红先行 for Xiangqi, 执黑先行 for Go), 先手 for another two-player board game, nothing
    for a card game (no first move to hand out)."""
    from ..games import GAMES

    game = GAMES.get(ev.game) if ev.game in GAMES else None
    if game is None:
        return "先手"
    note = getattr(game, "first_note", None)
    if note is not None:
        return note or "先手"
    return "先手" if game.id == "checkers" else ""


def first_move_label(label: str, first: str) -> str:
    """A table card's side label with the first move the draw sheet writes after that side's
    name (:func:`_first_move`; R2011-F3 象棋 红先, 围棋 执黑先行), inside a seat's brackets
    when it has one.

    >>> first_move_label("甲方", "执红先行"), first_move_label("乙方（南北）", "先手")
    ('甲方（执红先行）', '乙方（南北，先手）')
    """
    if label.endswith("）"):
        return f"{label[:-1]}，{first}）"
    return f"{label}（{first}）"


def _side_labels(n: int) -> list[str]:
    return list(SIDES_3 if n >= 3 else SIDES_2)


def seat_labels(rnd: Round, n: int) -> list[str]:
    """The side labels of a table of ``n`` seats in ``rnd``: 甲方 乙方 (甲 乙 丙), each with
    the seat its format drew it to when the round's plan says (``plan["sides"]``; R2015-F1:
    a bridge table's 甲方 sits 南北, 乙方 东西 — as its result sheet's 弃权 help says).

    >>> from pipeline.model import Round
    >>> seat_labels(Round("b", "pairs", "双人赛第1轮", 1, (), plan={"sides": ["南北", "东西"]}), 2)
    ['甲方（南北）', '乙方（东西）']
    >>> seat_labels(Round("x", "rr", "循环赛第1轮", 1, ()), 2)
    ['甲方', '乙方']
    """
    labels = _side_labels(n)
    seats = rnd.plan.get("sides") if isinstance(rnd.plan, dict) else None
    if not isinstance(seats, (list, tuple)):
        return labels
    return [f"{lab}（{seat}）" if seat else lab for lab, seat in zip(labels, [*seats, *[""] * n])]


def number_span(numbers: Iterable[Any]) -> str:
    """Board numbers as a sheet prints them: a run ``4—6``, else ``1、3、5``.

    >>> number_span([4, 5, 6]), number_span([7]), number_span([1, 3, 5]), number_span([])
    ('4—6', '7', '1、3、5', '')
    """
    nums = [str(x) for x in numbers]
    ints = [int(x) for x in nums if x.isdigit()]
    if len(ints) == len(nums) > 1 and ints == list(range(ints[0], ints[0] + len(ints))):
        return f"{ints[0]}—{ints[-1]}"
    return "、".join(nums)


def boards_of(rnd: Round, m: Match) -> list[Any]:
    """The boards table ``m`` plays in ``rnd`` (R2015-F1: ``plan["boards"]``, the same at every
    table; per table when it is a mapping, as :mod:`pipeline.xlsx.results` reads it)."""
    boards = rnd.plan.get("boards") if isinstance(rnd.plan, dict) else None
    if isinstance(boards, dict):
        boards = boards.get(str(m.table), boards.get(m.table))
    return list(boards) if isinstance(boards, (list, tuple)) else []


def match_titles(format_type: str, rnd: Round) -> dict[tuple, str]:
    """Match key → which match of ``rnd`` it is, as its format names it (``match_title``;
    R2011-F2: 决赛 and 三四名决赛 in one round), for the tables that need saying it: every
    table of a round with more than one kind of match, and a table whose group is the
    format's own id for it (三四名: its result sheet's key, no group).  {} for another round
    (a semi-final round: its title says it)."""
    from ..draw import FORMATS

    if not format_type or format_type not in FORMATS:
        return {}
    title = getattr(FORMATS.get(format_type), "match_title", None)
    if title is None:
        return {}
    got = {m.key: (title(rnd, m), m.group) for m in rnd.matches if not m.bye}
    got = {k: v for k, v in got.items() if v[0]}
    if len({t for t, _ in got.values()}) > 1 or any(g for _, g in got.values()):
        return {k: t for k, (t, _) in got.items()}
    return {}


def table_caption(m: Match, titles: dict[tuple, str], sep: str = "") -> str:
    """A table as a sheet names it: ``A组第1桌``, ``三四名决赛第2桌`` (:func:`match_titles`:
    not 三四名组), ``第3桌``; ``sep`` between the parts (`` `` on the event page)."""
    head = titles.get(m.key) or (f"{m.group}组" if m.group else "")
    return f"{head}{sep}第{m.table}桌" if head else f"第{m.table}桌"


def _entry_text(entry: Entry | None, entry_id: str, spec: "TournamentSpec") -> tuple[str, str]:
    """(team / player line, branch) for a side; team events add the players on a new line."""
    if entry is None:
        return entry_id, ""
    team = entry.team or entry.player_names
    # (not a pair re-formed at check-in, R2016-F2, labelled by its players: 潘霞洋/姜力（重组）)
    if len(entry.players) > 1 and entry.player_names and not team.startswith(entry.player_names):
        team = f"{team}\n{entry.player_names}"
    return team, entry_units(spec, entry)


def entry_units(spec: "TournamentSpec", entry: Entry) -> str:
    """The units of an entry's players, its own first: ``机关二/会计`` for a cross-branch pair
    (R2015-Q2) or a pair re-formed at check-in (R2016-F2) — the standings once printed only
    the first player's unit, where the draw sheets printed both."""
    branches = sorted({p.branch for p in entry.players if p.branch} - {entry.branch})
    return "/".join([_unit_short(spec, entry.branch)] + [_unit_short(spec, b) for b in branches])


#: id(event state) → (event state, its entries, spec, entries by id, texts by id): the draw
#: sheet and table cards of every round of an event label the same entries (an event of 99
#: rounds at 800 units labelled each of its entries 198 times)
_SIDE_TEXTS: dict[int, tuple] = {}


def _side_texts(es: "EventState", spec: "TournamentSpec") -> Callable[[str], tuple[str, str]]:
    """``text(entry_id)`` → :func:`_entry_text` of the event's entry, each made once and
    kept while the event state is the same object, its entries are the same (compared
    item by item: a list changed in place is noticed) and the spec is the same."""
    entries = tuple(es.entries)
    hit = _SIDE_TEXTS.get(id(es))
    if hit is None or hit[0] is not es or hit[2] is not spec or hit[1] != entries:
        if len(_SIDE_TEXTS) >= 64:
            _SIDE_TEXTS.clear()
        hit = _SIDE_TEXTS[id(es)] = (es, entries, spec, {e.id: e for e in entries}, {})
    by_id, texts = hit[3], hit[4]

    def text(entry_id: str) -> tuple[str, str]:
        got = texts.get(entry_id)
        if got is None:
            got = texts[entry_id] = _entry_text(by_id.get(entry_id), entry_id, spec)
        return got
    return text


def same_label(a: str, b: str) -> bool:
    """Two session labels of one session, however their dates were padded: a round published
    before dates were printed unpadded recorded ``2011年05月16日 14:00—18:00``.

    >>> same_label("2011年05月16日 14:00—18:00", "2011年5月16日 14:00—18:00")
    True
    """
    return a == b or (bool(a) and [int(x) for x in re.findall(r"\d+", a)] == [int(x) for x in re.findall(r"\d+", b)]
                      and re.sub(r"\d+", "", a) == re.sub(r"\d+", "", b))


def session_and_venue(es: "EventState", rnd: Round, spec: "TournamentSpec") -> tuple[str, str]:
    """R2020-S1: a round's session (its time, :func:`pipeline.run.schedule`) and venue: the
    session's own venue, else the event's, else the tournament's."""
    label = es.session_of_round.get(rnd.round, "")
    # a published round's venue as it was published (R2020-S1: frozen with its draw)
    rec = rnd.plan.get("session_at_draw") if isinstance(rnd.plan, dict) else None
    if isinstance(rec, dict) and rec.get("venue") and same_label(str(rec.get("label") or ""), label):
        return label, str(rec["venue"])
    venue = es.spec.venue or spec.venue
    for s in spec.sessions:
        if s.label() == label and s.venue:
            venue = s.venue
    return label, venue


def withdrawn_at_tables(es: "EventState", rnd: Round) -> frozenset[str]:
    """The withdrawn entries (``withdrawn`` in tournament.yaml) whose table in ``rnd`` is
    marked on its draw sheet, result workbook and event page: those at a table with no result
    yet (a round robin's remaining games, or a round published before the withdrawal), and
    those the round was drawn while they were withdrawn (its plan's ``withdrawn_at_draw``),
    whose table stays marked once its 弃权 is in.  A round played before the withdrawal is
    printed as it was played.  Handbook 缺席、弃权和退赛: the referee enters these as 弃权."""
    if not es.withdrawn:
        return frozenset()
    at_draw = rnd.plan.get("withdrawn_at_draw") if isinstance(rnd.plan, dict) else None
    at_draw = set(at_draw) if isinstance(at_draw, list) else set()
    return frozenset(s for m in rnd.matches if not m.bye for s in m.sides
                     if s in es.withdrawn and (s in at_draw or m.key not in es.results))


def unscored_bye_note(es: "EventState", rnd: Round, m: Match | None = None) -> str:
    """What the draw sheet and the event page say beside a bye ``m`` of ``rnd`` that does not
    score (:func:`pipeline.draw.bye_unscored`): 轮空（已退赛，不计分）, or for a 晋级签
    (:func:`bye_advances`) 晋级签（已退赛，不晋级）, for a knockout's walkover (R2011-R1: not a bye)
    不战而胜（已退赛，不晋级）."""
    if m is not None and m.walkover:
        return WITHDRAWN_WALKOVER
    return WITHDRAWN_BYE_NO_ADVANCE if bye_advances(es, rnd) else WITHDRAWN_BYE


def withdrawn_notes(rnd: Round, gone: frozenset[str], name: Callable[[str], str],
                    titles: dict[tuple, str] | None = None) -> dict[tuple, tuple[str, str]]:
    """Match key → (the line telling the referee a side of that table withdrew and which
    弃权 to choose, :func:`pipeline.layout.withdrawn_note`; that choice), for the tables of
    ``rnd`` with a side in ``gone`` (:func:`withdrawn_at_tables`); ``name``: a side's name
    as the sheet prints it; ``titles``: :func:`match_titles`."""
    from ..layout import forfeit_choice, withdrawn_note

    out = {}
    for m in rnd.matches:
        seats = [i for i, s in enumerate(m.sides) if s in gone]
        if m.bye or not seats:
            continue
        labels = _side_labels(len(m.sides))
        table = table_caption(m, titles or {})
        choice = forfeit_choice(len(m.sides), seats)
        out[m.key] = (withdrawn_note(table, [labels[i] for i in seats], [name(m.sides[i]) for i in seats],
                                     len(m.sides), choice), choice)
    return out


def round_label(rnd: Round) -> str:
    """The round's heading (:attr:`pipeline.model.Round.title`)."""
    return rnd.title


def draw_vm(state: "LeagueState", event_id: str, rnd: Round) -> DrawVM:
    """Draw sheet of one round: tables with sides labelled by team and branch, byes,
    the draw's seed and input hash, and the format's notes (why a bye, a revival …)."""
    spec = state.tournament.spec
    es = state.events[event_id]
    ev = es.spec
    side_text = _side_texts(es, spec)
    label = round_label(rnd)
    vm = DrawVM(**vars(_doc(state, f"{ev.name} {label} 对阵表")))
    vm.event, vm.stage, vm.round_label = ev.name, rnd.stage_name, label
    vm.session, vm.venue = session_and_venue(es, rnd, spec)
    vm.referee = ev.referee
    playing = [m for m in rnd.matches if not m.bye]
    first = _first_move(ev)
    seats = max((len(m.sides) for m in playing), default=2)
    labels = seat_labels(rnd, seats)
    # R2011-F2: the final and the third-place match under 场次 (the third-place match's group
    # id 三四名 is its result sheet's key, no group: it once stood under 组别)
    titles = match_titles(ev.format.type, rnd)
    groups = len({m.group for m in playing if m.group and m.key not in titles}) > 0
    head = ["桌号"] + (["组别"] if groups else []) + (["场次"] if titles else [])
    for lab in labels[:seats]:
        head += [lab, "单位"]
    head.append("备注")
    # R2015-F1: the boards of the round, the same at every table (else on each table's row)
    boards = {m.key: number_span(boards_of(rnd, m)) for m in playing}
    vm.boards = next(iter(boards.values())) if len(set(boards.values())) == 1 else ""
    rows = []
    # handbook 缺席、弃权和退赛: a withdrawn entry's table still on the draw is entered as 弃权
    gone = withdrawn_at_tables(es, rnd)
    told = withdrawn_notes(rnd, gone, lambda sid: side_text(sid)[0].split("\n")[0], titles)
    for m in sorted(playing, key=lambda m: (m.group, m.table)):
        row = [str(m.table)] + ([m.group if m.key not in titles else ""] if groups else [])
        row += [titles.get(m.key, "")] if titles else []
        for i in range(seats):
            if i < len(m.sides):
                team, branch = side_text(m.sides[i])
                if m.sides[i] in gone:      # after the name, before a pair's players
                    head_line, *rest = team.split("\n", 1)
                    team = "\n".join([head_line + WITHDRAWN_MARK, *rest])
                if i == m.first and len(m.sides) == 2 and first:
                    team += f"（{first}）"
                row += [team, branch]
            else:
                row += ["", ""]
        note = "" if m.note == titles.get(m.key) else m.note       # (not 三四名决赛 twice)
        if boards[m.key] and not vm.boards:
            note = "；".join(x for x in (f"牌号 {boards[m.key]}", note) if x)
        if m.key in told:       # the choice to make, at the table (the sentence is a note below)
            note = "；".join(x for x in (note, f"已退赛，按弃权填写“{told[m.key][1]}”") if x)
        row.append(note)
        rows.append(row)
    align = ["center"] + (["center"] if groups else []) + (["center"] if titles else []) + ["", ""] * seats + [""]
    vm.table = Table(head, rows, align)
    from ..draw import bye_unscored

    for m in rnd.matches:
        if m.bye:
            # handbook 缺席、弃权和退赛: a bye its entry withdrew from before the round was played
            note = unscored_bye_note(es, rnd, m) if bye_unscored(m, es.results.get(m.key)) else m.note
            for sid in m.sides:
                team, branch = side_text(sid)
                # (a walkover's note says which match: 不战而胜（三四名决赛对手空缺）, R2011-R1)
                grp = f"{m.group}组 " if m.group and not m.walkover else ""
                vm.byes.append(f"{grp}{team.replace(chr(10), ' ')}（{branch}）" + (f"：{note}" if note else ""))
    if vm.byes:     # the stage's kind looks at every match of the stage: only when it is said
        if bye_advances(es, rnd):
            walks = [m.walkover for m in rnd.matches if m.bye]
            onward = "" if rnd.plan.get("final") else "（直接晋级）"       # (a final's walkover goes nowhere)
            vm.bye_title = ("不战而胜" + onward if all(walks) else "轮空、不战而胜（直接晋级）" if any(walks)
                            else "轮空（直接晋级）")
        else:       # in place of a game: what it counts, when it counts (R2016-S1: 52)
            worth = bye_worth(es, rnd)
            vm.bye_title = f"轮空（本轮不赛；{worth}）" if worth else "轮空（本轮不赛）"
    vm.notes = list(rnd.notes) + [told[m.key][0] for m in sorted(playing, key=lambda m: (m.group, m.table))
                                  if m.key in told]
    parts = []
    if rnd.seed:
        parts.append(f"抽签种子 {rnd.seed}")
    if rnd.input_hash:
        parts.append(f"输入摘要 {rnd.input_hash}")
    vm.seed_line = "；".join(parts)
    return vm


def cards_vm(state: "LeagueState", event_id: str, rnd: Round) -> CardsVM:
    """Table cards (桌签): one card per table of a round (byes get no card)."""
    spec = state.tournament.spec
    es = state.events[event_id]
    side_text = _side_texts(es, spec)
    label = round_label(rnd)
    vm = CardsVM(**vars(_doc(state, f"{es.spec.name} {label} 桌签")))
    session, venue = session_and_venue(es, rnd, spec)
    titles = match_titles(es.spec.format.type, rnd)      # R2011-F2: 决赛 / 三四名决赛, not 三四名组
    first = _first_move(es.spec)
    for m in sorted((m for m in rnd.matches if not m.bye), key=lambda m: (m.group, m.table)):
        labels = seat_labels(rnd, len(m.sides))        # R2015-F1: 甲方（南北）
        if first and len(m.sides) == 2 and 0 <= m.first < 2:
            # R2011-F3: who moves first, on the side the draw sheet says it of (甲方（执红先行）)
            labels[m.first] = first_move_label(labels[m.first], first)
        sides = []
        for i, sid in enumerate(m.sides):
            team, branch = side_text(sid)
            sides.append((labels[i], team, branch))
        group = m.group if m.key not in titles else ""
        boards = number_span(boards_of(rnd, m))
        vm.cards.append(Card(title=spec.name, event=es.spec.name, round_label=label,
                             # the group in the big number: a groups round numbers its tables
                             # from 1 in each group (four cards said 第 1 桌 in 60 pt)
                             table_label=f"{group}组 第 {m.table} 桌" if group else f"第 {m.table} 桌",
                             group=f"{group}组" if group else "",
                             session=" ".join(x for x in (session, venue) if x), sides=sides,
                             match=titles.get(m.key, ""), boards=f"本轮牌号 {boards}" if boards else ""))
    return vm


# --------------------------------------------------------------------------------------
# standings (成绩表)
# --------------------------------------------------------------------------------------
_TB_FALLBACK = {
    "direct": "直胜", "direct_encounter": "直胜", "wins": "胜局数", "buchholz": "对手分",
    "buchholz_cut1": "对手分（去最低）", "sonneborn_berger": "索伯分", "progressive": "累进分",
    "black_wins": "后手胜局", "game_points": "总分", "playoff": "加赛",
}


def _tiebreak_info(name: str) -> tuple[str, int, bool]:
    """(Chinese title, display divisor, is playoff) of a tiebreak name."""
    try:
        from ..score import TIEBREAKS
        from ..score import tiebreaks as _  # noqa: F401  (registers the tiebreaks)

        tb = TIEBREAKS.get(name)
        return (getattr(tb, "title", "") or _TB_FALLBACK.get(name, name), int(getattr(tb, "scale", 1) or 1),
                bool(getattr(tb, "is_playoff", name == "playoff")))
    except Exception:  # noqa: BLE001 - unknown tiebreak: print its name rather than fail
        return _TB_FALLBACK.get(name, name), 1, name == "playoff"


def _scaled(value: int, scale: int) -> str:
    if scale <= 1:
        return str(value)
    return f"{value / scale:.2f}".rstrip("0").rstrip(".")


@dataclass
class EventTables:
    """One event's tables in a document: its name and tables."""

    name: str
    status: str
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)    # 说明 lines under the tables
    anchor: str = ""      # the event heading's id (ev-<event id>, :mod:`.anchors`)

    def toc(self) -> TocItem:
        """The event's line of the page's 目录: its heading, then its tables' parts (A组 …
        最终名次) when it has more than one."""
        parts = [(t.anchor, _toc_label(t)) for t in self.tables if t.anchor] if len(self.tables) > 1 else []
        return TocItem(self.anchor, self.name, tuple(parts))


def _toc_label(t: Table) -> str:
    """A table's link in the 目录: its label (a standings caption without what it counts), or caption."""
    return t.label or t.caption or t.section


@dataclass
class StandingsVM(Doc):
    """View-model of the standings document (成绩册)."""

    events: list[EventTables] = field(default_factory=list)
    legend: str = ""
    toc: list[TocItem] = field(default_factory=list)    # 目录: an event a line (screen only)


def standing_table(state: "LeagueState", es: "EventState", st: "StandingTable") -> Table:
    """One standings table with every tiebreak of the chain as a column (Chinese names)
    and 需加赛 marks on rows whose tie needs a playoff (R2011-F1, R2011-D2)."""
    spec = state.tournament.spec
    entries = {e.id: e for e in es.entries}
    team_event = es.spec.is_team
    tbs = [(n, *_tiebreak_info(n)) for n in st.chain]
    shown_tbs = [t for t in tbs if not t[3]]
    show_draws = any(r.draws for r in st.rows)
    show_score = any(r.score for r in st.rows) and not any(n == "game_points" for n, *_ in tbs)
    head = ["名次", "队名" if team_event else "姓名", "单位"] + (["队员"] if team_event else [])
    head += ["场次", "胜"] + (["平"] if show_draws else []) + ["负", "积分"] + (["总分"] if show_score else [])
    head += [t[1] for t in shown_tbs] + ["备注"]
    playoff_tbs = [t for t in tbs if t[3]]
    byes = scored_byes(es, st)
    word = playoff_word(es)
    shown_of = {r.entry: (r.points, r.score, *(r.tiebreaks.get(n) for n, *_ in shown_tbs)) for r in st.rows}
    rows, classes = [], []
    for i, r in enumerate(st.rows):
        e = entries.get(r.entry)
        name = e.team if e else r.entry
        row = [str(r.rank), name, entry_units(spec, e) if e else ""]
        if team_event:
            row.append(e.player_names if e else "")
        row += [str(r.played), str(r.wins)] + ([str(r.draws)] if show_draws else []) + [str(r.losses), str(r.points)]
        if show_score:
            row.append(str(r.score))
        row += [_scaled(r.tiebreaks[n], scale) if n in r.tiebreaks else "" for n, _, scale, _ in shown_tbs]
        note = "需加赛" if r.playoff_required else _decided_by_playoff(st.rows, i, shown_of, playoff_tbs, word)
        if byes.get(r.entry):      # a bye's points are in 积分 but in no game's score: how many
            # (what a bye counts is said once, in the caption: the whole note, 积分含轮空 1 轮（轮空按
            # 2分计）, in the one column that wraps, made five-line rows of four characters)
            note = "；".join(x for x in (note, f"含轮空 {byes[r.entry]} 轮") if x)
        if r.entry in es.withdrawn:     # fewer games than the others: the office withdrew it
            note = "；".join(x for x in (note, "已退赛") if x)
        row.append(note)
        rows.append(row)
        classes.append("playoff" if r.playoff_required else "")
    left = 4 if team_event else 3
    align = ["center"] + [""] * (left - 1) + ["num"] * (len(head) - left - 1) + [""]
    label = " ".join(x for x in (st.stage_name, f"{st.group}组" if st.group else "") if x)
    part = " ".join(x for x in (es.spec.name, label) if x)
    # R2016-S1: what a bye counts, with the rows that hold one (含轮空 1 轮)
    caption = label + (f"（积分含轮空，轮空按{_bye_points(es)}分计）" if byes else "")
    return Table(head, rows, align, classes, caption=caption, section=es.spec.name, part=part, label=label)


def scored_byes(es: "EventState", st: "StandingTable") -> Counter:
    """Entry → the byes of ``st``'s stage (and group) that scored points in its 积分 (none
    where a bye scores nothing: a round robin's rest, a knockout's bye, a bye worth 0, a bye
    its entry withdrew from before the round was played: :func:`pipeline.draw.bye_unscored`),
    and none of a round the table does not count yet (R2016-S1: a bye scores once its group's
    part of the round is played, :func:`pipeline.score.table.pending_byes` — the round just
    drawn gave 外语1队 含轮空 1 轮 beside 积分 4 that held no bye)."""
    from ..draw import bye_scores, bye_unscored
    from ..score.table import pending_byes

    if not _bye_points(es):
        return Counter()
    rounds = [rnd for rnd in es.rounds if rnd.stage == st.stage and bye_scores(es.spec.format.type, rnd)]
    waiting = pending_byes(rounds, es.results)
    return Counter(s for rnd in rounds for m in rnd.matches if m.bye and (not st.group or m.group == st.group)
                   and m.key not in waiting and not bye_unscored(m, es.results.get(m.key)) for s in m.sides)


def _bye_points(es: "EventState") -> int:
    """Points a bye is worth in this event (:func:`pipeline.games.event_points`): the spec's
    ``points.bye``, else the game's (掼蛋 52, the winner's score at equal level, R2016-S1)."""
    from ..games import GAMES, event_points

    return event_points(es.spec).get("bye", 0) if es.spec.game in GAMES else 0


def bye_advances(es: "EventState", rnd: Round) -> bool:
    """Whether a bye of ``rnd`` is a 晋级签 — straight into the next round of a knockout
    (R2020-F1) or of tables of three (R2020-D1) — rather than a round sat out in place of a
    game.  By the kind of the round's stage (:func:`.site_vm.stage_kind`, which looks at
    every round of the stage)."""
    from .site_vm import split_stages, stage_kind

    stage = next((st for st in split_stages(es.rounds) if any(r.round == rnd.round for r in st)), [rnd])
    return stage_kind(stage, es.spec.format.type) in ("knockout", "tables")


def bye_worth(es: "EventState", rnd: Round) -> str:
    """``轮空按52分计``: what a bye of ``rnd`` counts in the standings — the event's bye points
    (:func:`_bye_points`, the configured value) where a bye scores them (not a round robin's
    rest, :func:`pipeline.draw.bye_scores`); "" where it scores nothing, and for a 晋级签
    (:func:`bye_advances`: the draw sheet says 轮空（直接晋级）, the handbook 不计分 — the event
    page said 轮空按2分计 beside it).  R2016-S1 gives no bye score: 52 (a win at equal level)
    is the decision taken, said on the sheets."""
    from ..draw import bye_scores

    points = _bye_points(es)
    if not points or not bye_scores(es.spec.format.type, rnd) or bye_advances(es, rnd):
        return ""
    return f"轮空按{points}分计"


def playoff_word(es: "EventState") -> str:
    """What the entries of a playoff are counted in (R2011-F1): 人, 对 (pairs: 掼蛋 R2016-Q2,
    bridge R2015-Q2) or 队 (teams) — ``2人加赛第1`` was said of two 掼蛋 pairs.  The draw's
    :func:`pipeline.layout.entry_word`, by the players of the event's entries (as the draw's
    notes count them; not through the draw's module, which a night of one form never loads)."""
    from ..layout import entry_word

    return entry_word(es.entries)


def _decided_by_playoff(rows: list, i: int, shown_of: dict, playoff_tbs: list, word: str = "人") -> str:
    """备注 of a row level with a neighbour on every printed column but ranked apart by a
    playoff (加赛, a tiebreak not printed as a column): ``3人加赛第1`` — its place
    among those level with it — so the order does not read as an unexplained tie (R2011-F1,
    R2020-F4); not 加赛第1名, which beside a 6th place read as first place.  (The playoff's
    own value is a sort key, meaningless on paper.)  ``word`` counts the entries
    (:func:`playoff_word`): ``2对加赛第1`` for two pairs.  A 加赛 that left some of them level
    within one prize (R2020-F4: 1, blank, blank) ranks those two alike: ``3人加赛并列第2`` on
    each (the one not beside the winner said nothing)."""
    r = rows[i]
    if not any(n in r.tiebreaks for n, _, _, _ in playoff_tbs):
        return ""
    first = i
    while first > 0 and shown_of[rows[first - 1].entry] == shown_of[r.entry]:
        first -= 1
    last = i
    while last + 1 < len(rows) and shown_of[rows[last + 1].entry] == shown_of[r.entry]:
        last += 1
    if all(rows[j].rank == r.rank for j in range(first, last + 1)):
        return ""
    place = 1 + sum(1 for j in range(first, i) if rows[j].rank != r.rank)
    level = any(rows[j].rank == r.rank for j in range(first, last + 1) if j != i)
    return f"{last - first + 1}{word}加赛{'并列' if level else ''}第{place}"


def _status(es: "EventState") -> str:
    if es.complete:
        return "已结束"
    if es.waiting:
        return f"进行中：{es.waiting}"
    return "进行中"


def standings_vm(state: "LeagueState") -> StandingsVM:
    """Standings of every event and group (成绩表), in spec order."""
    vm = StandingsVM(**vars(_doc(state, f"{state.tournament.spec.name} 成绩表")))
    ids = Anchors()     # audit 38: 6,000 rows of eight events on one page, nothing to jump to
    for ev in state.tournament.spec.events:
        es = state.events.get(ev.id)
        if es is None or not es.standings:
            continue
        tables = [standing_table(state, es, st) for st in es.standings]
        where = ids.take("ev", ev.id)
        for t, st in zip(tables, es.standings):
            t.anchor = ids.take(where, st.stage, st.group)
        final = final_order_table(state, es)
        if final:
            final.anchor = ids.take(where, "final-order")
        elif not es.complete:
            # the tables above are the order (a Swiss, pairs, round robin or groups event's
            # own table covers every place): under way, each is a current one (handbook 五,
            # audit 41), with the line below saying up to which round
            for t in tables:
                t.caption = " ".join(x for x in (t.caption, CURRENT_ORDER_CAPTION) if x)
        notes = ([] if es.complete else [current_order_note(es)]) + (final_order_notes(es) if final else [])
        tables = same_widths(tables, STANDINGS_PAGE_EM) + ([final] if final else [])
        vm.events.append(EventTables(ev.name, _status(es), tables, notes, anchor=where))
    vm.toc = [e.toc() for e in vm.events]
    vm.toc = vm.toc if toc_worth(vm.toc) else []
    vm.legend = "名次相同表示按全部破同分规则仍然并列；“需加赛”表示须加赛决定名次。"
    return vm


def final_order_notes(es: "EventState") -> list[str]:
    """The 说明 under 最终名次: how its places were compared where the format says (R2011-F2,
    groups_knockout: groups of different sizes compared by 得分率)."""
    from ..draw import FORMATS
    fmt = FORMATS.get(es.spec.format.type) if es.spec.format.type in FORMATS else None
    notes = getattr(fmt, "placement_notes", None)
    if notes is None or not es.placements:
        return []
    points = {row.entry: row.points for st in es.standings if st.stage == "group" for row in st.rows}
    return notes(es.rounds, list(es.placements), points)


#: the order of an event not yet complete (R2011-F1/F2, audit 39): a format's ``placements()``
#: give the current order while it is played (group winners first before the knockout is
#: drawn, places tied until a 加赛), never to be printed as 最终名次
CURRENT_ORDER = "当前名次"
CURRENT_ORDER_CAPTION = f"{CURRENT_ORDER}（比赛进行中，非最终名次）"


def current_order_note(es: "EventState") -> str:
    """The 说明 under an unfinished event's 当前名次: the round it stands at (the last one
    played out; a later one's results so far), and a tie still to be played off — a group's
    (its 出线, before the knockout is drawn) or the final places' (阶段 最终名次, R2011-F1):
    the event is complete only once that is settled.

    >>> from pipeline.state import EventState
    >>> current_order_note(EventState(None, "", []))
    '比赛尚未结束，此表为目前的当前名次，不是最终名次。'
    """
    from ..layout import FINAL_PLACES
    from .site_vm import round_complete

    rounds = sorted(es.rounds, key=lambda r: r.round)
    done = [r for r in rounds if round_complete(es, r)]
    partial = [r for r in rounds if r not in done and any(not m.bye and m.key in es.results for m in r.matches)]
    later = [r for r in partial if not done or r.round > done[-1].round]
    where = f"截至{done[-1].title}" if done else "目前"
    if later:
        where += f"（{'、'.join(r.title for r in later)}已有部分成绩）"
    group_stages = ()
    if es.ties:
        from ..draw.common import GROUP_PLAYOFFS

        group_stages = GROUP_PLAYOFFS[:1]       # (a group's 出线; a match's 加赛 is no group's)
    groups = list(dict.fromkeys(f"{g}组" if g else "小组" for st, g, _ in es.ties if st in group_stages))
    matches = any(st != FINAL_PLACES and st not in group_stages for st, _, _ in es.ties)
    tie = "".join(f"，{w}尚待加赛决定" for w in ([f"{'、'.join(groups)}名次"] if groups else [])
                  + (["未分胜负的对局"] if matches else [])
                  + (["并列名次"] if any(st == FINAL_PLACES for st, _, _ in es.ties) else []))
    return f"比赛尚未结束，此表为{where}的{CURRENT_ORDER}{tie}，不是最终名次。"


def final_order_table(state: "LeagueState", es: "EventState") -> Table | None:
    """最终名次: every entry's final place and how it was reached (``Placement.tier``) —
    when the tables above do not already give them all (a knockout's places below its final
    pool, the order after groups and a final stage); None otherwise.  While the event is
    not complete the same order is its current one (``Format.placements``): captioned
    当前名次 (:data:`CURRENT_ORDER_CAPTION`, audit 39), never 最终名次."""
    placements = list(getattr(es, "placements", None) or ())
    covered = {(row.entry, row.rank, st.group) for st in es.standings for row in st.rows}
    if not placements or all((p.entry, p.rank, p.group) in covered and not p.vacant for p in placements):
        return None
    spec = state.tournament.spec
    entries = {e.id: e for e in es.entries}
    team_event = es.spec.is_team
    grouped = any(p.group for p in placements)
    head = ["名次"] + (["组别"] if grouped else []) + ["队名" if team_event else "姓名", "单位"] \
        + (["队员"] if team_event else []) + ["名次依据"]
    rows = []
    for p in sorted(placements, key=lambda p: (p.group, p.rank)):
        e = entries.get(p.entry)
        # R2011-R1: a vacant place (its entry lost the match by not coming: 名次依据 says so)
        row = [str(p.rank) + ("（空缺）" if p.vacant else "（并列）" if p.tied else "")] + ([p.group] if grouped else [])
        row += [e.team if e else p.entry, entry_units(spec, e) if e else ""]
        if team_event:
            row.append(e.player_names if e else "")
        rows.append(row + [p.tier])
    align = ["center"] + (["center"] if grouped else []) + [""] * (len(head) - 1 - grouped)
    if not es.complete:
        return Table(head, rows, align, caption=CURRENT_ORDER_CAPTION, section=es.spec.name,
                     part=f"{es.spec.name} {CURRENT_ORDER}", label=CURRENT_ORDER)
    return Table(head, rows, align, caption="最终名次", section=es.spec.name,
                 part=f"{es.spec.name} 最终名次")


# --------------------------------------------------------------------------------------
# awards (获奖名单) and certificates (证书)
# --------------------------------------------------------------------------------------
@dataclass
class AwardsVM(Doc):
    """View-model of the award list (获奖名单)."""

    events: list[EventTables] = field(default_factory=list)
    branch_awards: Table | None = None
    person_awards: Table | None = None
    branch_totals: Table | None = None
    totals_note: str = ""       # a cross-unit pair's award counts for each of its units
    total_prize: str = ""
    awards_due: str = ""        # R2015-A1: the 评奖表 awards still to be decided (site_vm.awards_due_line)
    issuer: str = ""            # who publishes the list, under it (as the notice is signed)
    date: str = ""              # its date: the certificates' (award_date)
    toc: list[TocItem] = field(default_factory=list)    # 目录: an event a line, then 特别奖项 … (screen only)


def shared_places(awards: Iterable["AwardRow"]) -> set[tuple[str, str, int]]:
    """(event, group, place) that two or more award rows hold: a tie (the standings' 并列,
    ``Placement.tied``) — awards go by place, so the rows of one place are its tied entries."""
    seen = Counter((a.event, a.group, a.rank) for a in awards if a.rank)
    return {k for k, n in seen.items() if n > 1}


def award_place(a: "AwardRow", shared: Collection[tuple[str, str, int]]) -> str:
    """An award's place as the standings print it: ``11（并列）`` for a shared place (the award
    list and the event page printed a bare 11 twice), "" for an award given by no place.

    >>> from pipeline.state import AwardRow
    >>> award_place(AwardRow("d", "", "决赛参与奖", 11, "t", "u1", "t"), {("d", "", 11)})
    '11（并列）'
    """
    if not a.rank:
        return ""
    return f"{a.rank}（并列）" if (a.event, a.group, a.rank) in shared else str(a.rank)


def _event_name(spec: "TournamentSpec", key: str) -> str:
    ev = spec.event(key) if key else None
    return ev.name if ev else key


def awards_vm(state: "LeagueState") -> AwardsVM:
    """获奖名单: per event (and group) with prize amounts, branch awards (组织奖), and a
    union-wide table of awards and prize money per branch (R2020-A1, R2015-A1, R2011-A1).
    A group's award reads as its certificate does (A组第一名, :func:`.site_vm.group_award`);
    获奖统计 counts each award across the groups, under its own name (小组第一名), as the
    index does and awards.csv keeps it (its ``group`` column says the group)."""
    from .site_vm import awards_due_line, group_award

    spec = state.tournament.spec
    vm = AwardsVM(**vars(_doc(state, f"{spec.name} 获奖名单")))
    vm.awards_due = awards_due_line(state)
    # signed as the notice and the certificates are: a list leadership signs had no issuer
    vm.issuer, vm.date = spec.issuer, cn_date(award_date(state))
    order = {ev.id: i for i, ev in enumerate(spec.events)}
    by_event: "OrderedDict[str, list[AwardRow]]" = OrderedDict()
    for a in sorted(state.awards, key=lambda a: (order.get(a.event, len(order)), a.event, a.group, a.rank or 10**6)):
        by_event.setdefault(a.event, []).append(a)
    placed: list[tuple[int, EventTables]] = []
    # no prize money anywhere (certificates and 奖品 only): no 奖金 column of dashes
    money = any(a.prize for a in [*state.awards, *state.branch_awards])
    cash = ["奖金（元）"] if money else []
    shared = shared_places(state.awards)
    ids = Anchors()
    for event_id, rows in by_event.items():
        where = ids.take("ev", event_id)
        ev = spec.event(event_id)
        team_event = ev.is_team if ev else any(a.players and a.players != a.team for a in rows)
        groups = list(OrderedDict.fromkeys(a.group for a in rows))
        tables = []
        for g in groups:
            head = ["奖项", "名次", "队名" if team_event else "姓名", "单位"] + (["队员"] if team_event else []) + cash
            body = []
            for a in (r for r in rows if r.group == g):
                # a group's award by the certificate's name (R2016-A1: A组第一名, not 小组第一名)
                row = [group_award(a.group, a.award), award_place(a, shared), a.team, award_units(spec, a)]
                if team_event:
                    row.append(a.players)
                body.append(row + [yuan(a.prize)][:len(cash)])
            align = ["", "center", "", ""] + ([""] if team_event else []) + ["num"] * len(cash)
            name = _event_name(spec, event_id)
            tables.append(Table(head, body, align, caption=f"{g}组" if g else "", section=name,
                                part=f"{name} {g}组" if g else name, anchor=ids.take(where, g) if g else ""))
        placed.append((order.get(event_id, len(order)),
                       EventTables(_event_name(spec, event_id), "", same_widths(tables), anchor=where)))
    # an event without awards yet says why, in its place (a 加赛 to play, rounds to go)
    for ev in spec.events:
        es = state.events.get(ev.id)
        if ev.id not in by_event and es is not None and not es.complete:
            placed.append((order[ev.id], EventTables(ev.name, f"获奖名单待定：{sentence(es.waiting or '比赛尚未结束')}", [],
                                                     anchor=ids.take("ev", ev.id))))
    vm.events = [t for _, t in sorted(placed, key=lambda x: x[0])]
    personal = [a for a in state.branch_awards if a.entry or a.players]
    unit_awards = [a for a in state.branch_awards if not (a.entry or a.players)]
    if personal:       # R2015-A1 风尚奖, 潜力选手奖 …: to one player, named
        vm.person_awards = Table(["奖项", "获奖人", "项目", "单位", *cash],
                                 [[a.award, a.players, _event_name(spec, a.event), award_units(spec, a),
                                   *[yuan(a.prize)][:len(cash)]] for a in personal], ["", "", "", "", *["num"][:len(cash)]],
                                 section="特别奖项")
    if unit_awards:    # 组织奖: to a branch
        vm.branch_awards = Table(["奖项", "单位", *cash],
                                 [[a.award, award_units(spec, a), *[yuan(a.prize)][:len(cash)]] for a in unit_awards],
                                 ["", "", *["num"][:len(cash)]], section="单位奖项")
    # (a vacant place, R2011-R1, is listed under its event above and counted for nobody)
    everything = [a for a in list(state.awards) + list(state.branch_awards) if not a.vacant]
    if everything:
        # the configured order (第一名 第二名 第三名 …, R2011-R1: not first appearance, a vacant
        # 第二名 came after 第三名), the front page's too (site_vm.branch_totals)
        from ..score.awards import award_columns

        kinds = award_columns(spec, everything)
        head = [spec.unit_word] + kinds + ["合计"] + cash
        rows, total = [], 0
        for u in spec.units:
            # a cross-unit pair's award counts for each of its units, its money shared
            mine = [a for a in everything if u.id in a.unit_ids]
            if not mine:
                continue
            prize = sum(a.prize_share(u.id) for a in mine)
            total += prize
            rows.append([u.name] + [str(sum(1 for a in mine if a.award == k) or "") for k in kinds]
                        + [str(len(mine))] + [yuan(prize)][:len(cash)])
        rows.append(["总计"] + [str(sum(1 for a in everything if a.award == k)) for k in kinds]
                    + [str(len(everything))] + [yuan(total)][:len(cash)])
        vm.branch_totals = Table(head, rows, [""] + ["num"] * (len(head) - 1),
                                 [""] * (len(rows) - 1) + ["total"], caption=f"各{spec.unit_word}获奖统计",
                                 section="获奖统计")
        if any(len(a.unit_ids) > 1 for a in everything):
            vm.totals_note = shared_awards_note(spec.unit_word, bool(cash), total_row=True)
        vm.total_prize = yuan(sum(a.prize for a in everything))
    # the 目录 (its ids: templates/docs/awards.html's headings)
    vm.toc = [e.toc() for e in vm.events] + [
        TocItem(a, label) for a, label, t in (("person-awards", "特别奖项", vm.person_awards),
                                              ("unit-awards", "单位奖项", vm.branch_awards),
                                              ("totals", "获奖统计", vm.branch_totals)) if t]
    vm.toc = vm.toc if toc_worth(vm.toc) else []
    return vm


@dataclass
class Certificate:
    """One certificate (奖状): its recipient, award and wording."""

    recipient: str
    branch: str
    event: str
    award: str
    body: str            # 在……中荣获……。
    issuer: str
    date: str
    closing: str = "特发此证，以资鼓励。"     # a paragraph of its own, as certificates print it


@dataclass
class CertificatesVM(Doc):
    """View-model of the certificates document."""

    certificates: list[Certificate] = field(default_factory=list)


def award_date(state: "LeagueState") -> dt.date:
    """The date printed on certificates: the last session that has begun, else the date
    of the newest data (never ``now``, so nightly reruns do not change the documents)."""
    spec = state.tournament.spec
    past = [s.date for s in spec.sessions if s.date <= state.updated.date()]
    last = max((s.date for s in spec.sessions), default=None)
    if last and state.updated.date() >= last:
        return last
    return max(past) if past else state.updated.date()


def _contest(tournament: str, event: str) -> str:
    """The contest a certificate names (R2015-A1, a certificate for every award), without
    saying 比赛 twice: the tournament, 的, then the event's 比赛 (its 项目 when the
    tournament's name ends in 比赛).  Every event is joined with 的: only an event beginning
    with 中 had it (比赛中国象棋 reads 比赛中 / 国象棋), and T2011's certificates read
    “…比赛的中国象棋项目中” beside “…比赛斗地主项目中”.

    >>> _contest("第四届教职工棋牌联赛", "象棋"), _contest("2016年教职工扑克牌比赛", "扑克牌")
    ('第四届教职工棋牌联赛的象棋比赛', '2016年教职工扑克牌比赛')
    >>> _contest("教职工棋牌比赛", "桥牌"), _contest("棋牌比赛", "象棋团体赛")
    ('教职工棋牌比赛的桥牌项目', '棋牌比赛的象棋团体赛')
    >>> _contest("XX单位棋牌比赛", "中国象棋"), _contest("XX单位棋牌比赛", "斗地主")
    ('XX单位棋牌比赛的中国象棋项目', 'XX单位棋牌比赛的斗地主项目')
    >>> _contest("教职工棋牌联赛", "中国跳棋团体赛"), _contest("教职工棋牌比赛", "")
    ('教职工棋牌联赛的中国跳棋团体赛', '教职工棋牌比赛')
    """
    if not event or event in tournament:
        return tournament
    if event.endswith("赛"):
        return f"{tournament}的{event}"
    return f"{tournament}的{event}" + ("项目" if tournament.endswith("比赛") else "比赛")


def _award_entry(state: "LeagueState", a: "AwardRow") -> Entry | None:
    """The entry an award names: the event's own (a pair re-formed at check-in, R2016-F2, is
    one of the event's entries and no registration), else a registered one."""
    if not a.entry:
        return None
    es = state.events.get(a.event)
    found = next((e for e in es.entries if e.id == a.entry), None) if es is not None else None
    return found or state.entry(a.entry)


def certificates_vm(state: "LeagueState") -> CertificatesVM:
    """证书: one per award row (players of a pair share one certificate, named 甲、乙 — a pair
    re-formed at check-in too, R2016-F2) and one per branch award (R2015-A1 "certificates
    for every award").  The unit line names every player's unit: both units of a pair from
    two (R2015-Q2 cross-unit pairs, R2016-F2), the player's own for an organisers' award."""
    from .site_vm import group_award

    spec = state.tournament.spec
    vm = CertificatesVM(**vars(_doc(state, f"{spec.name} 获奖证书")))
    date = cn_date(award_date(state))
    issuer = spec.issuer
    for a in list(state.awards) + list(state.branch_awards):
        if a.vacant:        # R2011-R1: a vacant place has no certificate
            continue
        event = _event_name(spec, a.event)
        branch = award_units(spec, a)
        if a.entry or a.players:
            entry = _award_entry(state, a)
            if a in state.branch_awards and a.players:      # an organisers' award to one player
                people = a.players
            elif entry is not None and entry.players:       # a pair's or team's place: all of them
                people = "、".join(p.shown for p in entry.players)
            else:                                           # (awards.csv joins the players with /)
                people = "、".join(x for x in (a.players or a.team).split("/") if x) or a.team
            recipient = f"{people} 同志"
            where = _contest(spec.name, event)
        else:
            recipient = branch
            where = _contest(spec.name, "")
        award = group_award(a.group, a.award)
        body = f"在{where}中荣获{award}。"
        vm.certificates.append(Certificate(recipient, branch, event, award, body, issuer, date))
    return vm


# --------------------------------------------------------------------------------------
# bus manifest (R2016-Q2) and budget (R2011-B1, R2015-B1)
# --------------------------------------------------------------------------------------
@dataclass
class BusPoint:
    """One pickup point of the shuttle bus and who boards there."""

    name: str
    count: int
    table: Table


@dataclass
class BusVM(Doc):
    """View-model of the shuttle-bus list (乘车安排)."""

    points: list[BusPoint] = field(default_factory=list)
    by_branch: Table | None = None
    total: int = 0          # on the bus: at a pick-up point
    people: int = 0         # everyone registered
    own_way: int = 0        # 自行到达
    unfilled: int = 0       # no pick-up point given
    when: str = ""          # the match days and where (the bus goes there): 比赛日期 … ；地点 …
    no_pickup: str = "未填写"      # the manifest's column of those with no pick-up point (to be confirmed)
    unit_word: str = "单位"


NO_PICKUP = "未填写"
#: a "pick-up point" that is no bus stop: the person comes their own way (R2016-Q2 自行到达)
OWN_WAY = ("自行", "自驾", "不乘车")


def own_way(point: str) -> bool:
    """Whether ``point`` means no bus (``自行到达``, ``自驾``, ``不乘车`` …)."""
    return any(w in point for w in OWN_WAY)


def riders(entries: Iterable[Entry]) -> list[tuple[Person, list[str]]]:
    """Each person once (by identity key) with the events they play, in entry order."""
    seen: "OrderedDict[str, tuple[Person, list[str]]]" = OrderedDict()
    for e in entries:
        for p in e.players:
            if p.key in seen:
                if e.event not in seen[p.key][1]:
                    seen[p.key][1].append(e.event)
            else:
                seen[p.key] = (p, [e.event])
    return list(seen.values())


def bus_vm(state: "LeagueState") -> BusVM:
    """R2016-Q2 bus manifest: riders per pick-up point (with branch and phone) and a
    branch × pick-up point count table.  The riders' total leaves out those who come their
    own way (:func:`own_way`) and those who gave no pick-up point, each said apart."""
    spec = state.tournament.spec
    vm = BusVM(**vars(_doc(state, f"{spec.name} 班车乘车名单")), no_pickup=NO_PICKUP, unit_word=spec.unit_word or "单位")
    people = riders(state.entries)
    points = list(spec.pickup_points)
    for p, _ in people:
        name = p.pickup or NO_PICKUP
        if name not in points:
            points.append(name)
    unit_order = {u.id: i for i, u in enumerate(spec.units)}
    for point in points:
        mine = sorted((x for x in people if (x[0].pickup or NO_PICKUP) == point),
                      key=lambda x: (unit_order.get(x[0].branch, 999), x[0].shown))
        rows = [[str(i), p.shown, _unit_name(spec, p.branch), "、".join(_event_name(spec, e) for e in evs), p.phone]
                for i, (p, evs) in enumerate(mine, 1)]
        vm.points.append(BusPoint(point, len(mine),
                                  Table(["序号", "姓名", spec.unit_word, "项目", "联系电话"], rows,
                                        ["center", "", "", "", ""], section=point)))
    head = [spec.unit_word] + points + ["合计"]
    rows = []
    for u in spec.units:
        mine = [p for p, _ in people if p.branch == u.id]
        if not mine:
            continue
        rows.append([u.name] + [str(sum(1 for p in mine if (p.pickup or NO_PICKUP) == pt)) for pt in points]
                    + [str(len(mine))])
    rows.append(["合计"] + [str(bp.count) for bp in vm.points] + [str(len(people))])
    vm.by_branch = Table(head, rows, [""] + ["num"] * (len(head) - 1), [""] * (len(rows) - 1) + ["total"],
                         section="各乘车地点人数")
    vm.people = len(people)
    vm.own_way = sum(bp.count for bp in vm.points if own_way(bp.name))
    vm.unfilled = sum(bp.count for bp in vm.points if bp.name == NO_PICKUP)
    vm.total = vm.people - vm.own_way - vm.unfilled
    # where and when the buses go (the departure times are the office's: 另行通知, T2016)
    first: dict = {}
    for sess in sorted(spec.sessions, key=lambda x: (x.date, x.start)):
        first.setdefault(sess.date, sess)
    venues = list(dict.fromkeys(v for v in [x.venue or spec.venue for x in first.values()] or [spec.venue] if v))
    parts = []
    if first:
        parts.append("比赛日期：" + "、".join(f"{cn_date(d)}（{x.start:%H:%M} 开始）" for d, x in first.items()))
    if venues:
        parts.append("比赛地点：" + "、".join(venues))
    vm.when = "；".join(parts)
    return vm


@dataclass
class BudgetVM(Doc):
    """View-model of the budget (经费预算)."""

    table: Table | None = None
    by_source: Table | None = None
    total: str = ""


def _budget(spec: "TournamentSpec") -> tuple[list[tuple[str, int, str, int, int, str]], dict[str, int], int]:
    """(rows of (name, quantity, unit, unit price, total, source), total per source, grand
    total) from ``score.budget.budget_table`` (items and prize money), else from the spec's
    items alone (quantity × unit price)."""
    try:
        from ..score.budget import budget_table
    except ImportError:  # pragma: no cover - the score package always ships it
        budget_table = None
    if budget_table is not None:
        bt = budget_table(spec)
        rows = [(r.name, r.quantity, r.unit, r.unit_price, r.total, r.source) for r in bt.rows]
        return rows, dict(bt.by_source), bt.total
    rows = [(b.name, b.quantity, b.unit, b.unit_price, b.total, b.source) for b in spec.budget]
    by_source: dict[str, int] = {}
    for r in rows:
        by_source[r[5]] = by_source.get(r[5], 0) + r[4]
    return rows, by_source, sum(r[4] for r in rows)


def budget_vm(state: "LeagueState") -> BudgetVM:
    """Budget table (R2011-B1: items quantity × price plus prize money; T2011 total ¥1600)
    and the cost per funding source (R2015-B1)."""
    spec = state.tournament.spec
    vm = BudgetVM(**vars(_doc(state, f"{spec.name} 经费预算")))
    items, by_source, grand = _budget(spec)
    rows = [[str(i), name, f"{q}{unit}", f"{price:,}", f"{total:,}", src]
            for i, (name, q, unit, price, total, src) in enumerate(items, 1)]
    rows.append(["", "合计", "", "", f"{grand:,}", ""])
    head, align = ["序号", "项目", "数量", "单价（元）", "金额（元）", "经费来源"], ["center", "", "num", "num", "num", ""]
    sourced = any(by_source)
    if not sourced:          # no item names a source (T2011): no empty 经费来源 column
        head, align, rows = head[:-1], align[:-1], [r[:-1] for r in rows]
    vm.table = Table(head, rows, align, [""] * (len(rows) - 1) + ["total"])
    if sourced:
        srows = [[k or "未注明", f"{v:,}"] for k, v in by_source.items()] + [["合计", f"{grand:,}"]]
        vm.by_source = Table(["经费来源", "金额（元）"], srows, ["", "num"], [""] * len(by_source) + ["total"])
    vm.total = f"{grand:,}"
    return vm


def has_pickups(state: "LeagueState") -> bool:
    """True when the tournament runs a bus (pick-up points in the spec or on any player)."""
    return bool(state.tournament.spec.pickup_points) or any(p.pickup for e in state.entries for p in e.players)


def published_rounds(state: "LeagueState") -> list[tuple[str, Round]]:
    """(event id, round) of every published round, in spec and round order."""
    out = []
    for ev in state.tournament.spec.events:
        es = state.events.get(ev.id)
        if es:
            out.extend((ev.id, r) for r in sorted(es.rounds, key=lambda r: r.round))
    return out


__all__ = [
    "Table", "Doc", "Section", "NoticeVM", "DrawVM", "Card", "CardsVM", "StandingsVM", "EventTables",
    "AwardsVM", "Certificate", "CertificatesVM", "BusVM", "BusPoint", "BudgetVM",
    "notice_vm", "draw_vm", "cards_vm", "standings_vm", "standing_table", "awards_vm", "certificates_vm",
    "bus_vm", "budget_vm", "quota_entries", "quota_rule_text", "cn_number", "cn_date", "cn_datetime",
    "award_date", "riders", "has_pickups", "published_rounds", "round_label", "seat_labels", "number_span",
    "boards_of", "match_titles", "table_caption",
]
