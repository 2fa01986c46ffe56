"""The tournament spec: ``tournament.yaml`` → frozen dataclasses, validated by pydantic.

A bad spec raises :class:`SpecError` naming the file, the key and what is wrong; the
CLI turns it into exit status 2.  Rule variants (quota bands, ratios, point systems,
tiebreak chains, late policy) are data here, never code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import datetime as dt
import hashlib
import hmac
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Literal

from .model import Unit

if TYPE_CHECKING:   # bound for pydantic by _adapter(): this module never imports pydantic itself
    from pydantic import AfterValidator, BeforeValidator, Field

SPEC_FILE = "tournament.yaml"
TEMPLATE_VERSION = 1
#: the validated spec of the last run, kept in the tournament's output folder (:func:`load_tournament`)
SPEC_CACHE = ".spec.pickle"

# The spec's classes are frozen standard-library dataclasses that pydantic validates (through a
# ``TypeAdapter``, :func:`validated`).  Their constraints are pydantic's ``Field``s inside
# ``Annotated``; with postponed annotations they are strings that only pydantic reads, when it
# first validates — so the classes, and a rerun that unpickles its kept spec, need no pydantic
# (its import and schema building were ~120 ms of every rerun).
_FORBID = {"extra": "forbid"}   # pydantic's config for a dataclass: an unknown key is an error


class SpecError(Exception):
    """A tournament spec that cannot be used.  ``str()`` names file, key and problem — and
    ``also`` the file's other problems found at the same time ((key, problem) pairs): an
    office that typed three keys wrong is told of all three at once, not one a run.

    ``at``: key → the line (1-based) of tournament.yaml where that key is written (or, for a
    key missing, the item it is missing from): :meth:`locate` finds them from the file's
    text (pydantic's errors name no line; only a YAML syntax error had one)."""

    def __init__(self, file: str | Path, key: str, problem: str,
                 also: "tuple[tuple[str, str], ...]" = ()) -> None:
        self.file, self.key, self.problem, self.also = str(file), key, problem, tuple(also)
        self.at: dict[str, int] | None = None
        super().__init__(file, key, problem)

    def __str__(self) -> str:
        return "\n".join(f"{self.file}: {self._key(k)}: {p}" for k, p in self.problems())

    def __reduce__(self) -> Any:
        return SpecError, (self.file, self.key, self.problem, self.also)

    def problems(self) -> "list[tuple[str, str]]":
        """Every (key, problem) of the file, the first one first."""
        return [(self.key, self.problem), *self.also]

    def locate(self, text: str | None = None) -> "SpecError":
        """Find the line of each key in tournament.yaml's ``text`` (read from :attr:`file`
        when not given; nothing found when it cannot be read or parsed).  Returns self."""
        if self.at is None:
            if text is None:
                try:
                    text = Path(self.file).read_text(encoding="utf-8") if Path(self.file).name == SPEC_FILE else ""
                except (OSError, UnicodeDecodeError):
                    text = ""
            self.at = key_lines(text, [k for k, _ in self.problems()]) if text else {}
        return self

    def _key(self, key: str) -> str:
        line = (self.at or {}).get(key)
        return f"{key}（第 {line} 行）" if line else key

    def lines(self) -> str:
        """What a command prints after naming the file: one line per problem, each with the
        line of tournament.yaml where its key is."""
        self.locate()
        return "\n".join(f"  键 {self._key(k)}: {p}" for k, p in self.problems())


#: at most this many problems of one tournament.yaml are said at once
MAX_SPEC_PROBLEMS = 10


def _email_list(v: Any) -> Any:
    """A unit's registered addresses as the office types them: one text or a list; several in
    one text (``a@x.cn；b@qq.com``, the semicolon or comma of a Chinese input method); as
    Outlook copies them (``庞雪平 <XZYFGH@union.edu.cn>``); full-width ＠.  Each becomes its
    bare address.  One that is not an address is an error naming it: a full-width ； kept in
    an address crashed the night's receipts, and ``庞雪平 <…>`` counted the captain's own
    mails as from a stranger."""
    import re
    import unicodedata
    from email.utils import getaddresses

    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list):
        return v                    # pydantic says what is wrong with it
    out: list[str] = []
    for item in v:
        if not isinstance(item, str):
            return v
        text = unicodedata.normalize("NFKC", item).replace(";", ",").replace("、", ",")
        if "<" in text:             # 庞雪平 <xzyfgh@…>: the address in the brackets
            found = [addr.strip() or name.strip() for name, addr in getaddresses([text]) if addr.strip() or name.strip()]
        else:
            found = text.replace(",", " ").split()
        for addr in found:
            if not addr.isascii() or not re.fullmatch(r"[^@\s<>(),;:\"\[\]]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+", addr):
                raise ValueError(f"“{item.strip()}”不是有效的邮箱地址：请只写地址本身（如 name@example.edu.cn），"
                                 "多个地址分开写成列表的几项，符号用半角（英文）的 @ . _ -")
            if addr.lower() not in (a.lower() for a in out):
                out.append(addr)
    return out


#: a yes-or-no setting as the office types it (``league new`` asks them with 是 / 否):
#: pydantic alone took true/false, yes/no, y/n, on/off, 1/0 and refused ``是``
YES_NO_WORDS: dict[str, bool] = {**dict.fromkeys(("是", "y", "yes", "true", "1", "对", "要"), True),
                                 **dict.fromkeys(("否", "n", "no", "false", "0", "不"), False)}
#: R2020-Q2 每人限报一项 answered yes or no, in the words ``league new`` takes for it too
ONE_EVENT_WORDS: dict[str, bool] = {
    **YES_NO_WORDS,
    **dict.fromkeys(("限报", "限报一项", "每人限报一项", "限一项", "只报一项", "每人只报一项"), True),
    **dict.fromkeys(("不限", "不限项", "可兼报", "可以兼报", "兼报", "可报多项", "不限报一项"), False)}


def yes_no_word(v: Any, words: dict[str, bool] = YES_NO_WORDS) -> Any:
    """``v`` as True / False when it is one of ``words`` (full-width letters, case and a closing
    。 aside), else ``v`` itself (pydantic then says what is wrong with it).

    >>> yes_no_word("是"), yes_no_word("Ｎ"), yes_no_word("也许"), yes_no_word(True)
    (True, False, '也许', True)
    """
    if not isinstance(v, str):
        return v
    import unicodedata

    s = unicodedata.normalize("NFKC", v).strip().lower().rstrip("。.")
    return words.get(s, v)


def _yes_no(v: Any) -> Any:
    return yes_no_word(v)


def _one_event(v: Any) -> Any:
    return yes_no_word(v, ONE_EVENT_WORDS)


@dataclass(frozen=True, kw_only=True)
class UnitSpec:
    """One participating unit (分工会) of tournament.yaml: its id, names, captain, members and registered addresses."""

    __pydantic_config__ = _FORBID
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+$", description="稳定的单位编号，用于文件名和令牌")]
    name: Annotated[str, Field(min_length=1, description="单位全称，如“行政第一分工会”")]
    short: Annotated[str, Field(description="简称，用于表格和桌签")] = ""
    captain: Annotated[str, Field(description="队长 / 分工会干事")] = ""
    members: Annotated[int, Field(ge=0, le=100_000, description="会员人数（名额按此计算，不取自报名表）")] = 0
    emails: Annotated[list[str], BeforeValidator(_email_list),
                      Field(description="登记的邮箱；回执只发往这些地址")] = field(default_factory=list)
    former_names: Annotated[list[str], Field(description=(
        "单位的曾用全称或简称：改名前下发的加赛表、成绩表上按旧简称写的队名（如“行政一1队”）、评奖表“单位”栏的旧名称、"
        "项目退赛名单 withdrawn 中的旧队名照样认得。"
        "league run 会自动记住已用过的名称，一般不必填写"))] = field(default_factory=list)

    def unit(self) -> Unit:
        return Unit(id=self.id, name=self.name, captain=self.captain, members=self.members,
                    emails=tuple(e.lower() for e in self.emails), short=self.short)


