"""The thin command line: parses options, calls the library, turns typed errors into
messages and exit codes (0 all accepted, 1 ran with problems, 2 could not run)."""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from .runcmd import EXIT_FAILED, _spec_error, parse_now, run_command

#: click's own words (usage, headings, its errors) as the office reads them: click passes
#: each through gettext (``_``), so its modules are given this table instead of the English
#: catalogue; a message not listed (a newer click's) stays as click wrote it
CLICK_ZH = {
    "Usage:": "用法：",
    "Options": "选项",
    "Commands": "命令",
    "Show this message and exit.": "显示本帮助并退出。",
    "Show the version and exit.": "显示版本号并退出。",
    "%(prog)s, version %(version)s": "%(prog)s，版本 %(version)s",
    "Try '{command} {option}' for help.": "输入 '{command} {option}' 查看帮助。",
    "Error: {message}": "错误：{message}",
    "Missing argument": "缺少参数",
    "Missing option": "缺少选项",
    "Missing parameter": "缺少参数",
    "Missing command.": "缺少命令。",
    "No such command {name!r}.": "没有命令 {name!r}。",
    "No such option {name!r}.": "没有选项 {name!r}。",
    "No such option: {name}": "没有选项：{name}",
    "Did you mean {possibility}?": "是不是 {possibility}？",
    "(Did you mean one of: {possibilities}?)": "（是不是以下之一：{possibilities}？）",
    "(Possible options: {possibilities})": "（可能是：{possibilities}）",
    "Option {name!r} does not take a value.": "选项 {name!r} 后面不用写值。",
    "Option {name!r} requires an argument.": "选项 {name!r} 后面要写一个值。",
    "Invalid value for {param_hint}: {message}": "{param_hint} 的值不对：{message}",
    "Invalid value: {message}": "值不对：{message}",
    "Got unexpected extra argument ({args})": "多了一个参数（{args}）",
    "Got unexpected extra arguments ({args})": "多了几个参数（{args}）",
    # (number_type is click's English type name, "float", "integer": said as 数字)
    "{value!r} is not a valid {number_type}.": "{value!r} 不是有效的数字。",
    "{value} is not in the range {range}.": "{value} 不在 {range} 范围内。",
    "{name} {filename!r} does not exist.": "{name} {filename!r} 不存在。",
    "{name} {filename!r} is a file.": "{name} {filename!r} 是一个文件，应为文件夹。",
    "{name} {filename!r} is a directory.": "{name} {filename!r} 是一个文件夹，应为文件。",
    "{name} {filename!r} is not readable.": "{name} {filename!r} 无法读取。",
    "{name} {filename!r} is not writable.": "{name} {filename!r} 无法写入。",
    "path": "路径", "file": "文件", "directory": "文件夹",
    "Aborted!": "已取消。",
    "default: {default}": "默认：{default}",
}


def _click_in_chinese() -> None:
    """Give click's modules :data:`CLICK_ZH` for their gettext calls."""
    import importlib

    def zh(message: str) -> str:
        return CLICK_ZH.get(message, message)

    def nzh(singular: str, plural: str, n: int) -> str:
        return zh(singular if n == 1 else plural)

    for name in ("core", "exceptions", "formatting", "parser", "types", "decorators", "termui", "utils"):
        try:
            module = importlib.import_module(f"click.{name}")
        except ImportError:         # (a click without it)
            continue
        if callable(getattr(module, "_", None)):
            module._ = zh
        if callable(getattr(module, "ngettext", None)):
            module.ngettext = nzh


_click_in_chinese()


def _parse_now(value: str | None) -> dt.datetime | None:
    try:
        return parse_now(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="league")
def main() -> None:
    """league：教职工棋牌赛——从报名表到抽签、成绩、名次、获奖名单和证书。

    (registration workbooks to draws, results, standings, awards and certificates)"""


@main.command("run")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", "out_parent", type=click.Path(path_type=Path), default=Path("output"),
              show_default=True, help="输出的上级文件夹：结果写到 OUT/<赛事编号>/。")
@click.option("--now", "now_text", metavar="ISO-DATETIME",
              help="指定“现在”的时间（判断截止、重现结果），如 2020-11-09T15:00+08:00；默认为当前时间。")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="生成 PDF 文档（--no-pdf 只生成网页和数据）。")
@click.option("--imap", "imap_url", metavar="URL", default=None,
              help="先收取新邮件，如 imaps://user@host/INBOX（密码取自环境变量 LEAGUE_IMAP_PASSWORD）。")
@click.option("--smtp", "smtp_url", metavar="URL", default=None,
              help="给队长发回执，如 smtps://office%40example.edu.cn@smtp.example.edu.cn"
                   "（发件邮箱写在 @ 前，其中的 @ 写成 %40；密码取自环境变量 LEAGUE_SMTP_PASSWORD）。")
@click.option("--wait", default=0.0, show_default=True, metavar="秒数",
              help="同一赛事另一个 league run 正在运行时，最多等待的秒数。")
def run_cmd(folder: Path, out_parent: Path, now_text: str | None, pdf: bool, imap_url: str | None,
            smtp_url: str | None, wait: float) -> None:
    """每晚运行：读取 FOLDER/inbox，校验、抽签、计分，把全部结果写到 OUT/<赛事编号>/。"""
    sys.exit(run_command(folder, out_parent, _parse_now(now_text), pdf, imap_url, smtp_url, wait))


