"""parse_eml: Date, From, Subject, safe attachment names, odd headers."""
from __future__ import annotations

import datetime as dt
from email.message import EmailMessage

from pipeline.ingest.eml import parse_eml, parse_eml_bytes


def test_attachment_date_sender(tmp_path):
    msg = EmailMessage()
    msg["From"] = "王军 <WangJun@Example.edu.cn>"
    msg["Subject"] = "行政一 报名表"
    msg["Date"] = "Mon, 09 Nov 2020 14:59:00 +0800"
    msg.set_content("见附件")
    msg.add_attachment(b"PK\x03\x04data", maintype="application", subtype="octet-stream",
                       filename="../../报名表.xlsx")
    msg.add_attachment(b"hello", maintype="text", subtype="plain", filename="说明.txt")
    p = tmp_path / "m.eml"
    p.write_bytes(bytes(msg))
    m = parse_eml(p)
    assert m.date == dt.datetime(2020, 11, 9, 14, 59, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert m.sender == "wangjun@example.edu.cn" and m.subject == "行政一 报名表"
    assert [a.filename for a in m.attachments] == ["报名表.xlsx"] and m.attachments[0].data == b"PK\x03\x04data"


def test_no_attachment_and_gbk_headers():
    raw = ("From: =?gbk?B?zfW+/A==?= <a@b.cn>\r\nSubject: \xb1\xa8\xc3\xfb\r\nDate: garbage\r\n\r\nbody\r\n")
    m = parse_eml_bytes(raw.encode("latin-1"))
    assert not m.has_attachment and m.date is None and m.problems and m.sender == "a@b.cn"


def test_a_raw_gbk_attachment_name_is_read_as_gbk():
    """Some Chinese mail tools put the file name's GBK bytes straight into the header (no
    RFC 2047 or 2231): the name was ����һ�ֹ��ᱨ����.xlsx in issues.csv and in the returned copy."""
    name = "行政一分工会报名表.xlsx".encode("gbk")
    raw = (b"From: a@b.cn\r\nDate: Mon, 09 Nov 2020 14:59:00 +0800\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
           b"--XX\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\""
           + name + b"\"\r\nContent-Transfer-Encoding: base64\r\n\r\nUEsDBA==\r\n--XX--\r\n")
    assert [a.filename for a in parse_eml_bytes(raw).attachments] == ["行政一分工会报名表.xlsx"]


def test_two_raw_gbk_names_in_one_mail_stay_each_its_own():
    names = ["报名表.xlsx".encode("gbk"), "行政报名表.xlsx".encode("gbk")]
    parts = b"".join(b"--XX\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\""
                     + n + b"\"\r\nContent-Transfer-Encoding: base64\r\n\r\nUEsDBA==\r\n" for n in names)
    raw = (b"From: a@b.cn\r\nDate: Mon, 09 Nov 2020 14:59:00 +0800\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n" + parts + b"--XX--\r\n")
    assert [a.filename for a in parse_eml_bytes(raw).attachments] == ["报名表.xlsx", "行政报名表.xlsx"]


def test_a_date_without_a_zone_is_the_leagues_own_time():
    """16:30 written without a zone was taken as UTC (00:30 the next day, China time): a form
    sent before a 17:00 deadline was refused as late."""
    raw = b"From: a@b.cn\r\nDate: Wed, 16 Nov 2016 16:30:00\r\n\r\nbody\r\n"
    m = parse_eml_bytes(raw)
    assert m.date == dt.datetime(2016, 11, 16, 16, 30, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    utc = parse_eml_bytes(b"From: a@b.cn\r\nDate: Wed, 16 Nov 2016 08:30:00 -0000\r\n\r\nbody\r\n")
    assert utc.date == dt.datetime(2016, 11, 16, 8, 30, tzinfo=dt.timezone.utc)     # RFC 5322: -0000 is UTC
    for zone in ("GMT+0800 (中国标准时间)", "HKT", "BJT"):          # no zone the parser knows: China time
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: Wed, 16 Nov 2016 16:30:00 {zone}\r\n\r\nbody\r\n".encode())
        assert m.date == dt.datetime(2016, 11, 16, 16, 30, tzinfo=dt.timezone(dt.timedelta(hours=8))), zone


def test_a_workbook_attached_without_a_file_name_is_still_one():
    import io

    import openpyxl

    buf = io.BytesIO()
    openpyxl.Workbook().save(buf)
    msg = EmailMessage()
    msg["From"], msg["Date"] = "a@b.cn", "Mon, 09 Nov 2020 14:59:00 +0800"
    msg.set_content("见附件")
    msg.add_attachment(buf.getvalue(), maintype="application", subtype="octet-stream")
    m = parse_eml_bytes(bytes(msg))
    assert [a.filename for a in m.attachments] == ["附件.xlsx"] and m.attachments[0].data == buf.getvalue()


def test_cst_is_china_standard_time_and_a_bom_is_no_header():
    """``CST`` (Java's Date.toString, some phone apps) is UTC+8 to a Chinese mail client;
    Python's table made it US Central, 14 hours late, and every event late.  A number
    written beside it still counts.  A mail saved with a UTF-8 BOM lost all its headers."""
    cn = dt.timezone(dt.timedelta(hours=8))
    for date in ("Mon, 09 Nov 2020 14:30:00 CST", "Mon Nov 09 14:30:00 CST 2020"):
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: {date}\r\nSubject: x\r\n\r\nhi".encode())
        assert m.date == dt.datetime(2020, 11, 9, 14, 30, tzinfo=cn) and not m.problems, date
    m = parse_eml_bytes(b"From: a@b.cn\r\nDate: Mon, 09 Nov 2020 14:30:00 -0600 (CST)\r\n\r\nhi")
    assert m.date.utcoffset() == dt.timedelta(hours=-6)
    m = parse_eml_bytes(b"\xef\xbb\xbfFrom: A@B.cn\r\nDate: Mon, 09 Nov 2020 14:30:00 +0800\r\n\r\nhi")
    assert m.sender == "a@b.cn" and m.date == dt.datetime(2020, 11, 9, 14, 30, tzinfo=cn) and not m.problems


def test_a_gbk_name_split_across_encoded_words_or_continuations_is_joined():
    """Foxmail/Outlook fold a long GBK name into two encoded-words split inside a character;
    RFC 2231 continuations can split it too; older clients leave the encoded-word unquoted.
    Decoded piece by piece the name came out 行政第�环止せ岜�名表 (or 附件.xlsx)."""
    import base64
    import urllib.parse

    g = "行政第一分工会报名表（更正）.xlsx".encode("gbk")
    ew = lambda chunks, cs="GBK": "\r\n ".join(f"=?{cs}?B?{base64.b64encode(c).decode()}?=" for c in chunks)
    heads = [f'Content-Type: application/octet-stream; name="{ew([g[:7], g[7:]])}"\r\n'
             f'Content-Disposition: attachment; filename="{ew([g[:7], g[7:]])}"',
             "Content-Type: application/octet-stream\r\nContent-Disposition: attachment;\r\n"
             f" filename*0*=GBK''{urllib.parse.quote(g[:9])};\r\n filename*1*={urllib.parse.quote(g[9:])}",
             f"Content-Type: application/octet-stream; name={ew([g], 'gb2312')}\r\n"
             f"Content-Disposition: attachment; filename={ew([g], 'gb2312')}"]
    body = base64.encodebytes(b"PK\x03\x04 not really a workbook").decode()
    for h in heads:
        raw = ("From: a@b.cn\r\nDate: Sun, 08 Nov 2020 10:00:00 +0800\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
               "Content-Type: multipart/mixed; boundary=BB\r\n\r\n--BB\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
               f"--BB\r\n{h}\r\nContent-Transfer-Encoding: base64\r\n\r\n{body}\r\n--BB--\r\n")
        m = parse_eml_bytes(raw.encode())
        assert [a.filename for a in m.attachments] == ["行政第一分工会报名表（更正）.xlsx"], (h, m.attachments)


def test_a_mail_sent_by_a_program_is_marked_automatic():
    """An out-of-office reply to a receipt (RFC 3834 headers, or only its subject, as some
    Chinese mail services send it) or a mailing list's copy is no captain's mail: it must
    not be answered with a receipt (an auto-reply loop)."""
    def mail(subject: str, **headers: str) -> bytes:
        msg = EmailMessage()
        msg["From"] = "cap@a.example.cn"
        msg["Subject"] = subject
        for k, v in headers.items():
            msg[k.replace("_", "-")] = v
        msg.set_content("我正在休假。")
        return bytes(msg)

    automatic = [mail("Re: 报名", Auto_Submitted="auto-replied"), mail("x", Auto_Submitted="auto-generated; x"),
                 mail("x", Precedence="bulk"), mail("x", List_Id="<staff.a.example.cn>"), mail("x", X_Autoreply="yes"),
                 mail("自动回复：【报名回执】行政第一分工会：已接受"), mail("自动答复: 报名表"),
                 mail("Automatic reply: 报名表"), mail("Out of Office: 报名表")]
    assert [parse_eml_bytes(m).automatic for m in automatic] == [True] * len(automatic)
    person = [mail("报名表"), mail("Re: 【报名回执】行政第一分工会：需修改（2 个问题）"),
              mail("x", Auto_Submitted="no"), mail("汽车工程学院报名表（自动回复功能已关闭）")]
    assert [parse_eml_bytes(m).automatic for m in person] == [False] * len(person)


def test_a_reply_to_one_of_our_receipts_is_never_answered_with_one():
    """A captain's "收到，谢谢" to 【报名回执】…已接受 (In-Reply-To or References naming our
    receipt's Message-ID) carries no workbook: it was answered with a receipt saying the mail
    had no workbook and to send the form again.  Marked like an automatic reply (no receipt);
    a reply to anyone else's mail is a person's mail as any other."""
    ours = "<receipt.%s@union.example.edu.cn>" % ("9f" * 16)

    def mail(**headers: str) -> bytes:
        msg = EmailMessage()
        msg["From"] = "cap@a.example.cn"
        msg["Subject"] = "Re: 【报名回执】行政第一分工会：已接受"
        for k, v in headers.items():
            msg[k.replace("_", "-")] = v
        msg.set_content("收到，谢谢！")
        return bytes(msg)

    assert parse_eml_bytes(mail(In_Reply_To=ours)).automatic
    assert parse_eml_bytes(mail(References=f"<forgot-b01@union.example.edu.cn> {ours}")).automatic
    assert not parse_eml_bytes(mail(In_Reply_To="<notice-2020@union.example.edu.cn>")).automatic
    assert not parse_eml_bytes(mail()).automatic


def _xlsx(name: str = "报名表.xlsx") -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("xl/workbook.xml", name)
    return buf.getvalue()


def _message(sender: str, subject: str, date: str, body: str, **headers: str) -> EmailMessage:
    """A mail with these headers and body (attachments are added by the test)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["Subject"] = subject
    msg["Date"] = date
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return msg


def _receipt_of_ours(to: str = "cap@a.example.cn") -> EmailMessage:
    r = _message("office@union.example.edu.cn", "【报名回执】行政第一分工会：需修改（1 个问题）",
                 "Sun, 08 Nov 2020 20:00:00 +0800", "请修改后重新发送。", To=to,
                 Message_ID="<receipt.%s@union.example.edu.cn>" % ("ab" * 16))
    r.add_attachment(_xlsx("marked"), maintype="application", subtype="octet-stream",
                     filename="行政第一分工会-报名表-已标注问题.xlsx")
    return r


def test_contract_eml_attachments_a_bounce_or_our_own_receipt_gives_no_workbook():
    """Contract: ``league run`` takes the ``.xlsx`` attachments of the inbox's mails — a
    captain's.  A bounce (multipart/report, MAILER-DAEMON) returning our receipt whole gave
    our marked-up copy as a new form, with the receipt's Date and the office as sender."""
    ndr = _message("MAILER-DAEMON@union.example.edu.cn", "Undelivered Mail Returned to Sender",
                   "Mon, 09 Nov 2020 21:00:00 +0800", "could not be delivered", X_Failed_Recipients="cap@a.example.cn")
    ndr.add_attachment(_receipt_of_ours())
    raw = bytes(ndr)
    report = raw.replace(b"multipart/mixed", b"multipart/report; report-type=delivery-status", 1)
    for data in (raw, report):          # known by its sender, or by its type alone
        m = parse_eml_bytes(data)
        assert (m.attachments, m.set_aside, m.returned) == ((), ("行政第一分工会-报名表-已标注问题.xlsx",), "bounce")
        assert m.bounced_to == ("cap@a.example.cn",) and m.automatic
        assert m.bounced_subject.startswith("【报名回执】")
    m = parse_eml_bytes(bytes(_receipt_of_ours()))       # our receipt itself, copied into the inbox
    assert (m.attachments, m.returned) == ((), "ours")
    # an Auto-Submitted mail carrying a workbook: what it answers, never a form
    auto = _message("cap@a.example.cn", "自动回复", "Mon, 09 Nov 2020 21:00:00 +0800", "我正在休假",
                    Auto_Submitted="auto-replied")
    auto.add_attachment(_xlsx(), maintype="application", subtype="octet-stream", filename="报名表.xlsx")
    m = parse_eml_bytes(bytes(auto))
    assert (m.attachments, m.set_aside, m.returned) == ((), ("报名表.xlsx",), "auto")
    # a mailbox forwarding the captains' mail to the league's by a rule marks it
    # auto-forwarded (or auto-generated): the form in it is the captain's, and counts
    for how in ("auto-forwarded", "auto-generated"):
        auto.replace_header("Auto-Submitted", how)
        m = parse_eml_bytes(bytes(auto))
        assert ([a.filename for a in m.attachments], m.set_aside, m.returned) == (["报名表.xlsx"], (), "")


def test_contract_received_time_a_forwarded_form_counts_and_our_forwarded_receipt_does_not():
    """Contract: the received time of a workbook is its e-mail's Date.  A captain forwarding
    their own form's mail as an attachment (转发为附件): the form counts with that mail's Date
    and sender; our receipt forwarded alongside it gives nothing (its marked-up copy)."""
    own = _message("Cap <cap@a.example.cn>", "报名表", "Wed, 04 Nov 2020 18:23:00 +0800", "见附件",
                   Message_ID="<own-form@a.example.cn>")
    own.add_attachment(_xlsx(), maintype="application", subtype="octet-stream", filename="报名表.xlsx")
    fwd = _message("helper@b.example.cn", "Fw: 报名表", "Mon, 09 Nov 2020 21:00:00 +0800", "转发")
    fwd.add_attachment(own)
    fwd.add_attachment(_receipt_of_ours())
    m = parse_eml_bytes(bytes(fwd))
    assert m.returned == "" and not m.automatic
    (a,) = m.attachments
    assert (a.filename, a.sender) == ("报名表.xlsx", "cap@a.example.cn")
    assert a.date == dt.datetime(2020, 11, 4, 18, 23, tzinfo=dt.timezone(dt.timedelta(hours=8)))
    assert m.set_aside == ("行政第一分工会-报名表-已标注问题.xlsx",)


def _inner_mail(date: str = "Fri, 06 Nov 2020 10:11:00 +0800") -> bytes:
    inner = EmailMessage()
    inner["From"] = "队长 <captain@x.edu.cn>"
    inner["Subject"] = "报名表"
    inner["Date"] = date
    inner.set_content("见附件")
    inner.add_attachment(b"PK\x03\x04data", maintype="application", subtype="octet-stream", filename="报名表.xlsx")
    return bytes(inner)


def _forward(part_headers: bytes, body: bytes) -> bytes:
    return (b"From: office@x.edu.cn\r\nSubject: Fwd\r\nDate: Mon, 09 Nov 2020 20:00:00 +0800\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nfwd\r\n"
            b"--XX\r\n" + part_headers + b"\r\n" + body + b"\r\n--XX--\r\n")


def test_a_forward_sent_in_base64_or_as_a_saved_eml_gives_its_form():
    """A message/rfc822 part in base64 (some clients send it so) and a saved .eml attached as
    application/octet-stream: the form inside was reported as 没有 .xlsx 附件 / 不是 Excel 工作簿;
    it is taken, with the captain's own time and address (from an audit of mail intake)."""
    import base64

    body = base64.encodebytes(_inner_mail()).replace(b"\n", b"\r\n")
    for headers in (b"Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n",
                    b"Content-Type: application/octet-stream; name=\"bm.eml\"\r\nContent-Transfer-Encoding: base64\r\n"
                    b"Content-Disposition: attachment; filename=\"bm.eml\"\r\n"):
        m = parse_eml_bytes(_forward(headers, body))
        (a,) = m.attachments
        assert a.filename == "报名表.xlsx" and a.sender == "captain@x.edu.cn" and m.skipped == ()
        assert a.date == dt.datetime(2020, 11, 6, 10, 11, tzinfo=dt.timezone(dt.timedelta(hours=8)))


def test_a_text_file_named_eml_is_no_mail():
    body = b"aGVsbG8gd29ybGQ="        # "hello world"
    m = parse_eml_bytes(_forward(b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                                 b"Content-Disposition: attachment; filename=\"x.eml\"\r\n", body))
    assert m.attachments == () and m.skipped == ("x.eml",)


def test_gbk_text_labelled_gb2312_and_a_raw_gbk_subject_are_read():
    """Mail clients label GBK text gb2312: 王喆 and 张堃 (not in GB2312) came out 王�遥� / 张��
    in the subject and the file name; a subject in raw GBK bytes came out ����…"""
    import base64

    subject = "=?gb2312?B?" + base64.b64encode("报名表（王堃）".encode("gbk")).decode() + "?="
    rfc2231 = "".join(f"%{b:02X}" for b in "报名表-张喆.xlsx".encode("gbk"))
    raw = (f"From: a@b.cn\r\nSubject: {subject}\r\nDate: Mon, 09 Nov 2020 14:59:00 +0800\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
           "--XX\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
           f"Content-Disposition: attachment; filename*=gb2312''{rfc2231}\r\n\r\nUEsDBA==\r\n--XX--\r\n").encode()
    m = parse_eml_bytes(raw)
    assert m.subject == "报名表（王堃）" and [a.filename for a in m.attachments] == ["报名表-张喆.xlsx"]
    raw = b"From: a@b.cn\r\nSubject: " + "马克思主义学院分工会报名表".encode("gbk") + b"\r\nDate: Mon, 09 Nov 2020 14:59:00 +0800\r\n\r\nhi\r\n"
    assert parse_eml_bytes(raw).subject == "马克思主义学院分工会报名表"


def test_an_iso_date_is_read_and_a_missing_one_falls_back_to_the_newest_received_header():
    """A Date written "2020-11-05 16:32:10" (no RFC parser reads it), or none at all, made the
    mail's time the file's — saved by the office days later, after the deadline."""
    beijing = dt.timezone(dt.timedelta(hours=8))
    iso = parse_eml_bytes(b"From: a@b.cn\r\nDate: 2020-11-05 16:32:10\r\n\r\nbody\r\n")
    assert iso.date == dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=beijing) and not iso.problems
    zoned = parse_eml_bytes(b"From: a@b.cn\r\nDate: 2020-11-05T08:32:10Z\r\n\r\nbody\r\n")
    assert zoned.date == dt.datetime(2020, 11, 5, 8, 32, 10, tzinfo=dt.timezone.utc)
    received = (b"Received: from mx.b.cn by mail.union.cn (Coremail) with SMTP id abc;\r\n"
                b"\tThu, 5 Nov 2020 16:32:14 +0800 (CST)\r\n"
                b"Received: from pc by mx.b.cn; Thu, 5 Nov 2020 16:30:00 +0800\r\n")
    for date in (b"", "Date: 周四 下午4:32\r\n".encode()):       # (no date in it: _chinese_date reads 2020年11月5日 下午4:32)
        m = parse_eml_bytes(received + b"From: a@b.cn\r\n" + date + b"\r\nbody\r\n")
        assert m.date == dt.datetime(2020, 11, 5, 16, 32, 14, tzinfo=beijing)       # the newest (top) one
        (problem,) = m.problems
        assert problem.endswith("已按邮件服务器记下的接收时间（Received 头）计")
    # neither: no time (the runner takes the file's)
    none = parse_eml_bytes(b"From: a@b.cn\r\nDate: garbage\r\n\r\nbody\r\n")
    assert none.date is None and none.problems == ("邮件的 Date 头“garbage”无法识别",)


def _signed(photo: bool = False) -> bytes:
    """An Outlook mail: plain and HTML bodies, the signature's logo (image001.png, inline,
    shown by the HTML as cid:), no workbook — and, with ``photo``, a picture attached."""
    msg = EmailMessage()
    msg["From"] = "a@b.cn"
    msg["Date"] = "Mon, 09 Nov 2020 14:59:00 +0800"
    msg.set_content("报名表见附件。\n顾现伟")
    msg.add_alternative('<p>报名表见附件。</p><p>顾现伟<br><img src="cid:image001.png@01D6B3A1.12345670"></p>',
                        subtype="html")
    msg.get_payload()[1].add_related(b"\x89PNG\r\n\x1a\nlogo", "image", "png", cid="<image001.png@01D6B3A1.12345670>",
                                     filename="image001.png", disposition="inline")
    if photo:
        msg.add_attachment(b"\x89PNG\r\n\x1a\ntable", maintype="image", subtype="png", filename="报名表照片.png")
    return bytes(msg)


def test_a_signature_image_shown_by_the_html_body_is_no_attachment():
    """A captain who forgot the workbook was told 所附的《image001.png》不是 Excel 工作簿 …
    图片中的表格无法读取: the picture was Outlook's signature logo, part of the body."""
    m = parse_eml_bytes(_signed())
    assert not m.attachments and m.skipped == ()
    assert parse_eml_bytes(_signed(photo=True)).skipped == ("报名表照片.png",)   # a picture attached is one


def test_a_name_split_inside_a_percent_escape_is_joined_and_a_garbled_one_replaced():
    """RFC 2231 continuations split inside a %XX escape (…%B + 6%FE…) came out 行政第%B6止せ�
    and reached the returned copy's file name; what no decoding mends is named plainly."""
    def mail(disposition: bytes) -> bytes:
        return (b"From: a@b.cn\r\nDate: Mon, 09 Nov 2020 14:59:00 +0800\r\nMIME-Version: 1.0\r\n"
                b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n--XX\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
                b"--XX\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment;\r\n" + disposition
                + b"\r\nContent-Transfer-Encoding: base64\r\n\r\nUEsDBA==\r\n--XX--\r\n")
    split = mail(b" filename*0*=GBK''%D0%D0%D5%FE%B5%DA%B;\r\n filename*1*=6%FE%B7%D6%B9%A4%BB%E1-%B1%A8%C3%FB%B1%ED.xlsx")
    assert [a.filename for a in parse_eml_bytes(split).attachments] == ["行政第二分工会-报名表.xlsx"]
    # GBK's user-defined area (private use) and bytes that are no GBK: a plain name, the extension kept
    bad = mail(b" filename*=GBK''%AA%A1%AA%A2%FF.xlsx")
    assert [a.filename for a in parse_eml_bytes(bad).attachments] == ["附件.xlsx"]


def test_an_auto_reply_subject_in_chinese_simplified_traditional_or_english_is_automatic():
    """An out-of-office reply whose responder sets no RFC 3834 header and no In-Reply-To,
    only a subject: 【自动回复】…, 自動回覆：… (Outlook in Traditional Chinese), 自动应答：…
    were NO_ATTACHMENT warnings and answered with a receipt asking for the form again.  A
    captain's own subject that only mentions such words is no automatic reply."""
    def mail(subject: str, attach: bool = False) -> bytes:
        msg = EmailMessage()
        msg["From"] = "cap@a.example.cn"
        msg["Subject"] = subject
        msg["Date"] = "Sat, 07 Nov 2020 11:00:00 +0800"
        msg.set_content("您好，我正在休假，11月15日返回。")
        if attach:
            msg.add_attachment(_xlsx(), maintype="application", subtype="octet-stream", filename="报名表.xlsx")
        return bytes(msg)

    quoted = "【报名回执】机电工程学院分工会：已接受"
    auto = ["【自动回复】", "[自动回复] ", "自動回覆：", "自动应答：", "自動回復: ", "自動答覆：", "自动回覆：",
            "自動應答：", "（自动回复）", "Automatic reply: ", "Auto-Reply: ", "AutoReply: ", "Auto Reply - ",
            "Out of Office: ", "Out of Office AutoReply: ", "OOO: ", "休假自动回复：", "【休假】",
            "不在办公室: ", "Abwesenheitsnotiz: ", "自动回复", "Auto: "]
    got = {p: (m.automatic, m.auto_reply) for p in auto for m in [parse_eml_bytes(mail(p + quoted))]}
    assert got == {p: (True, True) for p in auto}
    # a captain's mail that only mentions them is a person's: it still gets its receipt
    person = ["报名表（休假前提交）", "休假回来补交报名表", "关于自动回复的问题", "回复：报名表",
              "Re: 【报名回执】机电工程学院分工会：需修改（1 个问题）", "自动化学院报名表", "Auto学院报名表",
              "Outgoing: 报名表", "不在办公室的队员名单"]
    assert {p: parse_eml_bytes(mail(p)).auto_reply for p in person} == {p: False for p in person}
    # a form under such a subject is still taken, whatever the subject says
    m = parse_eml_bytes(mail("自動回覆：" + quoted, attach=True))
    assert [a.filename for a in m.attachments] == ["报名表.xlsx"] and m.returned == ""


def test_a_from_with_an_unquoted_comma_in_its_display_name_gives_the_address():
    """``From: Li, Jia <jcjxbfgh@…>`` (a comma in an unquoted display name, as some clients
    write a western-order name) was read as the address "li": SENDER_UNKNOWN for the
    registered captain, and a mail without a form from them got no receipt."""
    want = "jcjxbfgh@union.example.edu.cn"
    for frm in ("Li, Jia <jcjxbfgh@union.example.edu.cn>", "Li, Jia <JCJXBFGH@union.example.edu.cn>",
                "=?utf-8?b?5p2OLCDkvbM=?= <jcjxbfgh@union.example.edu.cn>",        # 李, 佳 encoded
                "\"Li, Jia\" <jcjxbfgh@union.example.edu.cn>", "jcjxbfgh@union.example.edu.cn (Li, Jia)",
                "李, 佳 <jcjxbfgh@union.example.edu.cn>"):
        raw = f"From: {frm}\r\nTo: office@x.cn\r\nSubject: baoming\r\nDate: Fri, 6 Nov 2020 12:40:00 +0800\r\n\r\nhi\r\n"
        assert parse_eml_bytes(raw.encode("utf-8")).sender == want, frm
    # a From naming two addresses keeps the first
    assert parse_eml_bytes(b"From: a@b.cn, c@d.cn\r\n\r\nhi\r\n").sender == "a@b.cn"


def _delivery_report(action: str, status: str, warning: bool = True) -> bytes:
    """A Postfix-style delivery status report (RFC 3464) about one of our receipts."""
    text = ("# THIS IS A WARNING ONLY.  YOU DO NOT NEED TO RESEND YOUR MESSAGE. #\r\n"
            "Your message could not be delivered for 4.0 hours. It will be retried until it is 5.0 days old.\r\n"
            if warning else "I'm sorry to have to inform you that your message could not be delivered.\r\n")
    return ("From: MAILER-DAEMON@union.example.edu.cn (Mail Delivery System)\r\nTo: office@union.example.edu.cn\r\n"
            "Subject: Delayed Mail (still being retried)\r\nDate: Sat, 7 Nov 2020 12:00:00 +0800\r\n"
            "Message-ID: <delay1@mx.union.example.edu.cn>\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\r\n"
            "--B1\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n" + text + "\r\n"
            "--B1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.union.example.edu.cn\r\n\r\n"
            "Final-Recipient: rfc822; cap@a.example.cn\r\n"
            f"Action: {action}\r\nStatus: {status}\r\n"
            "Diagnostic-Code: X-Postfix; connect to mail2.a.example.cn[10.0.0.9]:25: Connection timed out\r\n\r\n"
            "--B1\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: office@union.example.edu.cn\r\n"
            "To: cap@a.example.cn\r\nSubject: =?utf-8?b?44CQ5oql5ZCN5Zue5omn44CR?=\r\n"
            f"Message-ID: <receipt.{'0' * 32}@union.example.edu.cn>\r\n\r\n--B1--\r\n").encode()


def test_a_delayed_delivery_report_is_no_bounce():
    """A delivery status report saying ``Action: delayed`` (4.4.1, "THIS IS A WARNING ONLY":
    the server is still retrying) was taken as a bounce — ADDRESS_BOUNCED for a unit whose
    mail may well arrive.  Only a failed recipient (``Action: failed``, a 5.x.x status) makes
    a report a bounce; a delay is a program's notice: nothing in it taken, no receipt."""
    m = parse_eml_bytes(_delivery_report("delayed", "4.4.1"))
    assert m.returned == "delayed" and m.automatic and not m.attachments
    assert m.bounced_to == ("cap@a.example.cn",) and "Connection timed out" in m.bounce_reason
    for action, status in (("failed", "5.1.1"), ("failed", "4.4.7"), ("delayed", "5.4.7")):
        m = parse_eml_bytes(_delivery_report(action, status, warning=False))
        assert (m.returned, m.bounced_to) == ("bounce", ("cap@a.example.cn",)), (action, status)
    # a report of delivery (Action: delivered / relayed) is no failure either
    assert parse_eml_bytes(_delivery_report("relayed", "2.0.0", warning=False)).returned == "notice"
    # a delay warning in plain text (Exim's), a read receipt: no bounce; a plain bounce is one
    warn = (b"From: Mail Delivery System <Mailer-Daemon@mx.a.example.cn>\r\nSubject: Warning: message 1kX delayed 24 hours"
            b"\r\n\r\nA message that you sent has not yet been delivered to one or more of its recipients.\r\n")
    assert parse_eml_bytes(warn).returned == "delayed"
    ndr = (b"From: Mail Delivery System <Mailer-Daemon@mx.a.example.cn>\r\nSubject: Mail delivery failed\r\n\r\n"
           b"This message was created automatically by mail delivery software.\r\n")
    assert parse_eml_bytes(ndr).returned == "bounce"
    mdn = (b"From: cap@a.example.cn\r\nSubject: =?utf-8?b?5bey6K+7?=\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report;"
           b" report-type=disposition-notification; boundary=M\r\n\r\n--M\r\nContent-Type: text/plain\r\n\r\nread\r\n"
           b"--M\r\nContent-Type: message/disposition-notification\r\n\r\nFinal-Recipient: rfc822; cap@a.example.cn\r\n"
           b"Disposition: manual-action/MDN-sent-manually; displayed\r\n\r\n--M--\r\n")
    assert parse_eml_bytes(mdn).returned == "notice"


def test_mail_date_a_date_no_clock_can_show_is_unreadable_not_a_crash():
    """MAIL_DATE: a Date of year 9999 in a western zone cannot be told in Beijing time — every
    run crashed (OverflowError: date value out of range).  Such a Date is unreadable, as a
    Received header's, and a forwarded mail's (from an audit of mail intake)."""
    for date in ("Fri, 31 Dec 9999 23:59:59 GMT", "Fri, 31 Dec 9999 23:59:59 -1200"):
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: {date}\r\n\r\nbody\r\n".encode())
        assert m.date is None and m.problems == (f"邮件的 Date 头“{date}”无法识别",), date
    m = parse_eml_bytes(b"Received: from x by mx.b.cn; Fri, 31 Dec 9999 23:59:59 GMT\r\nFrom: a@b.cn\r\n\r\nbody\r\n")
    assert m.date is None and m.received is None and m.problems == ("邮件没有 Date 头",)
    (a,) = parse_eml_bytes(_forward(b"Content-Type: message/rfc822\r\n",
                                    _inner_mail().replace(b"Fri, 06 Nov 2020 10:11:00 +0800",
                                                          b"Fri, 31 Dec 9999 23:59:59 GMT"))).attachments
    assert a.date is None and a.sender == "captain@x.edu.cn"
    assert a.problems == ("邮件的 Date 头“Fri, 31 Dec 9999 23:59:59 GMT”无法识别",)


def test_mail_date_chinese_date_headers_are_read():
    """MAIL_DATE: Date headers as Chinese mail tools write them (Java's zh_CN SimpleDateFormat,
    .NET's zh-CN ToString, phone apps) were unreadable: without a Received header the mail took
    its file's time — an on-time form was refused as late.  They are read (上午/下午 as a 12-hour
    clock, 一月…十二月 and N月, the weekday ignored; no zone: Beijing time); what is no date still
    is not (from an audit of mail intake)."""
    beijing = dt.timezone(dt.timedelta(hours=8))
    read = {
        "星期四, 05 十一月 2020 16:32:10 +0800": (2020, 11, 5, 16, 32, 10),
        "周四, 05 11月 2020 16:32:10 +0800": (2020, 11, 5, 16, 32, 10),
        "星期日, 06 十二月 2020 08:05:00 +0000": (2020, 12, 6, 16, 5, 0),
        "2020年11月5日 16:32:10": (2020, 11, 5, 16, 32, 10),
        "2020年11月5日 星期四 下午4:32": (2020, 11, 5, 16, 32, 0),
        "2020/11/05 下午 04:32:10": (2020, 11, 5, 16, 32, 10),
        "2020/11/05 上午 12:05:00": (2020, 11, 5, 0, 5, 0),
        "2020年11月5日 下午12:05": (2020, 11, 5, 12, 5, 0),
        "2020年1月5日 周二 上午9:05": (2020, 1, 5, 9, 5, 0),
    }
    for text, want in read.items():
        for raw in (text.encode(), text.encode("gbk")):           # as UTF-8 and as raw GBK bytes
            m = parse_eml_bytes(b"From: a@b.cn\r\nDate: " + raw + b"\r\n\r\nbody\r\n")
            assert m.date is not None and not m.problems, (text, m.problems)
            assert m.date == dt.datetime(*want, tzinfo=beijing), (text, m.date)
    for text in ("上周四 下午4:32", "2020年13月5日 16:32", "2020年11月5日 上午16:32", "2020年11月5日", "星期四, 05 十三月 2020 16:32:10"):
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: {text}\r\n\r\nbody\r\n".encode())
        assert m.date is None and m.problems == (f"邮件的 Date 头“{text}”无法识别",), (text, m.date)


def test_mail_date_a_forwarded_mails_received_header_and_date_problem_are_kept():
    """MAIL_DATE for a form forwarded as an attachment: the captain's mail's own newest Received
    header and what is wrong with its Date go with its workbook, for the runner to check that
    Date as a direct mail's (only its Date was kept, and trusted)."""
    inner = (b"Received: from pc by mx.x.edu.cn; Fri, 6 Nov 2020 10:12:00 +0800\r\n"
             + _inner_mail("Fri, 06 Nov 2020 10:11:00 +0000"))
    (a,) = parse_eml_bytes(_forward(b"Content-Type: message/rfc822\r\n", inner)).attachments
    beijing = dt.timezone(dt.timedelta(hours=8))
    assert a.date == dt.datetime(2020, 11, 6, 10, 11, tzinfo=dt.timezone.utc) and not a.problems
    assert a.received == dt.datetime(2020, 11, 6, 10, 12, tzinfo=beijing)
    (a,) = parse_eml_bytes(_forward(b"Content-Type: message/rfc822\r\n", inner.replace(
        b"Date: Fri, 06 Nov 2020 10:11:00 +0000\n", b""))).attachments
    assert a.date == a.received == dt.datetime(2020, 11, 6, 10, 12, tzinfo=beijing)
    assert a.problems == ("邮件没有 Date 头，已按邮件服务器记下的接收时间（Received 头）计",)


def test_mail_date_a_meridiem_word_after_the_time_and_its_zone_are_kept():
    """MAIL_DATE: “星期一, 09 十一月 2020 04:32:10 下午 +0800” (a zh_CN 12-hour formatter: 下午
    after the time) was read as 04:32 — Python's RFC parser took 下午 as the zone, dropped it and
    the +0800 after it — and a late form was on time.  A 上午/下午/AM/PM after (or before) the
    time makes it a 12-hour clock's, the zone written is kept; two such words (上午4:32 下午) and
    晚上12:30 (midnight, but of which day?) are unreadable — the mail server's Received time is
    taken instead (from a review of mail intake)."""
    beijing = dt.timezone(dt.timedelta(hours=8))
    read = {
        "星期一, 09 十一月 2020 04:32:10 下午 +0800": dt.datetime(2020, 11, 9, 16, 32, 10, tzinfo=beijing),
        "05 十一月 2020 04:32:10 下午 +0000": dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=dt.timezone.utc),
        "周四, 05 11月 2020 4:32:10 PM +0800": dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=beijing),
        "Thu, 05 Nov 2020 4:32:10 PM +0800": dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=beijing),
        "Thu, 05 Nov 2020 12:05:00 AM -0500": dt.datetime(2020, 11, 5, 0, 5, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
        "十一月 5, 2020 4:32:10 下午": dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=beijing),
        "星期四, 05 十一月 2020 下午4:32:10 +0800": dt.datetime(2020, 11, 5, 16, 32, 10, tzinfo=beijing),
        "2020年11月5日 晚上11:30": dt.datetime(2020, 11, 5, 23, 30, tzinfo=beijing),
    }
    for text, want in read.items():
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: {text}\r\n\r\nbody\r\n".encode())
        assert m.date == want and not m.problems, (text, m.date, m.problems)
    for text in ("2020年11月5日 上午4:32 下午", "2020年11月5日 晚上12:30", "2020年11月5日 晚上0:30",
                 "05 十一月 2020 上午 04:32:10 下午 +0800", "Thu, 05 Nov 2020 4:32:10 AM PM +0800",
                 "Thu, 05 Nov 2020 16:32:10 上午 +0800", "下午 Thu, 05 Nov 2020 04:32:10 +0800"):
        m = parse_eml_bytes(f"From: a@b.cn\r\nDate: {text}\r\n\r\nbody\r\n".encode())
        assert m.date is None and m.problems == (f"邮件的 Date 头“{text}”无法识别",), (text, m.date)
    m = parse_eml_bytes("Received: from x by mx.b.cn; Mon, 9 Nov 2020 16:32:12 +0800\r\nFrom: a@b.cn\r\n"
                        "Date: 2020年11月9日 上午4:32 下午\r\n\r\nbody\r\n".encode())
    assert m.date == dt.datetime(2020, 11, 9, 16, 32, 12, tzinfo=beijing), m.date