@dataclass(frozen=True, kw_only=True)
class Band:
    """One band of a quota by unit size: a unit of at least ``min_members`` members may field ``entries``."""

    __pydantic_config__ = _FORBID
    min_members: Annotated[int, Field(ge=0)]
    entries: Annotated[int, Field(ge=0, le=1_000)]


@dataclass(frozen=True, kw_only=True)
class QuotaSpec:
    """How many entries (players, pairs or teams) a branch may field.

    - ``fixed``: ``per_branch`` entries (R2020-Q1); fewer is a ``QUOTA_SHORT`` warning.
    - ``bands``: by membership N (R2015-Q3): the last band with ``min_members ≤ N``, then
      ``extra_every`` more members give one more entry.
    - ``ratio``: players ≤ ``rounding``(ratio × N) (R2016-Q1); entries = max(minimum,
      players ÷ team size).
    - ``open``: no limit (R2015-Q1/Q2).
    """

    __pydantic_config__ = _FORBID
    rule: Literal["fixed", "bands", "ratio", "open"] = "open"
    per_branch: Annotated[int | None, Field(ge=0, le=1_000)] = None
    short_warning: Annotated[bool, BeforeValidator(_yes_no)] = True
    bands: list[Band] = field(default_factory=list)
    extra_every: Annotated[int | None, Field(gt=0)] = None
    ratio: Annotated[float | None, Field(gt=0, le=1)] = None
    rounding: Literal["floor", "round", "ceil"] = "floor"
    minimum: Annotated[int, Field(ge=0)] = 1

    def __post_init__(self) -> None:
        if self.rule == "fixed" and self.per_branch is None:
            raise ValueError("名额规则 rule: fixed（每单位固定名额）需要写 per_branch（每单位可报几个，如 per_branch: 2）")
        if self.rule == "bands" and not self.bands:
            raise ValueError("名额规则 rule: bands（按会员人数分档）需要写 bands（各档的 min_members 和 entries）")
        if self.rule == "ratio" and self.ratio is None:
            raise ValueError("名额规则 rule: ratio（按会员人数比例）需要写 ratio（比例，如 ratio: 0.15）")


class _Options:
    """For a spec class whose keys beside its named fields are options for the registered
    item it names (a format's, an award scheme's): pydantic gives them to its ``extra``, as
    a model's ``extra="allow"`` kept them."""

    extra: dict[str, Any]

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.extra)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from dataclasses import fields

        from pydantic_core import core_schema

        named = [f.name for f in fields(cls) if f.name != "extra"]

        def split(v: Any) -> Any:
            if not isinstance(v, dict):
                return v    # pydantic says what is wrong
            return {**{k: v[k] for k in named if k in v}, "extra": {k: x for k, x in v.items() if k not in named}}

        return core_schema.no_info_before_validator_function(split, handler(source))


@dataclass(frozen=True, kw_only=True)
class FormatSpec(_Options):
    """The competition format: ``type`` names a registered format; other keys are its options."""

    __pydantic_config__ = _FORBID
    type: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class AwardSpec(_Options):
    """Award scheme: ``scheme`` names a registered scheme; other keys are its options."""

    __pydantic_config__ = _FORBID
    scheme: str = "top_n"
    prizes: Annotated[dict[str, int], Field(description="奖项 → 奖金（元）")] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def _bare_number(v: Any, message: str) -> Any:
    """A date written compactly, eight digits ``20270320`` (YYYYMMDD; YAML reads it as an
    integer, quoted it is text) → that date, as ``2027-03-20`` is read; any other number is
    refused with ``message``: pydantic took ``deadline: 20270320`` for a Unix timestamp,
    1970-08-23 22:38 — every registration refused as late (an audit).  A datetime field
    makes the date what it makes ``2027-03-20`` (a deadline: the end of that day, §一)."""
    import re

    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        if not re.fullmatch(r"\s*[+-]?[\d_]+(?:\.\d*)?\s*", v):
            return v
        text = v.strip()
    elif isinstance(v, (int, float)):
        text = str(v)
    else:
        return v
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", text)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            raise ValueError(f"{message}，现为“{text}”：没有这一天") from None
    raise ValueError(f"{message}，现为“{text}”（一串数字只能是 8 位年月日，如 20201109）")


def _compact_datetime(v: Any) -> Any:
    return _bare_number(v, _DATETIME)


def _compact_date(v: Any) -> Any:
    return _bare_number(v, _DATE)


def _end_of_day(v: Any) -> Any:
    """A deadline written as a date alone (``2011-05-03``, or ``20110503``: see
    :func:`_bare_number`) is the end of that day, not its first minute: forms received that
    day were refused as late."""
    import re

    v = _compact_datetime(v)
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime):
        return dt.datetime.combine(v, dt.time(23, 59, 59))
    if isinstance(v, str) and re.fullmatch(r"\s*\d{4}-\d{1,2}-\d{1,2}\s*", v):
        y, m, d = (int(x) for x in v.strip().split("-"))
        try:
            return dt.datetime(y, m, d, 23, 59, 59)
        except ValueError:      # 2011-02-30: pydantic says it is no date, in our words
            return v
    return v


def _beijing(v: dt.datetime | None) -> dt.datetime | None:
    """A deadline or draw time as Beijing time (UTC+8), whatever way it was written: one
    without an offset (``2027-12-01 17:00``, or a date alone, made the end of that day
    above) is Beijing time; one with another offset is the same instant in Beijing time.
    Every time of the spec is then comparable with every other and with "now" (a naive
    deadline beside an aware one crashed the night's run sorting them)."""
    from .timeutil import TZ, aware

    return None if v is None else aware(v).astimezone(TZ)


