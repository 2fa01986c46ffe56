"""Chinese script conversion (Simplified → Traditional) for tournaments printed in 繁體.

>>> convert("象棋比赛", "traditional")
'象棋比賽'
"""
from __future__ import annotations

import contextlib
import contextvars
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

if TYPE_CHECKING:
    import opencc


@lru_cache(maxsize=1)
def _s2t() -> "opencc.OpenCC":
    """OpenCC's ``s2tw``: Traditional in the character forms the client's own Traditional
    document (seed 002, T2015) uses — 為, 臨床, 麵 — where plain ``s2t`` writes the older
    forms 爲, 臨牀, 麪 that no reader of that notice writes.  Character forms only, no
    Taiwan vocabulary (``s2twp`` would turn 信息 into 資訊).

    OpenCC is imported here, when a text is first converted (a tenth of its converter's
    load): a night that converts nothing — a Simplified league's one resent form — never
    imports it."""
    import opencc

    return opencc.OpenCC("s2tw")


@lru_cache(maxsize=1)
def _s2t_plain() -> "opencc.OpenCC":
    """OpenCC's plain ``s2t`` (爲, 臨牀): the forms a converting editor may have written."""
    import opencc

    return opencc.OpenCC("s2t")


@lru_cache(maxsize=1)
def _t2s() -> "opencc.OpenCC":
    import opencc

    return opencc.OpenCC("t2s")


#: the dots typed between the parts of a name (买买提·艾力): 中点 U+00B7 for every one of them
#: — bullet, katakana middle dot (and its half-width form, by NFKC), hyphenation point, dot
#: operators — so one person is not three (an audit: ·, • and ・ entered one player thrice)
NAME_DOTS = "\u2022\u30fb\u2027\u2219\u22c5"
NAME_DOT_MAP = dict.fromkeys(map(ord, NAME_DOTS), "\u00b7")


def name_dots(text: str) -> str:
    """Every name dot as ``·`` (:data:`NAME_DOTS`, and a full stop between two Chinese
    characters): how names, units and events are compared (``ingest.workbook.strip_spaces``,
    ``spec.name_key``).

    >>> name_dots("买买提.艾力"), name_dots("买买提・艾力"), name_dots("v1.2 王.")
    ('买买提·艾力', '买买提·艾力', 'v1.2 王.')
    """
    return cjk_periods(text.translate(NAME_DOT_MAP))


def cjk_periods(text: str) -> str:
    """A full stop between two Chinese characters as ``·`` (part of :func:`name_dots`)."""
    if "." not in text or text.isascii():
        return text
    chars = list(text)
    for i in range(1, len(text) - 1):
        if text[i] == "." and "\u3400" <= text[i - 1] <= "\u9fff" and "\u3400" <= text[i + 1] <= "\u9fff":
            chars[i] = "\u00b7"
    return "".join(chars)


def to_simplified(text: str) -> str:
    """Traditional → Simplified (OpenCC t2s), for reading what people typed in either script:
    ``to_simplified("雙升") == "双升"``."""
    return _t2s().convert(text) if text and not text.isascii() else text


def name_to_simplified(name: str) -> str:
    """A person's name typed in Simplified and converted to Traditional by an editor (WPS
    简转繁 over a whole form), back in Simplified: character by character (a name is no word
    of the dictionary), each Traditional character whose Simplified one converts back to it
    (呂 → 吕, 寧 → 宁, 爲 and 為 → 为); a character that is one of Simplified names too
    stays — 乾 (干 converts to 幹), 杰, 于, 里.  於, 徵 and 夥 go back to 于, 征 and 伙: the
    editor writes them for those (于丽 → 於麗), and the surname 于 is common where 於 is
    rare (keeping them read a converted 于丽 as 於丽, another person, from a review) — the
    NAME_CONVERTED note names every changed cell, so a true 於 is seen and can be said.

    >>> name_to_simplified("呂寧桂"), name_to_simplified("嚴豔英"), name_to_simplified("李乾"), name_to_simplified("王军")
    ('吕宁桂', '严艳英', '李乾', '王军')
    >>> name_to_simplified("於麗"), name_to_simplified("徵明"), name_to_simplified("謝軍傑"), name_to_simplified("後明")
    ('于丽', '征明', '谢军杰', '后明')
    """
    if not name or name.isascii():
        return name
    t2s = _t2s()
    out = []
    for ch in name:
        simple = t2s.convert(ch) if _cjk_char(ch) else ch
        if simple != ch and len(simple) == 1 and ch in (_s2t().convert(simple), _s2t_plain().convert(simple)):
            out.append(simple)
        else:
            out.append(ch)
    return "".join(out)


