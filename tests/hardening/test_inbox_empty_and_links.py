"""Empty files and symbolic links in the inbox: each is said at its own path.

An empty file was recorded by its content — and every empty file has the same: of two
0-byte 报名表.xlsx, one was said, the other not at all.  A link to nowhere (or to itself, or
to a folder) was passed over without a word; a link to a file outside the inbox was read,
and its bytes stored in the ledger.  Now an empty file is UNREADABLE_FILE at each path
("文件是空的（0 字节），请重新发送"), and a link is followed only to a regular file inside the
inbox — any other is INBOX_LINK, saying why it was skipped.
"""
from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path

from pipeline.run import RunOptions, run

from .common import copy_sample

NOW = dt.datetime.fromisoformat("2016-11-20T00:00+08:00")        # after t2016's deadline
ON_TIME = dt.datetime.fromisoformat("2016-11-14T10:00+08:00").timestamp()


def _night(folder: Path, out: Path):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))


def _form(folder: Path) -> bytes:
    from pipeline.ingest.eml import parse_eml_bytes

    mail = folder / "inbox" / "1111-g04-报名表.eml"
    (att,) = parse_eml_bytes(mail.read_bytes(), mail.name).attachments
    mail.unlink()
    return att.data


def _sources(out: Path) -> set[str]:
    con = sqlite3.connect(out / "t2016-poker" / "ledger.sqlite")
    try:
        return {s for (s,) in con.execute("SELECT source FROM received")}
    finally:
        con.close()


def _old(p: Path) -> None:
    os.utime(p, (ON_TIME, ON_TIME), follow_symlinks=False)


def test_each_empty_file_is_said_at_its_own_path(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    _night(folder, out)                             # a night before: the empty files come later
    for rel in ("报名表.xlsx", "a/报名表.xlsx", "b/空邮件.eml"):
        p = folder / "inbox" / rel
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(b"")
        _old(p)
    report = _night(folder, out)
    said = {i.file: i for i in report.issues if i.file.endswith(("报名表.xlsx", "空邮件.eml")) and "0 字节" in i.message}
    assert set(said) == {"报名表.xlsx", "a/报名表.xlsx", "b/空邮件.eml"}, [i.row() for i in report.issues]
    for rel, i in said.items():
        assert i.code == "UNREADABLE_FILE" and f"《{rel}》" in i.message and "文件是空的（0 字节），请重新发送" in i.message
    assert not _sources(out) & set(said)             # nothing to keep: not recorded
    again = _night(folder, out)                      # said every night it is there
    assert {i.file for i in again.issues if "0 字节" in i.message} == set(said)


def test_a_link_is_followed_only_to_a_regular_file_inside_the_inbox(tmp_path: Path) -> None:
    folder = copy_sample("t2016-poker", tmp_path)
    data = _form(folder)
    inbox = folder / "inbox"
    kept = inbox / ".g04-报名表.xlsx"            # a dot file: read only through the link
    kept.write_bytes(data)
    _old(kept)
    (inbox / "g04-报名表.xlsx").symlink_to(kept.name)
    elsewhere = tmp_path / "别处"
    elsewhere.mkdir()
    (elsewhere / "secret.xlsx").write_bytes(b"not for the ledger")
    (inbox / "外面.xlsx").symlink_to(elsewhere / "secret.xlsx")
    (inbox / "不存在.xlsx").symlink_to(inbox / "没有这个文件.xlsx")
    (inbox / "循环.xlsx").symlink_to(inbox / "循环.xlsx")
    (inbox / "文件夹").symlink_to(elsewhere)
    out = tmp_path / "out"
    report = _night(folder, out)
    assert "g04" in report.accepted_branches                     # followed: inside, a regular file
    links = {i.file: i for i in report.issues if i.code == "INBOX_LINK"}
    assert set(links) == {"外面.xlsx", "不存在.xlsx", "循环.xlsx", "文件夹"}, [i.row() for i in report.issues]
    assert "收件箱以外" in links["外面.xlsx"].message and "不存在" in links["不存在.xlsx"].message
    assert "循环" in links["循环.xlsx"].message and "文件夹" in links["文件夹"].message
    assert all(f"《{rel}》" in i.message and "没有收取" in i.message and i.severity.value == "warning"
               for rel, i in links.items())
    assert "外面.xlsx" not in _sources(out)
    assert not any(p.read_bytes() == b"not for the ledger" for p in (out / "t2016-poker" / "received").iterdir())


def test_a_dangling_link_added_on_a_later_night_is_said(tmp_path: Path) -> None:
    """The unchanged-night check sees links too: a link to nowhere added to an unchanged
    inbox was not even looked at (no file of the inbox had changed)."""
    folder = copy_sample("t2016-poker", tmp_path)
    out = tmp_path / "out"
    _night(folder, out)
    (folder / "inbox" / "报名表.xlsx").symlink_to(folder / "inbox" / "没有.xlsx")
    report = _night(folder, out)
    assert not report.unchanged
    assert [i.file for i in report.issues if i.code == "INBOX_LINK"] == ["报名表.xlsx"]
