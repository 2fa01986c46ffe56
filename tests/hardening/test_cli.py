"""The command line: help text everywhere, typed errors → exit 2 with file and key,
exit 0 (all accepted) / 1 (ran, needs attention)."""
from __future__ import annotations

import datetime as dt
import os
import re

import pytest
import yaml

from .common import copy_sample, league, run_args

SUBCOMMANDS = re.compile(r"^命令:\n((?:  \S.*\n?)+)", re.M)


def _subcommands() -> list[str]:
    r = league("--help")
    m = SUBCOMMANDS.search(r.stdout)
    assert m, r.stdout
    return [line.split()[0] for line in m.group(1).splitlines() if line.strip()]


def test_main_help():
    r = league("--help")
    assert r.returncode == 0
    # click's own words in Chinese too (pipeline.cli.CLICK_ZH): the office reads Chinese
    assert "用法：" in r.stdout and "league" in r.stdout and "显示本帮助并退出" in r.stdout
    assert "Usage" not in r.stdout and "Show this message" not in r.stdout
    names = _subcommands()
    assert {"run", "template", "new"} <= set(names)
    # every command listed with a one-line description (sqlite-utils style)
    for line in SUBCOMMANDS.search(r.stdout).group(1).splitlines():
        assert len(line.split(None, 1)) == 2, f"command without help: {line!r}"
        # the union office reads Chinese first
        assert any("\u4e00" <= ch <= "\u9fff" for ch in line.split(None, 1)[1]), line
    assert league("-h").stdout == r.stdout


def test_every_subcommand_has_help():
    for name in _subcommands():
        r = league(name, "--help")
        assert r.returncode == 0, (name, r.stderr)
        usage, _, rest = r.stdout.partition("\n\n")
        assert usage.startswith("用法：") and name in usage
        description = rest.split("选项:")[0].strip()
        assert description, f"`{name} --help` has no description"
        options = re.findall(r"^  (-[-\w, /]+?)(?:\s{2,}(.*))?$", r.stdout.split("选项:")[1], re.M)
        undocumented = [o for o, text in options if not text and "--help" not in o]
        assert not undocumented, f"`{name}` options without help: {undocumented}"


