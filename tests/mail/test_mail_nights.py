"""A night's mail — fetched (--imap) or sent (--smtp) — is said by that night's summary,
and only by it: the run kept its mail error in the summary it saved, and every later
unchanged night printed the first night's error (never its own), each exiting 0.  A
night whose mail could not be fetched, or whose receipts could not be sent, exits 1
(a cron job saw healthy nights while no mail arrived).  An address that cannot work is
said before the run, exit 2, in Chinese: ``imaps://[x`` was a ValueError traceback, and
``--smtp smtp://host:25`` (the help's own example) was refused only after the whole run."""
from __future__ import annotations

import re

import pytest

from pipeline.mail import MailError, check_urls
from pipeline.mail.common import parse_mail_url
from tests.hardening.common import copy_sample, league, run_args

from .conftest import free_port

NO_PASSWORD = {"LEAGUE_IMAP_PASSWORD": "", "LEAGUE_IMAP_PASSWORD_FILE": "", "LEAGUE_SMTP_FROM": "",
               "LEAGUE_SMTP_PASSWORD": "", "LEAGUE_SMTP_PASSWORD_FILE": ""}


def test_each_night_says_its_own_mail_error_and_exits_1(tmp_path):
    folder = copy_sample("t2011-court", tmp_path)
    out = tmp_path / "out"
    closed = free_port()
    r = league(*run_args(folder, out, "--imap", f"imaps://u@127.0.0.1:{closed}/INBOX"),
               env={**NO_PASSWORD, "LEAGUE_IMAP_PASSWORD": "pw"})
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"本次未能收取邮件：无法连接收件服务器 127.0.0.1:{closed}" in r.stdout
    r = league(*run_args(folder, out, "--imap", f"imaps://u@127.0.0.1:{closed}/INBOX"), env=NO_PASSWORD)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "没有收件邮箱 u@127.0.0.1 的密码" in r.stdout
    assert "无法连接" not in r.stdout                      # not the last night's error
    for _ in range(2):                                      # the full check, then the quick one
        r = league(*run_args(folder, out), env=NO_PASSWORD)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "邮件" not in r.stdout and "密码" not in r.stdout, r.stdout


def test_a_bad_imap_address_is_said_before_the_run(tmp_path):
    folder = copy_sample("t2011-court", tmp_path)
    out = tmp_path / "out"
    for url, said in [("imaps//mail.x.cn", "协议应为 imap:// 或 imaps://"),
                      ("imaps://[x", "无法识别"),
                      ("imaps://mail.x.cn/INBOX", "缺少用户名")]:
        r = league(*run_args(folder, out, "--imap", url), env=NO_PASSWORD)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "Traceback" not in r.stderr and "--imap" in r.stderr and said in r.stderr, r.stderr
        assert not (out / "t2011-court").exists()           # said before anything was run


def test_smtp_sender_checked_before_the_run_and_failures_exit_1(tmp_path):
    folder = copy_sample("t2011-court", tmp_path)
    out = tmp_path / "out"
    port = free_port()
    r = league(*run_args(folder, out, "--smtp", f"smtp://127.0.0.1:{port}"), env=NO_PASSWORD)
    assert r.returncode == 2 and "--smtp" in r.stderr and "发件地址" in r.stderr, r.stderr
    assert not (out / "t2011-court").exists()
    r = league(*run_args(folder, out, "--smtp", "smtp://[x"), env=NO_PASSWORD)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "smtps://" in r.stderr, r.stderr
    r = league(*run_args(folder, out, "--smtp", f"smtp://office%40x.cn@127.0.0.1:{port}"), env=NO_PASSWORD)
    assert r.returncode == 1, r.stdout + r.stderr
    assert re.search(rf"回执：发出 0 封，失败 \d+ 封（无法连接发件服务器 127.0.0.1:{port}", r.stdout), r.stdout
    r = league(*run_args(folder, out), env=NO_PASSWORD)
    assert r.returncode == 0 and "回执" not in r.stdout, r.stdout


def test_url_errors_in_chinese_with_their_own_protocols_example():
    with pytest.raises(MailError, match="无法识别"):
        parse_mail_url("imaps://[x", {"imap": 143, "imaps": 993})
    with pytest.raises(MailError) as e:
        parse_mail_url("imaps://office@x.cn", {"smtp": 25, "smtps": 465})
    assert "smtps://" in str(e.value) and "INBOX" not in str(e.value)


def test_the_help_example_of_smtp_works(monkeypatch):
    from pipeline.cli import run_cmd

    monkeypatch.delenv("LEAGUE_SMTP_FROM", raising=False)
    (option,) = [p for p in run_cmd.params if p.name == "smtp_url"]
    example = re.search(r"smtps?://\S+?(?=（|\s|$)", option.help).group(0)
    check_urls(None, example)               # raises on an address the receipts cannot be sent from