def _clock_time(v: Any) -> Any:
    """A session time written without quotes: YAML reads ``14:00`` as the base-60 number
    840 (``08:30``, with its 0, stays text), which pydantic took for 840 seconds — the notice
    printed 00:14.  Such a number is hours and minutes (or hours, minutes and seconds)."""
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        if v < 24:                      # ``start: 14``: an hour (a base-60 H:MM is at least 60)
            return dt.time(v, 0)
        if v < 24 * 60:
            return dt.time(v // 60, v % 60)
        if v < 3600:                    # ``end: 25:00``: an H:MM past 23:59 (it became 00:25)
            raise ValueError(f"时间“{v // 60}:{v % 60:02d}”不存在：小时应为 0—23，请写成如 14:00、23:30"
                             "（跨过午夜的场次请分成两天的两场）")
        if v < 24 * 3600:
            return dt.time(v // 3600, v // 60 % 60, v % 60)
    return v


@dataclass(frozen=True, kw_only=True)
class EventSpec:
    """One event of tournament.yaml: its game, format, quota, team size, dates and awards."""

    __pydantic_config__ = _FORBID
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+$")]
    name: str
    game: str
    team_size: Annotated[int, Field(ge=1, le=8)] = 1
    cross_branch: Annotated[bool, BeforeValidator(_yes_no)] = False
    quota: QuotaSpec = QuotaSpec()
    deadline: Annotated[dt.datetime | None, BeforeValidator(_end_of_day), AfterValidator(_beijing)] = None
    draw_at: Annotated[dt.datetime | None, BeforeValidator(_compact_datetime), AfterValidator(_beijing),
                       Field(description="第1轮抽签时间：不填则报名截止后即抽签；比赛当天签到后才抽签的项目"
                                         "（R2016-F2）填签到时间，签到表须在此前放入收件箱")] = None
    format: FormatSpec
    points: Annotated[dict[str, int] | None,
                      Field(description="win/draw/loss/bye/forfeit_win/forfeit_loss 的积分（bye：轮空；循环赛人数为奇数时的轮休不是比赛，不计分）")] = None
    tiebreaks: list[str] | None = None
    awards: AwardSpec = AwardSpec()
    game_options: Annotated[dict[str, Any], Field(description=(
        "棋牌种类的选项。各项目都可用 time_limit_minutes（比赛时间限定多少分钟）；象棋、围棋：game_minutes（每局不超过多少分钟）、"
        "move_seconds（每方走一着棋不超过多少秒）；斗地主：start_points（基础分）、scoring（计分 R2020 / R2011）、"
        "early_end（输完基础分即结束）、round_minutes（每轮每桌最长多少分钟）；双扣：penalty_mode。"
        "这些时限和计分办法印在通知的比赛办法里；其他键作为备注保留，不起作用"))] = field(default_factory=dict)
    former_names: Annotated[list[str], Field(description=(
        "项目的曾用名：报名表上写的是改名前的项目名称时照样认得。league run 会自动记住已用过的名称，"
        "一般不必填写"))] = field(default_factory=list)
    venue: str = ""
    referee: str = ""
    withdrawn: Annotated[list[str | int], Field(description=(
        "退赛的选手或队（姓名、工号或队名，重名时写工号，工号加引号如 \"001033\"）：从下一次抽签起不再编排"
        "（瑞士制、分组积分编排、淘汰赛及分组后的淘汰赛、三人桌）；已赛成绩保留，名次照常排列；从未上场就退赛的"
        "不排名次。循环赛的其余场次仍在成绩表上，由裁判按弃权填写；成绩尚未收齐的那一轮里他的轮空不计分（按缺席计，"
        "晋级签不再晋级）"))] = \
        field(default_factory=list)
    voided_draws: Annotated[list[str | int], Field(description=(
        "作废的抽签：DRAWN_ELSEWHERE 提示中“抽签摘要”（加引号，至少写前 8 位，如 [\"bef29970\"]）。收件箱里按这次抽签下发的成绩表从此不再读取，"
        "本项目照常抽签。只在确要作废另一个输出文件夹里公布过的抽签（原输出文件夹已无法恢复）时填写"))] = \
        field(default_factory=list)

    @property
    def is_team(self) -> bool:
        return self.team_size > 1


@dataclass(frozen=True, kw_only=True)
class SessionSpec:
    """One session (场次) of the schedule: when and where."""

    __pydantic_config__ = _FORBID
    date: Annotated[dt.date, BeforeValidator(_compact_date)]
    start: Annotated[dt.time, BeforeValidator(_clock_time)]
    end: Annotated[dt.time, BeforeValidator(_clock_time)]
    venue: str = ""

    def label(self) -> str:
        """``2011年5月16日 14:00—18:00`` (the date unpadded, as the notices and certificates
        print dates; published rounds recorded ``2011年05月16日 …``: see :func:`same_label`)."""
        from .timeutil import cn_date

        return f"{cn_date(self.date)} {self.start:%H:%M}—{self.end:%H:%M}"


@dataclass(frozen=True, kw_only=True)
class BudgetItem:
    """One line of the budget in tournament.yaml."""

    __pydantic_config__ = _FORBID
    name: str
    quantity: Annotated[int, Field(ge=0)]
    unit: str = ""
    unit_price: Annotated[int, Field(ge=0)]
    source: str = ""

    @property
    def total(self) -> int:
        return self.quantity * self.unit_price


@dataclass(frozen=True, kw_only=True)
class CommitteeRole:
    """One role of the organising committee and who holds it."""

    __pydantic_config__ = _FORBID
    role: str
    names: list[str]


@dataclass(frozen=True, kw_only=True)
class NoticeUnits:
    """How the notice's section on who takes part reads, as each client notice words it:
    T2020 lists its branches as teams with their captains (以分工会为单位参赛，队长由分工会干事担任：第一队……);
    T2015 (四、参加人员：凡学校工会会员均可报名参加) and T2016 (三、参赛人员：本校工会会员) say only who may
    enter; T2011 says the departments take part (院各部门积极参与)."""

    __pydantic_config__ = _FORBID
    heading: Annotated[str, Field(min_length=1, description="小节标题，如 参赛单位、参加人员、参赛人员")] = "参赛单位"
    text: Annotated[str, Field(description=(
        "小节的第一段，原样印出（如“凡学校工会会员均可报名参加。”）；为空时写“以分工会为单位参赛，队长由分工会干事担任：”"
        "（listing 为 teams 且有单位填了队长），否则写“以分工会为单位参赛：”（listing 为 none 时写“以分工会为单位报名参赛。”），"
        "分工会换成 unit_word"))] = ""
    listing: Annotated[Literal["teams", "names", "none"], Field(description=(
        "teams：逐队列出“第一队：行政第一分工会，队长庞雪平；”（单位没填队长的不写队长）；"
        "names：各单位名称连成一段；none：不列单位"))] = "teams"


@dataclass(frozen=True, kw_only=True)
class NoticeAttachment:
    """A further attachment of the notice, printed after its registration form: the rules of
    an event, as T2015's 附件二《双扣比赛规则》 and T2020's 附件《第四届教职工棋牌联赛项目及规则》."""

    __pydantic_config__ = _FORBID
    title: Annotated[str, Field(min_length=1, description="附件标题，如 双扣比赛规则（通知末尾列为“2．《双扣比赛规则》”）")]
    text: Annotated[str, Field(min_length=1, description="附件正文：每行一段，原样印出（空行略去）")]


def name_key(text: str) -> str:
    """A name as the forms' reader sees it: NFKC (full-width ``１（`` as ``1(``), no spaces,
    every name dot as ``·`` (:func:`pipeline.text.name_dots`, as
    :func:`pipeline.ingest.workbook.strip_spaces` reads the form's cells).  Two units or
    events whose names differ only so are one to a captain's form."""
    from unicodedata import normalize

    from .text import name_dots

    return "".join(name_dots(normalize("NFKC", text)).split())


def _unique_units(v: list[UnitSpec]) -> list[UnitSpec]:
    ids = [u.id for u in v]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"单位编号重复：{'、'.join(sorted(dup))}（每个单位的 id 只能出现一次）")
    names = [n for u in v for n in {u.name, u.short} if n]
    keys = [name_key(n) for n in names]
    dup = {n for n, k in zip(names, keys) if keys.count(k) > 1}
    if dup:
        raise ValueError(f"单位名称或简称重复：{'、'.join(sorted(dup))}（同一单位不能列两次，不同单位的名称和简称也不能相同）")
    return v


def _unique_events(v: list[EventSpec]) -> list[EventSpec]:
    seen: set[str] = set()
    for e in v:
        for k in dict.fromkeys((e.id, name_key(e.name))):
            if k in seen:
                raise ValueError(f"项目重复：{e.name if k != e.id else k}（每个项目的 id 和名称只能出现一次）")
            seen.add(k)
    return v


@dataclass(frozen=True, kw_only=True)
class TournamentSpec:
    """The whole tournament.yaml: the tournament, its units, events, schedule, awards and documents."""

    __pydantic_config__ = _FORBID
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+$")]
    name: str
    host: Annotated[str, Field(description="主办单位")] = ""
    organizer: Annotated[str, Field(description="承办单位")] = ""
    signature: Annotated[str, Field(description="落款：通知、证书和回执的署名单位（为空时用承办单位，再空用主办单位）")] = ""
    co_organizers: list[str] = field(default_factory=list)
    theme: str = ""
    purpose: str = ""
    period: Annotated[str, Field(description=(
        "举办时间，印在通知开头：“……，校工会定于2015年9月至12月期间举办……”（写“2015年9月至12月期间”）；"
        "为空时写“……决定举办……”"))] = ""
    notice_date: Annotated[dt.date | None, BeforeValidator(_compact_date)] = None
    script: Literal["simplified", "traditional"] = "simplified"
    committee: list[CommitteeRole] = field(default_factory=list)
    contact: str = ""
    submit_to: Annotated[str, Field(description="报名表发送到哪里（工会办公室的收件邮箱），印在通知和报名表的填表说明上；"
                                                "为空时写联系人")] = ""
    unit_word: Annotated[str, Field(description="单位的称呼：分工会 / 部门")] = "分工会"
    notice_units: Annotated[NoticeUnits, Field(description="通知里“参赛单位”一节怎样写：标题、第一段、是否列出各单位和队长（见下文）")] = \
        NoticeUnits()
    notice_attachments: Annotated[list[NoticeAttachment], Field(description=(
        "通知的其他附件（如比赛规则），印在报名表之后，每项 title 与 text（见下文）"))] = field(default_factory=list)
    units: Annotated[list[UnitSpec], AfterValidator(_unique_units)]
    events: Annotated[list[EventSpec], AfterValidator(_unique_events)]
    sessions: list[SessionSpec] = field(default_factory=list)
    venue: str = ""
    notice_time: Annotated[list[str], Field(description=(
        "通知“时间地点”一节的文字，每项一段，原样印出（时间、地点尚未正式确定时用，如"
        "“具体比赛时间和地点将另行通知。”；sessions 照常用于赛程和对阵表）；为空时按 sessions 和 venue 列出"))] = \
        field(default_factory=list)
    pickup_points: list[str] = field(default_factory=list)
    late_policy: Literal["reject", "accept-with-warning"] = "reject"
    one_event_per_person: Annotated[bool, BeforeValidator(_one_event)] = False
    budget: list[BudgetItem] = field(default_factory=list)
    prize_budget_source: str = ""
    discretionary_awards: list[str] = field(default_factory=list)
    award_note: Annotated[str, Field(description=(
        "通知“奖项设置”一节最后一句，原样印出（如“并设若干决赛参与奖。”）；写空字符串 \"\" 则不印"))] = \
        "获奖者颁发证书和奖品。"
    branch_award: Annotated[str, Field(description="按单位颁发的奖项，如 组织奖")] = ""
    notes: Annotated[list[str], Field(description="注意事项，原样印在通知里")] = field(default_factory=list)
    seed: Annotated[str, Field(description="抽签随机种子的前缀（为空时用赛事编号）")] = ""
    secret_file: str = "secret.key"

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: the lookups remembered below are not part of the spec (and
        would make the kept spec's bytes depend on what the run looked up)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    @property
    def issuer(self) -> str:
        """Who signs the notice, certificates and receipts."""
        return self.signature or self.organizer or self.host

    # -- lookups -------------------------------------------------------------------
    def unit(self, unit_id: str) -> UnitSpec | None:
        return self._units_by_id.get(unit_id)

    def unit_of_address(self, address: str | None) -> UnitSpec | None:
        """The unit that registered this e-mail address (``emails``; case ignored; the first
        unit when two list it), or None."""
        a = (address or "").strip().lower()
        return self._units_by_address.get(a) if a else None

    @cached_property
    def _units_by_address(self) -> dict[str, UnitSpec]:
        """Units by registered address, built once (a night asks it for every received file)."""
        out: dict[str, UnitSpec] = {}
        for u in self.units:
            for e in u.emails:
                out.setdefault(e.lower(), u)
        return out

    @cached_property
    def _units_by_id(self) -> dict[str, UnitSpec]:
        """Units by id, built once (a province's league asks for hundreds of units, often)."""
        out: dict[str, UnitSpec] = {}
        for u in self.units:
            out.setdefault(u.id, u)
        return out

    def event(self, key: str) -> EventSpec | None:
        """Find an event by id or Chinese name, spaces ignored, in either script
        (``雙升`` finds 双升).  Answers are remembered: every registration row asks."""
        memo = self._events_found
        if key not in memo:
            memo[key] = self._find_event(key)
        return memo[key]

    @cached_property
    def _events_found(self) -> dict[str, EventSpec | None]:
        return {}

    def _find_event(self, key: str) -> EventSpec | None:
        """Both sides compared in NFKC (full-width ``（）`` as ``()``): the forms' reader
        normalises a cell so, and an event named 象棋（个人） found none of its entries."""
        from .text import to_simplified

        k = name_key(key)
        found = next((e for e in self.events if k in (e.id, name_key(e.name))), None)
        if found is None and k:
            k = to_simplified(k)
            found = next((e for e in self.events if to_simplified(name_key(e.name)) == k), None)
        if found is None and k:     # a name the event had when the forms were issued
            found = next((e for e in self.events
                          if any(to_simplified(name_key(n)) == k for n in e.former_names)), None)
        return found


_ADAPTERS: dict[type, Any] = {}


def _adapter(cls: type) -> Any:
    """pydantic's validator for a spec class, built on first use.  Binds in this module the
    pydantic names the (string) annotations use, so pydantic, and :func:`typing.get_type_hints`
    after it, can read them."""
    ta = _ADAPTERS.get(cls)
    if ta is None:
        import pydantic

        g = globals()
        for name in ("AfterValidator", "BeforeValidator", "Field"):
            g.setdefault(name, getattr(pydantic, name))
        ta = _ADAPTERS[cls] = pydantic.TypeAdapter(cls)
    return ta


def validated(cls: type[Any], raw: Any) -> Any:
    """``raw`` (a mapping, as read from YAML) validated into the spec class ``cls``; raises
    pydantic's ``ValidationError``.  (The classes' own constructors take typed values and do
    not convert: ``validated(QuotaSpec, {"rule": "bands", "bands": [{...}]})``.)"""
    return _adapter(cls).validate_python(raw)


class Tournament:
    """A loaded tournament folder: the spec, where it lives and its secret."""

    def __init__(self, folder: Path, spec: TournamentSpec, secret: bytes) -> None:
        self.folder = folder
        self.spec = spec
        self.secret = secret
        self.spec_key = ""         # what the spec was validated from (set by load_tournament with cache_parent)
        self.spec_cached = False   # True when the spec came from that cache
        #: the SHA-256 of the tournament.yaml bytes the spec was read from ("" when not read
        #: from a file): what a run's records hash — not the file read again later, which the
        #: office may have saved meanwhile (its edit then never reached the outputs)
        self.spec_sha256 = ""
        #: R2016-Q1, R2015-Q3 as drawn: event id → unit id → the member count the event's quota
        #: is computed from, where it differs from the unit's ``members`` now (the count
        #: recorded when the event was drawn: :func:`pipeline.run.terms_at_draw`)
        self.members_at_draw: dict[str, dict[str, int]] = {}
        #: the events tournament.yaml had on an earlier night and has no more (cancelled, as
        #: TOO_FEW_ENTRIES advises): event id → every name it had, as the ledger remembers
        #: them (:func:`pipeline.run.with_cancelled_events`).  A form's line naming one is a
        #: note (EVENT_CANCELLED), not UNKNOWN_EVENT: the form was issued with the event
        self.cancelled_events: dict[str, tuple[str, ...]] = {}

    @property
    def inbox(self) -> Path:
        return self.folder / "inbox"

    def token(self, branch_id: str, tournament_id: str | None = None) -> str:
        """R-identity: HMAC of tournament id + branch id with the tournament's secret.
        ``tournament_id``: another id than the spec's (a form issued under the id
        tournament.yaml had before: :func:`pipeline.ingest.registration.read_registration`)."""
        msg = f"{self.spec.id if tournament_id is None else tournament_id}\x1f{branch_id}".encode()
        return hmac.new(self.secret, msg, hashlib.sha256).hexdigest()[:32]

    def token_ok(self, branch_id: str, token: str, tournament_id: str | None = None) -> bool:
        return hmac.compare_digest(self.token(branch_id, tournament_id), (token or "").strip())


def _key_of(loc: tuple[Any, ...], raw: Any) -> str:
    """Render a pydantic location like ('events', 2, 'quota', 'rule') as a YAML key path,
    naming list items by their id where they have one: ``events[shuangsheng].quota.rule``."""
    parts: list[str] = []
    node = raw
    for p in loc:
        if isinstance(p, int):
            label = str(p)
            if isinstance(node, list) and p < len(node) and isinstance(node[p], dict) and "id" in node[p]:
                label = str(node[p]["id"])
            parts[-1:] = [f"{parts[-1]}[{label}]"] if parts else [f"[{label}]"]
            node = node[p] if isinstance(node, list) and p < len(node) else None
        else:
            if isinstance(p, str) and p.startswith("function-") or p in ("literal_error",):
                continue
            parts.append(str(p))
            node = node.get(p) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


_EXTRA = "不认识的键，请检查拼写（可用的键见 docs/spec-reference.md）"
_DATETIME = "日期时间格式不对，请写成 2020-11-09 15:00（或只写日期 2020-11-09 或 20201109，表示当天 23:59）"
_TIME = "时间格式不对，请写成 14:00"
_DATE = "日期格式不对，请写成 2020-11-09（或 20201109）"
_INT = "应为整数"
_BOOL = "应为 是 或 否（也可写 true / false）"
_MAPPING = "应为若干“键: 值”（缩进写在下一级）"
#: pydantic's error types → what the union office reads, in Chinese only (pydantic's English
#: ended every message: "（Input should be a valid datetime or date, invalid date separator,
#: expected `-`）", an audit); the value typed follows where it helps (:func:`_in_chinese`)
_ZH = {"missing": "缺少这一项（必填）", "extra_forbidden": _EXTRA, "unexpected_keyword_argument": _EXTRA,
       "literal_error": "取值不在允许的范围内", "enum": "取值不在允许的范围内",
       "datetime_parsing": _DATETIME, "datetime_from_date_parsing": _DATETIME, "datetime_type": _DATETIME,
       "datetime_object_invalid": _DATETIME,
       "time_parsing": _TIME, "time_type": _TIME, "date_parsing": _DATE, "date_from_datetime_parsing": _DATE,
       "date_type": _DATE, "date_from_datetime_inexact": "应只写日期，不带时间，如 2020-11-09",
       "int_parsing": _INT, "int_type": _INT, "int_from_float": "应为整数（不能有小数）",
       "int_parsing_size": "数字太大", "float_parsing": "应为数字", "float_type": "应为数字",
       "finite_number": "应为数字", "bool_parsing": _BOOL, "bool_type": _BOOL,
       "string_type": "应为文字（写在冒号后的一行文字，不是列表或“键: 值”）", "string_unicode": "应为文字",
       "list_type": "应为列表（每项一行，以“- ”开头）", "tuple_type": "应为列表（每项一行，以“- ”开头）",
       "set_type": "应为列表（每项一行，以“- ”开头）", "iterable_type": "应为列表（每项一行，以“- ”开头）",
       "dict_type": _MAPPING, "mapping_type": _MAPPING, "dataclass_type": _MAPPING, "dataclass_exact_type": _MAPPING,
       "model_type": _MAPPING, "model_attributes_type": _MAPPING,
       "greater_than_equal": "数值太小", "greater_than": "数值太小", "less_than_equal": "数值太大",
       "less_than": "数值太大", "multiple_of": "数值不对",
       "string_too_short": "不能为空", "string_too_long": "太长", "too_short": "项数太少", "too_long": "项数太多",
       "string_pattern_mismatch": "格式不对", "none_required": "这里不用填写"}
#: the bounds pydantic names in its ``ctx`` → how a bound is said (``不能小于 0``)
_BOUNDS = {"ge": "不能小于 {}", "gt": "应大于 {}", "le": "不能大于 {}", "lt": "应小于 {}", "multiple_of": "应为 {} 的倍数"}
#: the one pattern the spec's ids have
_ID_PATTERN = r"^[A-Za-z0-9_-]+$"


def _typed(value: Any) -> str:
    """A value as the office typed it, for a message (``“2026/12/01 17:00”``, ``“-5”``); "" for
    a list or mapping (too long to show, and said by what is expected).

    >>> _typed("band"), _typed(-5), _typed(12.5), _typed([1]), _typed(None)
    ('“band”', '“-5”', '“12.5”', '', '空')
    """
    if value is None:
        return "空"
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float, str, dt.date, dt.time)):
        text = _number(value) if isinstance(value, (int, float)) else str(value)
    else:
        return ""
    return f"“{text[:40]}{'…' if len(text) > 40 else ''}”"


