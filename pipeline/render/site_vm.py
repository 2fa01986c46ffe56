"""View-models of the leadership site: plain frozen objects built from a LeagueState.

Everything a page shows is decided here (labels, links, order, which picture); the
templates only loop.  Pure: no file I/O and no wall clock — the same state gives the
same view-models, so the site is byte-identical from run to run.

Pages (contract: "index.html … events, progress, standings, brackets (drawn as pictures),
awards, per-branch status"; "Per branch: a validation report (HTML)"):

- :func:`index_vm` → ``index.html``
- :func:`event_vm` → ``events/<event_id>.html``
- :func:`branch_vm` → ``branches/<unit_id>.html``
"""
from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable
from urllib.parse import quote

from ..issues import Issue, unlocated
from ..layout import FINAL_PLACES, WITHDRAWN_BYE_NO_ADVANCE, WITHDRAWN_WALKOVER
from ..mailname import hash_named
from ..model import WALKOVER, Entry, Match, MatchResult, Outcome, Round, Severity
from ..state import LATE_VALID, forms_still_count
from ..timeutil import TZ, aware, cn_datetime
from . import svg
from .anchors import Anchors, TocItem, toc_worth
from .viewmodels import current_order_note, entry_units, match_titles, shared_awards_note, table_caption

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..state import AwardRow, EventState, LeagueState, StandingTable, Submission
    from ..spec import TournamentSpec

# ----------------------------------------------------------------------------- labels

SEVERITY_LABEL = {"error": "错误", "warning": "警告", "info": "提示"}
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}

STATUS_LABEL = {
    "accepted": "已接受",
    "rejected": "未接受",
    "superseded": "已被新版本取代",
    "unreadable": "无法读取",
    "late": "逾期",
}

#: short Chinese names of the issue codes, shown next to the code
CODE_LABEL = {
    "QUOTA_EXCEEDED": "超出名额",
    "QUOTA_SHORT": "名额未报满",
    "MULTI_EVENT": "一人多项",
    "DUPLICATE_PERSON": "人员重复",
    "TEAM_INCOMPLETE": "队伍人数不全",
    "PARTNER_CHANGED": "搭档变更",
    "SIGNATURE_UNCLEAR": "签名待核实",
    "UNKNOWN_EVENT": "未知项目",
    "EVENT_CANCELLED": "项目已取消",
    "UNKNOWN_BRANCH": "未知单位",
    "MISSING_VALUE": "缺少内容",
    "BAD_VALUE": "内容有误",
    "LATE_SUBMISSION": "逾期提交",
    "WRONG_BRANCH": "单位不符",
    "UNREADABLE_FILE": "文件无法读取",
    "RECEIVED_COPY_LOST": "保存的副本丢失",
    "TEMPLATE_MISMATCH": "模板不符",
    "TOURNAMENT_ID_MISMATCH": "赛事编号不符",
    "RESULT_CONFLICT": "成绩冲突",
    "RESULT_INVALID": "成绩无效",
    "DRAWN_ELSEWHERE": "抽签记录缺失",
    "ROUND_NOT_DRAWN": "轮次未抽签",
    "RESULT_SHEET_BLANK": "空白成绩表",
    "RESULT_SIGNED_BLANK": "已签名未填成绩",
    "PLAYOFF_REQUIRED": "需要加赛",
    "SUPERSEDED": "已被取代",
    "SENDER_UNKNOWN": "发件人未登记",
    "OTHER_UNITS_FORM": "他单位的报名表",
    "SHEET_RENAMED": "工作表被改名",
    "RESULT_MISSING": "等待成绩",
    "DRAW_INPUT_CHANGED": "抽签后数据变更",
    "RESULTS_REWRITTEN": "一轮成绩大半被改",
    "NO_ATTACHMENT": "邮件无附件",
    "TOTAL_MISMATCH": "合计不符",
    "DUPLICATE_FILE": "重复文件",
    "MAIL_DATE": "邮件时间不明",
    "TOO_FEW_ENTRIES": "报名不足",
    "ROUNDS_CAPPED": "轮数过多",
    "PDF_NOT_MADE": "PDF未生成",
    "HEADER_CHANGED": "表头被改动",
    "INBOX_MISSING": "没有收件箱",
    "FORMAT_CHANGED": "赛制被改动",
    "PLACES_KEPT": "名次保持公布时",
    "PLACES_CHANGED": "公布后名次有变",
    "UNIT_RENAMED": "单位改名",
    "SPEC_EDITED": "赛事配置有改动",
    "WITHDRAWAL_UNMATCHED": "退赛名单有误",
    "EMPTY_FORM": "空白报名表",
    "SAME_TIME": "同时收到两份",
    "PEOPLE_DROPPED": "新表少了人",
    "NAME_CONVERTED": "按简体核对姓名",
    "RESULT_READ_AS": "成绩按通行写法读取",
    "TERMS_CHANGED": "报名条件被改动",
    "SESSION_PASSED": "比赛场次已过",
    "SCORING_CHANGED": "计分办法被改动",
    "FILE_BEING_WRITTEN": "文件正在写入",
    "PARTIAL_DOWNLOAD": "未下载完成的临时文件",
    "CLOCK_BEHIND": "运行时间早于已公布的抽签",
    "CLOCK_WAS_AHEAD": "早先一次运行的时钟超前",
    "DEADLINE_MISSING": "项目未设报名截止时间",
    "INBOX_LINK": "链接未读取",
    "RESULT_ON_OTHER_SHEET": "成绩填错工作表",
    "RESULT_LEFT_BLANK": "重发的成绩表漏填",
    "AUTO_REPLY": "自动回复/回复回执",
    "MAIL_BOUNCED": "退信",
    "ADDRESS_BOUNCED": "回执被退回",
    "OWN_MAIL": "本系统发出的回执或标注副本",
    "CHECKIN_FORM_UPDATED": "签到表已更新",
    "DOUBLE_BOOKED": "同一场次两处上桌",
    "PLACE_VACANT": "名次空缺（弃权）",
}

OUTCOME_LABEL = {
    Outcome.WIN: "胜", Outcome.LOSS: "负", Outcome.DRAW: "和", Outcome.BYE: "轮空",
    Outcome.FORFEIT_WIN: "不战胜", Outcome.FORFEIT_LOSS: "弃权", Outcome.ABSENT: "缺席",
}

#: fallback Chinese names of tiebreaks (the registry's ``title`` wins when it has one)
TIEBREAK_LABEL = {
    "direct": "直胜", "direct_encounter": "直胜", "head_to_head": "直胜",
    "wins": "胜局数", "buchholz": "对手分", "buchholz_cut1": "对手分(去最低)",
    "sonneborn_berger": "SB分", "progressive": "累进分", "black_wins": "后手胜局",
    "game_points": "总局分", "total_score": "总分", "score": "总分", "playoff": "加赛",
}

UNASSIGNED = "_.unassigned"   # page of issues/submissions without a branch (ids have no dot)
UNASSIGNED_NAME = "未归属单位的文件"


def fmt_time(t: dt.datetime | None, deadlines: Iterable[dt.datetime | None] = ()) -> str:
    """China time as ``2020年11月9日 15:00`` (naive times are already China time); a received
    time in the minute of one of ``deadlines`` with its seconds, ``15:00:30`` (R2020-Q4:
    :func:`pipeline.timeutil.clock`)."""
    if t is None:
        return ""
    return cn_datetime(aware(t).astimezone(TZ), tuple(deadlines))


def href(path: str, prefix: str = "") -> str:
    """A relative link to an output file, percent-encoded (Chinese names, spaces).

    >>> href("returned/机关 v2.xlsx", "../")
    '../returned/%E6%9C%BA%E5%85%B3%20v2.xlsx'
    """
    return prefix + quote(path.replace("\\", "/").lstrip("/"), safe="/")


def location(i: Issue) -> str:
    """``报名表!E12`` or the sheet / file alone."""
    if i.sheet and i.cell:
        return f"{i.sheet}!{i.cell}"
    return i.sheet or i.cell


def _issue_key(i: Issue) -> tuple:
    m = re.match(r"([A-Z]+)(\d+)", i.cell or "")
    cell = (int(m.group(2)), len(m.group(1)), m.group(1)) if m else (0, 0, i.cell)
    return (SEVERITY_ORDER.get(str(i.severity), 9), i.file, i.sheet, cell, i.code, i.message)


def tiebreak_label(name: str) -> str:
    """Chinese column title of a tiebreak: registry ``title``, a Chinese alias, or our table."""
    try:
        from ..score import TIEBREAKS
        if name in TIEBREAKS:
            obj = TIEBREAKS.get(name)
            title = getattr(obj, "title", "")
            if isinstance(title, str) and title:
                return title
            for alias in TIEBREAKS.aliases(TIEBREAKS.canonical(name)):
                if any("\u4e00" <= c <= "\u9fff" for c in alias):
                    return alias
    except Exception:   # noqa: BLE001 — a label must never break the site
        pass
    return TIEBREAK_LABEL.get(name, name)