@main.command("template")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--branch", "branch", metavar="ID", help="只生成这个单位的报名表（单位编号）。")
@click.option("--all", "all_branches", is_flag=True, help="为每个单位各生成一份报名表。")
@click.option("--out", "out_parent", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="输出的上级文件夹：报名表写到 OUT/<赛事编号>/templates/。")
def template_cmd(folder: Path, branch: str | None, all_branches: bool, out_parent: Path) -> None:
    """生成发给各单位队长的报名表（报名表.xlsx）。"""
    from .spec import load_tournament
    from .xlsx.registration import write_registration_template, template_name

    if bool(branch) == all_branches:
        raise click.UsageError("请只给一个：--branch 单位编号（一个单位）或 --all（全部单位）")
    try:
        t = load_tournament(folder)
    except _spec_error() as e:
        click.echo(f"错误：赛事配置有误 — {e.file}\n{e.lines()}", err=True)
        sys.exit(EXIT_FAILED)
    except OSError as e:            # tournament.yaml or secret.key unreadable: no traceback
        from .runcmd import os_reason

        click.echo(f"错误：无法读取 {e.filename or folder}：{os_reason(e)}。"
                   "请确认赛事文件夹中的 tournament.yaml 和 secret.key 可以读取（不要删改 secret.key），改正后再运行。",
                   err=True)
        sys.exit(EXIT_FAILED)
    units = [u for u in t.spec.units if all_branches or u.id == branch]
    if not units:
        known = ", ".join(u.id for u in t.spec.units)
        click.echo(f"错误：没有编号为 {branch!r} 的单位（已有：{known}）", err=True)
        sys.exit(EXIT_FAILED)
    out = out_parent / t.spec.id / "templates"
    for u in units:
        path = out / template_name(t, u.id)
        try:
            write_registration_template(t, u.id, path)
        except OSError as e:        # could not run: said as `league run` says it (exit 2, no traceback)
            _cannot_write(e, path)
        click.echo(str(path))


def _cannot_write(e: OSError, path: Path, command: str = "template") -> None:
    """Say that ``path`` could not be written, and why (what to do as ``league command``
    can: :func:`~pipeline.runcmd.os_reason`), and exit 2 ("could not run")."""
    from .runcmd import os_reason

    click.echo(f"错误：无法写入 {e.filename or path}：{os_reason(e, command)}。", err=True)
    sys.exit(EXIT_FAILED)


@main.command("questionnaire")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="文件已存在时仍覆盖（原来填写的回答会丢失）。")
def questionnaire_cmd(path: Path, force: bool) -> None:
    """生成一页空白问卷（问卷.xlsx），填好后用 league new 文件夹 --from-workbook 问卷.xlsx 建赛事。
    没有扩展名时加上 .xlsx；其他扩展名（.xls、.et、.csv）不写。"""
    from . import newleague

    try:
        path = newleague.questionnaire_path(path)     # always an .xlsx: league new reads no other
    except newleague.NewLeagueError as e:
        click.echo(f"错误：{e}", err=True)
        sys.exit(EXIT_FAILED)
    if path.is_file() and not force:
        # a filled-in questionnaire run through again was blanked, every answer lost
        click.echo(f"错误：“{path}” 已存在，不会覆盖（里面可能是已填写的问卷）。请换一个文件名；"
                   f"确实要用空白问卷替换它，请加 --force：league questionnaire {path} --force", err=True)
        sys.exit(EXIT_FAILED)
    try:
        click.echo(str(newleague.write_questionnaire(path)))
    except OSError as e:
        _cannot_write(e, path, "questionnaire")


@main.command("new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--from-workbook", "questionnaire", type=click.Path(path_type=Path, exists=True),
              help="用填好的问卷代替逐项提问。")
def new_cmd(folder: Path, questionnaire: Path | None) -> None:
    """新建赛事文件夹（tournament.yaml、密钥、收件箱和各单位报名表），逐项提问或读取问卷。"""
    from . import newleague

    try:
        path = newleague.create(folder, questionnaire=questionnaire)
    except newleague.NewLeagueError as e:
        click.echo(f"错误：{e}", err=True)
        sys.exit(EXIT_FAILED)
    except (click.Abort, EOFError, KeyboardInterrupt):
        # Ctrl-D / Ctrl-C / no input (</dev/null): click said "Aborted!" with exit 1, which the
        # contract keeps for "ran, inputs need attention"
        click.echo(f"\n已取消：没有创建任何文件。要新建赛事请重新运行 league new {folder}"
                   "（或填好问卷后用 --from-workbook 问卷.xlsx）。", err=True)
        sys.exit(EXIT_FAILED)
    except OSError as e:
        from .runcmd import os_reason

        click.echo(f"错误：无法读取或写入 {e.filename or folder}：{os_reason(e, 'new')}。没有创建任何文件"
                   f"（已写的部分已删除）；改正后重新运行 league new {folder} 即可。", err=True)
        sys.exit(EXIT_FAILED)
    click.echo(f"已创建 {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
