"""A mail (or a mail's attachment) with a problem of its own is settled as SUPERSEDED only by a
later mail put at the same inbox path that is the same mail (grown: it was cut while copied)
or comes from the same sender.  Another unit's mail the office saved later under the same
file name (报名.eml) replaces nothing: the first unit's NO_ATTACHMENT / UNREADABLE_FILE stays,
else that unit had no registration and nothing asked it to send again (an audit, t2016)."""
from __future__ import annotations

import datetime as dt
import os
from email.message import EmailMessage
from pathlib import Path

from pipeline.ingest.eml import parse_eml_bytes
from pipeline.run import RunOptions, run

from .common import copy_sample

NOW = dt.datetime.fromisoformat("2016-11-20T00:00+08:00")
OLD = dt.datetime.fromisoformat("2016-11-14T10:00+08:00").timestamp()
G04 = "jjxy@union.example.edu.cn"


def _folder(tmp_path: Path) -> tuple[Path, bytes, bytes]:
    """t2016 with g04's and g08's registration mails taken out: (folder, g04's mail, g08's)."""
    folder = copy_sample("t2016-poker", tmp_path)
    inbox = folder / "inbox"
    g04, g08 = (inbox / "1111-g04-报名表.eml").read_bytes(), (inbox / "1111-g08-报名表.eml").read_bytes()
    (inbox / "1111-g04-报名表.eml").unlink()
    (inbox / "1111-g08-报名表.eml").unlink()
    return folder, g04, g08


def _put(path: Path, data: bytes, at: float) -> None:
    path.write_bytes(data)
    os.utime(path, (at, at))


def _night(folder: Path, out: Path):
    return run(RunOptions(folder=folder, out_parent=out, pdf=False, now=NOW))


def _at(result, name: str) -> list[tuple[str, str]]:
    return [(i.code, i.severity.value) for i in result.issues if name in (i.file or "")
            and i.code not in ("LATE_SUBMISSION", "MAIL_DATE")]


def _mail(sender: str, mid: str, attach: bytes | None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "office@union.example.edu.cn", "baoming"
    msg["Date"], msg["Message-ID"] = "Thu, 10 Nov 2016 09:00:00 +0800", f"<{mid}@union.example.edu.cn>"
    msg.set_content("baoming biao jian fujian")
    if attach is not None:
        msg.add_attachment(attach, maintype="application",
                           subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="g04-报名表.xlsx")
    return msg.as_bytes()


def test_a_mail_without_attachment_is_not_replaced_by_another_units_mail(tmp_path: Path) -> None:
    folder, _g04, g08 = _folder(tmp_path)
    mail = folder / "inbox" / "报名.eml"
    _put(mail, _mail(G04, "forgot", None), OLD)
    out = tmp_path / "out"
    first = _night(folder, out)
    assert _at(first, "报名.eml") == [("NO_ATTACHMENT", "warning")], [i.row() for i in first.issues]
    _put(mail, g08, OLD + 100)              # g08's later mail saved under the same name
    second = _night(folder, out)
    assert "g08" in second.accepted_branches and "g04" not in second.accepted_branches
    mine = [i for i in second.issues if i.code in ("NO_ATTACHMENT", "SUPERSEDED")]
    assert [(i.code, i.branch) for i in mine] == [("NO_ATTACHMENT", "g04")], [i.row() for i in second.issues]


def test_a_mail_without_attachment_is_replaced_by_the_same_senders_later_mail(tmp_path: Path) -> None:
    folder, g04, _g08 = _folder(tmp_path)
    mail = folder / "inbox" / "报名.eml"
    _put(mail, _mail(G04, "forgot", None), OLD)
    out = tmp_path / "out"
    _night(folder, out)
    _put(mail, g04, OLD + 100)              # g04's own later mail, with its form
    second = _night(folder, out)
    assert "g04" in second.accepted_branches
    assert _at(second, "报名.eml") == [("SUPERSEDED", "info")], [i.row() for i in second.issues]


def test_an_unreadable_attachment_is_not_replaced_by_another_units_mail(tmp_path: Path) -> None:
    folder, g04, g08 = _folder(tmp_path)
    (att,) = parse_eml_bytes(g04, "g04.eml").attachments
    mail = folder / "inbox" / "报名.eml"
    _put(mail, _mail(G04, "cut", att.data[:len(att.data) // 2]), OLD)
    out = tmp_path / "out"
    first = _night(folder, out)
    assert ("UNREADABLE_FILE", "error") in _at(first, "g04-报名表.xlsx"), [i.row() for i in first.issues]
    _put(mail, g08, OLD + 100)
    second = _night(folder, out)
    assert "g08" in second.accepted_branches
    assert "SUPERSEDED" not in [i.code for i in second.issues], [i.row() for i in second.issues]
    assert ("UNREADABLE_FILE", "error") in _at(second, "g04-报名表.xlsx"), [i.row() for i in second.issues]
