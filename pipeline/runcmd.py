"""``league run``'s body: run the batch, print its summary, map typed errors to messages and
exit codes (0 all accepted, 1 ran with problems, 2 could not run).

Both entry points call :func:`run_command`: :mod:`pipeline.cli`'s ``run`` command, and
:func:`pipeline.quick.main` for a plain ``league run FOLDER [--out DIR] [--now ISO]
[--pdf|--no-pdf] [--wait S]`` (the nightly cron line), which so never imports the
command-line toolkit — a twentieth of a rerun after one changed workbook.  Nothing here
imports click.
"""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

EXIT_OK, EXIT_ATTENTION, EXIT_FAILED = 0, 1, 2


def _db_advice(e: Exception) -> str:
    """What to do about a ledger SQLite refused, by what it said: a folder or file that cannot
    be opened or written (read-only, another user's) is made writable — nothing was lost, and
    restoring a backup, as the one message said for every error, would lose what was received
    since; a full disk is given room; only a damaged file is restored."""
    text = str(e).lower()
    if ("readonly" in text or "read-only" in text or "permission" in text or "access" in text
            or "unable to open" in text or "cannot open" in text):
        return ("输出文件夹或其中的账本文件无法打开或写入：请检查该文件夹和 ledger.sqlite 的权限，确认它们没有被设为只读"
                "（也不在只读的磁盘或共享盘上），并用拥有该文件夹的用户运行 league，然后再运行一次。账本中的内容没有丢失"
                "（不要用旧的备份覆盖，否则此后收到的文件和公布的抽签会丢失）。")
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return "账本文件已损坏：请用最近的备份恢复输出文件夹后再运行。"
    if "is full" in text:
        return "磁盘已满：请腾出磁盘空间后再运行。"
    return "多半是磁盘已满或文件损坏：请腾出磁盘空间后再运行；文件损坏时请用备份恢复该文件夹。"


#: errno → why a file could not be read or written, and what to do (:func:`os_reason`)
_OS_REASONS: dict[str, str] = {
    "ENOSPC": "磁盘已满：请腾出空间",
    "EDQUOT": "该用户在这个磁盘上的空间配额已用完：请删除不需要的文件或请管理员增加配额",
    "EROFS": "所在的磁盘是只读的：请换一个可写的{place}",
    "ENOENT": "文件或文件夹不存在",
    "EISDIR": "该路径是一个文件夹，不是文件：请把这个文件夹删除或改名（里面的内容如需保留请先移走）",
    "ENOTDIR": "路径中的某一级是一个文件，不是文件夹：请把这个文件删除或改名，或换一个{place}",
    "EEXIST": "该位置已有一个同名的文件，而这里需要的是文件夹：请把这个文件删除或改名",
    "ELOOP": "路径中的快捷方式（符号链接）互相指向、绕成了圈：请删除或改正这个链接",
    "ENAMETOOLONG": "路径或文件名太长：请把联赛文件夹或输出文件夹放到较短的路径下，或把文件名改短",
    "EMFILE": "同时打开的文件太多：请关闭其他程序后再运行；仍不行时请管理员调高打开文件数的上限",
    "ENFILE": "系统中同时打开的文件太多：请关闭其他程序后再运行；仍不行时请管理员调高打开文件数的上限",
    "EIO": "磁盘读写出错（磁盘或网络盘可能有故障）：请检查磁盘或网络连接，必要时换一个{place}",
    "EBUSY": "文件或文件夹正被占用（例如正被其他程序打开或是挂载点）：请关闭占用它的程序后再运行",
    "ETXTBSY": "文件正被其他程序使用：请关闭使用它的程序后再运行",
    "EXDEV": "不能跨磁盘移动文件：请让输出文件夹整个位于同一个磁盘上（不要把其中的子文件夹链接到别的磁盘）",
}


#: where else to write, by command (:func:`os_reason`): ``league questionnaire`` and ``league
#: new`` have no ``--out`` — a read-only disk advised them one (an audit)
_ELSEWHERE = {"questionnaire": "文件夹保存问卷（league questionnaire 后面写另一个路径，如 ~/问卷.xlsx）",
              "new": "位置新建赛事文件夹（league new 后面写另一个路径）"}
_OUT_FOLDER = "输出文件夹（--out）"


def os_reason(e: OSError, command: str = "run") -> str:
    """Why a file could not be read or written, in Chinese, with what to do; the system's
    own words in brackets for a technician (an errno not known here: said as it is).
    ``command``: the ``league`` command said to — where else to write is its ``--out``
    (``run``, ``template``) or its path argument (``questionnaire``, ``new``)."""
    import errno

    if e.errno in (errno.EACCES, errno.EPERM):
        return ("没有权限（文件或文件夹被设为只读，或正被其他程序打开、在共享盘上被锁定）：请关闭打开它的程序"
                f"（如 Excel），或把它改回可写（{e.strerror}）")
    said = _OS_REASONS.get(errno.errorcode.get(e.errno or 0, ""))
    if said:
        return f"{said.format(place=_ELSEWHERE.get(command, _OUT_FOLDER))}（{e.strerror}）"
    return f"系统报告的错误（{e.strerror or e}）：请检查该文件或文件夹，或把这段信息发给维护人员"