def test_r2020_q4_a_forwarded_mail_counts_as_its_own_only_when_sent_to_the_office():
    """R2020-Q4: a forwarded mail (转发为附件) gives its form its own Date and sender only when
    it was addressed to the office — the forward's To (or Delivered-To), or the ``office``
    addresses given (tournament.yaml's submit_to).  A teammate's mail to the captain's own
    mailbox, forwarded to the office after the deadline, counted at the teammate's Date (from
    an audit of mail intake).  A mail naming no recipient is taken at its own time, as before."""
    def inner(to: str) -> bytes:
        return _inner_mail().replace(b"Subject:", (f"To: {to}\r\n" if to else "").encode() + b"Subject:", 1)

    def forward(body: bytes, to: str = "office@x.edu.cn", office: tuple[str, ...] = ()):
        raw = _forward(b"Content-Type: message/rfc822\r\n", body).replace(b"Subject:", f"To: {to}\r\nSubject:".encode(), 1)
        (a,) = parse_eml_bytes(raw, office=office).attachments
        return a

    a = forward(inner("Cap <cap-home@163.com>"))
    assert (a.date, a.sender, a.forwarded) == (None, "", False)
    for got in (forward(inner("队长 <cap-home@163.com>, 工会 <Office@x.edu.cn>")), forward(inner("")),
                forward(inner("office@x.edu.cn"), to="desk@x.edu.cn", office=("office@x.edu.cn",))):
        assert got.sender == "captain@x.edu.cn" and got.date is not None
    assert not forward(inner("office@x.edu.cn"), to="desk@x.edu.cn").forwarded