def _playoff_places(t: "StandingTable", word: str = "人") -> dict[tuple[str, str], str]:
    """(playoff column, entry) → ``3人中第k``: a 加赛's value is a sort key (the number of the
    playoff's players placed below the entry), and 加赛 2 beside 加赛 1 read as the second
    place winning (R2011-F1); 第1名 beside a 6th place read as first place.  The players of
    one playoff are the rows level before it; a row in no playoff played shows ``—``.
    ``word`` counts the entries (:func:`.viewmodels.playoff_word`): ``2对中第1`` for pairs."""
    try:
        from ..score import TIEBREAKS
        playoff_cols = [k for k, c in enumerate(t.chain) if c in TIEBREAKS and getattr(TIEBREAKS.get(c), "is_playoff", False)]
    except Exception:   # noqa: BLE001 — a label must never break the site
        return {}
    out: dict[tuple[str, str], str] = {}
    for k in playoff_cols:
        c = t.chain[k]
        level: dict[tuple, list] = {}
        for r in t.rows:
            if c in r.tiebreaks:
                level.setdefault((r.points, *(r.tiebreaks.get(x) for x in t.chain[:k])), []).append(r)
        for rows in level.values():
            # no playoff: a row level with none, or rows whose playoff is not played (all
            # equal) — every row of every table said 第1名 (the rows carry the key, 0, all)
            played = len(rows) > 1 and len({x.tiebreaks[c] for x in rows}) > 1
            for r in rows:
                out[(c, r.entry)] = (f"{len(rows)}{word}中第{1 + sum(1 for x in rows if x.tiebreaks[c] > r.tiebreaks[c])}"
                                     if played else "—")
    return out


def _tiebreak_scale(name: str) -> int:
    """Divisor for showing a scaled integer tiebreak (``TIEBREAK_SCALE`` in score.base,
    an int or a name → int map, when the score package defines it)."""
    from .. import score
    from ..score import base as score_base
    scale = getattr(score, "TIEBREAK_SCALE", None) or getattr(score_base, "TIEBREAK_SCALE", 1)
    if isinstance(scale, dict):
        scale = scale.get(name, 1)
    return scale if isinstance(scale, int) and scale > 0 else 1


def show_scaled(value: int, scale: int) -> str:
    """``show_scaled(5, 2) == "2.5"``; ``show_scaled(4, 2) == "2"``."""
    if scale == 1:
        return str(value)
    whole, rest = divmod(value, scale)
    if not rest:
        return str(whole)
    return f"{value / scale:.2f}".rstrip("0").rstrip(".")


# ----------------------------------------------------------------------------- shared look-ups


class Names:
    """Entry and unit labels for one state (team label, branch short name)."""

    def __init__(self, state: "LeagueState") -> None:
        self.spec = state.tournament.spec
        self.units = {u.id: u for u in state.tournament.spec.units}
        self.entries: dict[str, Entry] = {e.id: e for e in state.entries}
        for es in state.events.values():
            for e in es.entries:
                self.entries.setdefault(e.id, e)
        self._team: dict[str, str] = {}
        self._players: dict[str, str] = {}
        self._branch: dict[str, str] = {}

    def unit(self, unit_id: str) -> str:
        u = self.units.get(unit_id)
        return (u.short or u.name) if u else unit_id

    def unit_full(self, unit_id: str) -> str:
        u = self.units.get(unit_id)
        return u.name if u else unit_id

    def unit_id(self, branch: str) -> str:
        """Unit id of an awards/branch label that may be an id, a name or a short name."""
        if branch in self.units:
            return branch
        for u in self.units.values():
            if branch in (u.name, u.short):
                return u.id
        return branch

    # each entry's labels are made once: the pages name an entry in every round it played
    def team(self, entry_id: str) -> str:
        got = self._team.get(entry_id)
        if got is None:
            e = self.entries.get(entry_id)
            got = self._team[entry_id] = (e.team or self.players(entry_id) or entry_id) if e else entry_id
        return got

    def players(self, entry_id: str) -> str:
        got = self._players.get(entry_id)
        if got is None:
            e = self.entries.get(entry_id)
            got = self._players[entry_id] = e.player_names if e else ""
        return got

    def branch(self, entry_id: str) -> str:
        got = self._branch.get(entry_id)
        if got is None:
            e = self.entries.get(entry_id)
            # (a cross-branch or re-formed pair: every player's unit, as its draw sheet says)
            got = self._branch[entry_id] = entry_units(self.spec, e) if e else ""
        return got


# ----------------------------------------------------------------------------- page chrome


@dataclass(frozen=True)
class Page:
    """What every page needs: titles, the "data as of" line, the way back to the index."""

    tournament: str
    title: str
    updated: str
    script: str
    root: str          # "" on index.html, "../" below


def _page(state: "LeagueState", title: str, root: str) -> Page:
    spec = state.tournament.spec
    # the newest data's time only, never the clock: an unchanged night must leave the
    # site byte-identical (tests/hardening/test_rerun.py)
    updated = fmt_time(state.updated)
    return Page(tournament=spec.name, title=title, updated=updated, script=spec.script, root=root)


# ----------------------------------------------------------------------------- events: stages


def _text(*parts: str) -> str:
    return " ".join(p for p in parts if p).lower()


def _format_stage(rounds: list[Round], format_type: str) -> tuple[str, str] | None:
    """(kind, label) of a stage as the event's format says it (``stage_kind`` of each format
    in :mod:`pipeline.draw`), or None: no format given, or one that does not say."""
    if not format_type or not rounds:
        return None
    from ..draw import FORMATS

    if format_type not in FORMATS:
        return None
    says = getattr(FORMATS.get(format_type), "stage_kind", None)
    return says(rounds) if says is not None else None


def stage_kind(rounds: list[Round], format_type: str = "") -> str:
    """How to draw a stage: ``tables`` (3-player tables), ``knockout``, ``groups``,
    ``round_robin`` or ``swiss`` (a list of rounds).  The event's format says it (R2015-F1:
    a 双人赛's Berger rounds, named 双人赛第N轮, were guessed a Swiss); without one, by the
    stage's names first, then by its shape, then by the format type's words.

    >>> from pipeline.model import Match, Round
    >>> m = Match("x", "ko", 1, "", 1, ("a", "b"))
    >>> stage_kind([Round("x", "ko", "淘汰赛", 1, (m,))])
    'knockout'
    >>> stage_kind([Round("x", "pairs", "双人赛第1轮", 1, (m,), plan={"kind": "rr"})], "pairs_movement")
    'round_robin'
    """
    said = _format_stage(rounds, format_type)
    if said is not None:
        return said[0]
    if any(len(m.sides) >= 3 for r in rounds for m in r.matches):
        return "tables"
    names = _text(rounds[0].stage, rounds[0].stage_name)
    for kind, words in (("swiss", ("瑞士", "swiss")),
                        ("round_robin", ("循环", "round_robin", "robin")),
                        ("groups", ("小组", "分组", "group")),
                        ("knockout", ("淘汰", "knockout", "晋级", "半决赛", "决赛", "复活", "ko"))):
        if any(w in names for w in words):
            return kind
    if rounds[0].stage.lower() in ("rr", "pool", "final_pool"):
        return "round_robin"
    if len({m.group for r in rounds for m in r.matches if m.group}) > 1:
        return "groups"
    if len(rounds) > 1:
        sets = [r.entries() for r in rounds]
        if all(sets[i + 1] < sets[i] for i in range(len(sets) - 1)):
            return "knockout"
        return "swiss"
    ft = format_type.lower()
    if any(w in ft for w in ("knockout", "淘汰", "ko")):
        return "knockout"
    if any(w in ft for w in ("robin", "循环")):
        return "round_robin"
    return "swiss"


def stage_label(rounds: list[Round], format_type: str = "") -> str:
    """The small label beside a stage's heading: its kind as the format names it (循环赛 for
    a 双人赛, 积分编排赛 for a Swiss), else :data:`KIND_LABEL` of :func:`stage_kind`."""
    said = _format_stage(rounds, format_type)
    return said[1] if said is not None else KIND_LABEL[stage_kind(rounds, format_type)]


_ROUND_NO = re.compile(r"第\s*[\d一二三四五六七八九十]+\s*轮")


def stage_heading(rounds: list[Round], label: str) -> str:
    """A stage's heading: the name its rounds share without their round numbers (双人赛 over
    双人赛第1轮 … 第7轮, which it was titled by its first round), else ``label`` (the kind:
    淘汰赛 over 第1轮淘汰赛（22进11）, 第2轮淘汰赛（11进6）).

    >>> from pipeline.model import Round
    >>> stage_heading([Round("x", "pairs", f"双人赛第{k}轮", k, ()) for k in (1, 2)], "循环赛")
    '双人赛'
    >>> stage_heading([Round("x", "ko", n, k, ()) for k, n in ((1, "第1轮淘汰赛（8进4）"), (2, "第2轮淘汰赛（4进2）"))], "淘汰赛")
    '淘汰赛'
    """
    names = {_ROUND_NO.sub("", r.stage_name).strip() for r in rounds}
    return names.pop() if len(names) == 1 and "" not in names else label


def split_stages(rounds: list[Round]) -> list[list[Round]]:
    """Consecutive rounds of one stage id, in round order."""
    out: list[list[Round]] = []
    for r in sorted(rounds, key=lambda r: r.round):
        if out and out[-1][0].stage == r.stage:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def round_complete(es: "EventState", rnd: Round) -> bool:
    return all(m.bye or m.key in es.results for m in rnd.matches)


