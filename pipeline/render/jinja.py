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
from markupsafe import Markup

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
    on, ``StrictUndefined``, filters ``zh``, ``filename`` and ``yuan``, globals ``html_lang``, ``inline_css``
    and ``zip`` (Python's)."""
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
    env.tests["heading_line"] = heading_line
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
