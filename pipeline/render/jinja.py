"""The shared Jinja environment for every HTML page and printed document.

Templates live in the repository's ``templates/`` folder.  The environment autoescapes,
uses ``StrictUndefined`` (a missing view-model field is an error, never an empty cell) and
has a ``zh`` filter that converts text to Traditional Chinese when the context variable
``script`` is ``"traditional"``.  ``templates/base.html`` wraps the whole body in that
filter, so a page only passes ``script`` and writes Simplified text.

Example::

    html = render("docs/notice.html", script="traditional", title="通知", updated="…", vm=vm)
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

import pipeline
from pipeline.text import convert, keep

TEMPLATES_DIR = Path(pipeline.templates_dir())


def html_lang(script: str) -> str:
    """The ``lang`` attribute for a script: ``html_lang("traditional") == "zh-Hant"``."""
    return "zh-Hant" if script == "traditional" else "zh-CN"


@jinja2.pass_context
def zh_filter(ctx: jinja2.runtime.Context, value: Any) -> Any:
    """Jinja filter ``zh``: convert to Traditional when ``script`` in the context is
    ``"traditional"``.  Keeps ``Markup`` as ``Markup`` (tags and entities are ASCII, so
    converting escaped HTML is safe) so ``{% filter zh %}`` blocks are not escaped twice."""
    script = ctx.get("script", "simplified")
    if isinstance(script, jinja2.Undefined):
        script = "simplified"
    if isinstance(value, Markup):
        return Markup(convert(str(value), script))
    if value is None or isinstance(value, jinja2.Undefined):
        return value
    return convert(str(value), script)


@jinja2.pass_context
def filename_filter(ctx: jinja2.runtime.Context, value: Any) -> Any:
    """Jinja filter ``filename``: a received file's name, which ``zh`` leaves as it is
    (:func:`pipeline.text.keep`) — the sender's own name, brackets and all, never converted
    to Traditional.  Marked only on a Traditional page (a Simplified one converts nothing)."""
    script = ctx.get("script", "simplified")
    if value is None or isinstance(value, jinja2.Undefined) or script != "traditional":
        return value
    return keep(str(value))


def names_filter(value: Any, longest: int | None = None) -> Any:
    """Jinja filter ``names``: each name of ``value`` — a team, a player, a unit; the pieces of
    :func:`pipeline.render.viewmodels.name_pieces` — in a ``<span class="nm">`` that
    templates/base.html keeps on one line, what lies between names (/ 、 a space, a line
    break) outside it, where a line breaks: 司徒端木欣|怡 and 阿依努尔·吐尔|逊 broke on paper
    (WeasyPrint has no ``keep-all``) and a "·" began a line on a phone.  Two names side by
    side (苏建旭|（重组）, 基础医学院|分工会) have a ``<wbr>`` between them — before 分工会 one
    that only a screen has (print.css: on paper a unit is whole; on a phone 基礎醫學院|分工會,
    not 基礎|醫學|院分|工會).  ``longest``: the longest piece kept whole (a unit column's,
    shorter than a name's).  What follows a "：" is a note, not names (a bye's line: D组 后勤4队
    苏红/毛帅婷（后勤）：不战而胜……).  (The text is escaped first, then cut: a cell costs 8 µs.)

    >>> str(names_filter("苏建旭（重组）/张三"))
    '<span class="nm">苏建旭</span><wbr><span class="nm">（重组）</span>/<span class="nm">张三</span>'
    >>> str(names_filter("<b>&"))
    '<span class="nm">&lt;b&gt;&amp;</span>'
    >>> str(names_filter("甲、乙 同志：")), str(names_filter("丙（文学院）：轮空（已退赛，不计分）"))
    ('<span class="nm">甲</span>、<span class="nm">乙</span> <span class="nm">同志</span>：', '<span class="nm">丙</span><wbr><span class="nm">（文学院）</span>：轮空（已退赛，不计分）')
    """
    if value is None or isinstance(value, jinja2.Undefined):
        return value
    text = str(escape(value))
    if not text:
        return Markup(text)
    most = longest or _names()[0]
    text, colon, said = text.partition("：")      # (after it a note: a bye's 轮空（已退赛，不计分）)

    def span(m: re.Match) -> str:
        piece = m.group()
        return piece if len(piece) > most else '<span class="nm">' + piece + "</span>"

    html = _names()[1].sub(span, text) + colon + said
    if "</span><span" in html:      # (two spans side by side: WeasyPrint breaks between them at a <wbr> only)
        for word in _names()[2]:
            html = html.replace('</span><span class="nm">' + word, '</span><wbr class="unit-word"><span class="nm">' + word)
        html = html.replace("</span><span", "</span><wbr><span")
    return Markup(html)


@lru_cache(maxsize=1)
def _names() -> tuple[int, re.Pattern, tuple[str, ...]]:
    """(the longest name kept whole, the pattern of a name, a unit's last pieces) from
    :mod:`pipeline.render.viewmodels` — imported when first needed."""
    from .viewmodels import NAME_MAX, NAME_PIECE, UNIT_WORDS

    return NAME_MAX, NAME_PIECE, UNIT_WORDS


def inline_css(name: str) -> Markup:
    """Contents of ``templates/<name>`` for an inline ``<style>`` (pages are self-contained)."""
    path = (TEMPLATES_DIR / name).resolve()
    if TEMPLATES_DIR.resolve() not in path.parents:
        raise ValueError(f"stylesheet {name!r} is outside templates/")
    return Markup(path.read_text(encoding="utf-8"))


def yuan(amount: int) -> str:
    """Format an integer amount of yuan with thousands separators: ``yuan(12000) == "12,000"``."""
    return f"{int(amount):,}"


#: a numbered heading of a rules text: 四、《斗地主》, （二）比赛规则：, 9、轮庄, 1．起牌
_HEADING_LINE = re.compile(r"^(?:[一二三四五六七八九十]+、|[（(][一二三四五六七八九十]+[）)]|\d{1,2}[、．.](?!\d))")


def heading_line(line: str) -> bool:
    """Whether a line of a rules attachment is a heading (a short numbered line that is no
    sentence): printed as a paragraph, it could end a PDF page with its text on the next
    (“9、轮庄” at the foot of the notice's page 8) — it keeps with the line after it.

    >>> [heading_line(x) for x in ("9、轮庄", "（二）比赛规则：", "四、《斗地主》", "总则",
    ...                            "1、以两人为一队。", "2.5 分", "（一）十一个分工会的22名参赛选手通过抽签分组，抽到晋级选手")]
    [True, True, True, False, False, False, False]
    """
    text = str(line).strip()
    return len(text) <= 16 and bool(_HEADING_LINE.match(text)) and not text.endswith(("。", "；", ";", "，", ","))


def label_line(line: str) -> bool:
    """Whether a paragraph of the notice is a label of what follows it (比赛时间： over its
    twelve sessions, a paragraph each): printed alone it could end a PDF page with its list
    on the next — it keeps with the paragraph after it.

    >>> [label_line(x) for x in ("比赛时间：", "比赛时间：2020年11月10日", "报名办法如下:", "时间如有变动另行通知。")]
    [True, False, True, False]
    """
    text = str(line).strip()
    return len(text) <= 16 and text.endswith(("：", ":"))


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Jinja's own cache of compiled templates (a private folder of this user's in the
    temporary directory, keyed by each template's source): a run no longer compiles every
    template again (~50 ms of every night's run).  None when no safe folder can be had."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one Jinja environment (cached): FileSystemLoader on ``templates/``, autoescape
    on, ``StrictUndefined``, filters ``zh``, ``filename``, ``yuan`` and ``names``, globals
    ``html_lang``, ``inline_css`` and ``zip`` (Python's)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["zh"] = zh_filter
    env.filters["filename"] = filename_filter
    env.filters["yuan"] = yuan
    env.filters["names"] = names_filter
    env.tests["heading_line"] = heading_line
    env.tests["label_line"] = label_line
    env.globals["html_lang"] = html_lang
    env.globals["inline_css"] = inline_css
    env.globals["zip"] = zip
    return env


def render(template: str, **context: Any) -> str:
    """Render ``templates/<template>`` with ``context`` (pass ``script`` for ``zh``).

    >>> "<html" in render("base.html", title="t", updated="2020-01-01", script="simplified")
    True
    """
    context.setdefault("script", "simplified")
    return environment().get_template(template).render(**context)