def _number(n: Any) -> str:
    """A bound or value as the office writes it: ``1``, not pydantic's ``1.0``."""
    return str(int(n)) if isinstance(n, float) and n.is_integer() else str(n)


def _in_chinese(err: dict) -> str:
    """One pydantic error as the office reads it, in Chinese only (our own validators speak
    Chinese): what is wrong, what is allowed (the values a choice takes, a bound), and what
    was typed — and a value typed with full-width characters (``per_branch: ２``) says so:
    "应为整数" alone left the office looking at a 2.  An error type without words of its own
    is said as a value not right, with the value (never pydantic's English)."""
    import difflib
    import re

    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error") or err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    value = err.get("input")
    typed = _typed(value) if kind not in ("missing", "extra_forbidden", "unexpected_keyword_argument") else ""
    out = _ZH.get(kind) or "这一项的值不对，请对照 docs/spec-reference.md 改正"
    if kind in ("literal_error", "enum"):
        allowed = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        if allowed:
            out += f"：应为 {'、'.join(allowed)} 之一"
            near = difflib.get_close_matches(str(value), allowed, n=1, cutoff=0.6) if isinstance(value, str) else []
            if typed:
                out += f"，现为{typed}"
            if near:
                out += f"。是不是 {near[0]}？"
            return out
    elif kind == "string_pattern_mismatch":
        out += "（只能用英文字母、数字、- 和 _，不能有汉字、空格或其他符号）" if ctx.get("pattern") == _ID_PATTERN else ""
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than", "multiple_of"):
        bound = next(((b, ctx[b]) for b in _BOUNDS if b in ctx), None)
        if bound is not None:
            out = _BOUNDS[bound[0]].format(_number(bound[1]))
    elif kind == "string_type" and isinstance(value, bool):
        return "应为文字：YAML 把 yes、no、on、off、true、false 读成是非值，不是文字，请给这个值加上引号（如 'yes'）"
    elif kind == "string_type" and isinstance(value, (int, float, dt.date, dt.time)):
        # ``contact: 88880000``, ``name: 2026``: YAML read a number (a date) where text belongs
        what = "日期" if isinstance(value, (dt.date, dt.time)) else "数字"
        return f"应为文字：{_typed(value)}被读成了{what}，请给它加上引号，如 '{value}'"
    elif kind in ("string_too_long", "too_long") and "max_length" in ctx:
        out += f"（最多 {ctx['max_length']} {'个字' if kind == 'string_too_long' else '项'}）"
    elif kind == "too_short" and "min_length" in ctx:
        out += f"（至少 {ctx['min_length']} 项）"
    # (a number typed as words says what was typed itself: _number_typed below)
    if typed and kind != "string_too_short" and not (isinstance(value, str) and kind in ("int_parsing", "float_parsing")):
        out += f"，现为{typed}"
    if kind in ("extra_forbidden", "unexpected_keyword_argument") and err.get("loc"):
        cls = _class_at(err["loc"][:-1])
        key = str(err["loc"][-1])
        near = _near_key(key, cls)
        if near:
            out += f"。是不是 {near}？"
        elif cls is not None and key in _spec_keys() - _spec_keys(cls):
            out += "。这个键不能写在这一层：请核对缩进，或它所属的位置（见 docs/spec-reference.md）"
    if isinstance(value, str) and kind.endswith("_parsing"):     # a number, date or time
        import unicodedata

        wide = [c for c in value if unicodedata.east_asian_width(c) == "F" and unicodedata.normalize("NFKC", c) != c]
        if wide:
            out += (f"。其中有全角字符（如“{wide[0]}”），请改用半角（英文输入法）："
                    f"{unicodedata.normalize('NFKC', value)}")
        elif kind in ("int_parsing", "float_parsing"):
            out += _number_typed(value)
    return out