def test_bad_spec_exits_2_naming_file_and_key(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    spec = folder / "tournament.yaml"
    data = yaml.safe_load(spec.read_text(encoding="utf-8"))
    data["events"][0]["quota"]["rule"] = "lottery"
    spec.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    r = league(*run_args(folder, tmp_path / "out"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert str(spec) in r.stderr or "tournament.yaml" in r.stderr
    assert "events[guandan].quota.rule" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_missing_folder_exits_2(tmp_path):
    r = league(*run_args(tmp_path / "nope", tmp_path / "out"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "nope" in r.stderr and "Traceback" not in r.stderr


def test_bad_now_is_a_usage_error(tmp_path):
    folder = copy_sample("t2016-poker", tmp_path)
    r = league(*run_args(folder, tmp_path / "out", now="yesterday"))
    assert r.returncode == 2 and "yesterday" in r.stderr


@pytest.mark.parametrize("drop, code", [((), 0), (("1111-g04-报名表.eml",), 1)], ids=["clean", "attention"])
def test_exit_codes(tmp_path, drop, code):
    """0: everything accepted; 1: ran, but the office must look at something (here a
    file that is not a workbook: UNREADABLE_FILE)."""
    folder = copy_sample("t2016-poker", tmp_path)
    for name in drop:
        (folder / "inbox" / name).unlink()
    if drop:
        (folder / "inbox" / "notes.txt").write_text("hello", encoding="utf-8")
    r = league(*run_args(folder, tmp_path / "out"))
    assert r.returncode == code, (r.stdout, r.stderr)
    assert "输出目录" in r.stdout


def test_an_output_file_that_cannot_be_written_is_named_in_chinese(tmp_path, monkeypatch, capsys):
    """data/issues.csv locked (open on a shared drive): the message named the temporary
    copy (.issues.csv.hsogiwwu.tmp, gone by then) with English words only.  It names the
    file itself, why in Chinese, what to do, and that nothing received is lost."""
    import errno
    import os as _os

    from pipeline import fsutil
    from pipeline.runcmd import EXIT_FAILED, run_command

    folder = copy_sample("t2016-poker", tmp_path)
    real = _os.replace

    def locked(src, dst):
        if str(dst).endswith("issues.csv"):
            raise PermissionError(errno.EACCES, "Permission denied", str(src))
        return real(src, dst)
    monkeypatch.setattr(fsutil.os, "replace", locked)
    code = run_command(folder, tmp_path / "out", dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc), pdf=False)
    err = capsys.readouterr().err
    assert code == EXIT_FAILED
    assert "issues.csv：没有权限" in err and ".tmp" not in err, err
    assert "改回可写" in err and "补写" in err
    assert not list((tmp_path / "out").rglob(".*.tmp"))


def test_a_folder_that_is_a_file_is_named_not_the_file_in_it(tmp_path):
    from pipeline.fsutil import atomic_write_bytes

    (tmp_path / "forms").write_text("x")
    with pytest.raises(OSError) as e:
        atomic_write_bytes(tmp_path / "forms" / "a.xlsx", b"data")
    assert e.value.filename == str(tmp_path / "forms")


def test_outputs_get_the_umasks_mode_not_the_temporary_files(tmp_path):
    """Atomic writes went through a 0600 temporary file: every output (the site, the PDFs, the
    CSVs) was readable by its owner only, and leadership's web server got "permission denied".
    A written file has the mode open() gives a new one; a private umask keeps it private."""
    import os

    from pipeline import fsutil

    p = tmp_path / "index.html"
    p.write_bytes(b"old")
    os.chmod(p, 0o600)
    assert fsutil.atomic_write_bytes(p, b"new") and p.stat().st_mode & 0o777 == fsutil.NEW_FILE_MODE
    mask = os.umask(0o022)
    os.umask(mask)
    assert fsutil.NEW_FILE_MODE == 0o666 & ~mask
    assert fsutil.atomic_write_bytes(tmp_path / "data" / "a.csv", b"x")
    assert (tmp_path / "data" / "a.csv").stat().st_mode & 0o777 == 0o666 & ~mask


def test_template_and_questionnaire_that_cannot_write_exit_2_with_a_message(tmp_path):
    """`league template … --out` a file (or a folder it cannot write) ended in a traceback with
    exit 1 ("inputs rejected"); like `league run`, it is now a Chinese message and exit 2."""
    folder = copy_sample("t2016-poker", tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    r = league("template", folder, "--all", "--out", blocker)
    assert r.returncode == 2 and "Traceback" not in r.stderr, (r.returncode, r.stderr)
    assert "错误：无法写入" in r.stderr, r.stderr
    r = league("questionnaire", blocker / "问卷.xlsx")          # a folder that cannot be made
    assert r.returncode == 2 and "Traceback" not in r.stderr and "错误：无法写入" in r.stderr, (r.returncode, r.stderr)
    (tmp_path / "a-folder").mkdir()                               # a folder named: 问卷.xlsx in it
    r = league("questionnaire", tmp_path / "a-folder")
    assert r.returncode == 0 and (tmp_path / "a-folder" / "问卷.xlsx").is_file(), (r.returncode, r.stderr)


def test_click_errors_are_in_chinese():
    """A missing argument, an unknown option, a path that is not there: click's messages
    were English (Missing argument 'FOLDER'., No such option) for a Chinese office."""
    r = league("run")
    assert r.returncode == 2 and "错误：缺少参数 'FOLDER'" in r.stderr and "查看帮助" in r.stderr, r.stderr
    r = league("run", ".", "--bogus")
    assert r.returncode == 2 and "没有选项 '--bogus'" in r.stderr, r.stderr
    r = league("new", "--from-workbook", "/nonexistent/问卷.xlsx", "x")
    assert r.returncode == 2 and "路径 '/nonexistent/问卷.xlsx' 不存在" in r.stderr, r.stderr


def test_a_ledger_sqlite_refuses_is_told_by_what_it_said():
    """A read-only ledger was told "多半是磁盘已满或文件损坏…请用备份恢复该文件夹" — restoring an
    older backup would have thrown away what was received and drawn since."""
    import sqlite3

    from pipeline.runcmd import _db_advice

    ro = _db_advice(sqlite3.OperationalError("attempt to write a readonly database"))
    assert "只读" in ro and "不要用旧的备份" in ro
    assert "磁盘已满" in _db_advice(sqlite3.OperationalError("database or disk is full"))
    assert "已损坏" in _db_advice(sqlite3.DatabaseError("database disk image is malformed"))
    assert "备份" in _db_advice(sqlite3.OperationalError("disk I/O error"))


def test_a_ledger_that_cannot_be_opened_is_told_to_check_the_folder_not_to_restore_a_backup():
    """A read-only output folder (SQLite: "unable to open database file") was told "多半是磁盘已满
    或文件损坏…文件损坏时请用备份恢复该文件夹": the wrong cause, and a backup restored loses every
    file received and round drawn since (from an audit)."""
    import sqlite3

    from pipeline.runcmd import _db_advice

    for said in ("unable to open database file", "attempt to write a readonly database"):
        advice = _db_advice(sqlite3.OperationalError(said))
        assert "权限" in advice and "只读" in advice and "拥有该文件夹的用户" in advice, (said, advice)
        assert "没有丢失" in advice and "磁盘已满" not in advice and "请用备份恢复" not in advice, (said, advice)


def test_os_errors_are_said_in_chinese_with_what_to_do():
    """File-system errors other than five were printed in English (``issues.csv：Is a directory``,
    ``data：File exists``, ``Not a directory``, ``Too many levels of symbolic links``)."""
    import errno

    from pipeline.runcmd import os_reason

    for name in ("EISDIR", "ENOTDIR", "EEXIST", "ELOOP", "ENAMETOOLONG", "EMFILE", "ENFILE", "EIO", "EBUSY",
                 "ETXTBSY", "EDQUOT", "EXDEV", "EACCES", "ENOSPC", "EROFS", "ENOENT"):
        code = getattr(errno, name)
        e = OSError(code, os.strerror(code), "/x/data/issues.csv")
        said = os_reason(e)
        assert said.endswith(f"（{os.strerror(code)}）"), (name, said)       # the system's words for a technician
        assert re.search("[\u4e00-\u9fff]{4}", said.removesuffix(f"（{os.strerror(code)}）")), (name, said)
        assert "系统报告的错误" not in said, (name, said)
    assert "是一个文件夹" in os_reason(IsADirectoryError(errno.EISDIR, "Is a directory"))
    assert "删除或改名" in os_reason(FileExistsError(errno.EEXIST, "File exists"))
    odd = os_reason(OSError(errno.ENOEXEC, os.strerror(errno.ENOEXEC)))      # one not known: kept as said
    assert os.strerror(errno.ENOEXEC) in odd and "维护人员" in odd, odd


def test_an_os_error_says_the_ledger_holds_what_came_only_when_it_does(tmp_path):
    """Every file-system error said "已收到的文件和已公布的抽签都已记入账本" — on a first run
    with ``--out`` under an ordinary file, where there was no ledger at all (from an audit)."""
    folder = copy_sample("t2016-poker", tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    r = league(*run_args(folder, blocker / "out"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, (r.returncode, r.stderr)
    assert "不是文件夹" in r.stderr and "Not a directory）" in r.stderr, r.stderr
    assert "记入账本" not in r.stderr, r.stderr
    out = tmp_path / "out"
    assert league(*run_args(folder, out)).returncode in (0, 1)
    (tid,) = out.iterdir()
    issues = tid / "data" / "issues.csv"
    issues.unlink()
    issues.mkdir()                                  # a folder where a file is written
    (folder / "inbox" / "说明.txt").write_text("not a workbook", encoding="utf-8")     # a full run
    r = league(*run_args(folder, out))
    assert r.returncode == 2 and "Traceback" not in r.stderr, (r.returncode, r.stderr)
    assert "issues.csv：该路径是一个文件夹，不是文件" in r.stderr, r.stderr
    assert "已收到的文件和已公布的抽签都已记入账本" in r.stderr, r.stderr


def test_ctrl_c_during_a_run_exits_2_in_chinese(tmp_path):
    """Ctrl-C on ``league run`` printed click's English "Aborted!" and exited 1, the code the
    contract keeps for a run that finished with inputs needing attention."""
    import signal
    import subprocess
    import sys

    from .common import ROOT, copy_sample

    folder = copy_sample("t2020-league", tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(folder), "--out", str(tmp_path / "out"),
                          "--no-pdf", "--now", "2030-01-01T00:00+08:00"], cwd=ROOT, env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for line in p.stderr:
        if "校验报名" in line:                # well inside the run
            p.send_signal(signal.SIGINT)
            break
    err = p.stderr.read()
    out = p.stdout.read()
    assert p.wait(timeout=60) == 2, out + err
    assert "已中断" in err and "下次运行会补全" in err and "Aborted" not in err + out, err
