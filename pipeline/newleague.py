"""`league new`: a union office sets up its own league without writing code.

The office answers a short questionnaire — at the prompt (in Chinese), from a one-page
问卷 workbook (:func:`write_questionnaire`), or as a dict (``answers``, for flags and
tests).  Every answer is checked on its own (a bad answer is asked again with the
reason), then the whole spec is checked with :func:`pipeline.spec.parse_spec`; a
:class:`~pipeline.spec.SpecError` is mapped back to the question that produced it.

The result is a tournament folder: ``tournament.yaml`` (with Chinese comments),
``secret.key``, an empty ``inbox/`` and one registration workbook per unit in
``templates/``.

Answers dict (every value may be text, as typed or read from a workbook)::

    {"id": "t2026", "name": "2026年教职工棋牌赛", "organizer": "校工会",
     "units": [{"name": "机关分工会", "captain": "王芳", "members": 40, "email": "a@x.cn"}],
     "events": [{"name": "象棋", "game": "象棋", "format": "淘汰赛",
                 "quota": "fixed 2", "team_size": 1}],
     "deadline": "2026-12-01 17:00",
     "sessions": [{"date": "2026-12-05", "start": "08:30", "end": "12:00"}],
     "awards": "ranked", "places": "一等奖1,二等奖2,三等奖3", "prizes": "一等奖=500"}
"""
from __future__ import annotations

import copy
import datetime as dt
import os
import re
import secrets
from pathlib import Path
from typing import Any, Callable

import yaml

from .spec import ONE_EVENT_WORDS, SPEC_FILE, SpecError, load_tournament, parse_spec
from .timeutil import TZ

QUESTIONNAIRE_SHEET = "问卷"
Ask = Callable[..., Any]


class NewLeagueError(Exception):
    """The league cannot be created; ``str()`` is a Chinese sentence saying what to change."""


class BadAnswer(ValueError):
    """One answer is unusable; ``str()`` is the Chinese reason (a second argument names the
    question, :attr:`question`)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def question(self) -> str:
        return str(self.args[1]) if len(self.args) > 1 else ""


# ------------------------------------------------------------------------------ validators
def _text(v: Any) -> str:
    return "" if v is None else str(v).strip()


def _nfkc(v: Any) -> str:
    """The answer as text with full-width digits, letters and punctuation made half-width
    (NFKC): a Chinese input method types ``８:３０`` and ``一等奖＝５００``, which Python's
    ``\\d`` matches but ``fromisoformat`` refuses — a traceback that lost every answer."""
    import unicodedata
    return unicodedata.normalize("NFKC", _text(v)).strip()


def v_required(v: Any) -> str:
    """A non-empty text.  >>> v_required(" 校工会 ")  → '校工会'"""
    s = _text(v)
    if not s:
        raise BadAnswer("不能为空，请填写。")
    return s


def v_id(v: Any) -> str:
    """An ASCII id (letters, digits, - and _), e.g. ``t2026-chess``."""
    s = _nfkc(v)      # ｔ２０２６ (a Chinese input method's full-width letters) is t2026
    if not re.fullmatch(r"[A-Za-z0-9_-]+", s):
        raise BadAnswer(f"编号 “{s}” 只能用英文字母、数字、- 和 _，例如 t2026-chess。")
    return s


def v_int(v: Any, minimum: int = 0, maximum: int | None = None, example: int = 40) -> int:
    """A whole number within bounds.  ``v_int("40")`` → 40; a unit word after it (``40人``) is
    dropped.  ``example``: the number a refusal offers (a member count's 40 was offered for
    每队人数, which is 1 to 8)."""
    from .issues import quoted

    s = re.sub(r"(?<=\d)\s*[人名位个队对]$", "", _nfkc(v))
    try:
        # (its digits as they are: float() made 400 nines inf, and int(inf) an OverflowError)
        n = int(s.split(".")[0]) if re.fullmatch(r"-?\d+(\.0+)?", s) else int(s)
    except ValueError:          # (also more than 4,300 digits)
        raise BadAnswer(f"“{quoted(s)}” 不是整数，请填写数字，例如 {example}。") from None
    if n < minimum or (maximum is not None and n > maximum):
        hi = f"至 {maximum}" if maximum is not None else "以上"
        raise BadAnswer(f"“{quoted(s)}” 超出范围，请填写 {minimum} {hi} 的整数。")
    return n


def v_emails(v: Any) -> list[str]:
    """One or more e-mail addresses (separated by ; ， 、 or spaces), or none — checked by the
    spec's own rule (:func:`pipeline.spec._email_list`), so an address accepted here is never
    refused by the final check (``a@x.edu.cn。`` passed a looser copy, then sent the clerk
    back to the first question)."""
    from .spec import _email_list
    s = _text(v)
    if not s:
        return []
    try:
        return list(_email_list(s))
    except ValueError as e:
        raise BadAnswer(str(e)) from None


def v_email(v: Any) -> str:
    """One e-mail address, or empty (no address)."""
    found = v_emails(v)
    if len(found) > 1:
        raise BadAnswer(f"这里只能填一个邮箱地址（填了 {len(found)} 个：{'、'.join(found)}）。")
    return found[0] if found else ""


def v_team_size(v: Any) -> int:
    """Players per entry, 1 to 8 (``2人`` too); a refusal offers 2 (a pair), not 40."""
    return v_int(v, 1, 8, example=2)


def _side_size(game: str) -> int:
    """The team size a blank answer means: 2 for a partnership game (掼蛋, 桥牌 …), else 1."""
    from .games import GAMES
    from .registries import side_size
    return side_size(GAMES.get(game)) if game in GAMES else 1


def v_game(v: Any) -> str:
    """A registered game (name or alias, e.g. 象棋) → its registry name."""
    from .games import GAMES
    s = _text(v)
    if s not in GAMES:
        raise BadAnswer(f"没有棋牌种类 “{s}”；可选：{_choices(GAMES)}。")
    return GAMES.canonical(s)


def v_format(v: Any) -> str:
    """A registered format (name or alias, e.g. 淘汰赛) → its registry name."""
    from .draw import FORMATS
    s = _text(v)
    if s not in FORMATS:
        if "双循环" in s and "round_robin" in FORMATS.names():
            # (a double round robin is no format here: said so, not only the list)
            raise BadAnswer(f"没有赛制 “{s}”：循环赛只有单循环（每两名参赛者或两队只赛一次，写“循环赛”或“单循环赛”）；"
                            f"不设双循环赛。可选：{_choices(FORMATS)}。")
        raise BadAnswer(f"没有赛制 “{s}”；可选：{_choices(FORMATS)}。")
    return FORMATS.canonical(s)


_ROUNDS_WORD = re.compile(r"(?:共|比赛)?(\d+)轮")
_ROUNDS_APART = re.compile(r"(?<![A-Za-z_=:：\d])(\d+)\s*轮")
_OPTION_WORD = re.compile(r"([A-Za-z_]+)\s*[=:：]\s*(\S+)")


def v_format_spec(v: Any) -> dict[str, Any]:
    """A format answer with its options → ``{"type": …, option: value …}``: a registered format
    (:func:`v_format`), then optionally the rounds (``瑞士制 5轮``) and ``option=value`` pairs
    (``淘汰赛 final_pool=4``; the spec reference lists each format's options), checked by the
    format itself.

    >>> v_format_spec("瑞士制 5轮"), v_format_spec("淘汰赛，final_pool=4")
    ({'type': 'swiss', 'rounds': 5}, {'type': 'knockout', 'final_pool': 4})
    """
    from .draw import FORMATS
    from .registries import _chinese_half
    if isinstance(v, dict):
        spec = dict(v)
        fmt = v_format(spec.pop("type", ""))
    else:
        # 瑞士制5轮 and 5 轮 as 瑞士制 5轮
        text = _ROUNDS_APART.sub(r" \1轮", _text(v))
        head, *rest = _format_words(text) or [""]
        fmt, spec = v_format(head), {}
        for word in rest:
            if word in ("共", "共计", "比赛"):       # (瑞士制 共 5 轮)
                continue
            if m := _ROUNDS_WORD.fullmatch(word):
                spec["rounds"] = int(m[1])
            elif m := _OPTION_WORD.fullmatch(word):
                value = m[2]
                spec[m[1]] = (int(value) if value.isdigit() else
                              {"true": True, "是": True, "false": False, "否": False}.get(value.lower(), value))
            else:
                raise BadAnswer(f"赛制后面的“{word}”看不懂：轮数写作“5轮”，其他选项写作“选项名=值”"
                                "（各赛制的选项见 docs/spec-reference.md）。")
    f = FORMATS.get(fmt)
    allowed = tuple(getattr(f, "OPTIONS", ()))
    title = getattr(f, "title", fmt)
    for key in spec:
        if key not in allowed:
            if key == "rounds":
                raise BadAnswer(f"赛制“{title}”的轮数由参赛人数决定，不能另写轮数：请去掉“{spec[key]}轮”。")
            raise BadAnswer(f"赛制“{title}”没有选项“{key}”"
                            + (f"；可设的选项：{'、'.join(allowed)}" if allowed else "：这个赛制没有可设的选项")
                            + "（见 docs/spec-reference.md）。")
    problem = f.check_options(spec)
    if problem:
        raise BadAnswer(f"赛制“{title}”的选项有误：{_chinese_half(problem)}")
    return {"type": fmt, **spec}


def v_scheme(v: Any) -> str:
    """A registered award scheme → its registry name: its name or an alias, its Chinese title
    as the prompt lists it (``按名次设奖``: the prompt offered ``ranked（按名次设奖）`` and
    refused the title), or the whole choice as listed (``ranked（按名次设奖）``).

    >>> v_scheme("按名次设奖"), v_scheme("ranked（按名次设奖）"), v_scheme("前n名"), v_scheme("")
    ('ranked', 'ranked', 'top_n', 'ranked')
    """
    from .score import AWARD_SCHEMES
    s = _text(v) or "ranked"
    # every word that names a scheme (its name, aliases and title), half-width, any case (前n名)
    known = {_nfkc(w).lower(): n for n, o in AWARD_SCHEMES.items()
             for w in (n, *AWARD_SCHEMES.aliases(n), getattr(o, "title", "")) if w}
    # the answer as typed, and each part of “name（title）”
    from .text import to_simplified
    for w in (_nfkc(s), *re.split(r"[()]", _nfkc(s))):
        w = w.strip().lower()
        if w in known or to_simplified(w) in known:         # (按名次設獎: a Traditional league's)
            return known.get(w) or known[to_simplified(w)]
    raise BadAnswer(f"没有评奖方式 “{s}”；可选：{_choices(AWARD_SCHEMES)}。")


def scheme_problem(scheme: str, events: list[dict[str, Any]]) -> str | None:
    """Why the award scheme ``scheme`` (a registry name) cannot be given to these events (each
    with its ``name`` and ``format``, as answered or cleaned), else None: an award scheme by
    group (各组前N名) only fits a format that ranks each group apart (分组积分编排赛) —
    given to a 淘汰赛 or 瑞士制 event the notice printed 每组一等奖一名.  Every such event is
    named, with its format as answered.

    >>> scheme_problem("group_top", [{"name": "象棋", "format": "淘汰赛"}, {"name": "掼蛋", "format": "分组积分编排赛"}]).split("；")[1]
    '项目“象棋”（淘汰赛）的名次不按小组分别排定，通知上却会写“每组……”。请改选“按名次设奖”或“前N名”（有分组积分编排赛的项目要各组分别颁奖，可在建好后的 tournament.yaml 中把该项目的 awards 改为 scheme: group_top）。'
    """
    from .draw import FORMATS
    from .score import AWARD_SCHEMES
    if scheme not in AWARD_SCHEMES:
        return None
    s = AWARD_SCHEMES.get(scheme)
    if not getattr(s, "by_group", False):
        return None
    odd = []
    for ev in events:
        fmt = ev.get("format")
        word = _first_word(fmt.get("type") if isinstance(fmt, dict) else fmt)
        if word not in FORMATS:
            continue                       # the event's own question says what is wrong with it
        f = FORMATS.get(word)
        if not getattr(f, "ranks_each_group", False):
            odd.append(f"“{_text(ev.get('name'))}”（{word if not word.isascii() else f.title}）")
    if not odd:
        return None
    fits_it = "、".join(f.title for _n, f in FORMATS.items() if getattr(f, "ranks_each_group", False))
    return (f"“{s.title}”按小组颁奖，只用于各组分别排定名次的赛制（{fits_it}）；项目{'、'.join(odd)}的名次不按小组"
            "分别排定，通知上却会写“每组……”。请改选“按名次设奖”或“前N名”（有分组积分编排赛的项目要各组分别颁奖，"
            "可在建好后的 tournament.yaml 中把该项目的 awards 改为 scheme: group_top）。")


def _choices(reg: Any) -> str:
    return "；".join(f"{n}（{getattr(o, 'title', n)}）" for n, o in reg.items())


#: the words after a quota's count that count people (人、名、位), not teams (队、对、组、个)
PEOPLE_WORDS = "人名位"


def team_word(team_size: int) -> str:
    """What one entry is called: 对 for a pair (掼蛋、双升 …), else 队."""
    return "对" if team_size == 2 else "队"


def _teams_of(n: int, word: str | None, team_size: int | None,
              people: list[tuple[int, int]] | None = None) -> int:
    """R2020-Q1 (双升 4 人 = 2 对): a quota's count ``n`` in entries.  Followed by 人/名/位 it
    counts people, so for an event of ``team_size`` (> 1) players a team it is ``n // team_size``
    teams (``(n, teams)`` appended to ``people``, for the notice); a count of people that is no
    whole number of teams is refused, asking for 几对 (or a multiple of the team size).  Any
    other word (队、对、组、个, none), a single-player event or an unknown team size: ``n``."""
    if not word or word not in PEOPLE_WORDS or not team_size or team_size <= 1:
        return n
    if n % team_size:
        w, lo = team_word(team_size), n // team_size
        offer = "或".join(f"“{k}{w}”（{k * team_size} 人）" for k in (lo, lo + 1) if k > 0)
        raise BadAnswer(f"“{n}{word}”不是整{w}数：本项目每{w} {team_size} 人，名额按{w}数计。请写每单位可报几{w}，"
                        f"如 {offer}；写人数时要是 {team_size} 的倍数，如 “{(lo + 1) * team_size}人”。")
    if people is not None:
        people.append((n, n // team_size))
    return n // team_size


def v_quota(v: Any, team_size: int | None = None, people: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    """A quota rule with its numbers: ``fixed 2`` / ``bands 0:1,30:2,60:3`` /
    ``ratio 0.15`` / ``open`` (Chinese 固定/分档/比例/不限 too); a dict passes through.

    A fixed or banded count counts entries (队数, R2020-Q1, R2015-Q3); written as people
    (``4人``、``4名``) for an event of ``team_size`` > 1 players a team it is taken as teams
    (掼蛋 ``4人`` → 2 对; each such ``(people, teams)`` appended to ``people``) or refused when
    it is no whole number of teams (:func:`_teams_of`).  Without ``team_size`` (not known yet
    at the prompt) a count of people is taken as it is."""
    if isinstance(v, dict):
        return dict(v)
    s = _nfkc(v).replace("，", ",").replace("：", ":")
    words = {"固定": "fixed", "分档": "bands", "比例": "ratio", "不限": "open", "": "open"}
    # the rule's word and its numbers may be typed without a space: 比例15%、固定2、fixed2
    s = re.sub(r"^(固定|分档|比例|fixed|bands|ratio)(?=[\d.])", r"\1 ", s)
    # a bare number (2、2人、每单位2人 / 2队) is a fixed quota; a bare percentage (15%) a ratio
    bare = re.fullmatch(r"(?:每(?:个)?单位)?\s*(\d+\s*[人名位个队对组]?)", s)
    if bare:
        s = f"fixed {bare.group(1)}"
    elif re.fullmatch(r"\d+(?:\.\d+)?\s*%", s):
        s = f"ratio {s.replace(' ', '')}"
    parts = s.split(None, 1)
    rule = words.get(parts[0] if parts else "", parts[0] if parts else "open")
    arg = parts[1].strip() if len(parts) > 1 else ""
    if rule == "open":
        return {"rule": "open"}
    if rule == "fixed":
        word = re.search(r"(?<=\d)\s*([人名位个队对组])$", arg)
        n = v_int(re.sub(r"(?<=\d)\s*[人名位个队对组]$", "", arg) or "?", 0, MAX_PER_UNIT)
        n = _teams_of(n, word and word[1], team_size, people)
        if n == 0:
            raise BadAnswer("固定名额为 0，则任何单位都不能报名：请填写每单位可报的队数（单人项目即人数），"
                            "例如 fixed 2；不限名额请填 open。")
        return {"rule": "fixed", "per_branch": n}
    if rule == "ratio":
        try:
            ratio = float(arg.rstrip("%")) / (100 if arg.endswith("%") else 1)
        except ValueError:
            raise BadAnswer(f"比例 “{arg}” 应是小数或百分数，例如 ratio 0.15 或 比例 15%。") from None
        if not 0 < ratio <= 1:
            raise BadAnswer(f"比例 “{arg}” 应在 0 与 1 之间（不含 0），例如 0.15。")
        return {"rule": "ratio", "ratio": ratio, "rounding": "floor", "minimum": 1}
    if rule == "bands":
        return {"rule": "bands", "bands": _bands(arg, team_size, people)}
    raise BadAnswer(f"名额规则 “{s}” 无法识别；请写 固定 2、分档 0:1,30:2、比例 15% 或 不限"
                    "（也可写 fixed 2、bands 0:1,30:2、ratio 0.15 或 open）。")


def v_quota_text(v: Any) -> str:
    """A quota answer at the prompt, checked (:func:`v_quota`) and kept as typed: it is asked
    before 每队人数, and a count of people (掼蛋 ``4人``) is read once the team size is known
    (:func:`clean_event`), as the questionnaire's is."""
    v_quota(v)
    return _nfkc(v)


BANDS_SYNTAX = "分档写各档的最低人数和名额：0:1,30:2（不足 30 人 1 个，30 人及以上 2 个）"


def _bands(arg: str, team_size: int | None = None, people: list[tuple[int, int]] | None = None) -> list[dict[str, int]]:
    """The bands of ``bands 0:1,30:2`` — each band's lowest member count and its entries
    (``30人`` is members; ``2人`` after the colon people, taken as teams by :func:`_teams_of`).

    A range (``0-30:1,30-60:2``) is refused, with its lower bounds offered instead: a band
    holds from its count up to the next band's, and the last one has no top, so what a range's
    upper end would mean (``60-90:3``: none above 90?) cannot be said in a band.

    >>> _bands("0:1,30人:2个")
    [{'min_members': 0, 'entries': 1}, {'min_members': 30, 'entries': 2}]
    """
    items = [p.strip() for p in re.split(r"[,;、]", arg) if p.strip()]
    if not items:
        raise BadAnswer(f"分档规则需要至少一档：{BANDS_SYNTAX}，例如 分档 0:1,30:2,60:3。")
    ranges = [re.fullmatch(r"(\d+)\s*[-~～—–至到]\s*\d+\s*(?:人)?\s*:\s*(\d+\s*[人名位个队对组]?)", x) for x in items]
    for item, m in zip(items, ranges):
        if m:
            offer = ",".join(f"{r[1]}:{r[2]}" if r else x for x, r in zip(items, ranges))
            raise BadAnswer(f"分档 “{item}” 写的是人数范围；{BANDS_SYNTAX}，按您写的范围即 分档 {offer}。")
    bands = []
    for item in items:
        m = re.fullmatch(r"(\d+)\s*(?:人)?\s*:\s*(\d+)\s*([人名位个队对组])?", item)
        if not m:
            raise BadAnswer(f"分档 “{item}” 无法识别：{BANDS_SYNTAX}，各档用逗号隔开，例如 分档 0:1,30:2,60:3。")
        bands.append({"min_members": int(m[1]), "entries": _teams_of(int(m[2]), m[3], team_size, people)})
    return bands


def v_datetime(v: Any) -> str:
    """A deadline ``2026-12-01 17:00`` (China time) → ISO text.  A date alone (typed, also
    as ``20261210``, or an Excel date cell, which reads as its midnight) is the end of that
    day, as in tournament.yaml: "截止 12月10日" does not close at the first minute of the
    10th.  Only calendar dates: an ISO week date (``2027-W12-6``) is refused."""
    if not _text(v) and not isinstance(v, (dt.date, dt.datetime)):
        raise BadAnswer("报名截止时间必须填写，例如 2026-12-01 17:00：截止后才抽签，"
                        "不填则第一次运行就会抽签并公布第1轮。")
    typed = _text(v)
    if not isinstance(v, (dt.date, dt.datetime)):
        v = _iso_date(_nfkc(v))
    if isinstance(v, dt.datetime) and v.time() == dt.time(0, 0):
        v = v.date()
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime):
        d = dt.datetime.combine(v, dt.time(23, 59, 59))
    elif isinstance(v, dt.datetime):
        d = v
    elif re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", _text(v)):
        try:
            d = dt.datetime.combine(dt.date(*map(int, _text(v).split("-"))), dt.time(23, 59, 59))
        except ValueError:
            raise BadAnswer(f"日期 “{typed}” 不存在，应写成 2026-12-01 17:00。") from None
    else:
        s = re.sub(r" (\d)(?=[:：])", r" 0\1", _text(v).replace("T", " "))    # 2026-12-01 8:30
        try:
            d = dt.datetime.fromisoformat(s) if _CALENDAR_DATE.match(s) else None
        except ValueError:
            d = None
        if d is None:
            raise BadAnswer(f"时间 “{s}” 格式不对，应写成 2026-12-01 17:00（年-月-日 时:分；"
                            "只写日期即当天 23:59）。")
    if d.tzinfo is None:
        d = d.replace(tzinfo=TZ)
    return d.isoformat()