def parse_now(value: str | None) -> dt.datetime | None:
    """``--now``: an ISO date-time, China time when it names no zone.  ValueError (with
    the message for the user) when it is not one."""
    if not value:
        return None
    try:
        now = dt.datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"--now 的时间格式不对：{value!r}（应写成 2020-11-09T15:00+08:00 或 2020-11-09 15:00）") from None
    if now.tzinfo is None:
        from .timeutil import TZ
        now = now.replace(tzinfo=TZ)
    return now


def echo(text: str, err: bool = False) -> None:
    """A line to stdout (stderr with ``err``); on a terminal that cannot show Chinese, the
    characters it cannot show become ``?`` instead of the run failing at its last line."""
    stream = sys.stderr if err else sys.stdout
    try:
        stream.write(text + "\n")
    except UnicodeEncodeError:
        stream.flush()
        stream.buffer.write((text + "\n").encode(stream.encoding or "utf-8", "replace"))
        stream.buffer.flush()


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


def _font_error() -> type[Exception]:
    """``MissingFontError`` (no CJK font: no PDF), imported only when an exception is matched."""
    from .render.pdf import MissingFontError
    return MissingFontError


def _db_error() -> type[Exception]:
    """``sqlite3.Error`` (the ledger: disk full, a damaged file), imported only when matched."""
    import sqlite3
    return sqlite3.Error


def run_command(folder: Path, out_parent: Path, now: dt.datetime | None, pdf: bool = True,
                imap_url: str | None = None, smtp_url: str | None = None, wait: float = 0.0) -> int:
    """Ingest FOLDER/inbox, validate, draw, score and write everything under OUT/<id>/;
    print the summary.  Returns the exit code."""
    from .run import RunOptions, run
    from .store import LedgerMissing, RunLock

    try:
        if imap_url is not None or smtp_url is not None:
            from .mail import check_urls
            check_urls(imap_url, smtp_url)      # before the run: a bad address is said at once
        with Progress() as say:
            report = run(RunOptions(folder=folder, out_parent=out_parent, now=now, pdf=pdf,
                                    imap_url=imap_url, smtp_url=smtp_url, wait=wait, progress=say))
    except _spec_error() as e:
        echo(f"错误：赛事配置有误 — {e.file}\n{e.lines()}", err=True)
        return EXIT_FAILED
    except _mail_error() as e:
        echo(f"错误：邮件服务器 — {e}", err=True)
        return EXIT_FAILED
    except LedgerMissing as e:
        echo(f"错误：{e}", err=True)
        return EXIT_FAILED
    except RunLock.Busy:
        echo(f"另一个 league run 正在处理这个赛事（{folder}），请稍后再运行，或加 --wait 秒数等待。", err=True)
        return EXIT_FAILED
    except _font_error() as e:
        echo(f"错误：{e}\n  其余文件（网页、成绩表、退回的报名表）已写出；也可以加 --no-pdf 运行，不生成 PDF。", err=True)
        return EXIT_FAILED
    except _db_error() as e:
        echo(f"错误：输出文件夹 {out_parent} 中的账本 ledger.sqlite 无法读写（{e}）：{_db_advice(e)}", err=True)
        return EXIT_FAILED
    except OSError as e:
        # (only when the ledger holds something: a first run stopped before it received
        # anything has nothing recorded, and was told it had)
        held = getattr(e, "ledger_holds", False)
        kept = "已收到的文件和已公布的抽签都已记入账本，不受影响；" if held else ""
        if getattr(e, "intake_failed", False):
            # (storing a file that just arrived: it is not recorded yet, and still in the
            # inbox — "everything received is in the ledger" was not so; audit 38)
            kept = ("本次新到的文件还没有收下（仍在收件箱里，没有丢失），下次运行时（磁盘已满的，腾出空间后）会收取；"
                    + ("此前已记入账本的文件和已公布的抽签不受影响；" if held else ""))
        echo(f"错误：无法读取或写入 {e.filename or f'（联赛文件夹 {folder} 或输出文件夹 {out_parent}）'}："
             f"{os_reason(e)}。{kept}改正后再运行一次，本次未写出的文件会全部补写。", err=True)
        return EXIT_FAILED
    except KeyboardInterrupt:
        # Ctrl-C: click's "Aborted!" with exit 1, which the contract keeps for "ran, inputs
        # need attention"; the run's writes are atomic and the next run finishes the night
        echo("\n已中断：本次运行没有完成。已收到的文件和账本不受影响，下次运行会补全全部输出。", err=True)
        return EXIT_FAILED
    except Exception:  # noqa: BLE001 - a fault of ours: said as one, exit 2 (not 1, "inputs need attention")
        import traceback

        traceback.print_exc()
        echo("错误：league 内部出错（见上方信息），本次运行没有完成。已收到的文件和账本不受影响，下次运行会重新处理；"
             "请把这段信息发给维护人员。", err=True)
        return EXIT_FAILED
    echo(report.summary())
    # the command's process ends next (pipeline.quick.hard_exit, without the interpreter's
    # teardown): the run's state is kept alive until then, not freed object by object as
    # this function returns (~2 ms at 50 units, more with the league)
    _LAST_REPORT[:] = [report]
    return EXIT_ATTENTION if report.needs_attention else EXIT_OK


#: the last run's report (with its state), kept until the process ends (see run_command)
_LAST_REPORT: list[object] = []


class Progress:
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
            echo(f"[{time.monotonic() - self.t0:6.1f}s] {message}", err=True)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
