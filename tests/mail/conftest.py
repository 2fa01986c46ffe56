"""Real mail servers on loopback for the mail tests: aiosmtpd (SMTP) in-process and
pymap (a maintained pure-Python IMAP4rev1 server, in-memory backend) as a subprocess.
Both listen on 127.0.0.1 on a free port and are stopped by the fixture."""
from __future__ import annotations

import datetime as dt
import imaplib
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from pipeline.issues import issue
from pipeline.model import CellRef, Entry, Person
from pipeline.spec import Tournament, TournamentSpec, validated
from pipeline.state import LeagueState, Submission
from pipeline.store import Ledger, Received

IMAP_USER, IMAP_PASSWORD = "office", "s3cret-pw"
NOW = dt.datetime(2020, 11, 9, 20, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- SMTP --------------------------------------------------------------------------------

@dataclass
class Captured:
    mail_from: str
    rcpt_tos: list[str]
    content: bytes


@dataclass
class CapturingHandler:
    messages: list[Captured] = field(default_factory=list)
    reject_data: bool = False          # answer DATA with a temporary failure

    async def handle_DATA(self, server, session, envelope):
        if self.reject_data:
            return "451 4.3.0 try again later"
        self.messages.append(Captured(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content
                                      or envelope.content))
        return "250 OK"


class SmtpServer:
    """An aiosmtpd server on 127.0.0.1 that can be started on a chosen port."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.handler = CapturingHandler()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://office%40union.example.cn@127.0.0.1:{self.port}"

    def start(self) -> "SmtpServer":
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port, ready_timeout=10)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp_server():
    server = SmtpServer().start()
    yield server
    server.stop()


# -- IMAP --------------------------------------------------------------------------------

class ImapServer:
    def __init__(self, proc: subprocess.Popen, port: int) -> None:
        self.proc, self.port = proc, port

    def url(self, folder: str = "INBOX") -> str:
        return f"imap://{IMAP_USER}@127.0.0.1:{self.port}/{folder}"

    def client(self) -> imaplib.IMAP4:
        c = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        c.login(IMAP_USER, IMAP_PASSWORD)
        return c

    def append(self, raw: bytes, folder: str = "INBOX", flags: str | None = None,
               arrived: dt.datetime | None = None) -> int:
        """Append ``raw``; ``arrived``: its INTERNALDATE (now when None)."""
        c = self.client()
        try:
            typ, data = c.append(folder, flags, imaplib.Time2Internaldate(arrived) if arrived else None, raw)
            assert typ == "OK", data
            return int(data[0].split(b"APPENDUID ")[1].split(b" ")[1].rstrip(b"]"))
        finally:
            c.logout()

    def flags(self, folder: str = "INBOX") -> dict[int, set[str]]:
        c = self.client()
        try:
            c.select(folder)
            typ, data = c.uid("FETCH", "1:*", "(FLAGS)")
            out: dict[int, set[str]] = {}
            for d in data:
                if not d:
                    continue
                text = d.decode()
                uid = int(text.split("UID ")[1].split()[0].rstrip(")"))
                out[uid] = set(text.split("FLAGS (")[1].split(")")[0].split())
            return out
        finally:
            c.logout()

    def unflag_seen(self, folder: str = "INBOX") -> None:
        c = self.client()
        try:
            c.select(folder)
            c.uid("STORE", "1:*", "-FLAGS", r"(\Seen)")
        finally:
            c.logout()


@pytest.fixture
def imap_server():
    port = free_port()
    code = "import sys; from pymap.main import main; sys.argv[0] = 'pymap'; sys.exit(main())"
    proc = subprocess.Popen([sys.executable, "-c", code, "--host", "127.0.0.1", "--port", str(port), "--no-tls",
                             "dict", "--demo-user", IMAP_USER, "--demo-password", IMAP_PASSWORD],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = ImapServer(proc, port)
    deadline = time.monotonic() + 20
    while True:
        try:
            server.client().logout()
            break
        except (OSError, imaplib.IMAP4.error):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("pymap did not start: " + proc.stderr.read().decode(errors="replace")[-2000:])
            time.sleep(0.1)
    # the demo user starts with an empty INBOX (no --demo-data)
    yield server
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def captain_mail(sender: str, subject: str, attachment: bytes | None, name: str = "报名表.xlsx",
                 date: dt.datetime = dt.datetime(2020, 11, 2, 9, 30, tzinfo=dt.timezone.utc),
                 message_id: str = "<m1@a.example.cn>") -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "office@union.example.cn"
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    msg.set_content("附件是我们的报名表。")
    if attachment is not None:
        msg.add_attachment(attachment, maintype="application",
                           subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename=name)
    return msg.as_bytes()


# -- a tiny tournament and its state -------------------------------------------------------

SPEC = {
    "id": "t-mail",
    "name": "测试棋牌赛",
    "organizer": "校工会",
    "units": [
        {"id": "u1", "name": "行政第一分工会", "emails": ["Cap1@A.example.cn"]},
        {"id": "u2", "name": "行政第二分工会", "emails": ["cap2@b.example.cn", "deputy2@b.example.cn"]},
        {"id": "u3", "name": "后勤分工会", "emails": []},
    ],
    "events": [
        {"id": "xiangqi", "name": "象棋", "game": "xiangqi", "format": {"type": "round_robin"}},
        {"id": "bridge", "name": "桥牌", "game": "bridge", "team_size": 2, "format": {"type": "round_robin"}},
    ],
}

STRANGER = "stranger@evil.example.com"


def person(name: str, branch: str) -> Person:
    return Person(name=name, branch=branch, display_name=name)


def make_tournament(tmp_path: Path) -> Tournament:
    return Tournament(tmp_path / "t-mail", validated(TournamentSpec, SPEC), b"0123456789abcdef0123")


@dataclass
class World:
    state: LeagueState
    out: Path
    ledger: Ledger


def sha(c: str) -> str:
    return c * 64


@pytest.fixture
def world(tmp_path):
    """A state with five submissions:

    a  u1 current, from u1's registered address, no errors  → accepted, to cap1
    b  u2 current, valid token but mailed by a stranger, 1 error → both u2 addresses, never the stranger
    c  rejected (WRONG_BRANCH, claims u1), mailed by the stranger → nobody
    d  unreadable, mailed by u2's deputy → the deputy only
    e  u3 current (no registered address) → nobody
    """
    t = make_tournament(tmp_path)
    out = tmp_path / "out" / "t-mail"
    ledger = Ledger(out)
    at = NOW - dt.timedelta(days=3)
    subs = [
        Submission(sha("a"), "一分会报名表.xlsx", "u1", at, "cap1@a.example.cn", "current"),
        Submission(sha("b"), "二分会.xlsx", "u2", at, STRANGER, "current",
                   returned_path="returned/u2-二分会-bbbbbbbb-返回.xlsx"),
        Submission(sha("c"), "偷来的.xlsx", "u1", at, STRANGER, "rejected",
                   returned_path="returned/u1-偷来的-cccccccc-返回.xlsx"),
        Submission(sha("d"), "坏文件.xlsx", "", at, "deputy2@b.example.cn", "unreadable"),
        Submission(sha("e"), "后勤.xlsx", "u3", at, "", "current"),
    ]
    (out / "returned").mkdir(parents=True, exist_ok=True)
    (out / "returned" / "u2-二分会-bbbbbbbb-返回.xlsx").write_bytes(b"PK annotated workbook of u2")
    (out / "returned" / "u1-偷来的-cccccccc-返回.xlsx").write_bytes(b"PK stranger data")
    entries = [
        Entry("xiangqi:u1:zhang", "xiangqi", "u1", "张三", (person("张三", "u1"),)),
        Entry("xiangqi:u1:li", "xiangqi", "u1", "李四", (person("李四", "u1"),)),
        Entry("bridge:u1:1", "bridge", "u1", "行政一1", (person("张三", "u1"), person("王五", "u1")), "1"),
        Entry("xiangqi:u2:zhao", "xiangqi", "u2", "赵六", (person("赵六", "u2"),)),
        Entry("xiangqi:u3:qian", "xiangqi", "u3", "钱七", (person("钱七", "u3"),)),
    ]
    issues = [
        issue("QUOTA_EXCEEDED", "象棋 “孙八” 超出名额：本分工会已报 3 人，限 2 人，请删去一人。",
              at=CellRef("二分会.xlsx", "报名表", "E12"), branch="u2"),
        issue("SENDER_UNKNOWN", f"《二分会.xlsx》由 {STRANGER} 发送，不是登记的邮箱。",
              at=CellRef("二分会.xlsx"), branch="u2"),
        issue("WRONG_BRANCH", "报名表的校验码与分工会“行政第一分工会”不符。", at=CellRef("偷来的.xlsx"), branch="u1"),
        issue("UNREADABLE_FILE", "文件《坏文件.xlsx》无法读取：不是有效的 Excel 文件。", at=CellRef("坏文件.xlsx")),
    ]
    state = LeagueState(tournament=t, now=NOW, updated=at, submissions=subs, entries=entries, issues=issues,
                        events={}, awards=[])
    # the ledger knows that workbook a came in a mail with a Message-ID
    mail = captain_mail("cap1@a.example.cn", "报名", b"PK a", message_id="<reg-u1@a.example.cn>")
    mail_sha, _ = ledger.store_blob(mail, ".eml")
    ledger.record(Received(mail_sha, ".eml", "m.eml", at, "cap1@a.example.cn", "m.eml", kind="mail"))
    ledger.record(Received(sha("a"), ".xlsx", "一分会报名表.xlsx", at, "cap1@a.example.cn", "m.eml", parent=mail_sha))
    yield World(state, out, ledger)
    ledger.close()