def key_lines(text: str, keys: Iterable[str]) -> dict[str, int]:
    """Each key path of a spec problem (``events[xiangqi].deadline``, ``units[b01].name``,
    ``sessions[1].end``, ``late_polcy``) → the line (1-based) of tournament.yaml's ``text``
    where it is written, from the YAML nodes' marks; a key not written (a required key
    missing) → the line of the nearest item or key above it that is.  Items are named by
    their ``id``, else by their place.  Keys that are no path (``(syntax)``) and text that
    does not parse are left out.

    >>> key_lines("id: t\\nevents:\\n  - id: xq\\n    deadlin: 1\\n  - {id: go, name: 围棋}\\n",
    ...           ["events[xq].deadlin", "events[go].name", "events[go].game", "events[1]", "(syntax)"])
    {'events[xq].deadlin': 4, 'events[go].name': 5, 'events[go].game': 5, 'events[1]': 5}
    """
    import re

    import yaml

    try:
        root = yaml.compose(text, Loader=_loader())
    except (yaml.YAMLError, ValueError):
        return {}
    out: dict[str, int] = {}
    for key in keys:
        if not key or key.startswith(("(", "…")) or root is None:
            continue
        node, line = root, None
        for name, item in re.findall(r"([^.\[\]]+)|\[([^\]]*)\]", key):
            found = None
            if name and isinstance(node, yaml.MappingNode):
                found = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == name), None)
                at = next((k for k, v in node.value if v is found), None) if found is not None else None
            elif not name and isinstance(node, yaml.SequenceNode):
                found = next((c for c in node.value if isinstance(c, yaml.MappingNode) and any(
                    isinstance(k, yaml.ScalarNode) and k.value == "id" and isinstance(v, yaml.ScalarNode)
                    and v.value == item for k, v in c.value)), None)
                if found is None and item.isdigit() and int(item) < len(node.value):
                    found = node.value[int(item)]
                at = found
            if found is None:
                break
            node, line = found, at.start_mark.line + 1
        if line is not None:
            out[key] = line
    return out