def v_draw_at(v: Any) -> str:
    """The check-in time of an event whose pairs are re-formed on the day (分组积分编排赛,
    R2016-F2): its round 1 is drawn then, from the 签到表 — ``2026-12-05 08:30`` → ISO text,
    or "" (none: round 1 is drawn at the deadline, and a warning says so).  A date alone is
    refused: it would be that day's 23:59, after the games."""
    if not _text(v) and not isinstance(v, (dt.date, dt.datetime)):
        return ""
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime) or (
            isinstance(v, dt.datetime) and v.time() == dt.time(0, 0)) or (
            not isinstance(v, dt.date) and _DATE.fullmatch(_iso_date(_nfkc(v)))):     # 20261205 too
        raise BadAnswer(f"“{_text(v)}” 只有日期：请写上签到截止、抽第1轮的时刻，例如 2026-12-05 08:30。")
    return v_datetime(v)


def _after_every_session(draw_at: str, sessions: list[dict[str, Any]]) -> str:
    """Why a check-in time cannot be (a message), or "": round 1 is played in the first session
    that starts at or after the check-in (``run._open_sessions``) — a check-in after the start
    of every session left the event with no session, and the site promised a draw after the
    games (a check-in typed 09:00 for a session starting 08:30)."""
    at = dt.datetime.fromisoformat(draw_at)
    at = at if at.tzinfo else at.replace(tzinfo=TZ)
    starts = sorted(dt.datetime.fromisoformat(f"{v_date(se['date'])}T{se['start']}").replace(tzinfo=TZ)
                    for se in sessions)
    if not starts or any(s >= at for s in starts):
        return ""
    return (f"签到抽签时间 {at:%Y-%m-%d %H:%M} 晚于每一场比赛的开始时间（最后一场 {starts[-1]:%Y-%m-%d %H:%M} 开始）："
            "第1轮在签到抽签之后开始的场次进行，这样的场次一场也没有。请把签到抽签时间改在第1轮那一场开始之前"
            f"（如 {starts[0] - dt.timedelta(minutes=30):%Y-%m-%d %H:%M}）。")


def checks_in(fmt: Any) -> bool:
    """Whether a format (registry name, alias or answer) re-forms its entries at a check-in on
    the day (R2016-F2: 分组积分编排赛) — the formats whose round 1 waits for ``draw_at``."""
    from .draw import FORMATS
    word = _first_word(fmt.get("type") if isinstance(fmt, dict) else fmt)
    return word in FORMATS and callable(getattr(FORMATS.get(word), "check_in", None))


#: a date as a clerk types it: 2026-1-9, 2026.12.20, 2026/12/20, 2026年12月20日
_DATE = re.compile(r"(\d{4})\s*[-./年]\s*(\d{1,2})\s*[-./月]\s*(\d{1,2})(?!\d)\s*日?")


#: a date written compactly, YYYYMMDD (``20270320``), at the start of an answer
_COMPACT_DATE = re.compile(r"(\d{4})(\d{2})(\d{2})(?!\d)")
#: what ``fromisoformat`` may be given: a calendar date ``2026-01-09`` at the start (Python
#: 3.11 also reads ISO week dates ``2027-W12-6`` and ordinal dates ``2027-079``, which no
#: clerk means: 2027-W12-6 became 2027-03-27, an audit)
_CALENDAR_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?![\dW-])")


def _iso_date(s: str) -> str:
    """``s`` with a date at its start written ``2026-01-09`` (what follows kept: a time);
    ``20260109`` (eight digits, as a date is often typed) too."""
    m = _DATE.match(s) or _COMPACT_DATE.match(s)
    if m is None:
        return s
    rest = s[m.end():].lstrip(" T")
    return f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}" + (f" {rest}" if rest else "")


def v_date(v: Any) -> str:
    """A date ``2026-12-05`` → ISO text."""
    if isinstance(v, dt.datetime):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    s = _nfkc(v)
    try:
        iso = _iso_date(s)
        if not _CALENDAR_DATE.fullmatch(iso):       # 2027-W12-6, 2027-079
            raise ValueError(iso)
        return dt.date.fromisoformat(iso).isoformat()
    except ValueError:
        raise BadAnswer(f"日期 “{s}” 格式不对，应写成 2026-12-05。") from None


def v_time(v: Any) -> str:
    """A clock time ``8:30`` → ``08:30``."""
    if isinstance(v, dt.time):
        return v.strftime("%H:%M")
    s = _nfkc(v).replace("：", ":")
    m = re.fullmatch(r"([0-9]{1,2}):([0-9]{2})(:00)?", s)
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise BadAnswer(f"时间 “{s}” 格式不对，应写成 08:30。")
    return f"{int(m[1]):02d}:{m[2]}"


