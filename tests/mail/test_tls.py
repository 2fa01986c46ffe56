"""Mail over TLS: imaps://, smtps:// and ?starttls=1 against loopback servers whose
certificates come from a throwaway CA (trustme).  The client always verifies: the CA is
trusted only through LEAGUE_MAIL_CAFILE or the ``cafile`` argument, and an unverifiable
certificate is refused with a Chinese message."""
from __future__ import annotations

import imaplib
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trustme
from aiosmtpd.controller import Controller

from pipeline.mail import MailError, fetch_into, send_receipts
from pipeline.mail.common import CAFILE_ENV, tls_context
from pipeline.mail.receipts import Receipt
from pipeline.store import Ledger

from .conftest import IMAP_PASSWORD, IMAP_USER, NOW, CapturingHandler, ImapServer, captain_mail, free_port

SENDER = "office%40union.example.cn"


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A throwaway CA, a server certificate for 127.0.0.1/localhost, and a second CA that
    signed nothing here (to show that trusting the wrong CA does not help)."""
    d = tmp_path_factory.mktemp("pki")
    ca = trustme.CA()
    server = ca.issue_cert("127.0.0.1", "localhost")
    other_host = ca.issue_cert("mail.example.cn")          # valid, but for another host name
    ca.cert_pem.write_to_path(d / "ca.pem")
    trustme.CA().cert_pem.write_to_path(d / "other-ca.pem")
    for name, cert in (("server", server), ("wronghost", other_host)):
        cert.private_key_pem.write_to_path(d / f"{name}.key")
        cert.cert_chain_pems[0].write_to_path(d / f"{name}.crt")
        for extra in cert.cert_chain_pems[1:]:
            extra.write_to_path(d / f"{name}.crt", append=True)
    return d


@pytest.fixture
def no_cafile_env(monkeypatch):
    monkeypatch.delenv(CAFILE_ENV, raising=False)


def server_context(pki: Path, name: str = "server") -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(pki / f"{name}.crt", pki / f"{name}.key")
    return ctx


@pytest.fixture
def ledger(tmp_path):
    with Ledger(tmp_path / "out" / "t") as led:
        yield led


# -- IMAP ----------------------------------------------------------------------------------

class TlsImapServer(ImapServer):
    """pymap on loopback, spoken to over TLS by the test's own helper client."""

    def __init__(self, proc: subprocess.Popen, port: int, scheme: str, cafile: Path) -> None:
        super().__init__(proc, port)
        self.scheme, self.cafile = scheme, cafile

    def url(self, folder: str = "INBOX") -> str:
        if self.scheme == "imaps":
            return f"imaps://{IMAP_USER}@127.0.0.1:{self.port}/{folder}"
        return f"imap://{IMAP_USER}@127.0.0.1:{self.port}/{folder}?starttls=1"

    def client(self) -> imaplib.IMAP4:
        ctx = ssl.create_default_context(cafile=str(self.cafile))
        if self.scheme == "imaps":
            c: imaplib.IMAP4 = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ctx, timeout=10)
        else:
            c = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
            c.starttls(ssl_context=ctx)
        c.login(IMAP_USER, IMAP_PASSWORD)
        return c


# pymap offers STARTTLS itself; for implicit TLS (imaps) its listening socket is given the
# SSL context by wrapping asyncio.start_server for the IMAP port only.
_IMAPS_BOOT = """
import asyncio, ssl, sys
from pymap.main import main
cert, key, port = sys.argv.pop(1), sys.argv.pop(1), sys.argv.pop(1)
ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)
_start_server = asyncio.start_server
async def start_server(cb, *args, **kw):
    if str(kw.get("port")) == port:
        kw["ssl"] = ctx
    return await _start_server(cb, *args, **kw)
asyncio.start_server = start_server
sys.argv[0] = "pymap"
sys.exit(main())
"""
_STARTTLS_BOOT = "import sys; from pymap.main import main; sys.argv[0] = 'pymap'; sys.exit(main())"