def _number_typed(value: str) -> str:
    """What a number typed as words says (``members: 96人``, ``per_branch: 四``): "应为整数"
    alone did not show the office what it had typed, nor what to type instead.

    >>> _number_typed("96人"), _number_typed("两人")
    ('。现为“96人”：只写数字 96，不要写“人”等字', '。现为“两人”：请写阿拉伯数字（如 2），不要写汉字数字')
    """
    import re

    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(\D+?)\s*", value)
    if m:
        return f"。现为“{value}”：只写数字 {m.group(1)}，不要写“{m.group(2)}”等字"
    digits = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
    text = value.strip()
    if text[:1] in digits:      # 四, 两人: that number; 十二: an example
        n = digits[text[0]] if len(text) == 1 or text[1] not in digits else 4
        return f"。现为“{value}”：请写阿拉伯数字（如 {n}），不要写汉字数字"
    return f"。现为“{value}”"


#: a key at the start of a line (or of a list item / flow mapping) followed by a full-width colon
_WIDE_COLON = r"^\s*(?:-\s+)?\{?\s*([A-Za-z_][A-Za-z0-9_]*)\s*："


def _full_width_colon(text: str) -> str:
    """``id： checkers`` typed with the Chinese input method: PyYAML said "mapping values are
    not allowed here" at the next line, and never "全角".  The line, and what to type.

    >>> _full_width_colon("id: a\\nevents:\\n  - id： b\\n")
    '第 3 行“  - id： b”中“id”后的冒号是全角“：”：请改成半角冒号加空格“: ”（英文输入法）。'
    """
    import re

    known = _spec_keys()
    # only the spec's own keys: "- QQ：123456" or "PS：请…" in a note is text, not a key
    m = next((m for m in re.finditer(_WIDE_COLON, text, re.M) if m.group(1) in known), None) if "：" in text else None
    if m is None:
        return ""
    line = text.count("\n", 0, m.start(1)) + 1
    shown = text.splitlines()[line - 1]
    return f"第 {line} 行“{shown}”中“{m.group(1)}”后的冒号是全角“：”：请改成半角冒号加空格“: ”（英文输入法）。"


def _odd_spaces(text: str, upto: int | None = None) -> str:
    """A full-width space (the Chinese input method's 　) in a line's indentation, before a key
    or right after a key's colon, or a Tab in an indentation: invisible, and PyYAML says
    "缩进不对" at another line, "缺少冒号", or an unknown key "　venue".  The line, and what
    to type; "" when there is none.  Not inside a block of text (``text: |``, where a
    paragraph may well begin with 　　), nor after line ``upto`` (where the parser gave up:
    a line below it is not what stopped it).

    >>> _odd_spaces("id: a\\nevents:\\n  - id: b\\n    team_size:\\u30001\\n")
    '第 4 行“    team_size:　1”里有全角空格（中文输入法的空格）：YAML 只认半角空格，请删去它，改用英文输入法打空格。'
    """
    import re

    known = _spec_keys()
    block: int | None = None         # the indentation of the key whose block of text this is
    for n, line in enumerate(text.splitlines(), 1):
        if upto is not None and n > upto:
            break
        width = len(line) - len(line.lstrip(" \t\u3000"))
        if block is not None:
            if not line.strip() or width > block:
                continue
            block = None
        if re.match(r"[^#]*:\s*[|>][-+0-9]*\s*(#.*)?$", line):
            block = width
        lead = re.match(r"[ \t\u3000-]*", line).group(0)
        key = re.match(r"[ \t\u3000-]*([A-Za-z_]+)\s*:(\s*)", line)
        after = key is not None and key.group(1) in known and "\u3000" in key.group(2)
        if "\u3000" in lead or after:
            return (f"第 {n} 行“{line}”里有全角空格（中文输入法的空格）：YAML 只认半角空格，"
                    "请删去它，改用英文输入法打空格。")
        if "\t" in lead and line.strip():
            return f"第 {n} 行的缩进里有 Tab 字符：YAML 不能用 Tab 缩进，请用空格代替 Tab（每层缩进两个空格）。"
    return ""


class _SaidAtItsLine(ValueError):
    """An unquoted date YAML reads as a date, but not on the calendar (2020-11-31); or a key
    written twice in one mapping (said at its line, as the date is)."""


