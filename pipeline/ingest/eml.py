"""Reading ``.eml`` files from the inbox: received time, sender and ``.xlsx`` attachments.

The ``Date`` header is the received time of every attachment (contract: received time of a
workbook is its e-mail's ``Date``).  Attachment file names are decoded (RFC 2231 / RFC 2047,
GBK mail clients included) and stripped of any path: ``../../x.xlsx`` → ``x.xlsx``.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
import email.utils
import re
from dataclasses import dataclass, field
from email.header import decode_header, make_header
from pathlib import Path
from typing import Iterable, Iterator

from ..text import cn_numeral


WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xltx", ".csv")


@dataclass(frozen=True)
class Attachment:
    filename: str        # safe display name, no path components
    data: bytes
    #: for a workbook inside a forwarded message (message/rfc822, "转发为附件") that was sent to
    #: the office (:func:`_sent_to_office`): that message's own Date and sender — the captain's
    #: mail, not the forward (None / "" otherwise: a mail sent elsewhere counts at the forward)
    date: dt.datetime | None = None
    sender: str = ""
    #: … and that message's newest readable Received header's time, and what is wrong with its
    #: Date (as :attr:`Mail.problems`): the runner checks that Date as a direct mail's
    #: (MAIL_DATE; pipeline.run._forwarded_time) — it was trusted unchecked
    received: dt.datetime | None = None
    problems: tuple[str, ...] = ()

    @property
    def forwarded(self) -> bool:
        """Whether it came inside a forwarded message (转发为附件): that message's time counts."""
        return self.date is not None or bool(self.sender)


@dataclass(frozen=True)
class Mail:
    """One parsed message.  ``date`` is aware (UTC+8 when the header had no zone, UTC for
    "-0000") or None."""

    path: str
    date: dt.datetime | None
    sender: str                      # address only, lower case
    subject: str
    attachments: tuple[Attachment, ...] = ()
    problems: tuple[str, ...] = field(default=())   # Chinese notes (bad Date header …)
    skipped: tuple[str, ...] = field(default=())    # attachments that are no workbook (.et, .zip, .pdf …)
    #: sent by a program, not a person (:func:`is_automatic`): an out-of-office reply, a
    #: mailing list's copy — or a reply to one of our receipts (:func:`answers_receipt`: a
    #: captain's 收到，谢谢) — never answered with a receipt (no reply loops)
    automatic: bool = False
    #: what the mail is when it is not a captain's (:func:`returned_kind`): "bounce" — a
    #: mail server's delivery-failure report (退信) —, "delayed" / "notice" — a server's
    #: report that is no failure (still retrying; delivered, or a read receipt) —, "auto" — another program's mail
    #: (``Auto-Submitted``: an out-of-office reply) — or "ours" — a receipt we sent
    #: ourselves, come back into the inbox; "" for any other.  Nothing in such a mail is
    #: taken as a form (a bounced receipt carries our own marked-up copy)
    returned: str = ""
    #: the workbooks in it that were not taken, by name (a bounce's, our receipt's marked-up
    #: copy — also when our receipt is forwarded inside a captain's mail)
    set_aside: tuple[str, ...] = field(default=())
    #: for a bounce (a delay notice): the addresses it says could not be reached (yet) (its delivery-status
    #: report's Final-Recipient, X-Failed-Recipients, else the returned message's To), and why
    bounced_to: tuple[str, ...] = field(default=())
    bounce_reason: str = ""
    #: the subject of the mail of ours a bounce returned ("" when it holds none)
    bounced_subject: str = ""
    #: a reply to one of our receipts (:func:`answers_receipt`)
    replies_receipt: bool = False
    #: sent by a program (:func:`is_automatic`: an out-of-office reply …), not a person
    auto_reply: bool = False
    #: its Message-ID header ("" without one): one mail saved twice (fetched by --imap and
    #: saved by hand, a Received line apart) is one mail
    message_id: str = ""
    #: the cloud drives (百度网盘 …) or 超大附件 its body links to (:func:`cloud_links`): the
    #: form is behind the link, which nothing here downloads
    links: tuple[str, ...] = ()
    #: the time in its newest readable ``Received`` header (the office's own mail server),
    #: or None: the time of receipt when the Date cannot be right (pipeline.run._receipt_time)
    received: dt.datetime | None = None

    @property
    def has_attachment(self) -> bool:
        return bool(self.attachments)


def safe_filename(name: str) -> str:
    """Strip path components and control characters from an attachment name.

    >>> safe_filename("../../x.xlsx"), safe_filename("C:\\\\tmp\\\\报名表.xlsx")
    ('x.xlsx', '报名表.xlsx')
    """
    name = name.replace("\\", "/").split("/")[-1]
    name = re.sub(r"[\x00-\x1f\x7f]", "", name).strip().lstrip(".")
    return name or "attachment.xlsx"