def _score_text(r: MatchResult | None, i: int) -> str:
    if r is None or i >= len(r.sides):
        return ""
    s = r.sides[i]
    if s.outcome.played:
        return str(s.score) if (s.score or any(x.score for x in r.sides)) else OUTCOME_LABEL[s.outcome]
    return OUTCOME_LABEL[s.outcome]


def _advancing(m: Match, r: MatchResult | None) -> tuple[str, ...]:
    from ..draw import bye_unscored

    if m.bye:       # (not a 晋级签 its entry withdrew from before the round was played)
        return () if bye_unscored(m, r) else tuple(m.sides)
    if r is None:
        return ()
    w = r.winner()
    return (w,) if w else ()


# ----------------------------------------------------------------------------- bracket


def _stage_title(rounds: list[Round], es: "EventState", rnd: Round) -> str:
    title = f"第{rnd.round}轮"
    if rnd.stage_name and len(rounds) == 1:
        title = rnd.stage_name if "轮" in rnd.stage_name else f"{rnd.stage_name}·{title}"
    return title


def _match_box(m: Match, es: "EventState", names: Names,
               titles: dict[tuple, str] | None = None) -> svg.BracketBox:
    r = es.results.get(m.key)
    adv = _advancing(m, r)
    lines = []
    for i, sid in enumerate(m.sides):
        lines.append(svg.BoxLine(text=names.team(sid), note=names.branch(sid),
                                 score="" if m.bye else _score_text(r, i),
                                 bold=sid in adv and (m.bye or r is not None), key=sid))
    if m.bye:
        from ..draw import bye_unscored

        if bye_unscored(m, r):
            # handbook 缺席、弃权和退赛: a 晋级签 (or a walkover) its entry withdrew from before
            # the round was complete — it goes no further
            caption = WITHDRAWN_WALKOVER if m.walkover else WITHDRAWN_BYE_NO_ADVANCE
        else:
            # R2011-R1: a walkover (its opponent's match forfeited by both) says so, not 晋级签
            caption = m.note if m.walkover else "轮空（晋级签）"
        kind = "bye"
    else:
        caption = table_caption(m, titles or {}, " ")      # (三四名决赛 第2桌, R2011-F2: not 三四名组)
        kind = "match"
    return svg.BracketBox(key="/".join(map(str, m.key)), lines=tuple(lines), kind=kind,
                          caption=caption, advancing=adv)


def _pool_name(rounds: list[Round]) -> str:
    """The final round robin as one box shows it: its name without a round's number (the
    box shows the pool's totals, not its first round: it read 决赛循环赛第1轮).

    >>> r = [Round("x", "final", f"决赛循环赛第{k}轮", 3 + k, ()) for k in (1, 2, 3)]
    >>> _pool_name(r), _pool_title(r), _pool_title(r[:1])
    ('决赛循环赛', '决赛循环赛（第4–6轮）', '决赛循环赛（第4轮）')
    """
    return re.sub(r"第\d+轮$", "", rounds[0].stage_name or "") or "循环赛"


def _pool_title(rounds: list[Round]) -> str:
    first, last = rounds[0].round, rounds[-1].round
    return f"{_pool_name(rounds)}（第{first}{'' if first == last else f'–{last}'}轮）"


def _pool_box(rounds: list[Round], es: "EventState", names: Names, key: str) -> svg.BracketBox:
    members = sorted({s for r in rounds for m in r.matches for s in m.sides})
    table = next((t for t in es.standings if t.stage == rounds[0].stage), None)
    rank = {row.entry: row for row in table.rows} if table else {}
    members.sort(key=lambda e: (rank[e].rank if e in rank else 999, e))
    done = all(round_complete(es, r) for r in rounds)
    lines = tuple(svg.BoxLine(text=names.team(e), note=names.branch(e),
                              score=(f"{rank[e].points}分" if e in rank else ""),
                              bold=done and e in rank and rank[e].rank == 1, key=e) for e in members)
    return svg.BracketBox(key=key, lines=lines, kind="pool", caption=_pool_name(rounds) + ("（总积分）" if done else "（目前积分）"))