@lru_cache(maxsize=1)
def _loader() -> Any:
    """libyaml's safe loader when PyYAML has it (5× faster on a 200-unit spec), else PyYAML's
    own — whose timestamps that are no date (``deadline: 2020-11-31T15:00:00+08:00``, unquoted
    as the samples write them) are said at their line instead of a traceback (PyYAML raises
    a bare ValueError: day is out of range for month)."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc,valid-type]
        pass

    def timestamp(loader: Any, node: Any) -> Any:
        try:
            return loader.construct_yaml_timestamp(node)
        except (ValueError, OverflowError):
            raise _SaidAtItsLine(f"第 {node.start_mark.line + 1} 行的日期“{node.value}”在日历上没有（月份或日子超出范围）："
                              "请改成实有的日期，例如 2020-11-30T15:00:00+08:00（11 月只有 30 日）") from None

    def mapping(loader: Any, node: Any) -> Any:
        # a key written twice in one mapping (a second ``deadline:`` typed above the old one):
        # YAML keeps the last silently — the clerk's new line lost, an event drawn early
        first: dict[str, int] = {}
        for key, _ in node.value:
            if getattr(key, "tag", "") == "tag:yaml.org,2002:str" or isinstance(getattr(key, "value", None), str):
                if key.value in first:
                    raise _SaidAtItsLine(f"第 {key.start_mark.line + 1} 行的键“{key.value}”在同一处已经写过"
                                      f"（第 {first[key.value]} 行），只能写一次：请删去其中不要的一行"
                                      "（YAML 只会采用最后写的那个值）")
                first[key.value] = key.start_mark.line + 1
        return (yield from loader.construct_yaml_map(node))

    Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp)
    Loader.add_constructor("tag:yaml.org,2002:map", mapping)
    return Loader


def _yaml_problem(e: Any, text: str) -> str:
    """A YAML syntax error in Chinese, at the line at fault, the parser's words in brackets.
    PyYAML's ``problem_mark`` is where it gave up — for a key without its colon or an
    unclosed quote, the next line or the end of the file; its ``context_mark`` is the line
    the clerk must fix.  Tab, missing colon, unclosed quote and bad indentation are said
    with what to type."""
    problem, context = str(getattr(e, "problem", "") or ""), str(getattr(e, "context", "") or "")
    pmark, cmark = getattr(e, "problem_mark", None), getattr(e, "context_mark", None)
    lines = text.splitlines()

    def at(mark: Any) -> str:
        return f"第 {mark.line + 1} 行" if mark is not None else ""

    tab = next((m for m in (pmark, cmark) if m is not None and m.line < len(lines) and "\t" in lines[m.line]), None)
    if tab is not None and ("\\t" in problem or "\t" in problem or "cannot start any token" in problem):
        said = f"{at(tab)}有 Tab 字符：YAML 不能用 Tab 缩进，请用空格代替 Tab（每层缩进两个空格）"
    elif "simple key" in context and "':'" in problem:
        said = f"{at(cmark or pmark)}缺少冒号：每一项要写成“键: 值”（半角冒号，冒号后加一个空格）"
    elif "quoted scalar" in context:
        said = f"{at(cmark or pmark)}的引号没有配对：开头有引号，结尾也要有同样的引号（或把引号都去掉）"
    elif "block" in problem or "block" in context or "mapping values are not allowed" in problem \
            or "indicator" in problem or "indentation" in problem:
        said = (f"{at(pmark)}缩进不对：同一层的项要用空格对齐，下一层比上一层多缩进；"
                "也请检查上一行的冒号和引号")
    else:
        where = f"第 {pmark.line + 1} 行第 {pmark.column + 1} 列附近" if pmark is not None else ""
        said = f"YAML 格式有误（缩进、冒号或引号）{where}"
    return f"{said}。{_wide_punctuation(lines, cmark, pmark)}（原文：{' '.join(str(e).split())}）"


#: full-width punctuation the Chinese input method types where YAML wants its half-width sign
_WIDE_SIGNS = {"，": ",", "｛": "{", "｝": "}", "［": "[", "］": "]", "－": "-", "＃": "#"}


def _wide_punctuation(lines: list[str], *marks: Any) -> str:
    """For a YAML error: the full-width punctuation (``，｛｝［］－``) in the lines from the one
    above the parser's context mark to where it gave up — ``short: 行政一，captain: …`` in a flow
    mapping was said only as "YAML 格式有误 … 第 38 行第 48 列附近", ``－ {id: …}`` as 缩进不对.
    "" when there is none (a comma in a name, on another line, is no concern of it).

    >>> _wide_punctuation(["a: 1", "  - {id: b01，name: x}"], None, type("M", (), {"line": 1})())
    '第 2 行有全角的“，”：YAML 的标点要用半角（英文输入法），请改成“,”。'
    """
    at = [m.line for m in marks if m is not None]
    if not at:
        return ""
    # (from the line above: the parser often gives up at the line after the one at fault)
    for n in range(max(min(at) - 1, 0), min(max(at), len(lines) - 1) + 1):
        line = lines[n].split("#", 1)[0] if "#" in lines[n] else lines[n]
        found = [c for c in dict.fromkeys(line) if c in _WIDE_SIGNS]
        if found:
            return (f"第 {n + 1} 行有全角的{'、'.join(f'“{c}”' for c in found)}：YAML 的标点要用半角（英文输入法），"
                    f"请改成{'、'.join(f'“{_WIDE_SIGNS[c]}”' for c in found)}。")
    return ""


def _spec_keys(*classes: type) -> set[str]:
    """The keys of these spec classes (all of them when none is named)."""
    import dataclasses

    names: set[str] = set()
    for cls in classes or (TournamentSpec, UnitSpec, EventSpec, QuotaSpec, AwardSpec, FormatSpec, Band,
                           SessionSpec, BudgetItem, CommitteeRole):
        names.update(f.name for f in dataclasses.fields(cls) if f.name != "extra")
    return names


def _class_at(loc: tuple[Any, ...]) -> type | None:
    """The spec class at a pydantic location (the parent of an offending key), or None."""
    items = {"units": UnitSpec, "events": EventSpec, "sessions": SessionSpec, "budget": BudgetItem,
             "committee": CommitteeRole, "bands": Band}
    keys = [p for p in loc if isinstance(p, str) and not p.startswith("function-")]
    if not keys:
        return TournamentSpec
    last = keys[-1]
    if last in ("quota",):
        return QuotaSpec
    if last in ("format",):
        return FormatSpec
    if last in ("awards",):
        return AwardSpec
    return items.get(last)


def _near_key(key: str, cls: type | None = None) -> str:
    """The key of ``cls`` (the class at that place) nearest a mistyped one (``withdrawal`` →
    ``withdrawn``), or "" — never the key itself (written at the wrong level)."""
    import difflib

    names = _spec_keys(cls) if cls is not None else _spec_keys()
    near = difflib.get_close_matches(key, sorted(names - {key}), n=1, cutoff=0.75)
    return near[0] if near else ""


def parse_spec(raw: Any, file: str | Path = SPEC_FILE) -> TournamentSpec:
    """Validate a parsed YAML document.  Raises SpecError naming its problems (all of them,
    up to :data:`MAX_SPEC_PROBLEMS`).

    >>> parse_spec({"id": "x"}).id
    Traceback (most recent call last):
    ...
    pipeline.spec.SpecError: tournament.yaml: name: 缺少这一项（必填）
    tournament.yaml: units: 缺少这一项（必填）
    tournament.yaml: events: 缺少这一项（必填）
    """
    if not isinstance(raw, dict):
        raise SpecError(file, "(top level)", "tournament.yaml 应是一组“键: 值”（id、name、units、events …）")
    from pydantic import ValidationError

    try:
        spec = validated(TournamentSpec, raw)
    except ValidationError as e:
        _raise_all(file, [(_key_of(err["loc"], raw), _in_chinese(err)) for err in e.errors()])
    _check_sessions(spec, file)
    _check_members(spec, raw, file)
    _check_registries(spec, file)
    return spec


#: quota rules computed from a unit's members (R2015-Q3 bands, R2016-Q1 ratio)
MEMBER_QUOTAS = ("bands", "ratio")


def member_rules(events: Iterable[tuple[str, str]]) -> str:
    """The events (name, quota rule) whose quota is computed from the units' members, as a
    message names them (“掼蛋”（按会员人数比例）); "" when none is."""
    return "、".join(f"“{name}”（{'按会员人数比例' if rule == 'ratio' else '按会员人数分档'}）"
                    for name, rule in events if rule in MEMBER_QUOTAS)


def _check_members(spec: TournamentSpec, raw: dict[str, Any], file: str | Path) -> None:
    """A unit with no members (missing, or 0) while an event's quota is computed from them
    (ratio, bands) is an error at that unit: its form said 按本单位会员 0 人的 15% 计算 (or
    本单位无名额) and nothing else said so.  Every such unit is said at once."""
    rules = member_rules((ev.name, ev.quota.rule) for ev in spec.events)
    if not rules:
        return
    items = raw.get("units") if isinstance(raw.get("units"), list) else []
    problems = []
    for i, u in enumerate(spec.units):
        if u.members:
            continue
        given = i < len(items) and isinstance(items[i], dict) and items[i].get("members") is not None
        problems.append((f"units[{u.id}].members",
                         f"单位“{u.name}”的会员人数（members）{'为 0' if given else '没有填写'}，"
                         f"而项目{rules}的名额按各单位会员人数计算：请填写该单位的 members（会员人数，整数，如 40）"))
    if problems:
        _raise_all(file, problems)


def _check_sessions(spec: TournamentSpec, file: str | Path) -> None:
    """Every session ends after it starts (``league new`` asks again; a spec written by hand
    printed 14:00—12:00 on the notice) — all such sessions said at once."""
    problems = [(f"sessions[{i}]", f"第 {i + 1} 场（{s.date:%Y-%m-%d}）的结束时间 end（{s.end:%H:%M}）"
                 f"不晚于开始时间 start（{s.start:%H:%M}）：请改正 end 或 start，结束要晚于开始"
                 "（跨过午夜的场次请分成两天的两场）")
                for i, s in enumerate(spec.sessions) if s.end <= s.start]
    if problems:
        _raise_all(file, problems)


def _raise_all(file: str | Path, problems: "list[tuple[str, str]]") -> None:
    """Raise one SpecError for every (key, problem) found (each said once, at most
    :data:`MAX_SPEC_PROBLEMS`, and how many more there are)."""
    problems = list(dict.fromkeys(problems))
    more = len(problems) - MAX_SPEC_PROBLEMS
    said = problems[:MAX_SPEC_PROBLEMS] + ([("…", f"另有 {more} 处问题，改正以上各处后再运行即可看到")] if more > 0 else [])
    (key, problem), *also = said
    raise SpecError(file, key, problem, tuple(also)) from None


def _check_registries(spec: TournamentSpec, file: str | Path) -> None:
    """Names in the spec (games, formats, tiebreaks, award schemes) must be registered —
    every event's checked, and all their problems said at once."""
    from . import registries

    problems = []
    for ev in spec.events:
        problem = registries.check_event(ev, spec)
        if problem:
            key, msg = problem
            problems.append((f"events[{ev.id}].{key}", msg))
    if problems:
        _raise_all(file, problems)


