"""docs/spec-reference.md, generated from the code so it cannot drift.

The keys come from the dataclasses in :mod:`pipeline.spec` (type, default, and the
description in each key's pydantic ``Field``); the names come from the registries (games, formats, tiebreaks, award
schemes), each format with its Chinese description and an example YAML snippet.

    python -m pipeline.specdoc            # writes docs/spec-reference.md
"""
from __future__ import annotations

import dataclasses
import sys
import types
import typing
from pathlib import Path
from typing import Any

import yaml

from . import spec as S

DOC_PATH = Path(__file__).resolve().parent.parent / "docs" / "spec-reference.md"

#: the models documented, in reading order: (heading, model, YAML path)
MODELS: list[tuple[str, type, str]] = [
    ("赛事（顶层键）", S.TournamentSpec, ""),
    ("参赛单位", S.UnitSpec, "units[]"),
    ("比赛项目", S.EventSpec, "events[]"),
    ("名额规则", S.QuotaSpec, "events[].quota"),
    ("名额分档", S.Band, "events[].quota.bands[]"),
    ("赛制", S.FormatSpec, "events[].format"),
    ("评奖", S.AwardSpec, "events[].awards"),
    ("比赛时间", S.SessionSpec, "sessions[]"),
    ("组委会", S.CommitteeRole, "committee[]"),
    ("通知的参赛单位一节", S.NoticeUnits, "notice_units"),
    ("通知的其他附件", S.NoticeAttachment, "notice_attachments[]"),
    ("经费预算", S.BudgetItem, "budget[]"),
]


def type_name(tp: Any) -> str:
    """A short readable type: ``list[str]``, ``int | None``, ``"fixed" | "open"``.

    >>> type_name(list[str])
    'list[str]'
    """
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return type_name(args[0])
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        return " \\| ".join(type_name(a) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_name(a) for a in args)}]"
    if tp is type(None):
        return "None"
    if dataclasses.is_dataclass(tp):
        return tp.__name__
    return getattr(tp, "__name__", str(tp))


def _default(field: dataclasses.Field) -> str:
    if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
        return "**必填**"
    value = _default_value(field)
    if dataclasses.is_dataclass(value):     # a nested spec's default: only what differs from its own defaults
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)
                 if _default_value(f) != getattr(value, f.name)}
    return f"`{value!r}`" if value not in ("", None) else ("`\"\"`" if value == "" else "`None`")


def _default_value(field: dataclasses.Field) -> Any:
    """A field's default, made anew from its factory when it has one."""
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return field.default


def _description(hint: Any) -> str:
    """The ``description`` of the pydantic ``Field`` in an ``Annotated`` hint, else ""."""
    for meta in typing.get_args(hint)[1:] if typing.get_origin(hint) is typing.Annotated else ():
        if getattr(meta, "description", None):
            return meta.description
    return ""


def model_table(model: type) -> list[str]:
    """A Markdown table of a spec class's keys: key, type, default, description."""
    S._adapter(model)   # binds the pydantic names the annotations use
    hints = typing.get_type_hints(model, include_extras=True)
    lines = ["| 键 | 类型 | 默认 | 说明 |", "|---|---|---|---|"]
    options = False
    for field in dataclasses.fields(model):
        if field.name == "extra":      # the keys beside the named ones (FormatSpec, AwardSpec)
            options = True
            continue
        desc = (_description(hints[field.name]) or FALLBACK.get(field.name, "")).replace("|", "\\|")
        lines.append(f"| `{field.name}` | {type_name(hints[field.name])} | {_default(field)} | {desc} |")
    if options:
        lines.append("| *其他键* | | | 作为选项交给所选的注册项（见下文） |")
    return lines


def _doc(obj: Any) -> str:
    doc = (getattr(obj, "__doc__", None) or "").strip()
    return " ".join(doc.split("\n\n")[0].split())


def _registry_table(reg: Any, with_seats: bool = False) -> list[str]:
    head = "| 名称 | 别名 | 中文名 |" + (" 每桌方数 |" if with_seats else "")
    lines = [head, "|---|---|---|" + ("---|" if with_seats else "")]
    for name, obj in reg.items():
        aliases = "、".join(reg.aliases(name))
        row = f"| `{name}` | {aliases} | {getattr(obj, 'title', '')} |"
        if with_seats:
            row += f" {obj.seats} |"
        lines.append(row)
    return lines


EXAMPLE_GAME = {"pairs_movement": "bridge", "groups_standings": "guandan"}
PAIR_GAMES = {"bridge", "guandan", "shuangsheng", "shuangkou"}

