"""The thin command line: parses options, calls the library, turns typed errors into
messages and exit codes (0 all accepted, 1 ran with problems, 2 could not run)."""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

EXIT_OK, EXIT_ATTENTION, EXIT_FAILED = 0, 1, 2


def _spec_error() -> type[Exception]:
    """``SpecError``, imported only when an exception is being matched (an ``except``
    clause evaluates its expression then), so an unchanged night never loads the spec model."""
    from .spec import SpecError
    return SpecError


def _mail_error() -> type[Exception]:
    """``MailError``, imported only when an exception is being matched (a run without mail
    options never loads the mail modules)."""
    from .mail.common import MailError
    return MailError


def _parse_now(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        now = dt.datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"not an ISO date-time: {value!r} (e.g. 2020-11-09T15:00+08:00)") from None
    if now.tzinfo is None:
        from .timeutil import TZ
        now = now.replace(tzinfo=TZ)
    return now


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
    from .run import RunOptions, run
    from .store import RunLock

    try:
        now = _parse_now(now_text)
        with _progress() as say:
            report = run(RunOptions(folder=folder, out_parent=out_parent, now=now, pdf=pdf,
                                    imap_url=imap_url, smtp_url=smtp_url, wait=wait, progress=say))
    except _spec_error() as e:
        click.echo(f"错误：赛事配置有误 — {e.file}\n  键 {e.key}: {e.problem}", err=True)
        sys.exit(EXIT_FAILED)
    except _mail_error() as e:
        click.echo(f"错误：邮件服务器 — {e}", err=True)
        sys.exit(EXIT_FAILED)
    except RunLock.Busy:
        click.echo(f"另一个 league run 正在处理这个赛事（{folder}），请稍后再运行，或加 --wait 秒数等待。", err=True)
        sys.exit(EXIT_FAILED)
    except OSError as e:
        click.echo(f"错误：无法读取或写入 {e.filename or folder}: {e.strerror or e}", err=True)
        sys.exit(EXIT_FAILED)
    click.echo(report.summary())
    sys.exit(EXIT_ATTENTION if report.needs_attention else EXIT_OK)


class _progress:
    """A live progress display (rich) on a terminal; plain timestamped log lines on stderr
    otherwise (cron mails them to the office)."""

    STEPS = 7

    def __enter__(self):
        import time

        self.t0 = time.monotonic()
        if sys.stderr.isatty():
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
            # no refresh thread (auto_refresh=False): the run forks worker processes, and a
            # thread holding the terminal's lock at a fork would leave that lock held there
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                transient=True, auto_refresh=False)
            self.bar.start()
            self.task = self.bar.add_task("开始 …", total=self.STEPS)
        else:
            self.bar = None
        return self.say

    def say(self, message: str) -> None:
        import time

        if self.bar is not None:
            self.bar.update(self.task, description=message, advance=1)
            self.bar.refresh()
        else:
            click.echo(f"[{time.monotonic() - self.t0:6.1f}s] {message}", err=True)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


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
        raise click.UsageError("give exactly one of --branch ID or --all")
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
