"""The thin command line: parses options, calls the library, turns typed errors into
messages and exit codes (0 all accepted, 1 ran with problems, 2 could not run)."""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from .runcmd import EXIT_FAILED, _spec_error, parse_now, run_command


def _parse_now(value: str | None) -> dt.datetime | None:
    try:
        return parse_now(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="league")
def main() -> None:
    """league: 教职工棋牌赛 — registration workbooks to draws, results, standings, awards and certificates."""


@main.command("run")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", "out_parent", type=click.Path(path_type=Path), default=Path("output"),
              show_default=True, help="Parent folder of the results: they go to OUT/<tournament-id>/.")
@click.option("--now", "now_text", metavar="ISO-DATETIME",
              help="Fix 'now' for deadlines and reproducible runs (default: the clock).")
@click.option("--pdf/--no-pdf", default=True, show_default=True, help="Render PDF documents.")
@click.option("--imap", "imap_url", metavar="URL", default=None,
              help="Fetch new mail first, e.g. imaps://user@host/INBOX (password from LEAGUE_IMAP_PASSWORD).")
@click.option("--smtp", "smtp_url", metavar="URL", default=None,
              help="Send receipts to captains, e.g. smtp://host:25 (password from LEAGUE_SMTP_PASSWORD).")
@click.option("--wait", default=0.0, show_default=True,
              help="Seconds to wait for another run on the same tournament to finish.")
def run_cmd(folder: Path, out_parent: Path, now_text: str | None, pdf: bool, imap_url: str | None,
            smtp_url: str | None, wait: float) -> None:
    """Ingest FOLDER/inbox, validate, draw, score and write everything under OUT/<id>/."""
    sys.exit(run_command(folder, out_parent, _parse_now(now_text), pdf, imap_url, smtp_url, wait))


@main.command("template")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--branch", "branch", metavar="ID", help="Write this branch's registration workbook.")
@click.option("--all", "all_branches", is_flag=True, help="Write one workbook per branch.")
@click.option("--out", "out_parent", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Parent folder: workbooks go to OUT/<tournament-id>/templates/.")
def template_cmd(folder: Path, branch: str | None, all_branches: bool, out_parent: Path) -> None:
    """Write registration workbooks (报名表) for captains."""
    from .spec import load_tournament
    from .xlsx.registration import write_registration_template, template_name

    if bool(branch) == all_branches:
        raise click.UsageError("请只给一个：--branch 单位编号（一个单位）或 --all（全部单位）")
    try:
        t = load_tournament(folder)
    except _spec_error() as e:
        click.echo(f"错误：赛事配置有误 — {e.file}\n  键 {e.key}: {e.problem}", err=True)
        sys.exit(EXIT_FAILED)
    units = [u for u in t.spec.units if all_branches or u.id == branch]
    if not units:
        known = ", ".join(u.id for u in t.spec.units)
        click.echo(f"错误：没有编号为 {branch!r} 的单位（已有：{known}）", err=True)
        sys.exit(EXIT_FAILED)
    out = out_parent / t.spec.id / "templates"
    for u in units:
        path = out / template_name(t, u.id)
        write_registration_template(t, u.id, path)
        click.echo(str(path))


@main.command("questionnaire")
@click.argument("path", type=click.Path(path_type=Path))
def questionnaire_cmd(path: Path) -> None:
    """Write a blank one-page questionnaire workbook (问卷) for `league new --from-workbook`."""
    from . import newleague

    click.echo(str(newleague.write_questionnaire(path)))


@main.command("new")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--from-workbook", "questionnaire", type=click.Path(path_type=Path, exists=True),
              help="Answers from a filled questionnaire workbook instead of prompts.")
def new_cmd(folder: Path, questionnaire: Path | None) -> None:
    """Create a new tournament folder (tournament.yaml, secret, branch templates)."""
    from . import newleague

    try:
        path = newleague.create(folder, questionnaire=questionnaire)
    except newleague.NewLeagueError as e:
        click.echo(f"错误：{e}", err=True)
        sys.exit(EXIT_FAILED)
    click.echo(f"已创建 {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