def project_knockout(advancers: int, final_pool: int) -> list[tuple[int, int]]:
    """(matches, byes) of each knockout round still to draw, halving with a bye for an
    odd count until at most ``final_pool`` remain (R2020-F1 generalised).

    >>> project_knockout(22, 3)
    [(11, 0), (5, 1), (3, 0)]
    """
    out = []
    n = advancers
    while n > max(1, final_pool):
        out.append((n // 2, n % 2))
        n = n // 2 + n % 2
    return out


def bracket_columns(es: "EventState", chain: list[list[Round]], pool: list[Round] | None,
                    names: Names, project: bool) -> list[svg.BracketColumn]:
    """Columns of one bracket: each knockout/tables round, then the final round robin (one
    pool box), then — when ``project`` — the rounds not drawn yet as 待定 boxes."""
    cols: list[svg.BracketColumn] = []
    for stage_rounds in chain:
        for rnd in stage_rounds:
            titles = match_titles(es.spec.format.type, rnd)
            boxes = tuple(_match_box(m, es, names, titles)
                          for m in sorted(rnd.matches, key=lambda m: (m.bye, m.group, m.table)))
            cols.append(svg.BracketColumn(_stage_title(stage_rounds, es, rnd), boxes))
    if pool:
        cols.append(svg.BracketColumn(_pool_title(pool), (_pool_box(pool, es, names, "pool"),)))
    elif project and cols and all(len(b.lines) <= 2 for c in cols for b in c.boxes):
        final_pool = es.spec.format.options.get("final_pool", 1)
        final_pool = final_pool if isinstance(final_pool, int) and final_pool > 0 else 1
        n = len(cols[-1].boxes)           # one entry leaves each match or bye
        last_round = chain[-1][-1].round
        k = 0
        for matches, byes in project_knockout(n, final_pool):
            k += 1
            boxes = [svg.BracketBox(f"p{k}-{i}", (svg.BoxLine("待定"), svg.BoxLine("待定")), "projected")
                     for i in range(matches)]
            boxes += [svg.BracketBox(f"p{k}-b{i}", (svg.BoxLine("待定"),), "projected", caption="轮空")
                      for i in range(byes)]
            cols.append(svg.BracketColumn(f"第{last_round + k}轮（待抽签）", tuple(boxes)))
            n = matches + byes
        if final_pool > 1 and n > 1:
            cols.append(svg.BracketColumn("决赛循环赛（待定）", (svg.BracketBox(
                "pool", tuple(svg.BoxLine("待定") for _ in range(n)), "projected"),)))
    return cols


# ----------------------------------------------------------------------------- event page


@dataclass(frozen=True)
class SideVM:
    """One side of a match as the event page shows it."""

    team: str
    branch: str
    players: str
    result: str
    winner: bool


@dataclass(frozen=True)
class MatchVM:
    """One match (table) of a round as the event page shows it."""

    table: str
    sides: tuple[SideVM, ...]
    bye: bool
    pending: bool
    note: str


@dataclass(frozen=True)
class RoundVM:
    """One round of an event page: its title and matches."""

    title: str
    session: str
    status: str
    notes: tuple[str, ...]
    matches: tuple[MatchVM, ...]
    anchor: str = ""        # its id on the page: r<round number> (:mod:`.anchors`)
    no: int = 0             # its round number (第N轮 in the page's 目录)


@dataclass(frozen=True)
class StandingRowVM:
    """One row of a standings table on the site."""

    rank: str
    team: str
    branch: str
    players: str
    played: int
    record: str
    points: int
    tiebreaks: tuple[str, ...]
    playoff: bool
    withdrawn: bool = False     # the office withdrew it (tournament.yaml): 已退赛, as the 成绩册 notes


@dataclass(frozen=True)
class StandingVM:
    """One standings table on the site (a stage or a group)."""

    title: str
    tiebreaks: tuple[str, ...]
    rows: tuple[StandingRowVM, ...]
    anchor: str = ""        # its id on the page: g-<stage>-<group> (:mod:`.anchors`)
    label: str = ""         # its link in the page's 目录: A组 where the event's tables share a stage


@dataclass(frozen=True)
class StageVM:
    """One stage of an event page: its rounds, standings and bracket."""

    title: str
    kind: str
    kind_label: str
    svg: str                 # an inline <svg> (bracket) or ""
    rounds: tuple[RoundVM, ...]
    anchor: str = ""         # its section's id: st-<stage id> (:mod:`.anchors`)


@dataclass(frozen=True)
class AwardVM:
    """One award line on the site: the award and place, the holder (team, players), their branch and the prize."""

    award: str
    rank: str           # the place as the standings print it: 11（并列） (viewmodels.award_place)
    team: str
    branch: str
    players: str
    prize: str


@dataclass(frozen=True)
class EventPage:
    """View-model of ``events/<id>.html``."""

    page: Page
    id: str
    name: str
    format_title: str
    status: str
    complete: bool
    entry_count: int
    brackets: tuple[str, ...]
    stages: tuple[StageVM, ...]
    standings: tuple[StandingVM, ...]
    awards: tuple[AwardVM, ...]
    facts: tuple[tuple[str, str], ...]
    rounds: tuple[DocLink, ...] = ()
    #: 目录 (audit 38: a 3.5 MB page of eight groups and 49 rounds, nothing to jump to): the
    #: page's sections (ids fixed in templates/site/event.html), each group's table, each
    #: stage with its rounds; empty with less than two places to go
    toc: tuple[TocItem, ...] = ()
    #: under 当前排名 while the event is played: up to which round its tables stand and what
    #: 加赛 is still to come (:func:`.viewmodels.current_order_note`, handbook 五, audit 41)
    order_note: str = ""


KIND_LABEL = {"tables": "分桌赛", "knockout": "淘汰赛", "groups": "小组赛",
              "round_robin": "循环赛", "swiss": "积分编排赛"}


def _match_note(m: Match, r: "MatchResult | None", worth: str, unscored: str = "") -> str:
    """A match's note on the event page: its own, else its result's reason; a bye that
    scores says what it counts (``worth``) instead of repeating 轮空, and one that does not,
    its entry withdrawn before the round was played, says so (``unscored``:
    :func:`.viewmodels.unscored_bye_note`) in their place."""
    from ..draw import bye_unscored

    if bye_unscored(m, r):
        return unscored
    note = m.note or (r.reason if r else "")
    if m.bye and worth:
        return worth if note in ("", "轮空") else f"{note}；{worth}"
    return note


def _round_vm(es: "EventState", rnd: Round, names: Names, anchor: str = "") -> RoundVM:
    """One round on the event page.  A bye that counts points says how many, as the draw
    sheet and the standings do (R2016-S1: 轮空按52分计); a knockout's 晋级签 says none
    (:func:`.viewmodels.bye_worth`)."""
    from ..draw import bye_unscored
    from .viewmodels import WITHDRAWN_MARK, unscored_bye_note, withdrawn_at_tables, withdrawn_notes

    matches = []
    worth = ""
    if any(m.bye for m in rnd.matches):
        from .viewmodels import bye_worth

        worth = bye_worth(es, rnd)
    # a withdrawn entry's table still to be entered (as 弃权), as its draw sheet marks it
    gone = withdrawn_at_tables(es, rnd)
    titles = match_titles(es.spec.format.type, rnd)       # R2011-F2: 决赛 / 三四名决赛
    told = withdrawn_notes(rnd, gone, names.team, titles) if gone else {}
    for m in sorted(rnd.matches, key=lambda m: (m.group, m.bye, m.table)):
        r = es.results.get(m.key)
        adv = _advancing(m, r)
        walk = m.walkover           # R2011-R1: a knockout's walkover, shown as one (not 轮空)
        off = bye_unscored(m, r)    # (a bye or walkover its entry withdrew from: marked too)
        marked = gone | set(m.sides) if off else gone
        sides = tuple(SideVM(team=names.team(s) + (WITHDRAWN_MARK if s in marked else ""), branch=names.branch(s),
                             players=names.players(s), result=(WALKOVER if walk else "轮空") if m.bye else _score_text(r, i),
                             winner=s in adv and (m.bye or r is not None))
                      for i, s in enumerate(m.sides))
        table = (WALKOVER if walk else ((f"{m.group}组 " if m.group else "") + "轮空")) if m.bye \
            else table_caption(m, titles, " ")
        note = _match_note(m, r, worth, unscored_bye_note(es, rnd, m) if off else "")
        if r is None and m.key in told:
            note = "；".join(x for x in (note, f"已退赛，按弃权填写“{told[m.key][1]}”") if x)
        matches.append(MatchVM(table=table, sides=sides, bye=m.bye,
                               pending=not m.bye and r is None, note=note))
    done = round_complete(es, rnd)
    played = sum(1 for m in rnd.matches if not m.bye and m.key in es.results)
    total = sum(1 for m in rnd.matches if not m.bye)
    status = "已完成" if done else f"已录入 {played}/{total} 场成绩"
    title = rnd.title
    return RoundVM(title=title, session=es.session_of_round.get(rnd.round, ""), status=status,
                   notes=tuple(rnd.notes), matches=tuple(matches), anchor=anchor, no=rnd.round)


def standing_vms(tables: Iterable["StandingTable"], names: Names, es: "EventState | None" = None,
                 ids: Anchors | None = None) -> tuple[StandingVM, ...]:
    """Standings tables with the tiebreak chain as extra columns, in the chain's order; a
    row's record names the byes that scored (``es``: its event): 2胜0和2负 beside 积分 6
    did not add up (a Swiss bye's 2 points); an entry the office withdrew is marked 已退赛,
    as the 成绩册's 备注 does (:func:`.viewmodels.standing_table`).  Rows in the table's own
    order, the 成绩册's and standings.csv's."""
    from .viewmodels import playoff_word, scored_byes

    out = []
    word = playoff_word(es) if es is not None else "人"
    tables = list(tables)
    ids = ids or Anchors()
    one_stage = len({t.stage for t in tables}) == 1
    for t in tables:
        byes = scored_byes(es, t) if es is not None else {}
        title = t.stage_name or t.stage
        if t.group:
            title += f" {t.group}组"
        scales = [_tiebreak_scale(c) for c in t.chain]
        places = _playoff_places(t, word)
        rows = []
        # the standings' order, as the 成绩册 and standings.csv list the rows: entries still
        # tied share a rank in it by entry id (the site sorted them by name: T2016 A组's 6th
        # place read in another order on the event page than on paper)
        for row in t.rows:
            record = f"{row.wins}胜{row.draws}和{row.losses}负" + (f"，轮空{byes[row.entry]}" if byes.get(row.entry) else "")
            rows.append(StandingRowVM(
                rank=str(row.rank), team=names.team(row.entry), branch=names.branch(row.entry),
                players=names.players(row.entry) if names.players(row.entry) != names.team(row.entry) else "",
                played=row.played, record=record, points=row.points,
                tiebreaks=tuple(places.get((c, row.entry)) or (show_scaled(row.tiebreaks[c], s) if c in row.tiebreaks else "—")
                                for c, s in zip(t.chain, scales)),
                playoff=row.playoff_required, withdrawn=es is not None and row.entry in es.withdrawn))
        out.append(StandingVM(title=title, tiebreaks=tuple(tiebreak_label(c) for c in t.chain),
                              rows=tuple(rows), anchor=ids.take("g", t.stage, t.group),
                              label=f"{t.group}组" if t.group and one_stage else title))
    return tuple(out)


def group_award(group: str, award: str) -> str:
    """An award of a group as every page and the certificate name it (R2016-A1): ``A组第一名``
    for 小组第一名 (the branch page said “D组 小组第一名”, the certificate “A组第一名”); the
    award alone without a group, or when it names its group already.

    >>> group_award("A", "小组第一名"), group_award("B", "一等奖"), group_award("", "一等奖"), group_award("A", "A组冠军")
    ('A组第一名', 'B组一等奖', '一等奖', 'A组冠军')
    """
    return award if not group or f"{group}组" in award else f"{group}组{award.removeprefix('小组')}"


def _awards_of(rows: Iterable["AwardRow"], ev_keys: set[str], names: Names) -> tuple[AwardVM, ...]:
    """The awards of an event on the site: a pair from two units names both (R2015-Q2,
    R2016-F2), joined by 、; a shared place says 并列, as the standings do."""
    from .viewmodels import award_place, shared_places

    rows = list(rows)
    shared = shared_places(rows)
    return tuple(AwardVM(award=group_award(a.group, a.award), rank=award_place(a, shared),
                         team=a.team, branch="、".join(names.unit(names.unit_id(u)) for u in a.unit_ids),
                         players=a.players if a.players != a.team else "",
                         prize=f"{a.prize:,}元" if a.prize else "")
                 for a in rows if a.event in ev_keys)


def event_progress(es: "EventState") -> tuple[int, int, int | None]:
    """(rounds played, rounds drawn, rounds left or None when not yet known)."""
    played = sum(1 for r in es.rounds if round_complete(es, r))
    drawn = len(es.rounds)
    if es.complete or any(st == FINAL_PLACES for st, _, _ in es.ties):    # played out (a 加赛 to go)
        return played, drawn, 0
    opts = es.spec.format.options
    rounds_opt = opts.get("rounds")
    if isinstance(rounds_opt, int) and not isinstance(rounds_opt, bool):
        return played, drawn, max(0, rounds_opt - drawn)
    stages = split_stages(es.rounds)
    if stages and stage_kind(stages[-1], es.spec.format.type) == "knockout":
        last = stages[-1][-1]
        advancers = len(last.matches)
        pool = opts.get("final_pool", 1)
        pool = pool if isinstance(pool, int) and pool > 0 else 1
        ko = project_knockout(advancers, pool)
        left = len(ko)
        n = (ko[-1][0] + ko[-1][1]) if ko else advancers
        if pool > 1 and n > 1:
            left += n - 1 if n % 2 == 0 else n
        return played, drawn, left
    plan = stages[-1][-1].plan if stages and isinstance(stages[-1][-1].plan, dict) else {}
    if plan.get("kind") == "rr" and isinstance(plan.get("of"), int):
        # the final round robin (R2020-F1), published a Berger round a night: its plan says
        # how many rounds it has.  (Not a group stage's 小组循环赛: a knockout follows it.)
        return played, drawn, max(0, plan["of"] - len(stages[-1]))
    return played, drawn, None


def progress_text(played: int, drawn: int, left: int | None) -> str:
    """``progress_text(1, 2, None) == "已赛 1 轮 · 已抽签 2 轮 · 剩余轮次待定"``; with every
    round drawn and some still to play, ``"… · 各轮均已抽签"`` (not 剩余 0 轮)."""
    if left == 0 and drawn > played:
        rest = "各轮均已抽签"
    else:
        rest = f"剩余 {left} 轮" if left is not None else "剩余轮次待定"
    return f"已赛 {played} 轮 · 已抽签 {drawn} 轮 · {rest}"


def event_status(es: "EventState") -> str:
    """Chinese status line: 已结束 / the runner's waiting text / 等待第N轮成绩 / 等待抽签."""
    if es.complete:
        return "已结束"
    if es.waiting:
        return es.waiting
    for r in es.rounds:
        if not round_complete(es, r):
            return f"等待第{r.round}轮成绩"
    if not es.rounds:
        return "等待报名截止后抽签" if es.entries else "尚无报名"
    return f"等待第{es.rounds[-1].round + 1}轮抽签"


def event_brackets(es: "EventState", names: Names) -> list[str]:
    """Inline SVG brackets for the knockout / tables chains of an event."""
    stages = split_stages(es.rounds)
    kinds = [stage_kind(s, es.spec.format.type) for s in stages]
    out = []
    i = 0
    while i < len(stages):
        if kinds[i] not in ("knockout", "tables"):
            i += 1
            continue
        j = i
        while j < len(stages) and kinds[j] in ("knockout", "tables"):
            j += 1
        chain = stages[i:j]
        pool = stages[j] if j < len(stages) and kinds[j] == "round_robin" else None
        project = j == len(stages) and not es.complete
        cols = bracket_columns(es, chain, pool, names, project)
        out.append(svg.bracket_svg(cols, title=f"{es.spec.name} 对阵图"))
        i = j + (1 if pool else 0)
    return out


def playing_count(es: "EventState") -> int:
    """How many entries the event has: those drawn in its first round once it is drawn (a
    pair re-formed at check-in from two incomplete ones is one entry, R2016-F2; a no-show
    is none), else those registered."""
    if not es.rounds:
        return len(es.entries)
    first = min(es.rounds, key=lambda r: r.round)
    return len({s for m in first.matches for s in m.sides})


def event_vm(state: "LeagueState", event_id: str) -> EventPage:
    """View-model of ``events/<event_id>.html``: brackets, rounds, standings, awards."""
    es = state.events[event_id]
    names = Names(state)
    spec = es.spec
    stages = []
    # the page's fixed sections (awards, brackets, standings, rounds, docs) are not of these forms
    ids = Anchors()
    for rounds in split_stages(es.rounds):
        kind = stage_kind(rounds, spec.format.type)
        label = stage_label(rounds, spec.format.type)
        title = stage_heading(rounds, label)
        # (the label only where the heading does not already say it: 决赛循环赛, 淘汰赛)
        stages.append(StageVM(title=title, kind=kind, kind_label="" if label in title else label, svg="",
                              rounds=tuple(_round_vm(es, r, names, ids.take(f"r{r.round}")) for r in rounds),
                              anchor=ids.take("st", rounds[0].stage)))
    standings = standing_vms(es.standings, names, es, ids)
    awards = _awards_of(state.awards, {event_id, spec.name}, names)
    brackets = tuple(event_brackets(es, names))
    links = round_links(state, event_id)
    played, drawn, left = event_progress(es)
    facts = [("赛制", es.format_title), ("参赛", f"{playing_count(es)} " + ("队" if spec.is_team else "人")),
             ("进度", progress_text(played, drawn, left))]
    if spec.venue:
        facts.append(("地点", spec.venue))
    if spec.referee:
        facts.append(("裁判", spec.referee))
    return EventPage(
        page=_page(state, spec.name, "../"), id=event_id, name=spec.name, format_title=es.format_title,
        status=event_status(es), complete=es.complete, entry_count=playing_count(es),
        brackets=brackets, stages=tuple(stages), standings=standings, awards=awards, facts=tuple(facts),
        rounds=links, toc=event_toc(es, stages, standings, bool(awards), bool(brackets), bool(links)),
        order_note=current_order_note(es) if standings and not es.complete else "")


def event_toc(es: "EventState", stages: list[StageVM], standings: tuple[StandingVM, ...], awards: bool,
              brackets: bool, docs: bool) -> tuple[TocItem, ...]:
    """An event page's 目录: 获奖名单 and 对阵图 (when shown), the standings with a link to
    each group's table, each stage with a link to each of its rounds, 抽签表 — when the page
    has more than one group table, stage or round to go to (one of each is reached by
    scrolling)."""
    if len(standings) < 2 and len(stages) < 2 and not any(len(st.rounds) > 1 for st in stages):
        return ()
    items = [TocItem(a, label) for a, label, shown in (("awards", "获奖名单", awards), ("brackets", "对阵图", brackets))
             if shown]
    if standings:
        items.append(TocItem("standings", "最终排名" if es.complete else "当前排名",
                             tuple((t.anchor, t.label) for t in standings) if len(standings) > 1 else ()))
    items += [TocItem(st.anchor, st.title, tuple((r.anchor, f"第{r.no}轮") for r in st.rounds)) for st in stages]
    if docs:
        items.append(TocItem("docs", "抽签表与成绩登记表"))
    return tuple(items) if toc_worth(items) else ()


# ----------------------------------------------------------------------------- index page


@dataclass(frozen=True)
class EventCard:
    """One event's card on the index: format, progress, entries and what it waits for."""

    id: str
    name: str
    format_title: str
    href: str
    entries: int
    played: int
    drawn: int
    left: str
    progress: str            # 已赛 2 轮 · 已抽签 3 轮 · 剩余 2 轮
    status: str
    complete: bool
    progress_value: int
    progress_max: int
    registered: int = 0      # accepted registrations, when the check-in made them another number


@dataclass(frozen=True)
class TotalsRow:
    """One branch's line of the team totals (团体总分) on the index."""

    rank: int
    unit: str
    counts: tuple[str, ...]      # "" for none, so the table reads like a medal table
    total: int
    prize: str


@dataclass(frozen=True)
class BranchRow:
    """One branch's line of the index's branch table: its forms, entries and issues."""

    id: str
    name: str
    received: int
    accepted: int
    entries: int
    errors: int
    warnings: int
    infos: int
    state: str
    state_class: str
    report_href: str
    returned_href: str


@dataclass(frozen=True)
class DocLink:
    """A document on the site: its HTML and its PDF (``""`` when not written)."""

    label: str
    html: str
    pdf: str = ""
    xlsx: str = ""
    cards: str = ""       # a round's table cards
    cards_pdf: str = ""


#: the tournament's documents the index lists (draw sheets are on their event's page)
DOC_LABELS = {"notice": "比赛通知", "standings": "成绩与名次", "awards": "获奖名单",
              "certificates": "获奖证书", "bus": "乘车安排", "budget": "经费预算"}
DATA_FILES = ("entries", "issues", "draw", "standings", "awards")


def document_links(state: "LeagueState") -> tuple[DocLink, ...]:
    """The index's documents, in :func:`pipeline.render.docs.plan_documents`' order, and the
    data files (UTF-8 CSV, contract)."""
    from .docs import plan_documents

    links = [DocLink(DOC_LABELS[d.stem], href(f"{d.stem}.html") if d.html else "",
                     href(f"{d.stem}.pdf") if d.pdf and state.has_pdf(d.stem) else "")
             for d in plan_documents(state) if d.stem in DOC_LABELS]
    return tuple(links)


def round_links(state: "LeagueState", event_id: str) -> tuple[DocLink, ...]:
    """An event page's draw sheets, table cards and referees' result workbooks, by round
    (every published round has them: :func:`pipeline.render.docs.plan_documents`,
    :func:`pipeline.run.render_all`)."""
    from .docs import draw_stem

    es = state.events[event_id]
    out = []
    for rnd in sorted(es.rounds, key=lambda r: r.round):
        stem = draw_stem(event_id, rnd.round)
        cards = any(not m.bye for m in rnd.matches)      # a round of byes only has none
        out.append(DocLink(rnd.title, href(f"{stem}.html", "../"), href(f"{stem}.pdf", "../") if state.has_pdf(stem) else "",
                           href(f"results/{event_id}-r{rnd.round}-成绩表.xlsx", "../"),
                           href(f"{stem}-cards.html", "../") if cards else "",
                           href(f"{stem}-cards.pdf", "../") if cards and state.has_pdf(f"{stem}-cards") else ""))
    return tuple(out)


@dataclass(frozen=True)
class IndexPage:
    """View-model of ``index.html``."""

    page: Page
    title: str
    host: str
    events: tuple[EventCard, ...]
    award_columns: tuple[str, ...]
    totals: tuple[TotalsRow, ...]
    branch_awards: tuple[AwardVM, ...]
    branches: tuple[BranchRow, ...]
    chart: str
    documents: tuple[DocLink, ...] = ()
    data_files: tuple[tuple[str, str], ...] = ()
    #: how 名次 of the award totals is reached (weights of the awards in the table)
    totals_note: str = ""
    #: R2015-A1: the 评奖表 awards still to be decided (:func:`awards_due_line`), or ""
    awards_due: str = ""

    @property
    def toc(self) -> tuple[TocItem, ...]:
        """The index's 目录 (its ids fixed in templates/site/index.html): at 200 units the
        status table sat under 200 event cards and award rows (audit 38)."""
        return tuple(TocItem(a, label) for a, label, shown in (
            ("events", "比赛项目", True), ("documents", "文件", bool(self.documents)),
            ("awards", "各单位获奖统计", True), ("entries", "报名情况", True), ("status", "各单位提交状态", True))
            if shown)


def totals_note(columns: tuple[str, ...], shared: str = "", money: bool = True, so_far: tuple[str, ...] = ()) -> str:
    """``名次按获奖计分：一等奖 7 分、二等奖 5 分、三等奖 3 分，其他奖项不计分；同分按奖金多少。``
    for the awards in the table (:data:`pipeline.score.awards.DEFAULT_AWARD_WEIGHTS`) —
    a unit with a 一等奖 below one with two 二等奖 is otherwise a riddle — then ``shared``:
    how a cross-unit pair's award is counted (:func:`pipeline.render.viewmodels.shared_awards_note`).
    No prize money (``money`` False): no 奖金 to break a tie by.  ``so_far``: the finished
    events while others still run — the table is theirs only (it read as the overall ranking
    with three of four events to go)."""
    from ..score.awards import DEFAULT_AWARD_WEIGHTS

    first = f"目前仅含已结束的项目（{'、'.join(so_far)}）。" if so_far and columns else ""
    weighed = [f"{c} {DEFAULT_AWARD_WEIGHTS[c]} 分" for c in columns if DEFAULT_AWARD_WEIGHTS.get(c)]
    if not weighed:
        return first + shared
    rest = "，其他奖项不计分" if len(weighed) < len(columns) else ""
    tie = "；同分按奖金多少" if money else ""
    return f"{first}名次按获奖计分：{'、'.join(weighed)}{rest}{tie}。" + shared


def _finished_so_far(state: "LeagueState") -> tuple[str, ...]:
    """The finished events' names while some other event is still to finish (else ())."""
    events = [state.events[ev.id] for ev in state.tournament.spec.events if ev.id in state.events]
    if all(es.complete for es in events):
        return ()
    return tuple(es.spec.name for es in events if es.complete)


def event_card(es: "EventState") -> EventCard:
    played, drawn, left = event_progress(es)
    total = drawn + left if left is not None else max(drawn, played) + 1
    return EventCard(id=es.spec.id, name=es.spec.name, format_title=es.format_title,
                     href=href(f"events/{es.spec.id}.html"), entries=playing_count(es), played=played,
                     drawn=drawn, left=str(left) if left is not None else "待定",
                     progress=progress_text(played, drawn, left), status=event_status(es),
                     complete=es.complete, progress_value=played if not es.complete else max(total, 1),
                     progress_max=max(total, 1), registered=registered_count(es))


def registered_count(es: "EventState") -> int:
    """The event's accepted registrations (the index page's chart counts them), without the
    pairs re-formed at check-in (R2016-F2): beside :func:`playing_count` when they differ, so
    a card saying 33 under a chart adding up to 34 is explained."""
    merged = {m.get("id") for r in es.rounds for m in (r.plan.get("merged") or [] if isinstance(r.plan, dict) else [])}
    return sum(1 for e in es.entries if e.id not in merged)


def branch_totals(state: "LeagueState", names: Names) -> tuple[tuple[str, ...], tuple[TotalsRow, ...]]:
    """Awards per branch over all events and the branch awards: columns are the award
    names in the configured order (:func:`pipeline.score.awards.award_columns`, as the
    award list's 获奖统计: R2011-R1, a vacant 第二名 went after 第三名); rows and their order come from
    :func:`pipeline.score.awards.branch_totals` (weighted points, then prize money).  No
    award at all (none yet, or only vacant places): no rows — every unit was listed 第1名
    with 合计 0, and the page's "尚未产生获奖名单。" never showed (an audit)."""
    from dataclasses import replace

    from ..score.awards import award_columns, branch_totals as score_totals

    awards = [replace(a, branch=names.unit_id(a.branch), units=tuple(names.unit_id(u) for u in a.units))
              for a in list(state.awards) + list(state.branch_awards) if not a.vacant]     # (R2011-R1: nobody's)
    if not awards:
        return (), ()
    # the award list's order (:func:`pipeline.score.awards.award_columns`), whatever is vacant
    columns = award_columns(state.tournament.spec, awards)
    units = [u.unit() for u in state.tournament.spec.units]
    rows = tuple(TotalsRow(rank=t.rank, unit=names.unit(t.branch),
                           counts=tuple(str(t.counts.get(c, 0) or "") for c in columns),
                           total=sum(t.counts.values()), prize=f"{t.prize:,}" if t.prize else "")
                 for t in score_totals(awards, units))
    return tuple(columns), rows


def _latest(subs: list["Submission"]) -> "Submission | None":
    return max(subs, key=lambda s: (s.received, s.file, s.sha256), default=None)


def registration_closed(spec: "TournamentSpec", now: dt.datetime,
                        events: "Mapping[str, EventState] | None" = None) -> bool:
    """Whether registration has closed for every event: its ``deadline`` has passed — or, for
    an event without one, its round 1 is drawn (``events``: the league's event states; the
    runner does not draw such an event until the office sets a deadline, DEADLINE_MISSING —
    one drawn before its deadline was deleted is closed: an entry sent after the draw enters
    no round).
    Until then a captain can still correct the form for some event (R2020-Q4 per event).
    It is :func:`~pipeline.state.forms_still_count`'s question with no late form taken."""
    return bool(spec.events) and not forms_still_count(spec.events, "reject", events or {}, now)


def _closed_at(deadlines: list[dt.datetime]) -> str:
    """``报名已于 2020年11月9日 15:00 截止`` (the latest deadline), or ``报名已截止`` when no
    event has a deadline (each closed with its draw)."""
    return f"报名已于 {fmt_time(max(deadlines))} 截止" if deadlines else "报名已截止"


def _refused_now(state: "LeagueState") -> bool:
    """R2020-Q4: every event's registration has closed and a resent form is refused as late
    (``late_policy: reject``): a unit's errors can no longer be corrected by mail."""
    spec = state.tournament.spec
    # deadlines only: an event without one takes a resend on time (run.py's lateness), even
    # after its draw — the page must not say 不再受理 of a form that is taken
    return spec.late_policy == "reject" and registration_closed(spec, state.now)


def _branch_row(uid: str, name: str, subs: list["Submission"], issues: list[Issue], n_entries: int,
                prefix: str, *, closed: bool = False) -> BranchRow:
    """A unit's row of the index's status table (and its page's summary).  ``closed``: every
    event's registration has closed and resends are refused (:func:`_refused_now`) — its errors
    are then no longer 待改 (the page beside says 重新发送的报名表不再受理): the rows marked as
    errors were not entered (R2020-Q4)."""
    sev = Counter(str(i.severity) for i in issues)
    # (the office's own matter — a lost copy in received/ — is no error for the unit to
    # correct: counted, not 待改)
    errors = sev["error"]
    sev["error"] -= sum(1 for i in issues if i.code == "RECEIVED_COPY_LOST" and str(i.severity) == "error")
    latest = _latest(subs)
    returned = next((s.returned_path for s in sorted(subs, key=lambda s: (s.received, s.file), reverse=True)
                     if s.returned_path), "")
    accepted = sum(1 for s in subs if s.status == "accepted")
    if uid == UNASSIGNED and not accepted:
        # files of no unit (referees' sheets, strangers' files): nothing was to be submitted
        state, cls = ((f"有 {sev['error']} 处错误待改", "bad") if sev["error"] else
                      (f"有 {sev['warning']} 条警告", "warn") if sev["warning"] else ("无需处理", "ok"))
    elif not subs:
        state, cls = "未提交", "none"
    elif sev["error"] and closed:
        state, cls = f"有 {sev['error']} 处错误，报名已截止，未录入", "bad"
    elif sev["error"]:
        state, cls = f"有 {sev['error']} 处错误待改", "bad"
    elif latest is not None and latest.status not in ("accepted", "superseded") and not accepted:
        state, cls = STATUS_LABEL.get(latest.status, latest.status), "bad"
    elif sev["warning"]:
        state, cls = "已接受（有警告）", "warn"
    else:
        state, cls = "已接受", "ok"
    return BranchRow(id=uid, name=name, received=len(subs), accepted=accepted, entries=n_entries,
                     errors=errors, warnings=sev["warning"], infos=sev["info"], state=state,
                     state_class=cls, report_href=href(f"branches/{uid}.html", prefix),
                     returned_href=href(returned, prefix) if returned else "")


def entries_chart(state: "LeagueState", names: Names) -> str:
    """Stacked bars: accepted entries per branch, one colour per event."""
    from collections import Counter

    events = list(state.tournament.spec.events)
    event_of = {key: ev.id for ev in events for key in (ev.name, ev.id)}
    counts = Counter((e.branch, event_of.get(e.event)) for e in state.entries)
    rows = [svg.BarRow(names.unit(u.id), tuple(counts[(u.id, ev.id)] for ev in events))
            for u in state.tournament.spec.units]
    return svg.stacked_bar_svg(rows, [ev.name for ev in events], title="各单位报名数")


def _by_branch(state: "LeagueState") -> tuple[dict, dict, dict]:
    """(submissions, issues, entries) of ``state`` grouped by branch, in their order —
    built once per state (and again if one of the lists is replaced), so the per-unit
    pages of a league with hundreds of units do not each scan every list."""
    lists = (state.submissions, state.issues, state.entries)
    cache = state.__dict__.get("_by_branch_cache")
    if cache is None or any(a is not b or len(a) != n for a, b, n in zip(cache[0], lists, cache[1])):
        groups: list[dict] = []
        for items in lists:
            g: dict[str, list] = {}
            for x in items:
                g.setdefault(x.branch, []).append(x)
            groups.append(g)
        cache = (lists, tuple(len(x) for x in lists), tuple(groups))
        state.__dict__["_by_branch_cache"] = cache
    return cache[2]


def _shared_note(state: "LeagueState") -> str:
    """:func:`~pipeline.render.viewmodels.shared_awards_note` when an award is a cross-unit
    pair's (R2015-Q2, R2016-F2): it counts for each of its units in the totals; else ""."""
    everything = list(state.awards) + list(state.branch_awards)
    if not any(len(a.unit_ids) > 1 for a in everything):
        return ""
    return shared_awards_note(state.tournament.spec.unit_word, any(a.prize for a in everything), total_row=False)


def awards_due_line(state: "LeagueState") -> str:
    """R2015-A1: the line the index and the 获奖名单 print while the 评奖表 awards are still to
    be decided (:func:`pipeline.state.sheet_awards_due`), so that the list does not look
    final; "" when none is."""
    from ..state import sheet_awards_due

    due = sheet_awards_due(state)
    return f"另设的{'、'.join(due)}尚待评定（尚未收到评奖表），评定后列入获奖名单。" if due else ""


def index_vm(state: "LeagueState") -> IndexPage:
    """View-model of ``index.html``: event cards, award totals, branch status, chart."""
    spec = state.tournament.spec
    names = Names(state)
    cards = tuple(event_card(state.events[ev.id]) for ev in spec.events if ev.id in state.events)
    columns, totals = branch_totals(state, names)
    rows = []
    subs_of, iss_of, entries_of = _by_branch(state)
    closed = _refused_now(state)
    for u in spec.units:
        rows.append(_branch_row(u.id, u.short or u.name, list(subs_of.get(u.id, ())), list(iss_of.get(u.id, ())),
                                len(entries_of.get(u.id, ())), "", closed=closed))
    known = {u.id for u in spec.units}
    stray_subs = [s for s in state.submissions if s.branch not in known]
    stray_iss = [i for i in state.issues if i.branch not in known]
    if stray_subs or stray_iss:
        rows.append(_branch_row(UNASSIGNED, UNASSIGNED_NAME, stray_subs, stray_iss, 0, ""))
    # an organisers' award to a player names the player (players is blank where it is the
    # team's own label: an individual event), a unit award its unit
    from dataclasses import replace

    b_awards = tuple(replace(_awards_of([a], {a.event}, names)[0], players=a.players or a.team if a.entry else "")
                     for a in state.branch_awards)
    return IndexPage(page=_page(state, spec.name, ""), title=spec.name,
                     host="、".join(dict.fromkeys(x for x in (spec.host, spec.organizer) if x)),
                     events=cards, award_columns=columns, totals=totals, branch_awards=b_awards,
                     totals_note=totals_note(columns, _shared_note(state),
                                             money=any(a.prize for a in [*state.awards, *state.branch_awards]),
                                             so_far=_finished_so_far(state)),
                     awards_due=awards_due_line(state),
                     branches=tuple(rows), chart=entries_chart(state, names),
                     documents=document_links(state),
                     data_files=tuple((f"{n}.csv", href(f"data/{n}.csv")) for n in DATA_FILES))


# ----------------------------------------------------------------------------- branch page


@dataclass(frozen=True)
class SubmissionVM:
    """One received form on a branch page: its file, time, status and returned copy."""

    file: str
    received: str
    sender: str
    status: str
    status_class: str
    returned_href: str


@dataclass(frozen=True)
class IssueVM:
    """One issue on a branch page."""

    code: str
    code_label: str
    severity: str
    severity_class: str
    location: str
    file: str
    message: str


@dataclass(frozen=True)
class EntryVM:
    """One accepted entry on a branch page."""

    event: str
    team: str
    players: str
    staff_ids: str
    #: the entry's final place once its event has ended (第2名, A组第1名, 第3名（并列）)
    result: str = ""


def final_places(state: "LeagueState") -> dict[str, str]:
    """Entry id → its final place in an ended event, as a branch page shows it (未参赛 for one
    entered after its event's round 1 was drawn) — built once
    per state (each of a province's hundreds of branch pages asks; 5,000 placements each)."""
    key = tuple((ev_id, es.complete, id(es.placements), len(es.placements), es.late, es.late_valid)
                for ev_id, es in state.events.items())
    cached = state.__dict__.get("_places_cache")
    if cached is not None and cached[0] == key:
        return cached[1]
    out: dict[str, str] = {}
    for es in state.events.values():
        # R2020-Q4: entered after round 1 was drawn (accept-with-warning), in no round and
        # no place (EventRunner.late_ids) — said from the draw on, not only once it ended
        out.update(dict.fromkeys(es.late, "未参赛（第1轮抽签后才报名）"))
        # … or whose form came before the draw, valid only since (EventState.late_valid)
        out.update(dict.fromkeys(es.late_valid, f"未参赛（{LATE_VALID}）"))
        if not es.complete:
            continue
        for p in es.placements:
            out[p.entry] = ("弃权，取消资格（无名次）" if getattr(p, "vacant", False)        # R2011-R1
                            else f"{p.group + '组' if p.group else ''}第{p.rank}名{'（并列）' if p.tied else ''}")
        # a pair re-formed at check-in (R2016-F2) was placed under its own id: each half's
        # registered pair shows that place (the branch pages list the registered entries)
        registered = {e.id: e for e in es.entries}
        for r in es.rounds:
            for m in (r.plan.get("merged") or []) if isinstance(r.plan, dict) else []:
                place = out.get(m.get("id", "")) if isinstance(m, dict) else None
                played = set(m.get("players") or ()) if place else set()
                for f in (m.get("from") or []) if place else []:
                    who = "、".join(p.name for p in getattr(registered.get(f), "players", ()) if p.key in played)
                    out.setdefault(f, place + (f"（{who}重组后参赛）" if who else "（重组）"))
        # sent again under another id since round 1 (工号 filled in): placed under the drawn id
        for now_id, sid in getattr(es, "same_as", {}).items():
            if sid in out:
                out[now_id] = out[sid]
    state.__dict__["_places_cache"] = (key, out)
    return out


@dataclass(frozen=True)
class UnitAwardVM:
    """One award of the unit on its branch page: the event (linked), the award, who won it
    and the unit's part of the prize (a cross-unit pair's prize is shared, R2015-Q2)."""

    event: str
    event_href: str
    award: str
    holder: str
    prize: str


@dataclass(frozen=True)
class BranchPage:
    """View-model of ``branches/<id>.html`` (the branch's validation report)."""

    page: Page
    id: str
    name: str
    captain: str
    unit_word: str
    summary: BranchRow
    next_steps: tuple[str, ...]
    submissions: tuple[SubmissionVM, ...]
    issues: tuple[IssueVM, ...]
    entries: tuple[EntryVM, ...]
    returned_href: str
    #: the unit's awards, the events' and the organisers' (组织奖 …); shown once an event has ended
    awards: tuple[UnitAwardVM, ...] = ()
    awards_shown: bool = False


def unit_awards(state: "LeagueState", unit_id: str) -> tuple[UnitAwardVM, ...]:
    """The awards credited to ``unit_id``, in the events' order then by place: each event's
    (a cross-unit pair's counts for both its units, with the unit's share of the prize) and
    the organisers' awards to the unit or its players."""
    spec = state.tournament.spec
    order = {}
    for i, ev in enumerate(spec.events):
        order[ev.id] = order[ev.name] = (i, ev.id, ev.name)
    rows = []
    for a in [*state.awards, *state.branch_awards]:
        if unit_id not in a.unit_ids:
            continue
        i, ev_id, ev_name = order.get(a.event, (len(order), "", a.event))
        partner = [u for u in a.unit_ids if u != unit_id]
        holder = a.players or ("本" + spec.unit_word)        # (a unit's award names no player)
        if a.players and a.team and a.players not in a.team:      # (潘霞洋/姜力（重组） names its players)
            holder = f"{a.team}（{a.players}）"
        if partner:
            holder += "，与" + "、".join((u.short or u.name) if (u := spec.unit(uid)) else uid
                                        for uid in partner) + "合组"
        share = a.prize_share(unit_id)
        rows.append(((i, a.rank, a.group, a.award, holder), UnitAwardVM(
            event=ev_name, event_href=href(f"events/{ev_id}.html", "../") if ev_id in state.events else "",
            award=group_award(a.group, a.award), holder=holder,
            prize=f"{share:,}元" if share else "")))
    return tuple(vm for _, vm in sorted(rows, key=lambda r: r[0]))


def unassigned_steps(issues: list[Issue]) -> tuple[str, ...]:
    """What the office does about the files of no unit — the referees' result and 加赛 sheets,
    strangers' files — and the notes about the events (PLACES_CHANGED …): the page said
    "没有收到本部门的报名表" of them, as if it were a unit's."""
    sev = Counter(str(i.severity) for i in issues)
    steps: list[str] = []
    if sev["error"]:
        steps.append(f"下列 {sev['error']} 处错误：成绩表、加赛表的问题请告知裁判，改正后把表格重新放进收件箱；"
                     "其他文件请告知发来的人，用组委会下发的表格填写后重发。")
    if any(i.code == "PLACES_CHANGED" for i in issues):
        steps.append("已公布的名次和奖项有变（见下列“公布后名次有变”）：请核实更正的成绩，按新的名次更正已打印或发出的名次表、"
                     "获奖名单和奖状。")
    if sev["warning"]:
        steps.append(f"请核对下列 {sev['warning']} 条警告。")
    if not steps:
        steps.append("下列提示无需处理。" if issues else "没有需要处理的文件。")
    return tuple(steps)


def next_steps(state: "LeagueState", subs: list["Submission"], issues: list[Issue], unit_word: str,
               returned: bool) -> tuple[str, ...]:
    """What the captain must do next, in Chinese, most urgent first.  Once every event's
    deadline has passed, a resend is no longer asked for where it would be refused as late
    (``late_policy: reject``): the captain is told to contact the office instead, and under
    ``accept-with-warning`` that a resend will be marked late."""
    spec = state.tournament.spec
    deadlines = [aware(ev.deadline) for ev in spec.events if ev.deadline is not None]
    future = sorted(d for d in deadlines if d > aware(state.now))
    deadline = f"（截止时间：{fmt_time(future[0])}）" if future else ""
    # no new form can enter any event (a form not sent is not asked for): every deadline passed,
    # an event without one drawn; a resend is refused as late only by the deadlines (run.py)
    closed = registration_closed(spec, state.now, state.events)
    office = spec.contact or "工会办公室"
    sev = Counter(str(i.severity) for i in issues)
    steps: list[str] = []
    if not subs:
        if closed and spec.late_policy == "reject":
            steps.append(f"没有收到本{unit_word}的报名表，{_closed_at(deadlines)}；如有特殊情况请联系{office}。")
        elif closed and not forms_still_count(spec.events, spec.late_policy, state.events, state.now):
            # R2020-Q4 under accept-with-warning: a late form would be taken, but enters no event
            steps.append(f"没有收到本{unit_word}的报名表，{_closed_at(deadlines)}，各项目均已抽签，"
                         f"不能再报名；如有特殊情况请联系{office}。")
        else:
            steps.append(f"尚未收到本{unit_word}的报名表。请填写报名表后用登记的邮箱发送{deadline}。")
        return tuple(steps)
    past_deadlines = registration_closed(spec, state.now)
    # a form issued under tournament.yaml's former id (TOURNAMENT_ID_MISMATCH): the office's
    # to settle by putting the id back, not the captain's to correct and send again
    offices = sum(1 for i in issues if i.code == "TOURNAMENT_ID_MISMATCH" and str(i.severity) == "error")
    if offices:
        steps.append(f"本{unit_word}发来的报名表已收到，待组委会核对赛事设置后受理，无需修改，也不必重新发送。")
        sev["error"] -= offices
    # a received form's copy lost from the office's output folder (RECEIVED_COPY_LOST): the
    # office restores it; the form counts as read before — nothing for the captain to correct
    lost = sum(1 for i in issues if i.code == "RECEIVED_COPY_LOST" and str(i.severity) == "error")
    if lost:
        steps.append(f"本{unit_word}的报名表已收到并按原内容计入；组委会正在恢复其存档副本，无需修改，也不必重新发送。")
        sev["error"] -= lost
    if sev["error"]:
        where = "（问题单元格已在退回的工作簿中标出并附批注）" if returned else ""
        late_only = all(i.code == "LATE_SUBMISSION" for i in issues if str(i.severity) == "error")
        if late_only and not past_deadlines:
            # changes to closed events only (R2020-Q4 per event): no edit makes them count
            steps.append(f"下列 {sev['error']} 处改动在该项目报名截止后收到，没有计入；修改报名表不能使其生效。"
                         "不处理也可以（按时登记的报名继续有效）；如要消除标记，请把报名表中这些项目恢复为原来登记的"
                         f"内容（不是按时登记的，删去这些行）。如确需更改请联系{office}。")
        elif past_deadlines and spec.late_policy == "reject":
            steps.append(f"下列 {sev['error']} 处错误涉及的报名没有计入。{_closed_at(deadlines)}，"
                         f"重新发送的报名表不再受理；如需更正请联系{office}。")
        elif past_deadlines:
            steps.append(f"请修改下列 {sev['error']} 处错误后重新发送报名表{where}；报名已截止，"
                         "重新发送的报名表会被标注为逾期，由组委会决定是否受理。")
        else:
            steps.append(f"请修改下列 {sev['error']} 处错误后重新发送报名表{where}{deadline}。")
    latest = _latest(subs)
    if latest is not None and latest.status in ("rejected", "unreadable", "late"):
        steps.append(f"最近一次提交“{latest.file}”{STATUS_LABEL.get(latest.status, latest.status)}，"
                     "其内容未计入报名。")
    if sev["warning"]:
        steps.append(f"请核对下列 {sev['warning']} 条警告；如确认无误，无需再次发送。")
    if not steps and past_deadlines and spec.late_policy == "reject":     # (a resend would be refused as late)
        steps.append(f"报名已接受，无需其他操作。{_closed_at(deadlines)}；如需更改请联系{office}。")
    elif not steps and past_deadlines:
        steps.append("报名已接受，无需其他操作。报名已截止，重新发送的报名表会被标注为逾期，由组委会决定是否受理。")
    elif not steps:
        steps.append("报名已接受，无需其他操作。如需更改，请修改后重新发送整张报名表（新的报名表取代旧的报名表）"
                     f"{deadline}。")
    return tuple(steps)


def branch_vm(state: "LeagueState", unit_id: str) -> BranchPage:
    """View-model of ``branches/<unit_id>.html``: the branch's validation report."""
    spec = state.tournament.spec
    if unit_id == UNASSIGNED:
        known = {u.id for u in spec.units}   # only here: a page per unit must not cost a pass over all units
        subs = [s for s in state.submissions if s.branch not in known]
        iss = [i for i in state.issues if i.branch not in known]
        name, captain = UNASSIGNED_NAME, ""
    else:
        u = spec.unit(unit_id)
        if u is None:
            raise KeyError(unit_id)
        subs_of, iss_of, _ = _by_branch(state)
        subs = list(subs_of.get(unit_id, ()))
        iss = list(iss_of.get(unit_id, ()))
        name, captain = u.name, u.captain
    subs = sorted(subs, key=lambda s: (s.received, s.file, s.sha256))
    iss = sorted(iss, key=_issue_key)
    entries = list(_by_branch(state)[2].get(unit_id, ()))
    ev_order = {ev.id: i for i, ev in enumerate(spec.events)}
    ev_name = {ev.id: ev.name for ev in spec.events}
    entries.sort(key=lambda e: (ev_order.get(e.event, 99), e.team_no, e.team, e.id))
    summary = _branch_row(unit_id, name, subs, iss, len(entries), "../",
                          closed=unit_id != UNASSIGNED and _refused_now(state))
    places = final_places(state) if entries else {}
    deadlines = [ev.deadline for ev in spec.events]     # (a time received in one's minute: with seconds)
    return BranchPage(
        page=_page(state, f"{name} 报名审核报告", "../"), id=unit_id, name=name, captain=captain,
        unit_word=spec.unit_word, summary=summary,
        next_steps=(unassigned_steps(iss) if unit_id == UNASSIGNED
                    else next_steps(state, subs, iss, spec.unit_word, bool(summary.returned_href))),
        submissions=tuple(SubmissionVM(file=s.file, received=fmt_time(s.received, deadlines), sender=s.sender,
                                       status=STATUS_LABEL.get(s.status, s.status),
                                       status_class={"accepted": "ok", "superseded": "muted"}.get(s.status, "bad"),
                                       returned_href=href(s.returned_path, "../") if s.returned_path else "")
                          for s in subs),
        issues=tuple(IssueVM(code=i.code, code_label=CODE_LABEL.get(i.code, ""),
                             severity=SEVERITY_LABEL.get(str(i.severity), str(i.severity)),
                             severity_class=str(i.severity), location=location(i),
                             # (a mail --imap stored as <hash>.eml: its message names it by subject and time)
                             file="" if hash_named(i.file) else i.file,
                             message=unlocated(i)) for i in iss),       # (its place is beside it)
        entries=tuple(EntryVM(event=ev_name.get(e.event, e.event), team=e.team,
                              players=e.player_names,
                              staff_ids="/".join(p.staff_id for p in e.players if p.staff_id),
                              result=places.get(e.id, ""))
                      for e in entries),
        returned_href=summary.returned_href,
        awards=() if unit_id == UNASSIGNED else unit_awards(state, unit_id),
        awards_shown=unit_id != UNASSIGNED and (bool(state.branch_awards)
                                                or any(es.complete for es in state.events.values())))


def branch_ids(state: "LeagueState") -> list[str]:
    """Unit ids that get a report page (every unit; plus the unassigned page when needed)."""
    ids = [u.id for u in state.tournament.spec.units]
    known = set(ids)
    if any(s.branch not in known for s in state.submissions) or any(i.branch not in known for i in state.issues):
        ids.append(UNASSIGNED)
    return ids


__all__ = ["index_vm", "event_vm", "branch_vm", "branch_ids", "stage_kind", "bracket_columns",
           "project_knockout", "event_progress", "event_status", "Severity"]