def _start_pymap(pki: Path, scheme: str, cert: str = "server") -> TlsImapServer:
    port = free_port()
    crt, key = str(pki / f"{cert}.crt"), str(pki / f"{cert}.key")
    common = ["--host", "127.0.0.1", "--port", str(port)]
    backend = ["dict", "--demo-user", IMAP_USER, "--demo-password", IMAP_PASSWORD]
    if scheme == "imaps":
        argv = [sys.executable, "-c", _IMAPS_BOOT, crt, key, str(port), *common, "--no-tls", *backend]
    else:
        argv = [sys.executable, "-c", _STARTTLS_BOOT, *common, "--cert", crt, "--key", key, *backend]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = TlsImapServer(proc, port, scheme, pki / "ca.pem")
    deadline = time.monotonic() + 20
    while True:
        try:
            if cert == "server":
                server.client().logout()
            else:       # its certificate names another host: wait for the port only
                import socket
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except (OSError, imaplib.IMAP4.error):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("pymap did not start: " + proc.stderr.read().decode(errors="replace")[-2000:])
            time.sleep(0.1)


def _stop(server: TlsImapServer) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait()


@pytest.fixture
def imaps_server(pki):
    server = _start_pymap(pki, "imaps")
    yield server
    _stop(server)


@pytest.fixture
def starttls_imap_server(pki):
    server = _start_pymap(pki, "starttls")
    yield server
    _stop(server)


def test_imaps_fetch_with_ca_from_env(imaps_server, pki, tmp_path, ledger, monkeypatch):
    raw = captain_mail("cap1@a.example.cn", "报名", b"PK over tls")
    imaps_server.append(raw)
    monkeypatch.setenv(CAFILE_ENV, str(pki / "ca.pem"))
    inbox = tmp_path / "inbox"
    assert fetch_into(imaps_server.url(), inbox, ledger, password=IMAP_PASSWORD, timeout=10) == 1
    [got] = (inbox / "mail").glob("*.eml")
    assert got.read_bytes() == raw.replace(b"\n", b"\r\n")
    assert all(r"\Seen" in f for f in imaps_server.flags().values())


def test_imaps_untrusted_certificate_is_refused(imaps_server, pki, tmp_path, ledger, no_cafile_env):
    imaps_server.append(captain_mail("cap1@a.example.cn", "报名", b"PK secret"))
    inbox = tmp_path / "inbox"
    # the system CAs alone do not know the throwaway CA …
    with pytest.raises(MailError) as e:
        fetch_into(imaps_server.url(), inbox, ledger, password=IMAP_PASSWORD, timeout=10)
    msg = str(e.value)
    assert f"127.0.0.1:{imaps_server.port} 的证书无法验证" in msg
    assert "已拒绝连接" in msg and CAFILE_ENV in msg
    # … nor does trusting a different CA
    with pytest.raises(MailError, match="的证书无法验证"):
        fetch_into(imaps_server.url(), inbox, ledger, password=IMAP_PASSWORD, timeout=10,
                   cafile=pki / "other-ca.pem")
    assert not (inbox / "mail").exists()                          # nothing was fetched
    assert not any(r"\Seen" in f for f in imaps_server.flags().values())


def test_imaps_certificate_for_another_host_is_refused(pki, tmp_path, ledger, no_cafile_env):
    server = _start_pymap(pki, "imaps", cert="wronghost")
    try:
        with pytest.raises(MailError, match="的证书无法验证.*主机名"):
            fetch_into(server.url(), tmp_path / "inbox", ledger, password=IMAP_PASSWORD, timeout=10,
                       cafile=pki / "ca.pem")
    finally:
        _stop(server)


def test_imap_starttls_verifies_before_login(starttls_imap_server, pki, tmp_path, ledger, no_cafile_env):
    raw = captain_mail("cap2@b.example.cn", "报名", b"PK starttls")
    starttls_imap_server.append(raw)
    inbox = tmp_path / "inbox"
    # STARTTLS with an untrusted certificate is refused before the password is sent
    with pytest.raises(MailError, match="的证书无法验证"):
        fetch_into(starttls_imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, timeout=10)
    assert fetch_into(starttls_imap_server.url(), inbox, ledger, password=IMAP_PASSWORD, timeout=10,
                      cafile=pki / "ca.pem") == 1
    [got] = (inbox / "mail").glob("*.eml")
    assert got.read_bytes() == raw.replace(b"\n", b"\r\n")