def _decode(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    if "=?" in text:
        try:
            return str(make_header(decode_header(text)))
        except Exception:
            return text
    return text


#: charset labels in encoded-words (=?gb2312?B?…?=), RFC 2231 values (*=gbk'') and charset=
#: parameters whose text is read with the label's superset: mail clients label GBK text
#: gb2312 (王喆 and 张堃 came out 王�遥� / 张��) and Big5-HKSCS text big5 — as the WHATWG
#: encoding standard, and every browser, reads them
_NARROW_LABEL = re.compile(rb"(=\?|\*=|charset=\"?)(gb2312|gbk|x-gbk|cp936|euc-cn|csgb2312|big5|x-big5|cn-big5)(?=[?'\";\s]|$)",
                           re.I | re.M)
_WIDER = {b"big5": b"big5hkscs", b"x-big5": b"big5hkscs", b"cn-big5": b"big5hkscs"}


def _widen_charsets(data: bytes) -> bytes:
    """``data`` with every GB2312/GBK label made GB18030 and every Big5 label Big5-HKSCS (the
    bytes of a text in the narrower set mean the same in the wider one)."""
    return _NARROW_LABEL.sub(lambda m: m[1] + _WIDER.get(m[2].lower(), b"gb18030"), data)


def parse_eml(path: str | Path) -> Mail:
    """Parse an .eml file; never raises for odd headers (problems are listed in ``Mail.problems``)."""
    return parse_eml_bytes(Path(path).read_bytes(), str(path))


def parse_eml_bytes(data: bytes, path: str = "", office: Iterable[str] = ()) -> Mail:
    """Parse a message from bytes.  See :func:`parse_eml`.  ``office``: the office's own
    addresses besides the ones the mail was delivered to (tournament.yaml's ``submit_to``):
    a forwarded mail's time counts only when it was sent to one of them (:func:`_sent_to_office`)."""
    if data.startswith(b"\xef\xbb\xbf"):     # a UTF-8 BOM (a mail saved by a Windows editor): no header otherwise
        data = data[3:]
    msg = email.message_from_bytes(_widen_charsets(data), policy=email.policy.default)
    date, problems = _date_of(msg)
    sender = sender_of(msg)
    subject = _header(msg, "Subject")
    atts: list[Attachment] = []
    skipped: list[str] = []
    set_aside: list[str] = []
    returned = returned_kind(msg)
    cids = _cids_in_html(msg)
    to_office = frozenset(_addresses(msg, "To", "Delivered-To", "X-Original-To")
                          + [a.strip().lower() for a in office if "@" in a])
    for part, (when, who, got, wrong), kept in _leaves(msg, _NO_ORIGIN, not returned, to_office):
        if part.get_content_maintype() == "image" and _content_id(part) in cids:
            # a picture the HTML body shows (cid:): an Outlook/Foxmail signature's image001.png
            # is part of the body — the mail of a captain who forgot the workbook was said to
            # carry a picture of a table
            continue
        try:
            fname = part.get_filename()
        except Exception:
            fname = None
        fname = _decode(fname) if fname else ""
        if not fname or "\ufffd" in fname:
            # a GBK name split inside a character across two encoded-words or RFC 2231
            # continuations, or an encoded-word left unquoted: decoded piece by piece it
            # came out garbled (行政第�环止せ岜�名表) or not at all
            fname = _joined_name(part) or fname
        if not fname:
            # a workbook attached without a file name (some phone mail apps) is still one
            if part.get_content_maintype() in ("text", "message") or not _is_xlsx(_payload(part)):
                continue
            fname = "附件.xlsx"
        if "\ufffd" in fname:            # raw 8-bit (GBK) bytes in the header, not RFC 2047/2231
            fname = _raw_8bit_name(part, fname)
        if _garbled(fname):
            # RFC 2231 continuations split inside a %XX escape (…%B + 6%FE…): joined as text
            # first; what still reads garbled is no name to show (行政第%B6止せ� reached the
            # returned copy's file name): a plain one, its extension kept
            fname = _continued_name(part) or fname
            if _garbled(fname):
                suffix = Path(fname).suffix.lower()
                fname = "附件" + (suffix if suffix.isascii() and re.fullmatch(r"\.[a-z0-9]{1,5}", suffix) else "")
        fname = safe_filename(fname)
        payload = _payload(part)
        # every workbook-like attachment is kept: the runner explains a .xls/.csv (UNREADABLE_FILE)
        # instead of reporting the mail as having no attachment; a workbook whose name lost its
        # .xlsx is taken as one, anything else is listed (the mail's note names it)
        if not fname.lower().endswith(WORKBOOK_SUFFIXES):
            if not _is_xlsx(payload):
                skipped.append(fname)
                continue
            fname += ".xlsx"
        if not kept:            # a bounce's, or our own receipt's: never a submission
            set_aside.append(fname)
            continue
        atts.append(Attachment(fname, payload, when, who, got, wrong))
    bounced_to, reason, inner_subject = (_bounce_details(msg) if returned in ("bounce", "delayed", "notice")
                                         else ((), "", ""))
    replies = answers_receipt(msg)
    auto = is_automatic(msg, subject)
    return Mail(path=path, date=date, sender=sender, subject=subject,
                attachments=tuple(atts), problems=tuple(problems), skipped=tuple(skipped),
                automatic=bool(returned) or auto or replies, auto_reply=auto,
                returned=returned, set_aside=tuple(set_aside), bounced_to=bounced_to,
                bounce_reason=reason, bounced_subject=inner_subject, replies_receipt=replies,
                message_id=_header(msg, "Message-ID").strip("<> "), links=cloud_links(msg),
                received=_received_date(msg))


def sender_of(msg: email.message.Message) -> str:
    """The address a message's ``From`` names, lower case: the first one with an "@" —
    ``Li, Jia <jcjxbfgh@…>`` (a comma in a display name left unquoted) is two mailboxes to
    a parser, "Li" and the address, and the captain was taken for a stranger "li" — read
    from the header as parsed (encoded-words decoded only after the commas are split), else
    from its decoded text; without one, what the header reads as (maybe "")."""
    found: list[str] = []
    try:
        found = [a.addr_spec for a in getattr(msg.get("From"), "addresses", ())]
    except Exception:  # noqa: BLE001 - a header the parser cannot read: its text below
        found = []
    text = _header(msg, "From")
    found += [addr for _, addr in email.utils.getaddresses([text])]
    addr = next((a for a in found if "@" in a.strip("@") and not re.search("[\udc80-\udcff]", a)), "")
    return (addr or email.utils.parseaddr(text)[1]).strip().lower()


_CID = re.compile(r"""cid:([^"'\s>)]+)""", re.I)


#: links to a cloud drive or a mail service's 超大附件 (a file kept on its server), by what
#: a captain calls it (by address, and the words QQ/163 write beside one: not words a
#: captain's reply may quote from our receipt)
_CLOUD = (
    (re.compile(r"pan\.baidu\.com|yun\.baidu\.com", re.I), "百度网盘"),
    (re.compile(r"share\.weiyun\.com|weiyun\.com/", re.I), "腾讯微云"),
    (re.compile(r"(?:mail|exmail|wx\.mail)\.qq\.com/\S*ftn|ftn\.qq\.com|QQ邮箱发来的超大附件", re.I), "QQ 邮箱超大附件"),
    (re.compile(r"dfs\.mail\.163\.com|fs\.mail\.163\.com|mail\.163\.com/\S*(?:large|bigatt)|网易邮箱发来的超大附件", re.I),
     "网易邮箱超大附件"),
    (re.compile(r"drive\.weixin\.qq\.com|doc\.weixin\.qq\.com", re.I), "企业微信微盘"),
    (re.compile(r"aliyundrive\.com|alipan\.com|pan\.quark\.cn|lanzou\w*\.com|lanzn\.com", re.I), "网盘"),
)


def cloud_links(msg: email.message.Message) -> tuple[str, ...]:
    """The cloud drives and 超大附件 the message's text links to, once each, as captains call
    them: the form is on a server, and the mail was said only to have no attachment.

    >>> cloud_links(email.message_from_string("Content-Type: text/plain\\n\\n链接: https://pan.baidu.com/s/1Ab 提取码: 8k3d"))
    ('百度网盘',)
    """
    found: list[str] = []
    for text in _bodies(msg, ("text/plain", "text/html")):
        for pattern, what in _CLOUD:
            if what not in found and pattern.search(text):
                found.append(what)
    return tuple(found)


def _bodies(msg: email.message.Message, types: tuple[str, ...]) -> Iterator[str]:
    """The text of each body part of the message of one of ``types`` (not one attached as a file)."""
    for part in msg.walk():
        if part.get_content_type() not in types or part.get_filename():
            continue
        try:
            yield str(part.get_content())
        except Exception:  # noqa: BLE001 - an unknown charset: its bytes as far as they read
            yield _payload(part).decode("utf-8", "replace")


def _cids_in_html(msg: email.message.Message) -> set[str]:
    """The Content-IDs the message's HTML bodies refer to (``<img src="cid:…">``)."""
    from urllib.parse import unquote

    return {unquote(m[1]).strip("<>").lower() for html in _bodies(msg, ("text/html",)) for m in _CID.finditer(html)}


def _content_id(part: email.message.Message) -> str:
    """A part's Content-ID without its angle brackets, lower case ("" without one)."""
    return _header(part, "Content-ID").strip().strip("<>").lower()


#: the subject an out-of-office reply starts with (QQ/163 邮箱, Foxmail, Outlook and Exchange
#: in Simplified and Traditional Chinese and in English), maybe in brackets (【自动回复】), for
#: responders that do not say so in a header.  The 自动回复 family and the English forms may
#: be followed by a space or the quoted subject's bracket; 休假, 不在办公室, OOO and Auto only
#: by a separator (":", "：", "-", a closing bracket) or nothing: 休假回来补交报名表 or
#: 不在办公室的队员名单 is a captain's subject (a captain's mail with a form in it is taken
#: whatever its subject says)
_AUTO_STRONG = (r"(?:休假中?)?自[动動](?:回[复覆復]|答[复覆復]|[应應]答|回[应應]|[响響][应應])"
                r"|auto(?:matic(?:ally)?)?[ -]?(?:repl(?:y|ied)|respon(?:se|der)|answer)"
                r"|out[ -]of[ -](?:the[ -])?office(?:[ -]auto[ -]?reply)?|away from (?:the )?office"
                r"|vacation[ -](?:reply|response|notice|message)")
_AUTO_WEAK = r"休假中?|不在(?:办公室|辦公室)|ooo|auto|abwesenheitsnotiz"
_AUTO_SUBJECT = re.compile(r"^\s*[【\[（(［〔]?\s*(?:"
                           rf"(?:{_AUTO_STRONG})(?=\s|[:：\-—–|】\]）)］〕,，【\[（(［〔]|$)"
                           rf"|(?:{_AUTO_WEAK})\s*(?=[:：\-—–|】\]）)］〕]|$))", re.I)


#: the Message-ID of a receipt we sent (pipeline.mail.smtp._message_id)
_RECEIPT_ID = re.compile(r"<receipt\.[0-9a-f]{32}@", re.I)


def is_our_receipt(msg: email.message.Message) -> bool:
    """Whether the message is one of our own receipts (its Message-ID is the one
    :func:`pipeline.mail.smtp._message_id` gives every mail the run sends).

    >>> is_our_receipt(email.message_from_string("Message-ID: <receipt.%s@x.cn>\\n\\n" % ("0" * 32)))
    True
    """
    return bool(_RECEIPT_ID.match(_header(msg, "Message-ID")))


#: the local part of the address a mail server sends its delivery-failure reports from
_MAILER = re.compile(r"^(?:mailer-daemon|mail-daemon|postmaster|mailerdaemon)@", re.I)


def is_bounce(msg: email.message.Message) -> bool:
    """Whether the message is a mail server's delivery-failure report (退信): RFC 3464's
    ``multipart/report``, or sent from ``MAILER-DAEMON`` or ``postmaster``.

    >>> is_bounce(email.message_from_string("From: MAILER-DAEMON@x.cn\\n\\n"))
    True
    """
    if msg.get_content_type() == "multipart/report":
        return True
    return bool(_MAILER.match(sender_of(msg)))


def is_from_program(msg: email.message.Message) -> bool:
    """Whether the message is a program's own mail — a bounce (:func:`is_bounce`), or a
    mail saying ``Auto-Submitted: auto-replied`` (RFC 3834: an out-of-office reply) —
    whose attachments are what it returns or answers, never a captain's submission.  (A
    mailing list's copy or an automatic-reply subject alone is :func:`is_automatic`, not
    this: a form in it still counts.)

    >>> is_from_program(email.message_from_string("Auto-Submitted: auto-replied\\n\\n"))
    True
    >>> is_from_program(email.message_from_string("From: a@x.cn\\nSubject: 自动回复：报名表\\n\\n"))
    False
    >>> is_from_program(email.message_from_string("Auto-Submitted: auto-forwarded\\n\\n"))
    False
    """
    if is_bounce(msg):
        return True
    # an answer (RFC 3834 "auto-replied": an out-of-office reply quoting our receipt back);
    # not "auto-generated" or "auto-forwarded": a mailbox that forwards the captains' mail to
    # the league's by a rule marks it so, and the forms in it are the captains' own
    return _auto_submitted(msg) == "auto-replied"


def _auto_submitted(msg: email.message.Message) -> str:
    """The message's ``Auto-Submitted`` keyword (RFC 3834), lower case; "" without one."""
    return _header(msg, "Auto-Submitted").split(";")[0].strip().lower()


def returned_kind(msg: email.message.Message) -> str:
    """What no attachment is taken from: "ours" for one of our own receipts, "bounce" for a
    delivery-failure report (:func:`is_bounce`), "delayed" or "notice" for a mail server's
    report that is no failure (:func:`report_kind`: still retrying; delivered, or read),
    "auto" for another program's mail (:func:`is_from_program`: ``Auto-Submitted``), else "".

    >>> returned_kind(email.message_from_string("From: postmaster@x.cn\\n\\n"))
    'bounce'
    """
    if is_our_receipt(msg):
        return "ours"
    if is_bounce(msg):
        return report_kind(msg)
    return "auto" if is_from_program(msg) else ""


#: a per-recipient ``Action`` of a delivery status report (RFC 3464 §2.3.3) that is no failure
_NOT_FAILED = frozenset({"delayed", "delivered", "relayed", "expanded"})
#: what a delay warning that is no RFC 3464 report says (Exim's "Warning: message … delayed",
#: Postfix's and Exchange's wording, Chinese mail services'): the server is still trying
_DELAY_TEXT = re.compile(r"THIS IS A WARNING ONLY|YOU DO NOT NEED TO RESEND|has not yet been delivered"
                         r"|will (?:be retried|continue (?:to try|trying))"
                         r"|延迟投递|延迟送达|投递延迟|仍在(?:尝试|重试)",
                         re.I)
_DELAY_SUBJECT = re.compile(r"^\s*(?:warning\b|delayed mail|delivery delay)|\(delay\)|\bdelayed\b|延迟|延遲", re.I)


def _dsn_blocks(msg: email.message.Message) -> list[tuple[str, str, str, str]]:
    """The per-recipient blocks of a delivery status report (``message/delivery-status``):
    (recipient, Action, Status, why), the first three lower case; [] for none."""
    blocks: list[tuple[str, str, str, str]] = []
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in part.get_payload() if part.is_multipart() else ():
            if not isinstance(block, email.message.Message):
                continue
            rcpt = next((_header(block, k) for k in ("Final-Recipient", "Original-Recipient") if _header(block, k)), "")
            if not rcpt and not _header(block, "Action"):
                continue            # the per-message block (Reporting-MTA, Arrival-Date)
            addr = rcpt.split(";", 1)[-1].strip().strip("<>").lower()
            status = _header(block, "Status").split()[0] if _header(block, "Status") else ""
            why = (_header(block, "Diagnostic-Code") or _header(block, "Status")).split(";", 1)[-1].strip()
            blocks.append((addr, _header(block, "Action").split()[0].lower() if _header(block, "Action") else "",
                           status.lower(), why))
    return blocks


def _failed(action: str, status: str) -> bool:
    """Whether a delivery status report's block says its recipient failed: ``Action: failed``,
    a permanent 5.x.x status, or no Action it knows."""
    return action not in _NOT_FAILED or status.startswith("5")


def report_kind(msg: email.message.Message) -> str:
    """What a mail server's report (:func:`is_bounce`) says: "bounce" when a recipient failed
    (``Action: failed``, a 5.x.x status; a report without a delivery status that is no delay
    warning — a bounce's text), "delayed" when the server is still retrying (``Action:
    delayed``, 4.x.x: "THIS IS A WARNING ONLY") — no bounce: ADDRESS_BOUNCED was said for a
    unit whose receipt then arrived —, "notice" for a report of delivery or a read receipt
    (``Action: delivered``/``relayed``, ``report-type=disposition-notification``)."""
    blocks = _dsn_blocks(msg)
    if blocks:
        if any(_failed(action, status) for _, action, status, _ in blocks):
            return "bounce"
        return "delayed" if any(action == "delayed" for _, action, _, _ in blocks) else "notice"
    if msg.get_content_type() == "multipart/report" and \
            str(msg.get_param("report-type", "")).lower() == "disposition-notification":
        return "notice"     # a read receipt (RFC 8098), no delivery report at all
    delay = _DELAY_SUBJECT.search(_header(msg, "Subject")) or any(
        _DELAY_TEXT.search(text[:4000]) for text in _bodies(msg, ("text/plain",)))
    return "delayed" if delay else "bounce"


def _bounce_details(msg: email.message.Message) -> tuple[tuple[str, ...], str, str]:
    """What a bounce says: the addresses it could not deliver to (its delivery-status
    report's Final-/Original-Recipient, X-Failed-Recipients, else the To of our receipt
    it returns), why (Diagnostic-Code, else Status), and the returned receipt's subject."""
    to: list[str] = []
    reason = ""
    subject = ""

    def add(addr: str) -> None:
        addr = addr.split(";", 1)[-1].strip().strip("<>").lower()
        if "@" in addr and addr not in to:
            to.append(addr)

    blocks = _dsn_blocks(msg)
    # a report on several recipients: the ones that failed (a delay for another is no bounce)
    failed = [b for b in blocks if _failed(b[1], b[2])] or blocks
    for addr, _, _, why in failed:
        add(addr)
        if why and not reason:
            reason = why
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype == "text/rfc822-headers" and not subject:
            # (a report returning only our mail's headers: its subject)
            try:
                inner = email.message_from_bytes(_payload(part), policy=email.policy.default)
                subject = _header(inner, "Subject")
            except Exception:  # noqa: BLE001 - headers that do not parse: no subject
                subject = ""
        elif ctype == "message/rfc822" and not subject:
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if isinstance(inner, email.message.Message):
                subject = _header(inner, "Subject")
                if not to and is_our_receipt(inner):
                    for _, addr in email.utils.getaddresses([_header(inner, "To")]):
                        add(addr)
    for _, addr in email.utils.getaddresses([_header(msg, "X-Failed-Recipients")]):
        add(addr)
    reason = re.sub(r"\s+", " ", reason)[:120]
    return tuple(to), reason, subject


def answers_receipt(msg: email.message.Message) -> bool:
    """Whether the mail replies to one of our receipts (its In-Reply-To or References names
    one): a captain's "收到，谢谢" to 【报名回执】…已接受 was answered with a receipt saying
    the mail had no workbook and to send the form again.

    >>> answers_receipt(email.message_from_string("In-Reply-To: <receipt.%s@x.cn>\\n\\n" % ("0" * 32)))
    True
    """
    return bool(_RECEIPT_ID.search(_header(msg, "In-Reply-To") + " " + _header(msg, "References")))


def is_automatic(msg: email.message.Message, subject: str = "") -> bool:
    """Whether a message was sent by a program rather than a person (RFC 3834 §2: an
    ``Auto-Submitted`` other than ``no``; ``Precedence: bulk/junk/list``; a mailing list's
    ``List-Id``; ``X-Autoreply``/``X-Autorespond``), or its subject says it is an automatic
    reply (“自动回复：…”).  An automatic reply to a receipt must not get a receipt back.

    >>> m = email.message_from_string("Auto-Submitted: auto-replied\\nSubject: x\\n\\n")
    >>> is_automatic(m), is_automatic(email.message_from_string("Subject: 报名表\\n\\n"))
    (True, False)
    """
    if _auto_submitted(msg) not in ("", "no"):
        return True
    if _header(msg, "Precedence").strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return True
    if _header(msg, "List-Id") or _header(msg, "X-Autorespond"):
        return True
    if _header(msg, "X-Autoreply").strip().lower() not in ("", "no"):
        return True
    return bool(_AUTO_SUBJECT.match(subject or _header(msg, "Subject")))


#: where a leaf part is from: the Date (as :func:`_date_of` reads it), sender, newest Received
#: time and Date problems of the forwarded message it is in — none outside any
_Origin = tuple[dt.datetime | None, str, dt.datetime | None, tuple[str, ...]]
_NO_ORIGIN: _Origin = (None, "", None, ())


def _origin_of(inner: email.message.Message, outer: _Origin, office: frozenset[str] = frozenset()) -> _Origin:
    """The origin (:data:`_Origin`) of the leaves of a forwarded message ``inner``: its own,
    when it has a Date or a sender and was sent to the office (:func:`_sent_to_office`); else
    ``outer``'s — no mail of its own, or one the office never got (a teammate's mail to the
    captain's own mailbox, forwarded after the deadline: the forward's time and sender count)."""
    when, problems = _date_of(inner)
    who = sender_of(inner)
    if not (when or who) or not _sent_to_office(inner, office):
        return outer
    return (when, who, _received_date(inner), tuple(problems))


def _sent_to_office(inner: email.message.Message, office: frozenset[str]) -> bool:
    """R2020-Q4 / MAIL_DATE: whether a forwarded message was addressed to the office — its To or
    Cc names one of ``office`` (the addresses the forward was delivered to, and the office's
    configured ``submit_to``).  Only then does its own time count: “按原邮件的时间” is for the
    office forwarding mail it received itself; a teammate's form mailed to the captain on 8 Nov
    and forwarded to the office on 10 Nov, after the deadline, was taken as on time, from the
    teammate (from an audit of mail intake).  A message naming no recipient, or a forward naming
    none of the office's, cannot be told: its own time counts, as before.

    >>> inner = email.message_from_string("From: a@x.cn\\nTo: Cap <cap@163.com>\\n\\nhi")
    >>> _sent_to_office(inner, frozenset({"office@u.cn"})), _sent_to_office(inner, frozenset({"cap@163.com"}))
    (False, True)
    """
    addressed = set(_addresses(inner, "To", "Cc"))
    return not addressed or not office or bool(addressed & office)


def _addresses(msg: email.message.Message, *names: str) -> list[str]:
    """The addresses (lower case, each with an "@") the headers ``names`` of ``msg`` hold."""
    texts = [v for n in names for v in _all_headers(msg, n)]
    return [addr.strip().lower() for _, addr in email.utils.getaddresses(texts) if "@" in addr]


def _all_headers(msg: email.message.Message, name: str) -> list[str]:
    """Every header ``name`` of ``msg`` as text (Delivered-To comes once per hop)."""
    try:
        return [_decode(v) for v in (msg.get_all(name) or [])]
    except Exception:  # noqa: BLE001 - an undecodable header: the first one as _header reads it
        return [_header(msg, name)]


def _leaves(msg: email.message.Message, origin: _Origin, kept: bool = True, office: frozenset[str] = frozenset()
            ) -> Iterator[tuple[email.message.Message, _Origin, bool]]:
    """The message's leaf parts, each with the Date, sender, Received time and Date problems of
    the forwarded message it is in (:data:`_NO_ORIGIN` outside any): a form forwarded as an
    attachment ("转发为附件") carries the captain's mail, whose time and sender are the
    form's — the forward's made an on-time form late and its sender a stranger; its Date is
    checked as a direct mail's (MAIL_DATE), so its Received header and problems go with it.
    Only a message sent to the office (one of ``office``: :func:`_sent_to_office`) is such an
    origin.  ``kept`` is False for the leaves of a mail whose attachments are not taken
    (:func:`returned_kind`): a bounce, and our own receipt — at any depth (a bounced receipt
    carried our marked-up copy back in as a new form)."""
    nested = _nested_mail(msg)
    if nested is not None:           # a forward sent in base64, or a saved .eml attached as a file
        yield from _leaves(nested, _origin_of(nested, origin, office), kept and not returned_kind(nested), office)
        return
    if msg.get_content_type() == "message/rfc822":
        inner = msg.get_payload()
        inner = inner[0] if isinstance(inner, list) and inner else inner
        if isinstance(inner, email.message.Message):
            yield from _leaves(inner, _origin_of(inner, origin, office), kept and not returned_kind(inner), office)
        return
    if msg.is_multipart():
        for sub in msg.get_payload():
            if isinstance(sub, email.message.Message):
                yield from _leaves(sub, origin, kept, office)
        return
    yield msg, origin, kept


#: the start of a mail's header block: a first line "Name: value"
_MAIL_START = re.compile(rb"\A(?:\r?\n)*[A-Za-z][A-Za-z0-9-]*:[ \t]")
_MAIL_HEADER = re.compile(rb"^(?:from|date|subject|content-type|message-id|mime-version):", re.I | re.M)


def _nested_mail(part: email.message.Message) -> email.message.Message | None:
    """A mail inside ``part`` that the parser did not open: a forward whose message/rfc822 part
    is base64 or quoted-printable (against RFC 2046, but some clients send it so, and the
    form in it was reported as 没有 .xlsx 附件), or a saved ``.eml`` attached as a file
    (application/octet-stream: 《报名表.eml》 不是 Excel 工作簿).  None for anything else."""
    ctype = part.get_content_type()
    cte = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    raw = b""
    if ctype == "message/rfc822" and cte in ("base64", "quoted-printable"):
        import base64
        import quopri

        body = re.split(rb"\r?\n\r?\n", part.as_bytes(), maxsplit=1)
        if len(body) == 2:
            try:
                raw = base64.b64decode(body[1]) if cte == "base64" else quopri.decodestring(body[1])
            except ValueError:
                raw = b""
    elif not part.is_multipart() and ctype != "message/rfc822":
        try:
            name = _decode(part.get_filename() or "")
        except Exception:  # noqa: BLE001 - no readable name: not a saved mail
            name = ""
        if name.lower().endswith(".eml"):
            raw = _payload(part)
    if not raw or not _MAIL_START.match(raw) or len(_MAIL_HEADER.findall(raw[:8192])) < 2:
        return None
    return email.message_from_bytes(raw, policy=email.policy.default)


def _date_of(msg: email.message.Message) -> tuple[dt.datetime | None, list[str]]:
    """A message's Date header as an aware time, and what is wrong with it (in Chinese).
    Without a readable Date (none, or "2020-11-05 16:32:10" that no RFC parser reads), the
    time the newest ``Received`` header gives — the office's own mail server — when there is
    one: falling back to the mail file's time (the office may save it days later) made an
    on-time form late.  Its problem then says so (:data:`BY_RECEIVED`)."""
    problems: list[str] = []
    date = None
    raw_date = _header(msg, "Date")
    if raw_date:
        raw = next((str(v) for k, v in msg.raw_items() if k.lower() == "date"), raw_date)
        if re.search("[\udc80-\udcff]", raw):
            # raw 8-bit bytes (“… 16:32:10 上午 +0800” in UTF-8 or GBK), which the parsed
            # header may have dropped while reading the rest ("… 16:32:10 -0000"): as text
            raw = _raw_8bit_header(msg, "Date") or raw
        date = _parse_date(raw_date, raw)
        if date is None:
            # as written (a Date the header parser read, and _tellable did not, reads
            # "+0000" for the "GMT" written), unless its bytes are no text as they stand
            shown = " ".join(raw.split())
            if not shown or "=?" in shown or re.search("[\udc80-\udcff]", shown):
                shown = raw_date
            problems.append(f"邮件的 Date 头“{shown}”无法识别")
    else:
        problems.append("邮件没有 Date 头")
    if date is None:
        date = _received_date(msg)
        if date is not None:
            problems[-1] += BY_RECEIVED
    return date, problems


#: the end of a Date problem whose mail's time was taken from its newest Received header
BY_RECEIVED = "，已按邮件服务器记下的接收时间（Received 头）计"


def _parse_date(text: str, raw: str = "") -> dt.datetime | None:
    """A date header's text (``raw``: as written, when the parsed header reads otherwise) as an
    aware time: RFC 5322, else ISO style (“2020-11-05 16:32:10”), else as Chinese mail tools
    write it (:func:`_chinese_date`: “2020年11月5日 下午4:32”, “星期四, 05 十一月 2020 …”);
    None when it is none of them — or a time no clock in the league can show (MAIL_DATE:
    :func:`_tellable`; 9999-12-31 23:59:59 GMT crashed every run)."""
    raw = raw or text
    date = _rfc_date(text, raw)
    if date is None:
        date = _iso_date(raw) or _iso_date(text)
    if date is None:
        date = _chinese_date(text) or (_chinese_date(raw) if raw != text else None)
    return date if date is not None and _tellable(date) else None


def _rfc_date(text: str, raw: str) -> dt.datetime | None:
    """An RFC 5322 date (:func:`_parse_date`), its zone as a Chinese mail client means it; None
    when it is none.  A 上午/下午/AM/PM beside its time (“09 十一月 2020 04:32:10 下午 +0800”, a
    zh_CN 12-hour formatter's) makes the time a 12-hour clock's (:func:`_twenty_four_hour`):
    Python's parser took the word for the zone and dropped it and the +0800 after it — 16:32
    was read as 04:32 and a late form was on time (MAIL_DATE)."""
    for written in (raw, text):     # (the parsed header drops the word: "… 04:32:10 -0000")
        if _MERIDIEM_WORD.search(written):
            text = _twenty_four_hour(written)
            if text is None:
                return None
            break
    try:
        date = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if date is None:
        return None
    if _CHINA_CST.search(raw) and not _OFFSET.search(raw):
        # "CST" is China Standard Time to a Chinese mail client (Java's Date.toString,
        # some phone apps); Python's table makes it US Central, 14 hours off
        date = date.replace(tzinfo=_BEIJING)
    elif date.tzinfo is None:
        # "-0000" (RFC 5322: UTC, place unknown) is UTC; no zone written at all is
        # the league's own time (UTC+8), as a Chinese mail client means it
        # (the parsed header already reads "-0000" for a date without a zone: ask the raw one)
        utc = _MINUS_ZERO.search(raw.strip())
        date = date.replace(tzinfo=dt.timezone.utc if utc else _BEIJING)
    return date


def _iso_date(text: str) -> dt.datetime | None:
    """An ISO-style date (:data:`_ISO_DATE`), Beijing time without a zone; None when it is none."""
    m = _ISO_DATE.match(text)
    if not m:
        return None
    y, mo, d, h, mi, sec, zone = m.groups()
    try:        # (the written parts, zero-padded, as datetime reads ISO 8601: its zone too)
        date = dt.datetime.fromisoformat(f"{y}-{int(mo):02d}-{int(d):02d}T{int(h):02d}:{mi}:{sec or '00'}"
                                         + (zone or "").upper())
    except ValueError:
        return None
    return date if date.tzinfo else date.replace(tzinfo=_BEIJING)   # no zone: Beijing time


def _chinese_date(text: str) -> dt.datetime | None:
    """A Date header as Chinese mail tools write it, or None (MAIL_DATE; from an audit of mail
    intake: without a Received header the mail took its file's time, and an on-time form was
    late):

    - year first, 年月日 or / - . between: “2020年11月5日 16:32:10”, “2020年11月5日 星期四
      下午4:32” (phone apps), “2020/11/05 下午 04:32:10” (.NET's zh-CN ToString);
    - RFC 5322 with Chinese month names: “星期四, 05 十一月 2020 16:32:10 +0800” (Java's zh_CN
      SimpleDateFormat), “周四, 05 11月 2020 16:32:10 +0800” (its CLDR form).

    The weekday (星期X, 周X) is ignored; 上午/下午 (凌晨, 早上, 中午, 晚上 …) make the hour a
    12-hour clock's (上午12:05 is 00:05, 下午12:05 12:05); without a zone it is Beijing time, as
    the ISO form's.

    >>> _chinese_date("2020年11月5日 星期四 下午4:32").isoformat()
    '2020-11-05T16:32:00+08:00'
    """
    text = _CN_WEEKDAY.sub(" ", text)
    text = re.sub(r"[(（]\s*[)）]", " ", text).replace("：", ":").strip()    # （星期四） left as ()
    m = _CN_YMD.match(text)
    if m:
        y, mo, d = m["y"], m["mo"] or m["mo2"], m["d"] or m["d2"]
        if m["ap"] and m["ap2"]:        # 上午4:32 下午: which one? (MAIL_DATE: unreadable)
            return None
        hour = _meridiem_hour(int(m["h"]), m["ap"] or m["ap2"])
        if hour is None:
            return None
        try:        # (a day or zone that is none: 2月30日, +9999)
            return dt.datetime(int(y), int(mo), int(d), hour, int(m["mi"]), int(m["s"] or 0), tzinfo=_zone(m["zone"]))
        except ValueError:
            return None
    if "年" in text or not _CN_MONTH.search(text):
        return None
    bad = False

    def english(mm: re.Match) -> str:
        nonlocal bad
        n = cn_numeral(mm[1]) if mm[1] else int(mm[2])
        if not n or not 1 <= n <= 12:
            bad = True
            return mm[0]
        return f" {_MONTH_ABBR[n - 1]} "

    text = _CN_MONTH.sub(english, text)
    if bad:
        return None
    return _rfc_date(" ".join(text.split()), " ".join(text.split()))


def _twenty_four_hour(text: str) -> str | None:
    """``text``, an RFC 5322-style date with one 上午/下午/AM/PM (…) right before or after its
    time, with that time on a 24-hour clock and the word gone (“… 04:32:10 下午 +0800” → “…
    16:32:10 +0800”, its zone kept); None when the word is not beside the time, there are two
    (上午4:32 下午: which?), or the hour cannot be the word's (:func:`_meridiem_hour`) —
    MAIL_DATE: unreadable, the Received header's time is taken."""
    if len(_MERIDIEM_WORD.findall(text)) != 1:
        return None
    m = _RFC_TIME.search(text)
    if not m or not (m["ap"] or m["ap2"]):
        return None
    hour = _meridiem_hour(int(m["h"]), m["ap"] or m["ap2"])
    if hour is None:
        return None
    return f"{text[:m.start()]} {hour:02d}{m['rest']} {text[m.end():]}"


def _meridiem_hour(hour: int, word: str | None) -> int | None:
    """The hour of a 12-hour clock's ``hour`` said with ``word`` (上午, 下午 …; None: a 24-hour
    clock's), or None when it cannot be one (上午16:32).  An hour past 12 said 下午 is read as
    written (some tools write 下午 16:32).

    晚上/夜里/夜间/傍晚 with 12 (or 0) is refused, not guessed (MAIL_DATE; from a review of mail
    intake — 晚上12:30 was read as noon): it is half past midnight, but people and tools differ
    on whether it is the written day's or the one before's; a wrong guess moves the mail a whole
    day across a deadline, while refusing it takes the mail server's Received time (and says so).
    下午12:05 and PM 12:05 are noon, as every 12-hour clock has it."""
    if not word:
        return hour if hour < 24 else None
    word = word.upper()
    if hour > 12:
        return hour if word in _PM and hour < 24 else None
    if word in _AM:
        return 0 if hour == 12 else hour
    if word == "中午":             # 中午12:30 is 12:30, 中午1:00 13:00
        return hour if hour >= 11 else hour + 12
    if word in _NIGHT and hour in (0, 12):
        return None
    return hour if hour == 12 else hour + 12


def _zone(text: str | None) -> dt.tzinfo:
    """The zone a Chinese-format Date writes (“+0800”, “+08:00”, “GMT+8”, “UTC”, “CST”), Beijing
    time when none."""
    if not text:
        return _BEIJING
    text = text.strip().upper()
    if text in ("CST", "北京时间"):
        return _BEIJING
    m = re.search(r"([+-])(\d{1,2}):?(\d{2})?$", text)
    if not m:
        return dt.timezone.utc                      # Z, GMT, UTC
    minutes = int(m[2]) * 60 + int(m[3] or 0)
    return dt.timezone(dt.timedelta(minutes=-minutes if m[1] == "-" else minutes))


_BEIJING = dt.timezone(dt.timedelta(hours=8))
#: a date must be this far from the ends of the calendar for the runner's reckoning with it
#: (QUEUED_AT_MOST, CLOCK_AHEAD, deadlines) and its Beijing time to stay in datetime's range
_RECKONING = dt.timedelta(days=366)


def _tellable(date: dt.datetime) -> bool:
    """Whether ``date`` can be told in Beijing time and in UTC and reckoned with
    (:data:`_RECKONING`): 9999-12-31 23:59:59 GMT cannot (it is 10000-01-01 in Beijing) —
    every run crashed on ``astimezone`` (OverflowError, league 内部出错).  MAIL_DATE: such a
    Date is unreadable.

    >>> _tellable(dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc))
    False
    """
    try:
        local = date.astimezone(_BEIJING)
        date.astimezone(dt.timezone.utc)
        local - _RECKONING, local + _RECKONING
    except (OverflowError, ValueError):
        return False
    return True


def _received_date(msg: email.message.Message) -> dt.datetime | None:
    """The time in the newest ``Received`` header that has a readable one (after its last
    ";", RFC 5321), or None."""
    for key, value in msg.raw_items():
        if key.lower() != "received" or ";" not in str(value):
            continue
        text = " ".join(str(value).rsplit(";", 1)[1].split())
        date = _parse_date(text)
        if date is not None:
            return date
    return None


#: an ISO-style date as some mail tools write the Date header: 2020-11-05 16:32:10,
#: 2020/11/5 16:32, 2020-11-05T16:32:10+08:00
_ISO_DATE = re.compile(r"^\s*(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?"
                       r"\s*(Z|[+-]\d{2}:?\d{2})?\s*$", re.I)


#: a weekday as Chinese tools write it, maybe followed by a comma: 星期四, 周四, 礼拜四, 週四 (ignored)
_CN_WEEKDAY = re.compile(r"(?:星期|礼拜|禮拜|周|週)[一二三四五六日天]\s*[,，]?")
#: 上午/下午 and their kin, before or after the time (AM/PM as some tools write them)
_AM = frozenset({"上午", "凌晨", "早上", "早晨", "清晨", "午前", "AM"})
_PM = frozenset({"下午", "晚上", "傍晚", "夜里", "夜间", "午后", "PM"})
_MERIDIEM = "|".join(sorted(_AM | _PM | {"中午"}, key=len, reverse=True))
#: the evening's words, whose 12 o'clock is no day's for sure (:func:`_meridiem_hour`)
_NIGHT = frozenset({"晚上", "傍晚", "夜里", "夜间"})
#: any one of them in an RFC 5322-style date (AM/PM not inside a word: not the zone "PMT")
_MERIDIEM_WORD = re.compile(r"(?<![A-Za-z])(?:" + _MERIDIEM + r")(?![A-Za-z])", re.I)
#: an RFC 5322-style date's time, maybe with a 上午/下午/AM/PM before or after it (:func:`_twenty_four_hour`)
_RFC_TIME = re.compile(rf"(?:(?<![A-Za-z])(?P<ap>{_MERIDIEM})\s*)?(?<!\d)(?P<h>\d{{1,2}})(?P<rest>:\d{{2}}(?::\d{{2}})?)(?!\d)"
                       rf"(?:\s*(?P<ap2>{_MERIDIEM})(?![A-Za-z]))?", re.I)
#: a year-first Chinese-format date (:func:`_chinese_date`)
_CN_YMD = re.compile(
    r"^(?P<y>\d{4})\s*(?:年\s*(?P<mo>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"
    r"|[-/.](?P<mo2>\d{1,2})[-/.](?P<d2>\d{1,2}))\s*,?\s*"
    rf"(?:(?P<ap>{_MERIDIEM})\s*)?(?P<h>\d{{1,2}}):(?P<mi>\d{{2}})(?::(?P<s>\d{{2}}))?(?:\.\d+)?\s*"
    rf"(?:(?P<ap2>{_MERIDIEM})\s*)?"
    r"(?P<zone>Z|CST|北京时间|(?:GMT|UTC)?\s*[+-]\d{1,2}(?::?\d{2})?|GMT|UTC)?\s*(?:\([^)]*\))?$", re.I)
#: a month in Chinese: 十一月, 11月 (:func:`_chinese_date`; not inside 二十三月 or 111月)
_CN_MONTH = re.compile(r"(?<![一二三四五六七八九十\d])(?:(十[一二]?|[一二三四五六七八九])|(\d{1,2}))月")
_MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

#: a Date header whose zone is the name CST and no number: China Standard Time (UTC+8)
_CHINA_CST = re.compile(r"\bCST\b")
_OFFSET = re.compile(r"[+-]\d{4}\b")
#: RFC 5322's "-0000" at the end of a Date header (then maybe a comment): UTC, place unknown.
#: Anything else the parser gave no zone for — none written, "GMT+0800 (中国标准时间)", HKT … —
#: is the league's own UTC+8
_MINUS_ZERO = re.compile(r"-0000\s*(?:\([^)]*\))?$")


def _payload(part: email.message.Message) -> bytes:
    try:
        return part.get_payload(decode=True) or b""
    except Exception:  # noqa: BLE001 - a broken part is no attachment
        return b""


_RAW_NAME = re.compile(rb'(?:file)?name\s*=\s*"([^"\r\n]+)"|(?:file)?name\s*=\s*([^\s";]+)', re.I)


def _raw_8bit_name(part: email.message.Message, parsed: str) -> str:
    """The attachment name ``parsed`` (with U+FFFD where the part's header had bytes that
    are not UTF-8) read again from that header's raw bytes as GB18030, as Chinese mail tools
    that skip RFC 2047 write it; ``parsed`` when they are not found."""
    for key, value in part.raw_items():
        if key.lower() not in ("content-disposition", "content-type"):
            continue
        raw = str(value).encode("ascii", "surrogateescape")
        for m in _RAW_NAME.finditer(raw):
            name = m.group(1) or m.group(2)
            if name.isascii():
                continue
            try:
                return name.decode("gb18030")
            except UnicodeDecodeError:
                continue
    return parsed


def _garbled(name: str) -> bool:
    """Whether a decoded name still holds what no real name does: U+FFFD, a lone surrogate
    (undecodable bytes), a private-use character (GBK's user-defined area: bytes read in
    the wrong place)."""
    return bool(re.search(r"[\ufffd\ud800-\udfff\ue000-\uf8ff]", name))


_CONTINUED = re.compile(r"""(?:^|[;\s])(filename|name)\*(\d+)(\*?)\s*=\s*(?:"([^"]*)"|([^;\s]*))""", re.I)


def _continued_name(part: email.message.Message) -> str:
    """The file name of RFC 2231 continuations (``filename*0*=gbk''%D0%D0…%B``,
    ``filename*1*=6%FE…``) joined as written before its %XX escapes are decoded, as RFC 2231
    §3 has it; "" when there are none or they do not decode."""
    from urllib.parse import unquote_to_bytes

    for header in ("content-disposition", "content-type"):
        raw = next((str(v) for k, v in part.raw_items() if k.lower() == header), "")
        pieces: dict[str, dict[int, tuple[str, bool]]] = {}
        for m in _CONTINUED.finditer(raw):
            pieces.setdefault(m[1].lower(), {})[int(m[2])] = (m[4] if m[4] is not None else m[5], bool(m[3]))
        for key in ("filename", "name"):
            got = pieces.get(key)
            if not got or 0 not in got:
                continue
            first = got[0][0]
            charset = "utf-8"
            if got[0][1] and first.count("'") >= 2:
                charset, _, first = first.split("'", 2)
                charset = charset or "utf-8"
            text = first + "".join(got[i][0] for i in sorted(got) if i)
            try:
                name = unquote_to_bytes(text).decode(charset)
            except (LookupError, UnicodeDecodeError):
                continue
            if name and not _garbled(name):
                return name
    return ""


def _joined_name(part: email.message.Message) -> str:
    """The attachment's name as the standard library's legacy (compat32) parser reads it
    from the part's raw headers: RFC 2231 continuations joined as bytes before decoding, and
    encoded-words (adjacent ones joined by :func:`email.header.decode_header`), quoted or
    not.  The default policy decodes them piece by piece.  "" when there is none."""
    raw = b"".join(f"{k}: {v}\r\n".encode("utf-8", "surrogateescape") for k, v in part.raw_items())
    try:
        legacy = email.message_from_bytes(raw + b"\r\n", policy=email.policy.compat32)
        name = legacy.get_filename() or ""
        if "=?" in name:
            name = str(make_header(decode_header(name)))
    except Exception:  # noqa: BLE001 - a header the legacy parser cannot read either: no better name
        return ""
    # (raw 8-bit bytes come back as U+FFFD or surrogates: _raw_8bit_name reads those as GBK)
    return "" if "\ufffd" in name or any("\udc80" <= ch <= "\udcff" for ch in name) else name.strip()


def _is_xlsx(data: bytes) -> bool:
    """Whether ``data`` is an Office Open XML workbook (a zip holding ``xl/workbook.xml``)."""
    if not data.startswith(b"PK\x03\x04"):
        return False
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "xl/workbook.xml" in z.namelist()
    except Exception:  # noqa: BLE001 - not a readable zip: not a workbook
        return False


def _header(msg: email.message.Message, name: str) -> str:
    """A header as text; tolerates undecodable (non-UTF-8, raw 8-bit) header bytes."""
    try:
        value = msg.get(name)
    except Exception:
        value = None
        for k, v in msg.raw_items() if hasattr(msg, "raw_items") else []:
            if k.lower() == name.lower():
                value = v
                break
    if value is None:
        return ""
    text = str(value)
    if "\ufffd" in text or any("\udc80" <= ch <= "\udcff" for ch in text):
        text = _raw_8bit_header(msg, name) or text
    try:
        return _decode(text).strip()
    except Exception:
        return text.encode("utf-8", "replace").decode("utf-8").strip()


def _raw_8bit_header(msg: email.message.Message, name: str) -> str:
    """A header written in raw 8-bit bytes, not RFC 2047 (a Chinese mail tool's GBK subject,
    shown as ����˼����ѧԺ…): its bytes read as UTF-8, else as GB18030; "" when not found."""
    for key, value in msg.raw_items() if hasattr(msg, "raw_items") else []:
        if key.lower() != name.lower():
            continue
        raw = str(value).encode("utf-8", "surrogateescape")
        for codec in ("utf-8", "gb18030"):
            try:
                return raw.decode(codec)
            except UnicodeDecodeError:
                continue
    return ""