#: descriptions for keys whose model field has none (kept here, not in spec.py, which the
#: doc generator does not own); a key described in the model wins.
FALLBACK = {
    "id": "英文编号（字母、数字、- 和 _），用于文件名、令牌和网址", "name": "中文名称",
    "co_organizers": "协办单位", "theme": "主题", "purpose": "举办目的（印在通知开头）",
    "notice_date": "发文日期", "script": "简体 simplified / 繁体 traditional",
    "committee": "组委会（职务与名单）", "contact": "联系人", "units": "参赛单位列表",
    "events": "比赛项目列表", "sessions": "比赛时间（每场日期、开始、结束、地点）", "venue": "比赛地点",
    "pickup_points": "班车乘车地点：报名表“乘车地点”一列的下拉选项（不设时这一列仍在，不填）", "late_policy": "逾期报名：拒收 reject / 接受但警告 accept-with-warning",
    "one_event_per_person": "每人限报一项", "budget": "经费预算", "prize_budget_source": "奖金来源",
    "discretionary_awards": "评委会评定的奖项（如 风尚奖）", "secret_file": "令牌密钥文件（league new 生成）",
    "game": "棋牌种类（见下文）", "team_size": "每队人数：单人 1，对子 2", "cross_branch": "允许跨单位组队",
    "quota": "名额规则", "deadline": "报名截止时间（北京时间）", "format": "赛制", "tiebreaks": "破同分规则（按顺序）",
    "awards": "评奖方式与奖金", "game_options": "棋牌种类的选项", "referee": "裁判",
    "rule": "fixed 固定 / bands 按人数分档 / ratio 按比例 / open 不限", "per_branch": "fixed：每单位名额",
    "short_warning": "报名少于名额时给出警告", "bands": "bands：各档（会员人数下限 → 名额）",
    "extra_every": "bands：超过最高档后每多多少人加一个名额", "ratio": "ratio：人数比例（如 0.15）",
    "rounding": "ratio：取整方式", "minimum": "ratio：每单位最少名额", "min_members": "本档会员人数下限",
    "entries": "本档名额", "type": "赛制名称（见下文）", "scheme": "评奖方式名称（见下文）",
    "date": "日期", "start": "开始时间", "end": "结束时间", "role": "职务", "names": "姓名",
    "quantity": "数量", "unit": "单位", "unit_price": "单价（元）", "source": "来源",
}


def example_event(fmt_name: str) -> dict[str, Any]:
    """A minimal event using format ``fmt_name`` with the first game that fits its seats."""
    from .draw import FORMATS
    from .games import GAMES
    fmt = FORMATS.get(fmt_name)
    liked = [EXAMPLE_GAME.get(fmt_name), "xiangqi", "doudizhu"]
    fits = [n for n, g in GAMES.items() if g.seats == fmt.seats]
    game = next((n for n in liked if n in fits), fits[0])
    return {"id": game, "name": GAMES.get(game).title, "game": game, "team_size": 2 if game in PAIR_GAMES else 1,
            "quota": {"rule": "fixed", "per_branch": 2},
            "deadline": "2026-12-01T17:00:00+08:00",
            "format": {"type": fmt_name},
            "awards": {"scheme": "ranked", "places": [{"award": "一等奖", "count": 1},
                                                     {"award": "二等奖", "count": 2}],
                       "prizes": {"一等奖": 500, "二等奖": 300}}}


def generate() -> str:
    """The whole reference as Markdown (deterministic: no dates, sorted registries)."""
    from .draw import FORMATS
    from .games import GAMES
    from .score import AWARD_SCHEMES, TIEBREAKS

    out = ["# tournament.yaml 参考手册", "",
           "> 本文件由 `python -m pipeline.specdoc` 从代码生成，请勿手改；测试会检查它与代码一致。", "",
           "`tournament.yaml` 描述一个赛事。新建赛事用 `league new 文件夹`（见 [工会办公室手册](handbook.md)）。", ""]
    for heading, model, path in MODELS:
        out += [f"## {heading}" + (f"（`{path}`）" if path else ""), ""]
        doc = _doc(model)
        # (not the signature that a dataclass without a docstring is given)
        if doc and not doc.startswith(f"{model.__name__}(") and model.__module__ == S.__name__:
            out += [doc, ""]
        out += model_table(model) + [""]
    out += ["## 棋牌种类（`events[].game`）", "", "名称或任一别名都可以填写。", ""]
    out += _registry_table(GAMES, with_seats=True) + [""]
    out += ["## 破同分规则（`events[].tiebreaks`）", "",
            "按列出的顺序逐项比较。某一项把并列者分开后，其中仍并列的两人（队）或更多从第一项起重新逐项比较："
            "直胜、加赛只在这几人之间计算，其余各项的数值不变（R2020-F4）。"
            "胜局数数的是实际对局中赢的局数：每场赛几局的项目（跳棋三局二胜，R2020-F2）把各场赢的局数相加，"
            "一局定胜负的项目为赢的场数；弃权胜和轮空不计。", ""]
    out += _registry_table(TIEBREAKS) + [""]
    out += ["## 评奖方式（`events[].awards.scheme`）", ""]
    out += _registry_table(AWARD_SCHEMES) + [""]
    for name, obj in AWARD_SCHEMES.items():
        out += [f"- `{name}`：{_doc(obj)}"]
    out += ["", "## 赛制（`events[].format.type`）", "",
            "赛制的每桌方数必须与棋牌种类一致（例如斗地主只能用三人一桌的赛制）。", ""]
    out += _registry_table(FORMATS, with_seats=True) + [""]
    for name, fmt in FORMATS.items():
        out += [f"### {fmt.title}（`{name}`）", "", fmt.describe({}), ""]
        option_docs = getattr(fmt, "OPTION_DOCS", None) or {}
        if option_docs:         # the format's own words for its options (e.g. groups_knockout)
            out += ["| 选项 | 说明 |", "|---|---|"]
            out += [f"| `{k}` | {v.replace('|', chr(92) + '|')} |" for k, v in option_docs.items()] + [""]
        out += ["```yaml",
                yaml.safe_dump({"events": [example_event(name)]}, allow_unicode=True, sort_keys=False,
                               default_flow_style=False).rstrip(), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def write(path: str | Path = DOC_PATH) -> Path:
    """Write the reference to ``path`` (default docs/spec-reference.md)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(generate(), encoding="utf-8")
    return path


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) > 1 and sys.argv[1].startswith("-"):
        print("python -m pipeline.specdoc [文件]：把配置参考写到该文件（默认 docs/spec-reference.md）。")
        sys.exit(0)
    print(write(sys.argv[1] if len(sys.argv) > 1 else DOC_PATH))