#: one award and its count in a ``v_places`` answer: a name without digits or separators,
#: then (after an optional ``: = × *``) the count, an optional 名/人/个/位/对/队, and a
#: separator (``, ; / 、``, spaces) or the end
_PLACE = re.compile(r"\s*(?P<name>[^\d\s,;/、:=×*][^\d,;/、:=×*]*?)\s*[:=×x*]?\s*(?P<n>-?\d+)\s*"
                    r"(?:名|人|个|位|对|队)?\s*(?:[,;/、]+\s*|\s+|$)")


#: the last item of a ``v_places`` answer giving every other entrant an award (R2020-A1 决赛参与奖,
#: the awards option ``rest``): ``其余参与奖``, ``其余为参与奖``, ``其余参赛者获参与奖`` — or the
#: award first, ``参与奖若干``, ``参与奖(其余)``, ``参与奖不限`` (the answer is NFKC: half-width
#: brackets and colons).  ``参与奖99`` was the only way, and the notice said 参与奖九十九名.
#: What follows 其余 (``a``) is read by :func:`_rest_award`; an award written first (``b``) must end in 奖
_REST = re.compile(
    r"\s*(?:(?:其余|其他|余下|剩下|剩余|余者|若干)的?\s*[:=]?\s*(?P<a>[^\d\s,;/、:=×*()]+)"
    r"|(?P<b>[^\d\s,;/、:=×*()]*[^\d\s,;/、:=×*()奖]奖)\s*[:=]?\s*\(?(?:若干名?|不限名?额?|其余(?:参赛者|选手|人)?|余下|其他)\)?)"
    r"\s*(?:[,;/、]+\s*|\s+|$)")

#: the words a clerk puts between 其余 and the award (:func:`_rest_award`), in their order: who
#: (参赛者, 队伍 …), 均/都, 可, 获得/为/是/发放 …: 其余参赛者均可获得参与奖, 其余都是参与奖
_REST_WORDS = (r"(?:参赛选手|参赛人员|参赛队伍|参赛者|参赛队|队员|选手|人员|队伍|各队|单位|人|队)?"
               r"(?:均|都|全部|全|皆|一律|也)?(?:可以|可|能|将)?"
               r"(?:获得|获|得到|得|为|是|发放|颁发|发|给予|授予|评为)?")

#: how an award for every other entrant is written, as a refusal says it
REST_HINT = "其余参赛者都发的奖项写在最后，如 一等奖1,二等奖2,三等奖3,其余参与奖"


def _rest_award(text: str, item: str) -> str | None:
    """The award in what follows 其余 in a ``v_places`` answer (R2020-A1 决赛参与奖): its name, which
    ends in 奖, without the words before it (:data:`_REST_WORDS`: 其余都是参与奖, 其余队伍获参与奖,
    其余均可获得参与奖 are 参与奖 — from a review, they were awards named 是参与奖, 伍获参与奖,
    可获得参与奖); None for no award (其余无奖, 其余不发).  Those words are taken off as long as
    two characters are left before 奖 (其余人气奖 is 人气奖, not 气奖), else as long as one is
    (其余金奖).  Anything else (其余人员, 其余参赛者, 其余纪念品, 其余都是奖) is BadAnswer with
    :data:`REST_HINT` (naming ``item``, the answer's whole item), not an award named 员."""
    if re.fullmatch(_REST_WORDS + r"[无不没].*", text):
        return None
    for before in ("{2,}", "+"):
        m = re.fullmatch(_REST_WORDS + rf"(?P<name>[^奖]{before}奖)", text)
        if m and not re.fullmatch(_REST_WORDS, m["name"][:-1]):
            return m["name"]
    raise BadAnswer(f"“{item}”没有写明奖项：其余参赛者都发的奖项要写奖项名（以“奖”结尾），{REST_HINT}。")


def v_places(v: Any) -> list[dict[str, Any]]:
    """Awards and how many of each: ``一等奖1,二等奖2,三等奖3`` — also as a clerk types it:
    ``一等奖1；二等奖2``, ``一等奖：1，二等奖：2``, ``一等奖1名 二等奖2名``, ``一等奖1/二等奖2``
    (``一等奖1；二等奖2；三等奖3`` was one award named ``一等奖1;二等奖2;三等奖``, printed so).

    R2020-A1 决赛参与奖: a last item giving everyone else an award (``其余参与奖``, ``参与奖若干``:
    :data:`_REST`) is ``{"award": 参与奖, "rest": True}`` — the awards option ``rest``.

    >>> v_places("一等奖1,二等奖2,参与奖若干")[-1]
    {'award': '参与奖', 'rest': True}
    """
    if isinstance(v, list):
        places = [dict(p) for p in v]
    else:
        s = _nfkc(v).replace("，", ",") or "一等奖1,二等奖2,三等奖3"
        places = []
        for m in _items(s, _PLACE, lambda item: f"奖项 “{item}” 应写成 奖项名+名额（奖项名里不要有数字），各奖项之间用逗号隔开，"
                                                f"例如 一等奖1,二等奖2,三等奖3；{REST_HINT}。", also=_REST):
            if m.re is _REST:
                name = m["b"].strip() if m["b"] else _rest_award(m["a"], m[0].strip(" ,;/、"))
                if name is not None:        # 其余无奖: no award for them, as without it
                    places.append({"award": name, "rest": True})
            else:
                places.append({"award": m["name"].strip(), "count": int(m["n"])})
    rest = [i for i, p in enumerate(places) if p.get("rest")]
    if len(rest) > 1:
        raise BadAnswer(f"“其余参赛者”的奖项只能有一个（填了 {'、'.join(places[i]['award'] for i in rest)}）：{REST_HINT}。")
    if rest and rest[0] != len(places) - 1:
        raise BadAnswer(f"“其余参赛者”的奖项（{places[rest[0]]['award']}）要写在最后，前面是按名次颁发的奖项及名额：{REST_HINT}。")
    if rest and len(places) == 1:
        raise BadAnswer(f"除“其余参赛者”的{places[0]['award']}外，至少要有一个按名次颁发的奖项及名额：{REST_HINT}。")
    for p in places:
        # R2020-A1: 一等奖0 is a place nobody wins (and its prize one nobody is paid), as
        # a fixed quota of 0 is a quota nobody can enter under
        if isinstance(p.get("count"), int) and not isinstance(p["count"], bool) and p["count"] <= 0:
            raise BadAnswer(f"“{p.get('award')}”的名额为 {p['count']}：名额为 0 或负数的奖项没有人能获得（它的奖金也发不出去）。"
                            "每个奖项至少 1 名，例如 一等奖1,二等奖2,三等奖3；不设这个奖项请把它删去。")
    from .score.awards import not_by_place
    odd = next((p["award"] for p in places if not_by_place(p["award"])), None)
    if odd is not None:
        raise BadAnswer(f"“{odd}”不按名次颁发：这里只填按名次颁发的奖项（一等奖、二等奖……），"
                        "按单位颁发的奖项填在“单位奖项”，评委会评定的填在“评定奖项”。")
    return places


def _items(s: str, pattern: re.Pattern[str], bad: Callable[[str], str],
           also: re.Pattern[str] | None = None) -> list[re.Match[str]]:
    """``s`` read as one ``pattern`` match (or ``also`` match) after another (each ending at
    its separator), or BadAnswer ``bad(item)`` naming the first item that is neither."""
    out, pos = [], 0
    while pos < len(s):
        m = pattern.match(s, pos) or (also.match(s, pos) if also is not None else None)
        if m is None:
            rest = s[pos:].strip(" ,;/、")
            raise BadAnswer(bad(re.split(r"[,;/、]", rest)[0].strip() or rest))
        out.append(m)
        pos = m.end()
    return out