def load_tournament(folder: str | Path, cache_parent: Path | None = None) -> Tournament:
    """Load and validate ``folder/tournament.yaml`` and the branch-token secret.

    ``cache_parent``: the parent of the tournament's output folder (``league run``'s
    ``--out``), where :func:`keep_spec` keeps the spec validated last time
    (``<cache_parent>/<id>/.spec.pickle``, the id found without parsing YAML).  It is
    used only when it was made from these very bytes of ``tournament.yaml`` by this code
    (and this pydantic and Python): the validated spec depends on nothing else, so a rerun
    skips parsing YAML and validating (50 ms at 800 units, and the YAML library's import).
    A missing, stale or unreadable cache only means the file is parsed again."""
    folder = Path(folder)
    path = folder / SPEC_FILE
    if not folder.is_dir():
        if folder.is_file():    # league run …/tournament.yaml: the file, not its folder
            raise SpecError(folder, "(folder)", f"这是一个文件，不是赛事文件夹：请给出它所在的文件夹，如 league run {folder.parent}")
        raise SpecError(folder, "(folder)", "不是赛事文件夹（没有这个文件夹）")
    if not path.is_file():
        raise SpecError(path, "(file)", "缺少 tournament.yaml：赛事文件夹里必须有这个配置文件（可用 league new 生成）")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise SpecError(path, "(encoding)", f"文件不是 UTF-8 编码（第 {line} 行起；多半是用 Windows 记事本等以 ANSI/GBK 保存的）："
                        "请用记事本打开，“另存为”时把编码选为 UTF-8 后保存，再运行。"
                        f"（原文：{e}）") from None
    key, spec = "", None
    if cache_parent is not None:
        from .quick import id_in_spec

        key = spec_key(data)
        tid = id_in_spec(text)
        spec = _cached_spec(Path(cache_parent) / tid / SPEC_CACHE, key) if tid else None
    cached = spec is not None
    if spec is None:
        import yaml   # here: a rerun that finds its spec cached never imports the YAML library

        try:
            # libyaml's safe loader when PyYAML has it (5× faster on a 200-unit spec), else PyYAML's
            # own; YAML reads \r\n and \r as line breaks, as the text mode's newline translation did
            raw = yaml.load(text, Loader=_loader())
        except _SaidAtItsLine as e:
            raise SpecError(path, "(syntax)", str(e)) from None
        except yaml.YAMLError as e:
            wide = _full_width_colon(text)
            mark = getattr(e, "problem_mark", None)
            odd = _odd_spaces(text, mark.line + 2 if mark is not None else None) if not wide else ""
            wide = wide or (odd and f"{odd}（原文：{' '.join(str(e).split())}）")
            if wide:
                raise SpecError(path, "(syntax)", wide) from None
            raise SpecError(path, "(syntax)", _yaml_problem(e, text)) from None
        try:
            spec = parse_spec(raw, path)
        except SpecError as e:
            # a key typed with a full-width colon inside a flow mapping ({id： b01, …}) reads
            # as the key "id： b01": said as the colon it is
            wide = _full_width_colon(text) if "：" in f"{e.key} {e.problem}" else ""
            # … and a full-width space read into a key or a value ("　venue", "　1")
            wide = wide or (_odd_spaces(text) if "\u3000" in f"{e.key} {e.problem}" else "")
            if wide:
                raise SpecError(path, "(syntax)", wide) from None
            e.locate(text)      # each key at its line of the text read (the file may change)
            raise
    secret_path = folder / spec.secret_file
    restore = (f"它保存报名表校验码的密钥，已发出的报名表都靠它识别。"
               f"请从备份中把原来的 {secret_path.name} 恢复到赛事文件夹 {folder}（不能另换一个：换了密钥，"
               "已发出的每一份报名表都将无法识别）。只有尚未发出任何报名表的赛事才可以新建密钥："
               f"运行 python -c \"import secrets; print(secrets.token_hex(20))\" > {secret_path}，"
               f"再运行 league template {folder} --all 重新生成全部报名表并发给各单位")
    if not secret_path.is_file():
        raise SpecError(path, "secret_file", f"缺少 {secret_path}：{restore}")
    secret = secret_path.read_bytes().strip()
    if len(secret) < 16:
        # an emptied or cut key (a bad copy, a save from an editor) is the sent forms' key
        # lost, as a missing one: restored, never replaced (an audit: 「太短」 alone invited a
        # new key)
        what = "是空的" if not secret else f"只有 {len(secret)} 个字符（密钥至少有 16 个字符），多半是被改动或没有拷贝完整"
        raise SpecError(path, "secret_file", f"{secret_path} {what}：{restore}")
    t = Tournament(folder, spec, secret)
    t.spec_key, t.spec_cached = key, cached
    t.spec_sha256 = hashlib.sha256(data).hexdigest()
    return t


def spec_key(data: bytes) -> str:
    """What a validated spec is made from: the bytes of ``tournament.yaml``, the package's code
    (:func:`pipeline.lastrun.code_hash`), pydantic's version and Python's."""
    import sys

    from .lastrun import code_hash

    h = hashlib.sha256(f"spec\0{code_hash()}\0{_pydantic_version()}\0{sys.version}\0".encode())
    h.update(data)
    return h.hexdigest()


def _cached_spec(cache: Path, key: str) -> TournamentSpec | None:
    """The spec kept in ``cache`` when it was made under ``key`` (its first line), else None."""
    try:
        with open(cache, "rb") as f:
            if f.readline().rstrip(b"\n") != key.encode():
                return None
            spec = pickle.load(f)
    except Exception:   # noqa: BLE001 - missing, half-written by a killed run, another version: parse again
        return None
    return spec if isinstance(spec, TournamentSpec) else None


def keep_spec(t: Tournament, out: Path) -> None:
    """Write ``t``'s spec to ``out``/:data:`SPEC_CACHE` (``out``: the tournament's output
    folder) under the key it was loaded with — unless it came from there or was loaded
    without a cache.  Atomic; a folder that cannot be written only means the next run
    parses the file again."""
    from .fsutil import atomic_write_bytes

    if not t.spec_key or t.spec_cached:
        return
    cache = Path(out) / SPEC_CACHE
    try:
        # plain dataclasses of str, int, lists and dicts: equal specs pickle to equal bytes
        data = pickle.dumps(t.spec, protocol=pickle.HIGHEST_PROTOCOL)
        atomic_write_bytes(cache, t.spec_key.encode() + b"\n" + data)
    except Exception:   # noqa: BLE001 - a spec that cannot be kept is parsed again next time; the run goes on
        pass


def _pydantic_version() -> str:
    """pydantic's version without importing it (its import is what a rerun saves): the text of
    its ``version.py``, which names it and pins pydantic-core; "" when it cannot be found."""
    from importlib.util import find_spec

    try:
        spec = find_spec("pydantic")
        origin = spec.origin if spec else None
        return (Path(origin).parent / "version.py").read_text(encoding="utf-8") if origin else ""
    except (OSError, ImportError, ValueError):
        return ""


def event_line(text: str, event_id: str) -> int | None:
    """The line (1-based) of ``tournament.yaml``'s text where event ``event_id``'s item names
    its id (``- id: go``, ``- {id: go, …}``, ``id: "go"`` under ``- name: 围棋``), for a message
    that sends the office to it (DEADLINE_MISSING); None when it is not found so (the message
    then names the file and the event only).  The validated spec keeps no line numbers (a
    rerun reads it from its cache, without the YAML library): a plain scan of the text below
    the top-level ``events:``.

    >>> event_line("id: t\\nevents:\\n  - id: xq\\n    name: 象棋\\n  - {id: 'go', name: 围棋}\\n", "go")
    5
    >>> event_line("events:\\n  - id: go2\\n", "go") is None
    True
    """
    import re

    pattern = re.compile(r"(?:^|[\s{,-])id\s*:\s*(['\"]?)" + re.escape(event_id) + r"\1\s*(?:[,}#]|$)")
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        if line[:1] not in ("", " ", "\t", "#", "-"):
            inside = re.match(r"events\s*:", line) is not None
            continue
        if inside and not line.lstrip().startswith("#") and pattern.search(line.split(" #")[0]):
            return n
    return None