def test_missing_or_bad_cafile_is_a_mail_error(tmp_path, ledger, monkeypatch):
    monkeypatch.setenv(CAFILE_ENV, str(tmp_path / "nope.pem"))
    with pytest.raises(MailError, match=f"找不到 CA 证书文件.*nope.pem.*{CAFILE_ENV}"):
        fetch_into("imaps://office@127.0.0.1:1/INBOX", tmp_path / "inbox", ledger, password="x", timeout=1)
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate")
    with pytest.raises(MailError, match="无法读取 CA 证书文件.*PEM"):
        tls_context(bad)
    monkeypatch.delenv(CAFILE_ENV)
    assert tls_context().check_hostname and tls_context().verify_mode == ssl.CERT_REQUIRED


# -- SMTP ----------------------------------------------------------------------------------

def _receipt(tag: str) -> Receipt:
    return Receipt(tag * 64, "u1", ("cap1@a.example.cn",), f"【报名回执】{tag}", "已接受。", "accepted")


@pytest.fixture
def smtps_server(pki):
    handler = CapturingHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=10,
                            ssl_context=server_context(pki))
    controller.start()
    yield port, handler
    controller.stop()


@pytest.fixture
def starttls_smtp_server(pki):
    handler = CapturingHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=10,
                            tls_context=server_context(pki), require_starttls=True)
    controller.start()
    yield port, handler
    controller.stop()


def test_smtps_sends_with_ca_from_env(smtps_server, pki, ledger, monkeypatch):
    port, handler = smtps_server
    monkeypatch.setenv(CAFILE_ENV, str(pki / "ca.pem"))
    report = send_receipts(f"smtps://{SENDER}@127.0.0.1:{port}", [_receipt("a")], ledger, now=NOW, timeout=10)
    assert report.sent == ["a" * 64] and not report.failed
    assert [m.rcpt_tos for m in handler.messages] == [["cap1@a.example.cn"]]


def test_smtps_untrusted_certificate_is_refused_and_retried(smtps_server, pki, ledger, no_cafile_env):
    port, handler = smtps_server
    url = f"smtps://{SENDER}@127.0.0.1:{port}"
    report = send_receipts(url, [_receipt("a"), _receipt("b")], ledger, now=NOW, timeout=10)
    assert report.sent == [] and len(report.failed) == 2
    error = report.failed[0][1]
    assert f"127.0.0.1:{port} 的证书无法验证" in error and "已拒绝连接" in error and CAFILE_ENV in error
    row = ledger.conn.execute("SELECT status, error FROM receipts WHERE sha256=?", ("a" * 64,)).fetchone()
    assert row == ("failed", error)
    assert handler.messages == []
    # with the right CA the next run sends both
    report = send_receipts(url, [_receipt("a"), _receipt("b")], ledger, now=NOW, timeout=10, cafile=pki / "ca.pem")
    assert sorted(report.sent) == ["a" * 64, "b" * 64]
    assert len(handler.messages) == 2


def test_smtp_starttls(starttls_smtp_server, pki, ledger, no_cafile_env):
    port, handler = starttls_smtp_server
    # the server requires STARTTLS: a plain session cannot send
    plain = send_receipts(f"smtp://{SENDER}@127.0.0.1:{port}", [_receipt("a")], ledger, now=NOW, timeout=10)
    assert plain.sent == [] and plain.failed
    # STARTTLS against an untrusted certificate is refused with the Chinese explanation
    url = f"smtp://{SENDER}@127.0.0.1:{port}?starttls=1"
    refused = send_receipts(url, [_receipt("a")], ledger, now=NOW, timeout=10)
    assert refused.sent == [] and "的证书无法验证" in refused.failed[0][1]
    assert handler.messages == []
    ok = send_receipts(url, [_receipt("a")], ledger, now=NOW, timeout=10, cafile=pki / "ca.pem")
    assert ok.sent == ["a" * 64]
    assert len(handler.messages) == 1


def test_smtp_bad_cafile_is_a_mail_error(ledger, monkeypatch, tmp_path):
    monkeypatch.setenv(CAFILE_ENV, str(tmp_path / "missing-ca.pem"))
    with pytest.raises(MailError, match="找不到 CA 证书文件"):
        send_receipts(f"smtps://{SENDER}@127.0.0.1:1", [_receipt("a")], ledger, now=NOW, timeout=1)
    # plain SMTP needs no CA file and is not affected by a wrong one
    report = send_receipts(f"smtp://{SENDER}@127.0.0.1:{free_port()}", [_receipt("a")], ledger, now=NOW, timeout=1)
    assert report.failed and "证书" not in report.failed[0][1]