def _cjk_char(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


#: characters OpenCC turns into another word's character but that, in a person's name, stay
#: as they are: the surnames 于 (not 於), 余, 范, 党, 郁, 种, 朴, 谷, 干, 沈 and name
#: characters such as 里 (not 裏), 后 (not 後), 台, 斗 — and 杰, itself a Traditional character
#: of names (周杰倫): made 傑, a 證書 printed 謝軍傑 for the registered 谢军杰, and the awards
#: page contradicted awards.csv.  征 stays 征 (OpenCC's 長征; alone it wrote 王長徵) and 冲 is
#: 沖, the name's form (祖沖之; alone OpenCC wrote 衝, to rush).
_IN_NAMES = {ch: ch for ch in "于余范党郁种朴谷干沈里后台斗杰征"} | {"冲": "沖"}
#: surnames, as the first character of a name, that OpenCC alone turns into another word's
#: character and Taiwan writes as typed (handbook: 人名按人名转换): 岳 (not 嶽, a mountain),
#: 游 (not 遊), 占 (not 佔), 涂 (not 塗) — an audit's certificates printed 嶽琪芳, 遊剛, 佔平,
#: 塗俊健 — besides those of :data:`_IN_NAMES` (姜 and 萧 OpenCC already writes 姜, 蕭).
#: In a given name they convert as OpenCC has them (王岳 as 王嶽 is written too).
_SURNAMES = {ch: ch for ch in "岳游占涂"}
#: the names of the page being converted (:func:`names_kept`): their pattern, or None
_NAMES: "contextvars.ContextVar[re.Pattern[str] | None]" = contextvars.ContextVar("names", default=None)


@lru_cache(maxsize=4096)
def convert_name(name: str) -> str:
    """A person's name in Traditional: character by character (a name is no word of the
    dictionary — OpenCC over 王金发 writes 王金髮, hair), keeping the characters of
    :data:`_IN_NAMES` and, first, the surnames of :data:`_SURNAMES`.  The name is never read
    as a phrase: OpenCC keeps 云 in its phrases 小云, 子云, 云云, 胡云 (and 吁, 几, 熏 in
    others), and a rule keeping what OpenCC kept over the whole name printed 李小云, 張云云
    half Simplified (R2015).

    >>> convert_name("于力"), convert_name("黄发"), convert_name("赵里"), convert_name("陈晓岚")
    ('于力', '黃發', '趙里', '陳曉嵐')
    >>> convert_name("周杰伦"), convert_name("谢军杰")
    ('周杰倫', '謝軍杰')
    >>> convert_name("岳琪芳"), convert_name("游刚"), convert_name("占平"), convert_name("涂俊健")
    ('岳琪芳', '游剛', '占平', '涂俊健')
    >>> convert_name("祖冲之"), convert_name("王长征"), convert_name("王金发")
    ('祖沖之', '王長征', '王金發')
    >>> convert_name("岳云鹏"), convert_name("李小云"), convert_name("张云云")
    ('岳雲鵬', '李小雲', '張雲雲')
    """
    s2t = _s2t()
    return "".join(_IN_NAMES.get(ch) or (_SURNAMES.get(ch) if at == 0 else None) or s2t.convert(ch)
                   for at, ch in enumerate(name))


@contextlib.contextmanager
def names_kept(names: Iterable[str]) -> Iterator[None]:
    """While rendering a page that names these people, :func:`convert` turns each of their
    names with :func:`convert_name`: whole-text conversion made the surname 于 of 于力
    於力 (於 is the preposition), while 于敏勇 stayed right by chance of the dictionary."""
    kept = _kept(names)
    token = _NAMES.set(_names_pattern(kept) if kept else None)
    try:
        yield
    finally:
        _NAMES.reset(token)


def _kept(names: Iterable[str]) -> frozenset[str]:
    """The names :func:`names_kept` keeps (not one character alone, not Latin letters)."""
    return frozenset(n for n in names if n and len(n) >= 2 and not n.isascii())


def names_finder(names: Iterable[str]) -> "Callable[[Iterable[str]], tuple[str, ...]]":
    """A function giving the ``names`` (those :func:`names_kept` keeps) that occur in some
    texts — what a text converted elsewhere needs kept: a returned copy is made by a worker
    process, which holds no league, and its messages name people its receipt converted as
    names (R2015: 于丽 stays 于, not 於).  Every name occurring anywhere in the texts, so the
    worker's :func:`names_kept` of them converts as one of every name would: where a text
    holds a name, the longest starting there is among them.  Looked up by each place and
    length of the names (a few hundred set lookups a copy): the pattern of 10,000 names took
    a quarter of a second to make, before a night's first copy could start."""
    kept = _kept(names)
    lengths = sorted({len(n) for n in kept})
    firsts = frozenset(n[0] for n in kept)

    def find(texts: Iterable[str]) -> tuple[str, ...]:
        found = set()
        for text in texts:
            for at, ch in enumerate(text):
                if ch in firsts:
                    found.update(w for w in (text[at:at + n] for n in lengths) if w in kept)
        return tuple(sorted(found))
    return find


@lru_cache(maxsize=4)
def _names_pattern(names: frozenset[str]) -> "re.Pattern[str]":
    """The compiled :func:`_trie_pattern` of a page's names, made once per run (the site and
    the documents are rendered in several calls with the same names)."""
    return re.compile("(" + _trie_pattern(names) + ")")


def _trie_pattern(words: Iterable[str]) -> str:
    """One regular expression matching the longest of ``words`` at a place, shaped as a trie
    (``王(?:军|小(?:明|红))``): a flat alternation of a large league's 10,000 names tried
    each name at every character of a page.

    >>> p = re.compile(_trie_pattern(["王军", "王小明", "王小"]))
    >>> p.findall("王小明和王军、王小")
    ['王小明', '王军', '王小']
    """
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict) -> str:
        alts = [re.escape(ch) + pattern(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(trie)


#: file names and paths stay as they are on disk: a message's "results/xiangqi-r3-成绩表.xlsx"
#: or 《报名表.xlsx》 converted to 成績表 names a file that does not exist.  Found from their
#: extension backwards (a pattern scanning forwards from every letter took 50 times the
#: conversion itself on a page) — the workbooks and mails we read, and what captains attach
#: instead (NO_ATTACHMENT: 《报名表.docx》, .wps, .rar, a photo) — in either case: 《機關報名表.XLSX》
#: (as some programs name it) was shown 《機關報名錶.XLSX》
_EXT = re.compile(r"\.(?:xlsx|xlsm|xls|et|csv|eml|pdf|html|zip|docx|doc|wps|ods|odt|txt|rar|7z|jpeg|jpg|png)\b", re.IGNORECASE)
#: a quoted file name ends with its extension and the closing mark: 《报名表（1）.xlsx》 or
#: “报名表（other-template）.xlsx” (whatever it holds between the marks)
_QUOTES = {"》": "《", "”": "“"}
#: a file name the page marks as one (:func:`keep`) stays as it is, whatever it holds
#: (private-use characters, removed by :func:`convert`)
KEEP_OPEN, KEEP_CLOSE = "\ue000", "\ue001"


def keep(text: str) -> str:
    """``text`` marked to stay as it is when :func:`convert` converts the page around it: a
    received file's name in a table cell (a unit page's 收到的文件 and 问题 columns) is the
    sender's own, whatever it holds — 针灸推拿学院分工会-报名表（bad-phone）.xlsx was listed
    as 針灸推拿學院分工會-報名表（bad-phone）.xlsx (its brackets hid it from the cell rule).

    >>> convert("<td>" + keep("针灸推拿学院分工会-报名表（bad-phone）.xlsx") + "</td><td>已接受</td>", "traditional")
    '<td>针灸推拿学院分工会-报名表（bad-phone）.xlsx</td><td>已接受</td>'
    """
    text = plain(text)      # (a mark inside it would end the kept part early)
    return f"{KEEP_OPEN}{text}{KEEP_CLOSE}" if text else text


#: a person's name the page marks as one (:func:`as_name`) is converted as a name
NAME_OPEN, NAME_CLOSE = "\ue002", "\ue003"


def as_name(name: str, script: str) -> str:
    """A person's name quoted in a message, marked in a Traditional league so that
    :func:`convert` turns it as a name (:func:`convert_name`) wherever the message is shown —
    for someone no page's :func:`names_of` knows: a player dropped from a resent form
    (PEOPLE_DROPPED) is no entry, and 于丽 was shown 於麗.  Unmarked in a Simplified league;
    what is written unconverted (issues.csv) shows it through :func:`plain`.

    >>> convert("新表中没有 " + as_name("于丽", "traditional") + "（1 人）", "traditional")
    '新表中沒有 于麗（1 人）'
    >>> as_name("于丽", "simplified")
    '于丽'
    """
    name = plain(name)
    return f"{NAME_OPEN}{name}{NAME_CLOSE}" if name and script == "traditional" else name


def verbatim(text: str, script: str) -> str:
    """What a person typed — a mail's subject, a file's name, a name the office typed on a
    form — quoted in a message, marked (:func:`keep`) in a Traditional league to appear there
    exactly as received: the message is converted as a whole where it is shown (a receipt,
    a page), and the captain's own Traditional subject 後勤服務分工會 報名表 converted again
    came out 報名錶 (a wristwatch); the office's 謝軍杰 came out 謝軍傑.  Unmarked in a
    Simplified league (nothing is converted there).  Whatever is not converted (issues.csv,
    a returned copy) shows it through :func:`plain`.

    >>> convert("主题“" + verbatim("後勤服務分工會 報名表", "traditional") + "”", "traditional")
    '主題“後勤服務分工會 報名表”'
    >>> verbatim("报名表", "simplified")
    '报名表'
    """
    return keep(text) if script == "traditional" else text


def script_of(spec: Any) -> str:
    """A tournament spec's script (``simplified`` for one that names none)."""
    return getattr(spec, "script", "simplified") or "simplified"


def typed(value: str, spec: Any) -> str:
    """A value a person typed — in a form's cell, a mail's subject — quoted in a message:
    :func:`verbatim` in the spec's script, so that a page or receipt converting the message
    quotes it as it was typed — "象棋团体赛" 不是本次比賽的項目, not "象棋團體賽", which no
    search of the form finds; as it is in a Simplified league.  What is written unconverted
    (issues.csv, a returned copy's comments) shows it through :func:`plain`."""
    return verbatim(value, script_of(spec))


def listed_choice(value: str, script: str) -> str:
    """A dropdown value as a sheet of the tournament's script lists it: converted (s2tw) where
    the reader takes the converted value back (t2s gives ``value``), else as it is — the
    result sheets' dropdowns (:func:`pipeline.xlsx.results._choices`), and what a message
    about such a cell lists (:func:`pipeline.games.common.as_listed`).

    >>> listed_choice("甲胜", "traditional"), listed_choice("甲胜", "simplified")
    ('甲勝', '甲胜')
    """
    if script != "traditional":
        return value
    t = convert(value, script)
    return t if t == value or to_simplified(t) == value else value


def plain(text: str) -> str:
    """``text`` without the marks of :func:`keep` (for what is written unconverted).

    >>> plain("《" + keep("报名表.xlsx") + "》")
    '《报名表.xlsx》'
    """
    if any(m in text for m in (KEEP_OPEN, KEEP_CLOSE, NAME_OPEN, NAME_CLOSE)):
        return text.translate(_MARKS)
    return text


_MARKS = dict.fromkeys(map(ord, KEEP_OPEN + KEEP_CLOSE + NAME_OPEN + NAME_CLOSE))
_STOP = frozenset(" \t\r\n，。；：、（）()“”《》<>\"'&=")
_REACH = 255        # the longest file name a file system keeps
_GENERATED = re.compile(r"(?:[A-Za-z0-9_.\-]+/)+|[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*-")


def _kept_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the file names in ``text`` that stay unconverted: a name inside 《》
    or “” (whatever it holds: 报名表（1）.xlsx), an element's whole text (``<td>…报名表.xlsx</td>``:
    a received file's name on a unit's page), or an output path (``forms/…``) or generated
    name (``xiangqi-r3-…``).  Each looks back from its extension at most :data:`_REACH`
    characters, so a page is read in linear time whatever it holds."""
    spans: list[tuple[int, int]] = []
    last = 0
    for m in _EXT.finditer(text):
        start, end = m.start(), m.end()
        lo = max(last, start - _REACH)
        close = text[end:end + 1]
        if close in _QUOTES:
            opened = text.rfind(_QUOTES[close], lo, start)
            if opened != -1 and close not in text[opened:start] and "\n" not in text[opened:start]:
                if not text[opened + 1:end].isascii():
                    spans.append((opened + 1, end))
                    last = end
                continue
        head = start
        while head > lo and text[head - 1] not in _STOP:
            head -= 1
        whole = head > 0 and text[head - 1] == ">" and text.startswith("<", end)    # a cell or link that is a name
        if not text[head:end].isascii() and (whole or _GENERATED.match(text, head)):
            spans.append((head, end))
            last = end
    return spans


#: a cell reference (成绩!F8, 报名表!E12): the tab's name before it is the workbook's own — our
#: sheets' tabs are never converted (成绩, 报名表), and a captain's stays as the captain named it
_CELL_REF = re.compile(r"!\$?[A-Z]{1,3}\$?[0-9]+\b")


def _cell_ref_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the sheet names of the cell references in ``text``: from the ``!``
    back to a space or a punctuation mark (:data:`_STOP`), at most :data:`_REACH` characters
    — a referee searching the workbook for 成績 (as 成绩!F8 was shown) finds no tab."""
    spans = []
    for m in _CELL_REF.finditer(text):
        end = m.start()
        head, lo = end, max(0, end - _REACH)
        if head > lo and text[head - 1] in ")）":
            # a copied or kept sheet's name: Excel's 成绩 (2), a 成绩(旧) — the bracket, and the
            # space before it, are the name's (a review: 成绩 (2)!F8 was shown 成績 (2)!F8)
            opening = max(text.rfind("(", lo, head), text.rfind("（", lo, head))
            # (only a bracket holding a word: "（甲方级数、乙方级数，见成绩表）!F8" is a sentence's)
            if opening > lo and not _STOP.intersection(text[opening + 1:head - 1]):
                head = opening - 1 if text[opening - 1] == " " and opening - 1 > lo else opening
        while head > lo and text[head - 1] not in _STOP:
            head -= 1
        if head < end and not text[head:end].isascii():
            spans.append((head, end))
    return spans


#: a sheet's name in quotes beside the word 工作表 (读取的是“成绩”工作表, 填在了工作表“成绩 (2)”中),
#: and the name a sheet was renamed to (SHEET_RENAMED: 工作表“成绩”被改名为“成績”, a tab WPS 简转繁
#: renamed — shown 成績 converted, it was found; 報名表 converted again was 報名錶, a wristwatch)
_SHEET_QUOTED = re.compile(r"(?<=工作表“)[^“”]{1,31}(?=”)|(?<=“)[^“”]{1,31}(?=”工作表)|(?<=被改名为“)[^“”]{1,31}(?=”)")


def _sheet_name_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the sheet names quoted beside 工作表 in ``text``: kept as the workbook
    names its tabs, as those of cell references are (:func:`_cell_ref_spans`)."""
    return [m.span() for m in _SHEET_QUOTED.finditer(text) if not m.group().isascii()]


def convert(text: str, script: str) -> str:
    """Return ``text`` in the tournament's script: unchanged for ``simplified``, converted
    with OpenCC s2tw for ``traditional`` (the names of :func:`names_kept` as names, file
    names and paths not at all).

    >>> convert("分工会", "traditional")
    '分工會'
    >>> convert("请填写 results/xiangqi-r3-成绩表.xlsx 和《行政一报名表.xlsx》", "traditional")
    '請填寫 results/xiangqi-r3-成绩表.xlsx 和《行政一报名表.xlsx》'
    >>> convert("“后勤-报名表.xlsx”是别的比赛的报名表", "traditional")
    '“后勤-报名表.xlsx”是別的比賽的報名表'
    >>> convert("<td>成绩!F8</td><td>第1轮 报名表!E12 有误</td>", "traditional")
    '<td>成绩!F8</td><td>第1輪 报名表!E12 有誤</td>'
    >>> convert("成绩填在了工作表“成绩 (2)”中（如 成绩 (2)!F8），读取的是“成绩”工作表；成绩(旧)!F8", "traditional")
    '成績填在了工作表“成绩 (2)”中（如 成绩 (2)!F8），讀取的是“成绩”工作表；成绩(旧)!F8'
    >>> convert("请核对以下各格（甲方级数、乙方级数，见成绩表）!F8", "traditional")
    '請核對以下各格（甲方級數、乙方級數，見成績表）!F8'
    """
    if not text:
        return text
    if NAME_OPEN in text:       # marked names (:func:`as_name`) as names, unmarked
        return _convert_names(text, script)
    if KEEP_OPEN in text:       # marked file names (:func:`keep`) as they are, unmarked
        return _convert_marked(text, script)
    if script != "traditional":
        return text
    spans = _kept_spans(text) if "." in text else []
    if "!" in text:
        spans = _merged(spans + _cell_ref_spans(text))
    if "工作表" in text:
        spans = _merged(spans + _sheet_name_spans(text))
    if not spans:
        return _convert(text)
    out, at = [], 0
    for start, end in spans:
        out += [_convert(text[at:start]), text[start:end]]
        at = end
    out.append(_convert(text[at:]))
    return "".join(out)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans in order, overlapping ones as one."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _convert_marked(text: str, script: str) -> str:
    """:func:`convert` of a text holding names marked by :func:`keep`: each as it is
    (the marks removed), the text between them converted."""
    out = []
    for i, part in enumerate(text.split(KEEP_OPEN)):
        kept, mark, rest = part.partition(KEEP_CLOSE) if i else ("", "", part)
        out += [kept, convert(rest.replace(KEEP_CLOSE, ""), script) if rest else rest]
    return "".join(out)


def _convert_names(text: str, script: str) -> str:
    """:func:`convert` of a text holding names marked by :func:`as_name`: each converted
    as a name (the marks removed), the text between them as any text."""
    out = []
    for i, part in enumerate(text.split(NAME_OPEN)):
        name, mark, rest = part.partition(NAME_CLOSE) if i else ("", "", part)
        if name:
            out.append(convert_name(name) if script == "traditional" else name)
        out.append(convert(rest.replace(NAME_CLOSE, ""), script) if rest else rest)
    return "".join(out)


def _convert(text: str) -> str:
    if not text:
        return text
    names = _NAMES.get()
    if names is None:
        return _s2t().convert(text)
    parts = names.split(text)      # the names at the odd places
    return "".join((convert_name(p) if i % 2 else _s2t().convert(p)) if p else p for i, p in enumerate(parts))


def kept_names_key(state) -> str:
    """A digest of the players' names :func:`names_of` keeps as names ("" in a simplified
    league): a page about one event is converted with every event's players in it (于力 of
    another event keeps a referee 于力 from becoming 於力), so its memo key
    (:mod:`pipeline.render.memo`) holds this too."""
    if getattr(state.tournament.spec, "script", "simplified") != "traditional":
        return ""
    import hashlib

    names = sorted({n for e in state.entries for p in e.players for n in (p.name, p.shown)})
    return hashlib.sha256("\0".join(names).encode()).hexdigest()


def names_of(state) -> "contextlib.AbstractContextManager[None]":
    """:func:`names_kept` for every person a tournament's pages may name — the players (as
    typed and as read) and the captains — when it is printed in Traditional."""
    spec = state.tournament.spec
    if getattr(spec, "script", "simplified") != "traditional":
        return contextlib.nullcontext()
    return names_kept(people(spec, state.entries))


def people(spec: Any, entries: Iterable[Any]) -> list[str]:
    """Every person a tournament's pages may name (:func:`names_of`): the players of
    ``entries`` (as typed and as read), the units' captains, and the office's people in
    tournament.yaml — the committee (``committee``), the contact (``contact``) and each
    event's ``referee`` (handbook: 人名按人名转换; the notice printed 主任：餘華, 副主任：範偉、
    沈後發 and a draw sheet 裁判：於麗)."""
    names = [n for e in entries for p in e.players for n in (p.name, p.shown)]
    names += [u.captain for u in spec.units if u.captain]
    names += [n for role in getattr(spec, "committee", None) or () for n in role.names]
    names += contact_people(getattr(spec, "contact", "") or "")
    return names + [n for ev in getattr(spec, "events", ()) for n in split_names(getattr(ev, "referee", "") or "")]


def names_in_script(text: str, script: str) -> str:
    """A list of people's names (a referee's ``于丽、王军``) in the script: each converted as
    a name — a result workbook's 裁判：于丽 was left Simplified in its Traditional line, and
    converted as words would have been 於麗.

    >>> names_in_script("于丽、余华", "traditional"), names_in_script("于丽", "simplified")
    ('于麗、余華', '于丽')
    """
    if script != "traditional" or not text:
        return text
    with names_kept(split_names(text)):
        return convert(text, script)


_NAME_SEP = re.compile(r"[、，,；;/／\s]+")


def split_names(text: str) -> list[str]:
    """The names of a list of people as the office types one (a referee ``于丽、王军``).

    >>> split_names("于丽、王军"), split_names("于丽"), split_names("")
    (['于丽', '王军'], ['于丽'], [])
    """
    return [n for n in _NAME_SEP.split(text.strip()) if n]


#: what a ``contact`` holds beside its people (:func:`contact_people`): e-mail addresses,
#: phone numbers, and labels — 联系人：, 联系电话, 电话, 手机, 邮箱, any word before a colon
_CONTACT_NOISE = re.compile(
    r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"                        # an e-mail address
    r"|\+?\d[\d\-－]{4,}\d"                                  # a phone number
    r"|[\u3400-\u9fff]{0,4}(?:人|电话|方式|地址)\s*[:：]"           # a label: 联系人：, 负责人：
    r"|联系电话|联系方式|联系人|电话号码|电话|手机号码|手机号|手机|座机|电子邮件|邮箱|(?i:e-?mail)|OA",
)
_CONTACT_SPLIT = re.compile(r"[\s、，,;；:：（）()。.]+")
#: a part of a contact that is a unit or an office, not a person: its ending …
_OFFICE_ENDS = ("会", "处", "室", "部", "院", "科", "系", "所", "局", "馆", "组", "办", "委", "队", "站",
                "厅", "楼", "校", "中心", "公司", "学校", "大学", "学院", "分会", "工会", "委员会", "办公室")
#: … or a word in it, or a note beside the person (钉钉, 微信)
_NOT_PERSON = re.compile(r"电话|联系|办公|邮箱|邮件|钉钉|微信|短信|传真|工作日|上午|下午|晚上|周[一二三四五六日末]")


def contact_people(contact: str) -> list[str]:
    """The people named in ``contact`` (联系人 as tournament.yaml has it: a unit, the person,
    a phone, an address, a note in brackets, in any order): after taking out e-mail
    addresses, phone numbers and labels (联系人：, 联系电话, 电话, 手机, 邮箱), the parts of
    two to four Chinese characters that are no unit or office (院工会, 后勤处, 办公室: by
    their endings, :data:`_OFFICE_ENDS`) and no note (钉钉).  In doubt a part is words, not
    a name: a name converted as words is a smaller harm than an office converted as a name
    (R2015: 校工会 后勤处 于丽 printed 后勤處, and 联系人：于丽 was not found).

    >>> contact_people("校工会 于丽（联系电话 13880406245）"), contact_people("王老师 13800000000")
    (['于丽'], ['王老师'])
    >>> contact_people("院工会 刘二"), contact_people("校工会办公室"), contact_people("工会办公室 成洁（钉钉）")
    (['刘二'], [], ['成洁'])
    >>> contact_people("联系人：于丽，电话：13880406245"), contact_people("校工会 后勤处 于丽")
    (['于丽'], ['于丽'])
    """
    parts = _CONTACT_SPLIT.split(_CONTACT_NOISE.sub(" ", contact))
    return [p for p in parts if re.fullmatch(r"[\u3400-\u9fff·]{2,4}", p)
            and not p.endswith(_OFFICE_ENDS) and not _NOT_PERSON.search(p)]


def contact_in_script(text: str, spec: Any) -> str:
    """``text`` naming the office (a form's 发送至) in the tournament's script, the contact
    person of ``spec.contact`` (:func:`contact_people`) converted as a name, as the notice and
    the receipts convert it (:func:`people`) — the registration form's 填表说明 said
    发送至：校工會 於麗 beside the notice's 于麗 (R2015).

    >>> from types import SimpleNamespace as S
    >>> contact_in_script("校工会 于丽", S(contact="校工会 于丽", script="traditional"))
    '校工會 于麗'
    """
    with names_kept(contact_people(getattr(spec, "contact", "") or "")):
        return convert(text, script_of(spec))


#: a cross-unit member's note on a form (R2015-Q2): 跨分工会：<unit> — here, not in
#: pipeline.validate, so a night reads forms (``run._without_other_units_people``) without
#: importing validation before the returned copies are handed to the prestarted worker
CROSS_NOTE = re.compile(r"跨(?:分工会|单位|部门)\s*[:：]\s*(\S+)")


def cross_note(unit_word: str) -> "re.Pattern[str]":
    """:data:`CROSS_NOTE` with the league's own word for a unit too (``unit_word: 科室``:
    跨科室：…, as the form and the messages tell captains to write it)."""
    if (unit_word or "").strip() in ("", "分工会", "单位", "部门"):     # (no converter needed)
        return CROSS_NOTE
    word = to_simplified(unit_word).strip()
    if not word or word in ("分工会", "单位", "部门"):
        return CROSS_NOTE
    return re.compile(r"跨(?:分工会|单位|部门|" + re.escape(word) + r")\s*[:：]\s*(\S+)")


_CN_DIGITS = {c: n for n, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}


def cn_numeral(text: str) -> int | None:
    """A number written in Chinese numerals, below 1000: 一 → 1, 十二 → 12, 二十 → 20,
    一百零五 → 105; ``None`` for anything else (a referee's 第一轮/第十二桌, a mail's 十一月).

    >>> [cn_numeral(t) for t in ("一", "十", "十二", "二十", "二十三", "一百零五", "百", "十十", "二百零十", "一百零")]
    [1, 10, 12, 20, 23, 105, None, None, None, None]
    """
    def digit(c: str) -> int | None:
        n = _CN_DIGITS.get(c) if len(c) == 1 else None
        return n or None                        # (零 alone is no digit of a number here)

    n, rest = 0, text
    if "百" in rest:
        hundreds, _, rest = rest.partition("百")
        if digit(hundreds) is None:
            return None
        n, rest = 100 * digit(hundreds), rest
        if rest[:1] in ("零", "〇"):            # 一百零五: a single digit after 零, nothing else
            rest = rest[1:]
            if len(rest) != 1 or digit(rest) is None:
                return None
    if "十" in rest:
        tens, _, rest = rest.partition("十")
        if tens and digit(tens) is None:
            return None
        n += 10 * (digit(tens) if tens else 1)
    if rest:
        if digit(rest) is None:
            return None
        n += digit(rest)
    return n or None