def v_prizes(v: Any, places: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Prize money per award: ``一等奖=500,二等奖=300`` (yuan), or empty.  With ``places``
    (the awards just answered), each prize must name one of them, as the spec requires."""
    out = _prizes(v)
    if places is not None:
        names = list(dict.fromkeys(str(p.get("award")) for p in places))
        for k in out:
            if k not in names:
                raise BadAnswer(f"“{k}”不是所设的奖项（奖项：{'、'.join(names) or '无'}），这一笔奖金发不出去："
                                f"请写成 奖项=金额，奖项名称与“奖项及名额”一致，例如 {names[0] if names else '一等奖'}=500。")
    return out


def _prizes(v: Any) -> dict[str, int]:
    if isinstance(v, dict):
        return {str(k): v_int(n) for k, n in v.items()}
    s = _nfkc(v).replace("，", ",").replace("＝", "=").replace("：", "=").replace(":", "=")
    # 一等奖=500,二等奖=300 (or ; / 、 or spaces between them, as v_places)
    return {m["name"].strip(): v_int(m["n"]) for m in _items(
        s, _PRIZE, lambda item: f"奖金 “{item}” 应写成 奖项=金额，各奖项之间用逗号隔开，例如 一等奖=500,二等奖=300。")}


#: one prize of a ``_prizes`` answer: 奖项=金额 (元), then a separator or the end
_PRIZE = re.compile(r"\s*(?P<name>[^\s,;/、=][^,;/、=]*?)\s*=\s*(?P<n>\d+)\s*元?\s*(?:[,;/、]+\s*|\s+|$)")


def v_list(v: Any) -> list[str]:
    """A list typed on one line, split at commas and semicolons: ``东门，西门;自行到达`` →
    ['东门', '西门', '自行到达'].  Not at 、, which joins the stops of one point
    (R2016-Q2's "福建路、花园路" is one pick-up point)."""
    if isinstance(v, list):
        return [t for t in (_text(x) for x in v) if t]
    return [t for t in (p.strip() for p in re.split(r"[,，;；]", _text(v))) if t]


def v_award_names(v: Any) -> list[str]:
    """Award names typed on one line (评定奖项), split at 、 — the usual separator of a Chinese
    list — as well as at commas and semicolons (half- or full-width), but not inside brackets:
    ``体育道德风尚奖、最佳新人奖`` → ['体育道德风尚奖', '最佳新人奖'].  (Read by :func:`v_list`,
    which keeps 、 for the stops of one pick-up point, it was one award of that whole name, and
    the 评奖表 then refused each of the two.)  A slash is part of a name (优秀组织/服务奖), as
    is a list in brackets (最佳新人奖（男、女）).  A name given twice is kept once.

    >>> v_award_names("体育道德风尚奖、最佳新人奖；优胜奖, 体育道德风尚奖")
    ['体育道德风尚奖', '最佳新人奖', '优胜奖']
    >>> v_award_names("优秀组织/服务奖、最佳新人奖（男、女）")
    ['优秀组织/服务奖', '最佳新人奖（男、女）']
    """
    if isinstance(v, list):
        items = v
    else:
        items, depth, cur = [], 0, ""
        for ch in _text(v):
            if ch in "（(【[":
                depth += 1
            elif ch in "）)】]" and depth:
                depth -= 1
            if depth == 0 and ch in ",，;；、":
                items.append(cur)
                cur = ""
            else:
                cur += ch
        items.append(cur)
    return list(dict.fromkeys(t for t in (_text(x) for x in items) if t))


LATE_POLICIES = {"reject": "reject", "拒收": "reject", "不接收": "reject", "不接受": "reject",
                 "accept-with-warning": "accept-with-warning", "接收": "accept-with-warning",
                 "接收并警告": "accept-with-warning", "接收但警告": "accept-with-warning",
                 "接受": "accept-with-warning", "接受并警告": "accept-with-warning",
                 "接受但警告": "accept-with-warning"}


def v_one_event(v: Any) -> bool | None:
    """R2020-Q2 每人限报一项 (``one_event_per_person``): 是 / 否, or None (blank: the default
    of :func:`build_spec` — yes when the league has two or more events).  The words taken are
    :data:`pipeline.spec.ONE_EVENT_WORDS`, as tournament.yaml's ``one_event_per_person`` takes them.

    >>> v_one_event("是"), v_one_event("可兼报"), v_one_event(""), v_one_event(False)
    (True, False, None, False)
    """
    if isinstance(v, bool):
        return v
    s = _nfkc(v).lower().rstrip("。.")
    if not s:
        return None
    if s in ONE_EVENT_WORDS:
        return ONE_EVENT_WORDS[s]
    raise BadAnswer(f"“{_text(v)}” 无法识别：请填 是 或 否（是：每人只能报一个项目；否：一人可报几个项目）。")


def v_late(v: Any) -> str:
    """What a late registration gets: 拒收 (reject) or 接收并警告 (accept-with-warning)."""
    s = _text(v) or "reject"
    if s not in LATE_POLICIES:
        raise BadAnswer(f"“{s}” 不是可选的处理方式：请填 拒收 或 接收并警告。")
    return LATE_POLICIES[s]


# ------------------------------------------------------------------------------ building the spec
def _event_id(game: str, taken: set[str]) -> str:
    eid, k = game, 2
    while eid in taken:
        eid, k = f"{game}{k}", k + 1
    taken.add(eid)
    return eid


def _unit_id(raw: dict[str, Any], index: int) -> str:
    """A unit answer's id: its own, else b01, b02 … by position."""
    return raw.get("id") or f"b{index + 1:02d}"


#: the largest member count and per-unit quota an answer may give (a staff or phone number
#: typed in 会员人数 made forms of a million rows: a minute, then a traceback)
MAX_MEMBERS = 100_000
MAX_PER_UNIT = 1_000


def _row(*checks: tuple[str, Callable[[], Any]]) -> list[Any]:
    """Every field of one table row checked, each bad one named by its column and all said
    at once (``单位名称：不能为空；会员人数：“2019001234” 超出范围…``): a row with three
    mistakes took three runs, the first mistake said alone and unnamed."""
    values: list[Any] = []
    bad: list[str] = []
    for label, check in checks:
        try:
            values.append(check())
        except BadAnswer as e:
            values.append(None)
            bad.append(f"{label}：{e}")
    if bad:
        raise BadAnswer("；".join(bad))
    return values


def clean_unit(raw: dict[str, Any], index: int) -> dict[str, Any]:
    """One unit answer → a spec unit (id b01, b02 … by position)."""
    name, emails, members = _row(
        ("单位名称", lambda: v_required(raw.get("name"))),
        ("邮箱", lambda: v_emails(raw.get("email") or "；".join(raw.get("emails") or []))),
        ("会员人数", lambda: v_int(raw.get("members") or 0, 0, MAX_MEMBERS)))
    return {"id": _unit_id(raw, index), "name": name, "captain": _text(raw.get("captain")), "members": members,
            "emails": emails}


def clean_event(raw: dict[str, Any], taken: set[str]) -> dict[str, Any]:
    """One event answer → a spec event (without deadline and awards)."""
    fmt = raw.get("format")
    if raw.get("format_options"):
        fmt = {**(fmt if isinstance(fmt, dict) else {"type": fmt}), **raw["format_options"]}
    game, name, team_size, quota, fmt_spec = _row(
        ("棋牌种类", lambda: v_game(raw.get("game"))),
        ("项目名称", lambda: v_required(raw.get("name"))),
        ("每队人数", lambda: v_team_size(raw["team_size"]) if raw.get("team_size") else None),
        # a count of people (掼蛋 4人) is read with the team size (R2020-Q1: 2 对)
        ("名额规则", lambda: v_quota(raw.get("quota", "open"), _answered_team_size(raw))),
        ("赛制", lambda: v_format_spec(fmt)))
    eid = raw.get("id") or _event_id(game, taken)
    team_size = team_size or _side_size(game)
    from .games import GAMES
    from .registries import team_size_problem
    # a team is one side of a table: 3 斗地主 players per team sat 9 at a 3-player table
    problem = team_size_problem(GAMES.get(game), team_size, name)
    if problem:
        raise BadAnswer(f"每队人数：{problem}")
    return {"id": eid, "name": name, "game": game, "team_size": team_size, "quota": quota,
            "format": fmt_spec}


def _answered_team_size(raw: dict[str, Any]) -> int | None:
    """An event answer's players a team: its 每队人数, else its game's (None: neither readable,
    said by their own columns)."""
    try:
        return v_team_size(raw["team_size"]) if raw.get("team_size") else _side_size(v_game(raw.get("game")))
    except BadAnswer:
        return None


def v_members(v: Any) -> Any:
    """A member count, or blank (allowed here; :func:`check_members` refuses a blank or 0
    when an event's quota is computed from it)."""
    return v_int(v, 0, MAX_MEMBERS) if _text(v) else ""


def check_members(raw_units: list[Any], events: list[dict[str, Any]]) -> list[BadAnswer]:
    """A unit whose 会员人数 is blank or 0 while an event's quota is computed from it (ratio,
    bands) is a bad answer to that unit (第n个单位): the form said 按本单位会员 0 人的 15% 计算
    or 本单位无名额.  One BadAnswer per such unit; a count that is no number is clean_unit's."""
    from .spec import member_rules
    rules = member_rules((e["name"], (e.get("quota") or {}).get("rule")) for e in events)
    if not rules:
        return []
    bad = []
    for i, raw in enumerate(raw_units):
        if not isinstance(raw, dict) or not _text(raw.get("name")):
            continue
        try:
            members = v_int(raw.get("members")) if _text(raw.get("members")) else 0
        except BadAnswer:
            continue
        if members:
            continue
        said = "没有填写" if not _text(raw.get("members")) else "为 0"
        bad.append(BadAnswer(f"“{_text(raw.get('name'))}”的会员人数{said}，而项目{rules}的名额按各单位会员人数计算："
                             "请填写该单位的会员人数（整数，如 40）", f"第{i + 1}个单位"))
    return bad


def build_spec(answers: dict[str, Any], problems: list[BadAnswer] | None = None) -> dict[str, Any]:
    """Answers (text or typed) → a raw spec dict for :func:`parse_spec`.  Raises
    :class:`BadAnswer` (with the question in ``args[1]``) on the first unusable answer; with
    ``problems`` (a list), every unusable answer is appended to it instead and the build goes
    on without it (the spec returned is then incomplete: not for use while ``problems``)."""
    def check(question: str, fn: Callable[[Any], Any], value: Any) -> Any:
        try:
            return fn(value)
        except BadAnswer as e:
            bad = BadAnswer(str(e), question)
        except (ValueError, TypeError, AttributeError, KeyError):
            # no answer may crash the build (a traceback loses every answer): an odd value
            # (a number or object where text was expected) is a bad answer to its question
            bad = BadAnswer(f"“{_text(value)}” 无法识别，请按提示的写法重新填写。", question)
        return fail(bad)

    def fail(bad: BadAnswer) -> None:
        if problems is None:
            raise bad
        problems.append(bad)
        return None

    name = check("赛事名称", v_required, answers.get("name"))
    if not _text(answers.get("id")):
        # no fixed fallback: two leagues with one id would share an output folder and ledger
        fail(BadAnswer("赛事编号必须填写（英文字母、数字、- 和 _，例如 t2026-chess）：输出文件夹 output/<赛事编号>/ "
                       "和报名表的令牌都按它区分，每届比赛要用不同的编号。", "赛事编号"))
    spec: dict[str, Any] = {
        "id": check("赛事编号", v_id, answers.get("id")) if _text(answers.get("id")) else None,
        "name": name,
        "host": _text(answers.get("host") or answers.get("organizer")),
        "organizer": check("主办单位", v_required, answers.get("organizer")),
        "notice_date": dt.date.today().isoformat() if not answers.get("notice_date")
        else check("发文日期", v_date, answers["notice_date"]),
        "unit_word": _text(answers.get("unit_word")) or "分工会",
    }
    units = [check(f"第{i + 1}个单位", lambda u, i=i: clean_unit(u, i), u)
             for i, u in enumerate(answers.get("units") or [])]
    if not units:
        fail(BadAnswer("至少要有一个参赛单位。", "参赛单位"))
    units = [u for u in units if u is not None]
    deadline = check("报名截止时间", v_datetime, answers.get("deadline"))
    scheme = check("评奖方式", v_scheme, answers.get("awards"))
    places = check("奖项及名额", v_places, answers.get("places"))
    prizes = check("奖金", lambda v: v_prizes(v, places), answers.get("prizes") or {})
    awards: dict[str, Any] = {"scheme": scheme}
    # R2020-A1 决赛参与奖: everyone else's award (其余参与奖) is the option ``rest``
    rest = next((str(p["award"]) for p in places or [] if p.get("rest")), "")
    places = [p for p in places or [] if not p.get("rest")]
    if scheme == "ranked":
        awards["places"] = places
    elif scheme == "top_n":
        awards["awards"] = [p["award"] for p in places for _ in range(p["count"])]
    else:
        # each group's places named as answered (一等奖, 二等奖 …): the scheme's own names
        # (小组第一名 …) left the prizes, answered for 一等奖, to no award
        awards["count"] = sum(p["count"] for p in places)
        awards["awards"] = [p["award"] for p in places for _ in range(p["count"])]
    if rest and scheme in ("ranked", "top_n"):
        awards["rest"] = rest
    elif rest and scheme:
        from .score import AWARD_SCHEMES
        title = getattr(AWARD_SCHEMES.get(scheme), "title", scheme) if scheme in AWARD_SCHEMES else scheme
        fail(BadAnswer(f"评奖方式“{title}”按小组颁奖，不能设“其余参赛者”的奖项（{rest}）：请删去“其余{rest}”，"
                       "或改选“按名次设奖”。", "奖项及名额"))
    if prizes:
        awards["prizes"] = prizes
    draw_at = check("签到抽签时间", v_draw_at, answers.get("draw_at"))
    if draw_at and deadline and dt.datetime.fromisoformat(draw_at) < dt.datetime.fromisoformat(deadline):
        fail(BadAnswer(f"签到抽签时间 {draw_at[:16].replace('T', ' ')} 在报名截止（{deadline[:16].replace('T', ' ')}）"
                       "之前：签到、抽第1轮要在报名截止之后，请改正。", "签到抽签时间"))
        draw_at = None
    taken: set[str] = set()
    events = []
    for i, e in enumerate(answers.get("events") or []):
        ev = check(f"第{i + 1}个项目", lambda e: clean_event(e, taken), e)
        if ev is None:
            continue
        if deadline:
            ev["deadline"] = deadline
        if draw_at and checks_in(ev["format"]):
            ev["draw_at"] = draw_at       # round 1 drawn at the check-in, from its 签到表
        ev["awards"] = copy.deepcopy(awards)   # no YAML anchors in the file
        events.append(ev)
    if not answers.get("events"):
        fail(BadAnswer("至少要有一个比赛项目。", "比赛项目"))
    if scheme and (why := scheme_problem(scheme, events)):
        fail(BadAnswer(why, "评奖方式"))
    for bad in check_members(answers.get("units") or [], events):
        fail(bad)
    sessions = []
    for n, s in enumerate((x if isinstance(x, dict) else {"date": x}
                           for x in answers.get("sessions") or []), start=1):
        at = len(problems or ())
        se = {"date": check(f"第{n}场", v_date, s.get("date"))}
        if len(problems or ()) == at:         # one reason a session at a time
            se["start"] = check(f"第{n}场", v_time, s.get("start"))
        if len(problems or ()) == at:
            se["end"] = check(f"第{n}场", v_time, s.get("end"))
        if s.get("venue"):
            se["venue"] = _text(s["venue"])
        if len(problems or ()) == at:
            sessions.append((n, se))
    closes = dt.datetime.fromisoformat(deadline) if deadline else None
    for n, se in sessions:
        if se["end"] <= se["start"]:
            fail(BadAnswer(f"{se['date']} 的结束时间 {se['end']} 不晚于开始时间 {se['start']}，请改正。", f"第{n}场"))
        elif closes and dt.datetime.fromisoformat(f"{se['date']}T{se['start']}").replace(tzinfo=TZ) < closes:
            fail(BadAnswer(f"{se['date']} {se['start']} 在报名截止（{deadline[:16].replace('T', ' ')}）之前："
                           "比赛要在截止、抽签之后进行，请改正日期或截止时间。", f"第{n}场"))
    if draw_at and sessions and any(e.get("draw_at") for e in events):
        late = _after_every_session(draw_at, [se for _n, se in sessions])
        if late:
            fail(BadAnswer(late, "签到抽签时间"))
    spec.update(units=units, events=events, sessions=[se for _n, se in sessions])
    if answers.get("venue"):
        spec["venue"] = _text(answers["venue"])
    if _text(answers.get("contact")):
        spec["contact"] = _text(answers["contact"])
    if _text(answers.get("submit_to")):
        spec["submit_to"] = check("收件邮箱", v_email, answers["submit_to"])
    pickups = v_list(answers.get("pickup_points"))
    if pickups:
        spec["pickup_points"] = pickups
    if _text(answers.get("branch_award")):
        spec["branch_award"] = _text(answers["branch_award"])
    judged = v_award_names(answers.get("discretionary_awards"))
    if judged:
        spec["discretionary_awards"] = judged
    if _text(answers.get("late_policy")):
        spec["late_policy"] = check("逾期报名", v_late, answers["late_policy"])
    # R2020-Q2 每人限报一项: yes by default when there are two or more events — every event of
    # a league made here plays round k in the k-th session after the one deadline, so one
    # person in two events would be drawn to two tables at one time (the run then says
    # DOUBLE_BOOKED); a single event's league has nothing to limit
    limit = check("每人限报一项", v_one_event, answers.get("one_event_per_person"))
    if limit is None and len(answers.get("events") or []) > 1 and not any(
            b.question == "每人限报一项" for b in problems or ()):
        limit = True
    if limit is not None:
        spec["one_event_per_person"] = limit
    spec["secret_file"] = "secret.key"
    return spec


#: top-level spec key → the question that answers it (to map a SpecError back).
KEY_QUESTIONS = {"id": "赛事编号", "name": "赛事名称", "organizer": "主办单位", "host": "主办单位",
                 "one_event_per_person": "每人限报一项",
                 "branch_award": "单位奖项", "discretionary_awards": "评定奖项",
                 "units": "参赛单位", "events": "比赛项目", "sessions": "比赛时间", "notice_date": "发文日期"}


def question_of(key: str, spec: dict[str, Any] | None = None) -> str:
    """The question behind a SpecError key: ``events[xiangqi].format.type`` → 比赛项目 “象棋” 的赛制."""
    top = re.split(r"[.\[]", key, maxsplit=1)[0]
    label = KEY_QUESTIONS.get(top, key)
    m = re.match(r"(units|events)\[([^\]]+)\]", key)
    if m and spec:
        item = next((x for x in spec.get(m[1], []) if str(x.get("id")) == m[2]), None)
        if item:
            label += f" “{item.get('name', m[2])}”"
    tail = key[m.end():] if m else ""
    parts = {".game": "的棋牌种类", ".format": "的赛制", ".quota": "的名额规则", ".awards": "的评奖方式",
             ".team_size": "的每队人数", ".deadline": "的报名截止时间", ".tiebreaks": "的破同分规则",
             ".draw_at": "的签到抽签时间"}
    for k, word in parts.items():
        if tail.startswith(k):
            label += word
            break
    return label


def check_spec(spec: dict[str, Any], probe: bool = False) -> None:
    """Validate the whole spec; raise BadAnswer naming the question on a SpecError.
    ``probe``: one event checked alone among made-up units (:func:`_probe`), whose quotas
    say nothing of the league's."""
    problems = spec_problems(spec, probe=probe)
    if problems:
        raise problems[0]


def spec_problems(spec: dict[str, Any], answers: dict[str, Any] | None = None, probe: bool = False) -> list[BadAnswer]:
    """Every problem the whole spec's check finds (up to :data:`pipeline.spec.MAX_SPEC_PROBLEMS`),
    each a BadAnswer (reason, question, place among the answers — ``第3个项目``,
    ``第2个单位、第5个单位``).  The reason names games and formats as the office answered
    them (斗地主, 淘汰赛), not by their registry names (doudizhu, knockout), and gives no
    配置键: there is no tournament.yaml yet, and the question and its row say where.
    Then (but for a ``probe``) every event its units' quotas can never fill (:func:`_never_held`)."""
    try:
        t = parse_spec(spec, SPEC_FILE)
    except SpecError as e:
        out: list[BadAnswer] = []
        for key, problem in e.problems():
            if re.search(r"\.awards\b", key):
                # the awards are answered once for every event (评奖方式, 奖项及名额, 奖金 …): a
                # problem with them is that answer's, at its row — said once, not at each
                # event's row in YAML words (awards.prizes at the 象棋 row, once per event)
                bad = BadAnswer(_award_words(problem), _award_question(problem), "")
            else:
                bad = BadAnswer(_in_chinese(problem, _answered(key, spec, answers)), question_of(key, spec),
                                _located(key, spec, problem))
            if not any(b.args == bad.args for b in out):
                out.append(bad)
        return out
    return [] if probe else _never_held(t, spec, answers)


#: the spec keys an awards problem may name → the questionnaire's question that answers them
#: (longest first: ``awards.prizes`` before ``awards``)
AWARD_KEY_WORDS = {"awards.prizes": "奖金", "awards.places": "奖项及名额", "awards.count": "奖项及名额",
                   "awards.awards": "奖项及名额", "branch_award": "单位奖项", "discretionary_awards": "评定奖项",
                   "awards.scheme": "评奖方式", "awards": "奖项及名额"}


def _award_question(problem: str) -> str:
    """The question whose answer an awards problem of the whole spec's check is about: the
    first spec key it names (``branch_award`` → 单位奖项, ``awards.prizes`` → 奖金), else 评奖方式."""
    keys = "|".join(map(re.escape, AWARD_KEY_WORDS))
    m = re.search(rf"(?<![A-Za-z_.])({keys})(?![A-Za-z_])", problem)
    return AWARD_KEY_WORDS[m[1]] if m else "评奖方式"


def _award_words(problem: str) -> str:
    """An awards problem with the questions' names for the spec keys it names:
    ``awards.prizes 中的“一等奖”`` → ``“奖金”中的“一等奖”``.

    >>> _award_words("奖项“一等奖”已写在赛事的 branch_award（…）：请从本项目的 awards 中删去。")
    '奖项“一等奖”已写在赛事的“单位奖项”（…）：请从本项目的“奖项及名额”中删去。'
    """
    keys = "|".join(map(re.escape, AWARD_KEY_WORDS))
    return re.sub(rf"\s*(?<![A-Za-z_.])({keys})(?![A-Za-z_])\s*", lambda m: f"“{AWARD_KEY_WORDS[m[1]]}”", problem)


def _most_entries(t: Any, ev: Any) -> int | None:
    """The most entries the units' quotas let into event ``ev`` (None: a quota without limit)."""
    from .validate.checks import quota_for

    quotas = [quota_for(ev, u.unit()) for u in t.units]
    return sum(quotas) if quotas and None not in quotas else None


def _never_held(t: Any, spec: dict[str, Any], answers: dict[str, Any] | None) -> list[BadAnswer]:
    """R2020-Q1: an event whose quotas, all filled, let in fewer entries than its format needs
    to draw round 1 (``min_entries``: 3 for a table of three, else 2 — as the runner's
    TOO_FEW_ENTRIES) can never be held: 2 units with one 斗地主 player each.  Refused at the
    event's row, as a fixed quota of 0 is (the folder was made, with a warning that every
    player wins, and league run then asked every night for more entries than could come)."""
    from .draw import FORMATS

    out = []
    for ev in t.events:
        if ev.format.type not in FORMATS:
            continue
        need = int(getattr(FORMATS.get(ev.format.type), "min_entries", 2))
        most = _most_entries(t, ev)
        if most is None or most >= need:
            continue
        key = f"events[{ev.id}].quota"
        w = "队" if ev.team_size > 1 else "人"
        problem = (f"项目“{ev.name}”按各单位的名额（{len(t.units)} 个单位）最多只有 {most} {w}参赛，而赛制“{ev.format.type}”"
                   f"至少要 {need} {w}才能抽签开赛：这个项目无法举行（报名截止后只会一直提示报名不足）。请放宽该项目的"
                   "名额规则（每单位可报更多，或 open 不限），或增加参赛单位，或删去该项目。")
        out.append(BadAnswer(_in_chinese(problem, _answered(key, spec, answers)), question_of(key, spec),
                             _located(key, spec)))
    return out


def _answered(key: str, spec: dict[str, Any], answers: dict[str, Any] | None) -> dict[str, str]:
    """registry name → the office's own Chinese word for it, from the answers of the event
    ``key`` is about (``events[doudizhu].format.type`` → {"doudizhu": "斗地主", "knockout": "淘汰赛"})."""
    from .draw import FORMATS
    from .games import GAMES

    m = re.fullmatch(r"第(\d+)个项目", _located(key, spec))
    raw = (answers or {}).get("events") or []
    if not m or int(m[1]) > len(raw) or not isinstance(raw[int(m[1]) - 1], dict):
        return {}
    item = raw[int(m[1]) - 1]
    fmt = item.get("format")
    out = {}
    for reg, word in ((GAMES, _text(item.get("game"))), (FORMATS, _first_word(fmt.get("type") if isinstance(fmt, dict) else fmt))):
        if word and not word.isascii() and word in reg:
            out[reg.canonical(word)] = word
    return out


def _format_words(text: str) -> list[str]:
    """A format answer's words: the format, then its rounds and options (``瑞士制（5轮）``)."""
    return [p for p in re.split(r"[\s,，;；、（）()]+", text) if p]


def _first_word(v: Any) -> str:
    """A format answer's format word, without the rounds or options after it (``瑞士制 5轮``)."""
    return next(iter(_format_words(_text(v))), "")


def _in_chinese(problem: str, words: dict[str, str] | None = None) -> str:
    """``problem`` with each registered game and format name (``doudizhu``, ``knockout``,
    ``tables_of_three``) in Chinese: the office's own word (``words``, from
    :func:`_answered`), else the registry's Chinese title.  ``“淘汰赛”（knockout）`` (an alias
    shown with its name) becomes ``“淘汰赛”``.

    >>> _in_chinese("赛制“knockout”每桌 2 人，请改用：tables_of_three。", {"knockout": "淘汰制"})
    '赛制“淘汰制”每桌 2 人，请改用：三人桌淘汰赛。'
    """
    from .draw import FORMATS
    from .games import GAMES

    said: dict[str, str] = {}
    for reg in (FORMATS, GAMES):
        for name, obj in reg.items():
            said[name] = str(getattr(obj, "title", "") or name)
    said.update(words or {})
    names = "|".join(sorted(map(re.escape, said), key=len, reverse=True))
    problem = re.sub(rf"(“[^”]*”)（(?:{names})）", r"\1", problem)      # “淘汰赛”（knockout）
    return re.sub(rf"(?<![A-Za-z0-9_])({names})(?![A-Za-z0-9_])", lambda x: said[x[1]], problem)


def _located(key: str, spec: dict[str, Any], problem: str = "") -> str:
    """``events[xiangqi].format`` → ``第1个项目`` (the item's place among the answers), else "".
    A whole list's problem that names its items (``units``: 单位名称或简称重复：甲、乙) →
    every item named (``第2个单位、第5个单位``): a unit listed twice is on two rows."""
    m = re.match(r"(units|events|sessions)\[([^\]]+)\]", key)
    if not m:
        named = re.search(r"重复：(.*?)（", problem)
        if key in ("units", "events") and named:
            listed = set(named[1].split("、"))
            at = [i for i, x in enumerate(spec.get(key) or [])
                  if listed & {str(x.get(k)) for k in ("id", "name", "short") if x.get(k)}]
            word = {"units": "个单位", "events": "个项目"}[key]
            return "、".join(f"第{i + 1}{word}" for i in at)
        return ""
    items = spec.get(m[1]) or []
    at = next((i for i, x in enumerate(items) if str(x.get("id")) == m[2]), None)
    if at is None and m[2].isdigit():
        at = int(m[2])
    if at is None:
        return ""
    return f"第{at + 1}" + {"units": "个单位", "events": "个项目", "sessions": "场"}[m[1]]


# ------------------------------------------------------------------------------ interactive
def _same_name(name: str, items: list[dict[str, Any]]) -> int:
    """The place (1-based) of the item already answered with this name as the forms' reader
    sees it (第1分工会 and 第１分工会 are one), else 0."""
    from .spec import name_key

    key = name_key(name)
    return next((i for i, x in enumerate(items, 1) if name_key(str(x.get("name") or "")) == key), 0)


def _prompt(ask: Ask, text: str, fn: Callable[[Any], Any], default: Any = None, echo: Callable[[str], None] | None = None) -> Any:
    """Ask until ``fn`` accepts the answer; a rejected answer is explained and asked again."""
    while True:
        # the default as text: click infers the answer's type from it, and its own (English)
        # "is not a valid integer" would come before our Chinese explanation
        value = ask(text, default=str(default)) if default is not None else ask(text, default="", show_default=False)
        try:
            return fn(value)
        except BadAnswer as e:
            (echo or _echo)(f"  ✗ {e}")


def _echo(msg: str) -> None:
    import click
    click.echo(msg, err=True)


MEMBERS_PROMPT = "  会员人数（名额按比例或分档计算时必填；否则可回车）"
#: the awards question, with R2020-A1's award for everyone else (awards ``rest``)
PLACES_PROMPT = "奖项及名额（其余参赛者都发的奖项写在最后，如 一等奖1,二等奖2,三等奖3,其余参与奖）"
#: R2020-Q2, asked when the league has two or more events
ONE_EVENT_PROMPT = "每人限报一项（是 / 否；各项目同一场次同时比赛，一人报两项会被排在同一时间的两张桌上）"
#: the quota question: a fixed or banded quota counts entries (队数, R2020-Q1, R2015-Q3), a
#: ratio the players (R2016-Q1: :func:`pipeline.validate.checks.quota_entries`) — it said
#: 按队数计 of all four, and a ratio of 2% for 140 members read as 2 pairs, not 1
QUOTA_PROMPT = ("  名额规则（fixed 2 / bands 0:1,30:2：每单位可报的队数，单人项目即人数；"
                "ratio 0.15：参赛人数占会员人数的比例；open：不限）")


def ask_answers(folder: Path, ask: Ask, echo: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Ask every question at the prompt (Chinese) and return the answers dict."""
    echo = echo or (lambda msg: _echo(msg))
    from .draw import FORMATS
    from .games import GAMES
    # no fixed fallback id: two leagues with one id share an output folder and ledger
    default_id = folder.name if re.fullmatch(r"[A-Za-z0-9_-]+", folder.name) else None
    a: dict[str, Any] = {}
    a["name"] = _prompt(ask, "赛事名称（如 2026年教职工棋牌赛）", v_required, echo=echo)
    a["id"] = _prompt(ask, "赛事编号（英文字母/数字）", v_id, default_id, echo=echo)
    a["organizer"] = _prompt(ask, "主办单位（落款）", v_required, "校工会", echo=echo)
    a["contact"] = _prompt(ask, "联系人及电话（印在通知上；无则回车）", _text, "", echo=echo)
    a["submit_to"] = _prompt(ask, "报名表发送到的邮箱（工会办公室收件；无则回车）", v_email, "", echo=echo)
    a["units"] = []
    echo("参赛单位：逐个填写，单位名称直接回车结束。")
    while True:
        n = len(a["units"]) + 1
        name = _text(ask(f"第{n}个单位名称（回车结束）", default="", show_default=False))
        if not name:
            if a["units"]:
                break
            echo("  ✗ 至少要有一个参赛单位。")
            continue
        same = _same_name(name, a["units"])
        if same:
            echo(f"  ✗ “{name}”已经填过（第{same}个单位），请换一个名称。")
            continue
        a["units"].append({"name": name,
                           "captain": _prompt(ask, "  队长/联系人", _text, "", echo=echo),
                           "members": _prompt(ask, MEMBERS_PROMPT, v_members, "", echo=echo),
                           "email": _prompt(ask, "  邮箱（回执发往此地址；多个用分号隔开）",
                                            lambda v: "；".join(v_emails(v)), "", echo=echo)})
    echo("比赛项目：逐个填写，项目名称直接回车结束。")
    echo(f"  棋牌种类可选：{_choices(GAMES)}")
    echo(f"  赛制可选：{_choices(FORMATS)}")
    a["events"] = []
    taken: set[str] = set()
    while True:
        n = len(a["events"]) + 1
        name = _text(ask(f"第{n}个项目名称（回车结束）", default="", show_default=False))
        if not name:
            if a["events"]:
                break
            echo("  ✗ 至少要有一个比赛项目。")
            continue
        same = _same_name(name, a["events"])
        if same:        # found only by the whole spec's check, which asked every question again
            echo(f"  ✗ “{name}”已经填过（第{same}个项目），请换一个名称。")
            continue
        while True:
            ev = {"name": name,
                  "game": _prompt(ask, "  棋牌种类", v_game, echo=echo),
                  "format": _prompt(ask, "  赛制（可接轮数或选项，如“瑞士制 5轮”）", v_format_spec, echo=echo),
                  "quota": _prompt(ask, QUOTA_PROMPT,
                                   v_quota_text, "fixed 2", echo=echo)}
            ev["team_size"] = _prompt(ask, "  每队人数（单人项目填 1，对子填 2）", v_team_size,
                                      _side_size(ev["game"]), echo=echo)
            try:   # check the event alone now, so a mismatch is re-asked at once
                check_spec(_probe(ev, set(taken)), probe=True)
            except BadAnswer as e:
                # (its message is sentences ending in 。: …三人桌淘汰赛。，请重新填写 read doubled)
                echo(f"  ✗ {str(e).rstrip('。，；,; ')}。请重新填写这个项目。")
                continue
            a["events"].append(ev)
            taken.add(ev["game"])
            break
    a["deadline"] = _prompt(ask, "报名截止时间（如 2026-12-01 17:00）", v_datetime, echo=echo)
    a["sessions"] = []
    echo("比赛时间：逐场填写，日期直接回车结束。")
    while True:
        date = _text(ask(f"第{len(a['sessions']) + 1}场日期（如 2026-12-05，回车结束）", default="", show_default=False))
        if not date:
            break
        try:
            v_date(date)
        except BadAnswer as e:
            echo(f"  ✗ {e}")
            continue
        start = _prompt(ask, "  开始时间", v_time, "08:30", echo=echo)
        end = _prompt(ask, "  结束时间", v_time, "12:00", echo=echo)
        if end <= start:
            echo(f"  ✗ 结束时间 {end} 不晚于开始时间 {start}，请重新填写这一场。")
            continue
        if f"{v_date(date)}T{start}" < a["deadline"][:16]:
            echo(f"  ✗ 这一场在报名截止（{a['deadline'][:16].replace('T', ' ')}）之前：比赛要在截止、抽签之后进行，"
                 "请重新填写这一场。")
            continue
        a["sessions"].append({"date": date, "start": start, "end": end,
                              "venue": _prompt(ask, "  地点（无则回车）", _text, "", echo=echo)})
    checkin = [e["name"] for e in a["events"] if checks_in(e.get("format"))]
    if checkin:
        first = a["sessions"][0] if a["sessions"] else None
        like = f"{v_date(first['date'])} {first['start']}" if first else "2026-12-05 08:30"
        echo(f"项目{'、'.join(f'“{n}”' for n in checkin)}比赛当天签到，按到场情况重新组合搭档后才抽第1轮（生成签到表）。")
        def fits(v: Any) -> str:
            at = v_draw_at(v)
            late = _after_every_session(at, a["sessions"]) if at else ""
            if late:
                raise BadAnswer(late)
            return at
        a["draw_at"] = _prompt(ask, f"  签到抽签时间（签到截止、抽第1轮的时刻，如 {like}；不安排当天签到则回车）",
                               fits, "", echo=echo)
    if len(a["events"]) > 1:
        a["one_event_per_person"] = _prompt(ask, ONE_EVENT_PROMPT, v_one_event, "是", echo=echo)
    a["pickup_points"] = _prompt(ask, "班车乘车地点（各点用逗号分隔，如 东门,西门,自行到达；不安排班车则回车）",
                                 v_list, "", echo=echo)
    a["late_policy"] = _prompt(ask, "逾期报名（拒收 / 接收并警告）", v_late, "拒收", echo=echo)
    from .score import AWARD_SCHEMES
    echo(f"评奖方式可选：{_choices(AWARD_SCHEMES)}")
    a["awards"] = _prompt(ask, "评奖方式", lambda v: _scheme_for(v, a["events"]), "ranked", echo=echo)
    a["places"] = _prompt(ask, PLACES_PROMPT, v_places, "一等奖1,二等奖2,三等奖3", echo=echo)
    a["prizes"] = _prompt(ask, "奖金（如 一等奖=500,二等奖=300；无则回车）",
                          lambda v: v_prizes(v, v_places(a["places"])), "", echo=echo)
    a["branch_award"] = _prompt(ask, "单位奖项（按单位颁发，如 优秀组织奖；无则回车）", _text, "", echo=echo)
    a["discretionary_awards"] = _prompt(ask, "评定奖项（评委会评定，如 体育道德风尚奖，多个用顿号或逗号隔开；无则回车）",
                                        v_award_names, "", echo=echo)
    return a


def _scheme_for(v: Any, events: list[dict[str, Any]]) -> str:
    """:func:`v_scheme`, refused at once when it cannot be the events' (:func:`scheme_problem`)."""
    scheme = v_scheme(v)
    why = scheme_problem(scheme, events)
    if why:
        raise BadAnswer(why)
    return scheme


def _top_questions(a: dict[str, Any]) -> dict[str, tuple[str, str, Callable[[Any], Any]]]:
    """question → (answer key, prompt, check): the questions asked once, to ask one again."""
    return {"赛事名称": ("name", "赛事名称（如 2026年教职工棋牌赛）", v_required),
            "赛事编号": ("id", "赛事编号（英文字母/数字）", v_id),
            "主办单位": ("organizer", "主办单位（落款）", v_required),
            "收件邮箱": ("submit_to", "报名表发送到的邮箱（工会办公室收件；无则回车）", v_email),
            "报名截止时间": ("deadline", "报名截止时间（如 2026-12-01 17:00）", v_datetime),
            "签到抽签时间": ("draw_at", "签到抽签时间（签到截止、抽第1轮的时刻，如 2026-12-05 08:30；不安排当天签到则回车）",
                       v_draw_at),
            "逾期报名": ("late_policy", "逾期报名（拒收 / 接收并警告）", v_late),
            "每人限报一项": ("one_event_per_person", ONE_EVENT_PROMPT, v_one_event),
            "评奖方式": ("awards", "评奖方式", lambda v: _scheme_for(v, a.get("events") or [])),
            "奖项及名额": ("places", PLACES_PROMPT, v_places),
            "奖金": ("prizes", "奖金（如 一等奖=500,二等奖=300；无则回车）",
                   lambda v: v_prizes(v, v_places(a.get("places")))),
            "单位奖项": ("branch_award", "单位奖项（按单位颁发，如 优秀组织奖；无则回车）", _text),
            "评定奖项": ("discretionary_awards", "评定奖项（多个用顿号或逗号隔开；无则回车）", v_award_names),
            "发文日期": ("notice_date", "发文日期（如 2026-11-20）", v_date)}


def reask(a: dict[str, Any], question: str, where: str, ask: Ask,
          echo: Callable[[str], None] | None = None) -> bool:
    """Ask again only the question at fault (after the whole spec's check refused it), the
    earlier answer offered as the default; False when it is not one that can be asked alone
    (then every question is asked again)."""
    echo = echo or _echo

    def again(key: str, text: str, fn: Callable[[Any], Any], into: dict[str, Any]) -> None:
        old = into.get(key)
        old = "" if old is None else ("；".join(old) if isinstance(old, list) else old)
        into[key] = _prompt(ask, text, fn, old if not isinstance(old, dict) else "", echo=echo)

    top = _top_questions(a)
    name = next((q for q in top if question == q), None)
    if name is None and re.search(r"的评奖方式$", question):
        name = "评奖方式"
    if name is None and re.search(r"的报名截止时间$", question):
        name = "报名截止时间"
    if name is None and re.search(r"的签到抽签时间$", question):
        name = "签到抽签时间"
    m = re.fullmatch(r"第(\d+)(个单位|个项目|场)", where or "")
    if name:
        echo(f"  请重新回答【{name}】：")
        for q in [name] + (["奖项及名额", "奖金"] if name == "评奖方式" else []):
            again(*top[q], a)
        return True
    if not m:
        return False
    kind, n = m[2], int(m[1]) - 1
    table = {"个单位": "units", "个项目": "events", "场": "sessions"}[kind]
    items = a.get(table) or []
    if not 0 <= n < len(items) or not isinstance(items[n], dict):
        return False
    item = items[n]
    echo(f"  请重新填写【{where}】（{_text(item.get('name') or item.get('date'))}）：")
    if table == "units":
        again("captain", "  队长/联系人", _text, item)
        again("members", MEMBERS_PROMPT, v_members, item)
        again("email", "  邮箱（回执发往此地址；多个用分号隔开）", lambda v: "；".join(v_emails(v)), item)
    elif table == "events":
        again("game", "  棋牌种类", v_game, item)
        again("format", "  赛制（可接轮数或选项，如“瑞士制 5轮”）", v_format_spec, item)
        again("quota", QUOTA_PROMPT, v_quota_text, item)
        again("team_size", "  每队人数（单人项目填 1，对子填 2）", v_team_size, item)
    else:
        again("date", "  日期（如 2026-12-05）", v_date, item)
        again("start", "  开始时间", v_time, item)
        again("end", "  结束时间", v_time, item)
    return True


def _probe(ev: dict[str, Any], taken: set[str]) -> dict[str, Any]:
    return {"id": "probe", "name": "probe", "units": [{"id": "b01", "name": "甲", "members": 100}],
            "events": [clean_event(ev, taken)]}


# ------------------------------------------------------------------------------ questionnaire workbook
KEY_ROWS = [("赛事名称", "name", "如 2026年教职工棋牌赛"), ("赛事编号", "id", "必填，英文字母、数字、- 和 _，每届不同，如 t2026-chess"),
            ("主办单位", "organizer", "通知落款"), ("报名截止时间", "deadline", "必填，如 2026-12-01 17:00（只写日期即当天 23:59）"),
            ("签到抽签时间", "draw_at", "分组积分编排赛的项目填写：比赛当天签到截止、抽第1轮的时刻，如 2026-12-05 08:30"
                                    "（按到场情况重新组合搭档，生成签到表；空则报名截止后即抽签，不签到）；其他赛制不用填"),
            ("评奖方式", "awards", "按名次设奖（ranked，空则此项）/ 前N名（top_n）/ 各组前N名（group_top，只用于分组积分编排赛）"),
            ("奖项及名额", "places", "如 一等奖1,二等奖2,三等奖3；其余参赛者都发的奖项写在最后，如 一等奖1,二等奖2,三等奖3,其余参与奖"), ("奖金", "prizes", "如 一等奖=500,二等奖=300（可空）"),
            ("联系人", "contact", "联系人及电话，印在通知上（可空）"),
            ("收件邮箱", "submit_to", "报名表发送到的邮箱（工会办公室），印在通知和报名表上（可空）"),
            ("乘车地点", "pickup_points", "班车乘车地点，逗号分隔，如 东门,西门,自行到达（不安排班车则空）"),
            ("逾期报名", "late_policy", "拒收 / 接收并警告（空则拒收）"),
            ("每人限报一项", "one_event_per_person", "是 / 否（空则：有两个以上项目时为“是”——各项目同一场次同时比赛，"
                                                "一人报两项会被排在同一时间的两张桌上；填“否”即一人可报几个项目）"),
            ("单位奖项", "branch_award", "按单位颁发的奖项，如 优秀组织奖（可空；不要填在“奖项及名额”里）"),
            ("评定奖项", "discretionary_awards", "评委会评定的奖项，多个用顿号或逗号分隔，如 体育道德风尚奖、最佳新人奖（可空）")]
UNIT_HEAD = ["单位名称", "队长", "会员人数", "邮箱"]
EVENT_HEAD = ["项目名称", "棋牌种类", "赛制", "名额规则", "每队人数"]
SESSION_HEAD = ["日期", "开始", "结束", "地点"]
TABLES = {"参赛单位": (UNIT_HEAD, ["name", "captain", "members", "email"]),
          "比赛项目": (EVENT_HEAD, ["name", "game", "format", "quota", "team_size"]),
          "比赛时间": (SESSION_HEAD, ["date", "start", "end", "venue"])}
TABLE_KEYS = {"参赛单位": "units", "比赛项目": "events", "比赛时间": "sessions"}
#: how build_spec names a table's n-th item in a question (第n个单位 …)
TABLE_ITEM = {"参赛单位": "单位", "比赛项目": "项目", "比赛时间": "场"}


def questionnaire_path(path: str | Path) -> Path:
    """Where the blank questionnaire goes: always an Excel workbook ``.xlsx``.  A name with
    no extension gets ``.xlsx`` added (``问卷`` → ``问卷.xlsx``, as Excel saves it); a name
    with another extension (``问卷.xls``, ``.et``, ``.csv``) is refused, saying the name to
    use: the file would be .xlsx inside under another name, which Excel warns about and
    ``league new`` could not read as that type.  An existing folder gets ``问卷.xlsx`` in it.

    >>> questionnaire_path("问卷"), questionnaire_path("问卷.XLSX"), questionnaire_path("问卷2026.12")
    (PosixPath('问卷.xlsx'), PosixPath('问卷.XLSX'), PosixPath('问卷2026.12.xlsx'))
    """
    path = Path(path)
    if path.is_dir():           # a folder named: the questionnaire goes in it
        return path / "问卷.xlsx"
    suffix = path.suffix
    if suffix.lower() == ".xlsx":
        return path
    if not re.fullmatch(r"\.[A-Za-z]+", suffix):
        return path.with_name(path.name + ".xlsx")       # no extension (or 2026.12: not one)
    good = path.with_suffix(".xlsx")
    raise NewLeagueError(f"问卷只能保存为 Excel 工作簿（.xlsx），不能用扩展名 “{suffix}”（league new 只读 .xlsx）。"
                         f"请改用文件名 “{good.name}”：league questionnaire {good}")


def column_hints() -> dict[str, str]:
    """What to fill in a table column of the 问卷 (by its header), for the columns whose
    wrong answer goes wrong quietly: 每队人数 (a team sits on one side of a table) and
    会员人数 (ratio and band quotas are computed from it)."""
    from .games import GAMES
    from .registries import side_size
    solo = "、".join(g.title for _n, g in GAMES.items() if side_size(g) == 1)
    pairs = "、".join(g.title for _n, g in GAMES.items() if side_size(g) == 2)
    return {"会员人数": "名额规则按比例或分档计算时必填（整数，如 40）；都是固定名额或不限时可空",
            "名额规则": "填数字（如 2）为固定名额、分档 0:1,30:2 为按会员人数分档，都是每单位可报几队（单人项目即几人）；"
                        "对子项目写人数（如 4人）即按人数折算成对（2 对）；"
                        "比例 15% 按参赛人数计（会员 140 人、比例 2% 即最多 2 人参赛，对子项目即 1 对）；"
                        "空着或填“不限”为不限名额",
            "赛制": "从下拉列表选，可在后面接轮数或选项：如“瑞士制 5轮”“淘汰赛 final_pool=4”"
                    "（各赛制的选项见 docs/spec-reference.md）",
            "每队人数": f"按棋牌种类填（一队坐桌上的一方）：单人项目（{solo}）填 1，"
                        f"固定搭档的对子项目（{pairs}）填 2；空着即按棋牌种类"}


def write_questionnaire(path: str | Path, rows: int = 20) -> Path:
    """Write the blank one-page 问卷 workbook: key/value rows, then the units, events and
    sessions tables (a title row, a header row, blank rows to fill).  The file is always an
    .xlsx (:func:`questionnaire_path`): the path written is returned."""
    from .xlsx import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation
    path = questionnaire_path(path)
    wb = Workbook()
    ws = wb.active
    ws.title = QUESTIONNAIRE_SHEET
    bold = Font(bold=True)
    ws.append(["新建赛事问卷（填好后运行 league new 文件夹 --from-workbook 本文件）"])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append(["问题", "填写", "说明"])
    for label, _key, hint in KEY_ROWS:
        ws.append([label, None, hint])
    hints = column_hints()
    from .draw import FORMATS
    from .games import GAMES
    lists = {"棋牌种类": [g.title for _n, g in GAMES.items()],
             "赛制": [getattr(f, "title", n) for n, f in FORMATS.items()]}
    for title, (head, _keys) in TABLES.items():
        ws.append([])
        # a column's hint beside the table's title (the reader reads that row's first cell only)
        notes = [f"{col}：{hints[col]}" for col in head if col in hints]
        ws.append([title, *(["；".join(notes)] if notes else [])])
        ws.cell(ws.max_row, 1).font = bold
        ws.append(head)
        for c in ws[ws.max_row]:
            c.font = bold
        first = ws.max_row + 1
        for _ in range(rows if title != "比赛时间" else 5):
            ws.append([None] * len(head))
        for k, col in enumerate(head, start=1):
            choices = lists.get(col)
            if col in hints or choices:       # shown when a cell of that column is chosen
                # a dropdown of the names the reader knows (typing another is still allowed:
                # the reader says what it does not know)
                dv = DataValidation(type="list" if choices else None,
                                    formula1=f'"{",".join(choices)}"' if choices else None,
                                    showErrorMessage=False, showInputMessage=bool(col in hints),
                                    promptTitle=col if col in hints else None,
                                    prompt=hints[col][:250] if col in hints else None)
                dv.add(f"{get_column_letter(k)}{first}:{get_column_letter(k)}{ws.max_row}")
                ws.add_data_validation(dv)
    for col, w in zip("ABCDE", (18, 24, 28, 22, 10)):
        ws.column_dimensions[col].width = w
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def read_questionnaire(path: str | Path) -> dict[str, Any]:
    """Read a filled 问卷 workbook back into an answers dict."""
    grid = _questionnaire_grid(Path(path))
    keys = {label: key for label, key, _ in KEY_ROWS}
    answers: dict[str, Any] = {}
    table: str | None = None
    rows: dict[str, int] = {}      # question → its row on the sheet, for a located message
    answers["_rows"] = rows
    for n, row in enumerate(grid, start=1):
        first = _text(row[0]) if row else ""
        # a table starts at its title row, or at its header row when the title row was deleted
        # (the events were read as units 12–15); a question's row ends it (a row moved below)
        titled = next((title for title, (head, _) in TABLES.items()
                       if [_text(c) for c in row[:len(head)]] == head), None)
        if first in TABLES or (titled and titled != table):
            table = first if first in TABLES else titled
            answers[TABLE_KEYS[table]] = []
            continue
        if table and first in keys:
            table = None
        if table:
            head, fields = TABLES[table]
            if [_text(c) for c in row[:len(head)]] == head:
                continue
            if not any(_text(c) for c in row):
                continue
            item = {f: row[i] if i < len(row) else None for i, f in enumerate(fields)}
            answers[TABLE_KEYS[table]].append(item)
            rows[f"{TABLE_ITEM[table]}{len(answers[TABLE_KEYS[table]])}"] = n
        elif first in keys:
            rows[first] = n          # a blank answer to a required question is located too
            if len(row) > 1 and _text(row[1]):
                answers[keys[first]] = row[1]
    return answers


def _save_as_xlsx(path: Path) -> str:
    return (f"请在 Excel/WPS 中打开它，点“文件 → 另存为”，保存类型选“Excel 工作簿（*.xlsx）”，"
            f"另存为 “{path.with_suffix('.xlsx').name}”，再用这个 .xlsx 文件运行 league new … --from-workbook。")


def _questionnaire_grid(path: Path) -> list[list[Any]]:
    """The 问卷 sheet's rows, or NewLeagueError saying in Chinese why the file cannot be read
    and what to do (the library's own English words, e.g. openpyxl's “does not support the old
    .xls file format”, are not shown).  The file is recognised by its content, not its name:
    an .xlsx named 问卷.xls (as an older ``league questionnaire 问卷.xls`` wrote it) is read."""
    import io
    import zipfile
    from .xlsx import _no_numpy  # noqa: F401  (first: openpyxl without NumPy)
    import openpyxl

    data = path.read_bytes()        # an OSError (no such file, no permission) is said by the CLI
    cannot = f"无法读取问卷 “{path}”："
    if not data:
        raise NewLeagueError(cannot + "文件是空的（0 字节），里面没有问卷。请用 league questionnaire 问卷.xlsx "
                             "生成问卷，填好并保存后再运行。")
    if data.startswith(b"\xd0\xcf\x11\xe0"):   # an OLE2 compound file: .xls / .et, or a password
        raise NewLeagueError(cannot + "它是旧版 Excel 97-2003 工作簿（.xls）或 WPS 表格（.et）格式，"
                             "或是设置了打开密码的工作簿；league 只读 Excel 工作簿（.xlsx）。"
                             + _save_as_xlsx(path) + "（设有密码的请先取消密码。）")
    if not data.startswith(b"PK"):
        kind = ("是文本（CSV）文件" if path.suffix.lower() in (".csv", ".txt") or _is_text(data)
                else "不是 Excel 工作簿")
        raise NewLeagueError(cannot + f"它{kind}，不是 league 生成的问卷工作簿（.xlsx）。" + _save_as_xlsx(path))
    try:
        wb = openpyxl.load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    except zipfile.BadZipFile:
        raise NewLeagueError(cannot + "文件不完整或已损坏（可能没有下载、复制完整），打不开。请找到原来的问卷文件，"
                             "或在 Excel/WPS 中打开后另存为新的 .xlsx 工作簿再运行。") from None
    except Exception:  # noqa: BLE001 — a zip that is no workbook (.docx, .zip, .ods …)
        raise NewLeagueError(cannot + "它不是 Excel 工作簿（.xlsx），可能是 Word 文档、压缩包等其他文件改了扩展名。"
                             "请用 league 生成的问卷：league questionnaire 问卷.xlsx，填好后再运行。") from None
    try:
        if QUESTIONNAIRE_SHEET not in wb.sheetnames:
            raise NewLeagueError(f"问卷 “{path}” 里没有名为 “{QUESTIONNAIRE_SHEET}” 的工作表"
                                 f"（现有：{'、'.join(wb.sheetnames) or '无'}）。league new 只读这张表：请把工作表名改回"
                                 f"“{QUESTIONNAIRE_SHEET}”，或把回答填进 league questionnaire 生成的问卷。")
        try:
            return [list(r) for r in wb[QUESTIONNAIRE_SHEET].iter_rows(values_only=True)]
        except Exception:  # noqa: BLE001 — a sheet whose XML openpyxl cannot read
            raise NewLeagueError(cannot + f"工作表 “{QUESTIONNAIRE_SHEET}” 的内容已损坏，读不出来。"
                                 + _save_as_xlsx(path)) from None
    finally:
        wb.close()


def _is_text(data: bytes) -> bool:
    head = data[:4096]
    return b"\0" not in head and all(b >= 9 for b in head[:64])


# ------------------------------------------------------------------------------ writing the folder
SECTION_COMMENTS = {
    "id": ["# 赛事基本信息：编号（英文，用于文件名和令牌）、名称、主办单位。",
           "# 由 league new 生成；可直接修改，修改后运行 league run 检查。"],
    "units": ["# 参赛单位：id 自动编号 b01、b02…；members 为会员人数（按比例/分档名额时使用）；",
              "# emails 为登记邮箱，回执只发往这些地址。"],
    "events": ["# 比赛项目：game 为棋牌种类，format 为赛制，quota 为名额规则，deadline 为报名截止时间，",
               "# awards 为评奖方式与奖金（元）。可用的名称见 docs/spec-reference.md。"],
    "sessions": ["# 比赛时间：日期、开始、结束、地点（每场一行）。"],
    "contact": ["# 联系人及电话：印在通知上。"],
    "submit_to": ["# 报名表发送到的邮箱：印在通知和报名表的填表说明上。"],
    "pickup_points": ["# 班车乘车地点：报名表“乘车地点”一列的可选项，乘车名单按此汇总。"],
    "late_policy": ["# 逾期报名：reject 拒收；accept-with-warning 接收并警告。"],
    "one_event_per_person": ["# 每人限报一项：true 时一人报了两个以上项目即报错（MULTI_EVENT），请队长只保留一项；",
                             "# false 时可兼报，同一人在同一场次被排在两张桌上时提醒（DOUBLE_BOOKED）。"],
    "branch_award": ["# 按单位颁发的奖项（如 优秀组织奖）：在评奖表上填写获奖单位。"],
    "discretionary_awards": ["# 评委会评定的奖项（如 体育道德风尚奖）：在评奖表上填写获奖者。"],
    "secret_file": ["# 报名表令牌的密钥文件（不要外传，不要改动）。"],
}


def spec_yaml(spec: dict[str, Any]) -> str:
    """The tournament.yaml text: one block per top-level key, with Chinese comments."""
    lines = ["# 赛事配置（tournament.yaml）— 由 league new 生成。", ""]
    for key, value in spec.items():
        if key in SECTION_COMMENTS and key != "id":
            lines.append("")
        lines += SECTION_COMMENTS.get(key, [])
        lines.append(yaml.safe_dump({key: value}, allow_unicode=True, sort_keys=False,
                                    default_flow_style=False, width=100).rstrip())
    return "\n".join(lines).rstrip() + "\n"


def _where(answers: dict[str, Any], question: str) -> str:
    """``（问卷第 12 行，B12）`` for a question answered on the questionnaire, else "";
    ``第2个单位、第5个单位`` → ``（问卷第 18、21 行）``."""
    rows = answers.get("_rows") or {}
    places = question.split("、")
    found = [re.fullmatch(r"第(\d+)(?:个(单位|项目)|(场))", q) for q in places]
    if all(found):
        at = [rows.get(f"{m.group(2) or m.group(3)}{m.group(1)}") for m in found if m]
        if None in at:
            return ""
        return f"（问卷第 {'、'.join(map(str, at))} 行）"
    n = rows.get(question)
    return "" if n is None else f"（问卷第 {n} 行，B{n}）"


def _said(answers: dict[str, Any], bad: BadAnswer) -> str:
    """One bad answer as the office reads it: 【question】（问卷第 N 行）的回答有误：reason."""
    question = bad.question or "问卷"
    place = bad.args[2] if len(bad.args) > 2 and bad.args[2] else ""
    where = (_where(answers, place) if place else "") or _where(answers, question)
    return f"【{question}】{where}的回答有误：{bad}"


def answer_problems(answers: dict[str, Any]) -> tuple[dict[str, Any] | None, list[BadAnswer]]:
    """(spec, []) when every answer is usable and the whole spec passes, else (None, every
    bad answer): each answer's own check first; the whole spec is checked when those pass
    (an incomplete spec's check would blame what is only missing)."""
    problems: list[BadAnswer] = []
    spec = build_spec(answers, problems)
    if problems:
        return None, problems
    problems = spec_problems(spec, answers)
    return (None, problems) if problems else (spec, [])


def create(folder: str | Path, questionnaire: str | Path | None = None,
           answers: dict[str, Any] | None = None, ask: Ask | None = None) -> Path:
    """Create a tournament folder and return the path of its ``tournament.yaml``.

    Answers come from ``answers`` (dict), else ``questionnaire`` (.xlsx), else the prompt
    (``ask``, default ``click.prompt``).  Refuses an existing tournament.yaml.

    >>> create(tmp, answers={...})  # doctest: +SKIP
    PosixPath('tmp/tournament.yaml')
    """
    folder = Path(folder)
    target = folder / SPEC_FILE
    if folder.exists() and not folder.is_dir():     # before a question: the answers would be lost
        hint = (f"要按填好的问卷建立，请运行：league new 赛事文件夹 --from-workbook {folder}"
                if folder.suffix.lower() in (".xlsx", ".xlsm", ".xls") else "请换一个文件夹名称。")
        raise NewLeagueError(f"“{folder}” 是一个文件，不是文件夹，联赛建不进去；{hint}")
    if target.exists():
        raise NewLeagueError(f"“{target}” 已存在，不会覆盖：新建赛事请换一个新的文件夹；要修改这个赛事，"
                             "请直接编辑它的 tournament.yaml（已有单位的编号 b01、b02… 不要改）。")
    # a league's other files without its tournament.yaml (moved away to "start again"): a new
    # spec here numbers the units afresh (b02 becomes another unit), its forms would pass
    # under the old secret, and the old forms would land beside the new ones
    left = [name for name, there in (("secret.key", (folder / "secret.key").exists()),
                                     ("templates/ 中的报名表", (folder / "templates").is_dir()
                                      and any((folder / "templates").glob("*.xlsx"))))
            if there]
    if left:
        raise NewLeagueError(f"文件夹“{folder}”里已有一项赛事的文件（{'、'.join(left)}），不会在这里新建：新建赛事请换一个新的"
                             "文件夹；要修改那项赛事，请把它的 tournament.yaml 放回原处后直接编辑（已有单位的编号不要改）。")
    interactive = answers is None and questionnaire is None
    if questionnaire is not None and answers is None:
        answers = read_questionnaire(questionnaire)
    if interactive:
        import click
        answers = ask_answers(folder, ask or click.prompt)
    assert answers is not None
    answers = dict(answers)
    if not answers.get("id") and re.fullmatch(r"[A-Za-z0-9_-]+", folder.name):
        answers["id"] = folder.name
    if not interactive:
        # every bad answer at once, each with its row (as league run lists a spec's problems):
        # a clerk with three mistakes fixed one a run
        found, problems = answer_problems(answers)
        if problems:
            from .spec import MAX_SPEC_PROBLEMS
            said = [_said(answers, p) for p in problems]
            if len(said) == 1:
                raise NewLeagueError(said[0])
            more = len(said) - MAX_SPEC_PROBLEMS
            raise NewLeagueError(
                f"问卷有 {len(said)} 处回答有误，请一并改正后再运行：\n"
                + "\n".join(f"  {i}. {x}" for i, x in enumerate(said[:MAX_SPEC_PROBLEMS], 1))
                + (f"\n  ……另有 {more} 处，改正以上各处后再运行即可看到。" if more > 0 else ""))
    while True:
        try:
            spec = build_spec(answers)
            check_spec(spec)
            break
        except BadAnswer as e:
            question = e.args[1] if len(e.args) > 1 else "问卷"
            if not interactive:       # not reached: answer_problems found none
                raise NewLeagueError(_said(answers, e)) from None
            where = e.args[2] if len(e.args) > 2 and e.args[2] else question
            _echo(f"  ✗ 【{where}】的回答有误：{e.args[0]}")     # why it is asked again
            if reask(answers, question, where, ask or click.prompt):
                continue
            _echo("  请重新回答全部问题。")
            answers = ask_answers(folder, ask or click.prompt)
    first = min((e["deadline"] for e in spec["events"] if e.get("deadline")), default=None)
    if first and dt.datetime.fromisoformat(first) < dt.datetime.now(TZ):
        _echo(f"  ! 报名截止时间 {first[:16].replace('T', ' ')} 已经过去：第一次运行就会抽签并公布第1轮。"
              "若是笔误，请在运行前改正 tournament.yaml 中的 deadline。")
    for said in setup_warnings(spec, answers):
        _echo(f"  ! {said}")
    _write_folder(folder, spec)
    return target


def setup_warnings(spec: dict[str, Any], answers: dict[str, Any] | None = None) -> list[str]:
    """What the office should know about a spec that passed every check, one sentence each
    (``league new`` prints them with ``!``; the folder is made all the same):

    - an event that re-forms pairs at a check-in on the day (分组积分编排赛, R2016-F2) without
      a check-in time (``draw_at``): its round 1 is drawn at the deadline, no 签到表 is made,
      though the notice promises the re-pairing of players whose partner is absent;
    - a check-in time answered while no event checks in (it is written nowhere);
    - award places a knockout does not rank: only its final round robin (``final_pool``,
      default 3) is ranked; the losers of one knockout round tie unless the tiebreaks part
      them, so a place beyond the pool may need a 加赛 before any award is given;
    - an event whose quotas let fewer entries in than it has award places: every entry wins;
    - R2020-Q1: a quota of pairs or teams answered as people (掼蛋 ``4人``), taken as teams
      (2 对): said with the teams it made, so a clerk who meant 4 对 sees it before the forms go out.
    """
    from .draw import FORMATS
    from .score import AWARD_SCHEMES

    out = [_people_quota_note(raw, ev) for raw, ev in zip((answers or {}).get("events") or [], spec.get("events") or [])
           if isinstance(raw, dict)]
    out = [x for x in out if x]
    t = parse_spec(spec, SPEC_FILE)
    checkin = [ev for ev in t.events if ev.format.type in FORMATS and checks_in(ev.format.type)]
    missing = [ev.name for ev in checkin if ev.draw_at is None]
    if missing:
        out.append(f"项目{'、'.join(f'“{n}”' for n in missing)}（分组积分编排赛）没有签到抽签时间：报名截止后第一次运行就会"
                   "抽第1轮，不生成签到表，比赛当天不能按到场情况重新组合搭档（通知上却写着当天重新组合）。要当天签到后"
                   "再抽签，请在 tournament.yaml 中给该项目加上 draw_at（签到时间，如 draw_at: 2026-12-05T08:30:00+08:00），"
                   "或在问卷的“签到抽签时间”一栏填写后重新建立。")
    if answers and _text(answers.get("draw_at")) and not checkin:
        out.append("填写了签到抽签时间，但没有比赛当天签到的项目（分组积分编排赛），这个时间未写入 tournament.yaml。")
    for ev in t.events:
        if ev.awards.scheme not in AWARD_SCHEMES or ev.format.type not in FORMATS:
            continue
        scheme = AWARD_SCHEMES.get(ev.awards.scheme)
        places = scheme.places(ev.awards.options)
        total = sum(n for _a, n in places)
        shown = "、".join(f"{a}{n}名" for a, n in places)
        fmt = FORMATS.get(ev.format.type)
        most = _most_entries(t, ev)
        if most is not None and most < getattr(fmt, "min_entries", 2):
            continue                    # never held (_never_held): no award is given at all
        if fmt.name == "knockout":
            pool = int(ev.format.options.get("final_pool", 3))
            if total > pool and (most is None or _knockout_tie(most, pool, total)):
                example = "：如 10 人参赛，第 6 至 10 名 5 人并列" if pool == 3 else ""
                out.append(f"项目“{ev.name}”（淘汰赛）设了 {total} 个获奖名额（{shown}），但淘汰赛只在最后剩下的 {pool} 人（队）"
                           f"之间以决赛循环赛排出名次；第 {pool + 1} 名起是各轮被淘汰者，同一轮的负者按破同分规则排列，"
                           "分不出时名次并列。获奖名额的分界落在并列者之间时，要组织加赛、填加赛表后才能颁奖"
                           f"（并列的人数随参赛人数而定{example}）。"
                           + (f"按名额最多 {most} {'队' if ev.team_size > 1 else '人'}参赛时，第 {total} 名就落在并列者之间。"
                              if most is not None else "")
                           + "如不想加赛，可在建好后按实际参赛人数修改 tournament.yaml 中该项目的 awards，"
                           "使获奖名额正好到某一轮负者为止。")
        if getattr(scheme, "by_group", False):
            continue                    # places in each group: the group sizes are not known yet
        if most is not None and most <= total:
            out.append(f"项目“{ev.name}”按名额最多只有 {most} {'队' if ev.team_size > 1 else '人'}参赛，却设了 {total} 个获奖"
                       f"名额（{shown}）：每{'队' if ev.team_size > 1 else '位参赛者'}都会获奖。建议按参赛人数为该项目分别设奖：建好后在 tournament.yaml "
                       "中修改该项目的 awards（减少名额）。")
    return out


def _people_quota_note(raw: dict[str, Any], ev: dict[str, Any]) -> str | None:
    """R2020-Q1: what the quota answer ``raw`` of a pair or team event ``ev`` (its spec) wrote
    as people and was taken as teams — ``项目“掼蛋”的名额“4人”按每单位 2 对（4 人）计`` — or None."""
    k = int(ev.get("team_size") or 1)
    people: list[tuple[int, int]] = []
    try:
        rule = v_quota(raw.get("quota", "open"), k, people)["rule"]
    except BadAnswer:           # (not reached: the spec was built from it)
        return None
    if not people:
        return None
    w, each = team_word(k), "各档" if rule == "bands" else "每单位"
    said = "、".join(f"{t} {w}（{n} 人）" for n, t in people)
    meant = "、".join(f"“{n}{w}”" for n, _t in people)
    return (f"项目“{_text(raw.get('name')) or ev.get('name')}”的名额“{_nfkc(raw.get('quota'))}”按{each} {said}计："
            f"本项目每{w} {k} 人，名额按{w}数计。若本意是{each} {'、'.join(str(n) for n, _t in people)} {w}，"
            f"请在建好后的 tournament.yaml 中改该项目的 quota（或把问卷中的名额写成 {meant}，另建一个文件夹重新建立）。")


def _knockout_tie(entries: int, pool: int, places: int) -> bool:
    """Whether the last award place (``places``) falls among tied losers of one knockout round
    when ``entries`` play down to a final round robin of ``pool``: each round halves the field
    (byes round it up), and its losers share the places below the round after it.  R2020's 22
    entries: 22 → 11 → 6 → 3, places 4–6 and 7–11 — six awards end at a round's edge; with 10
    entries (10 → 5 → 3: places 4–5 and 6–10) the sixth place is shared by five.

    >>> _knockout_tie(22, 3, 6), _knockout_tie(10, 3, 6), _knockout_tie(10, 3, 5)
    (False, True, False)
    """
    losers = []
    n = entries
    while n > pool:
        nxt = max(pool, -(-n // 2))
        losers.append(n - nxt)
        n = nxt
    edge = min(entries, pool)
    for block in reversed(losers):
        if edge < places < edge + block:
            return True
        edge += block
    return False


def _write_folder(folder: Path, spec: dict[str, Any]) -> None:
    """Write the tournament folder, all or nothing: when a file cannot be written (a read-only
    or full disk), what this call made is removed again before the OSError goes on — a
    tournament.yaml left behind made the retry refuse with “已存在”.  What was in the folder
    before is kept."""
    import shutil

    made: list[Path] = []          # in the order made; removed in reverse

    def mkdir(p: Path) -> None:
        missing = [q for q in (p, *p.parents) if not q.exists()]
        p.mkdir(parents=True, exist_ok=True)
        made.extend(reversed(missing))

    target = folder / SPEC_FILE
    try:
        mkdir(folder)
        mkdir(folder / "inbox")
        secret = folder / spec["secret_file"]
        if not secret.exists():
            # private (0600): whoever reads it can make a form that passes for any unit's
            fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            made.append(secret)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(secrets.token_hex(20) + "\n")
        templates = folder / "templates"
        if not templates.exists():
            made.append(templates)
        made.append(target)
        target.write_text(spec_yaml(spec), encoding="utf-8")
        from .xlsx.registration import write_all_templates
        write_all_templates(load_tournament(folder), templates)
    except BaseException:
        for p in reversed(made):
            try:
                if p.is_dir() and not p.is_symlink():
                    if p.name == "templates":
                        shutil.rmtree(p)
                    else:
                        p.rmdir()          # only when still empty
                elif p.exists():
                    p.unlink()
            except OSError:
                pass
        raise
