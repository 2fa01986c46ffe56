"""A receipt for every captain: one reply per received registration workbook, and one per
mail that carried no workbook.

Accepted → a short Chinese summary of what was registered (entries per event, with
names).  Problems → every problem (code, cell, message) and the annotated returned
workbook attached.  A file refused as a whole that no edit can make acceptable (not the
unit's issued form; late under ``late_policy: reject``: :func:`refusal`) → what works instead
and what the unit has registered, without the copy.  Every receipt gives the deadlines of
the events of the unit's form while they are ahead (请在 X 前修改后重新发送), and once they
have passed says that a correction can no longer be accepted by mail (or, under
``accept-with-warning``, that it will be marked late) — :func:`_window`.  A Traditional
league's receipts are in Traditional (:func:`_in_script`).  A mail without a workbook
(NO_ATTACHMENT: nothing attached, or only files that are none — .doc, .et, .zip, .pdf, a
table pasted into the body) → needs_change: the mail (subject, time) carried no Excel
workbook, what was attached instead, and to attach the filled 报名表 (or 成绩表) as .xlsx
and send again; a captain who forgot the attachment otherwise hears nothing and believes
the form was submitted.

Who gets a receipt (the workbook's token, not the sender, proves the branch):

- a workbook whose branch is proven (current or superseded, or refused only as late or
  empty; no file-level identity problem): the sender when it is one of the branch's registered addresses
  (``units[].emails``), else every registered address of the branch — never the sender;
- a workbook whose branch is not proven (rejected, unreadable), and a mail without a
  workbook (it proves nothing): only the sender, and only when the sender is a registered
  address of some unit;
- anything else (a stranger, a file dropped into the inbox by hand with no proven
  branch): nobody.  A stranger never receives anyone's data.

A rejected or unreadable file that names no unit itself carries the unit whose registered
address sent it (``Submission.branch``: it is listed on that unit's page); that proves
nothing and changes none of the above — its receipt goes to the sender only.

A mail without a workbook gets none either when it was sent by a program (an out-of-office
reply, a mailing list's copy: no auto-reply loops), or when a registration workbook from
the same unit came at the same time or later (the resend answered it; and a night that
first sends receipts does not tell a captain about a mail long since made good).  Not a
mail whose workbook was one received before (DUPLICATE_FILE): that is no mail without one —
but a mail that sent the unit's superseded form again unchanged gets a receipt of its own
(:func:`_resent_receipt`, to its sender when a registered address of that unit): the
captain believes the old form counts again, and it does not.

Every receipt is keyed by the sha256 of what it answers (the workbook's, or the mail's),
and sent once (:mod:`.smtp`).  Building is pure apart from reading the returned workbooks
from ``out_dir``.
"""
from __future__ import annotations

import datetime as dt
import mimetypes
from dataclasses import dataclass, replace
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..issues import OFFICES_MATTER
from ..mailname import mail_named
from ..model import Severity
from ..timeutil import TZ, aware, stamp

if TYPE_CHECKING:
    from ..issues import Issue
    from ..model import Entry
    from ..spec import EventSpec, Tournament, UnitSpec
    from ..state import BareMail, LeagueState, ResentForm, Submission

#: file-level problems after which the workbook's branch is not proven
IDENTITY_CODES = frozenset({"WRONG_BRANCH", "UNKNOWN_BRANCH", "TEMPLATE_MISMATCH", "UNREADABLE_FILE", "OTHER_UNITS_FORM",
                            "TOURNAMENT_ID_MISMATCH"})

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class Receipt:
    """One reply to one submission (keyed by the workbook's sha256), or to one mail that
    carried no workbook (keyed by the mail's)."""

    sha256: str
    branch: str                 # unit id the receipt is about ("" when not proven)
    to: tuple[str, ...]         # registered addresses only
    subject: str
    body: str
    kind: str                   # accepted | needs_change | superseded
    attachment: Path | None = None
    attachment_name: str = ""
    in_reply_to: str = ""       # Message-ID of the captain's mail, when known

    def message(self, sender: str, now: dt.datetime, message_id: str = "",
                in_reply_to: str = "") -> EmailMessage:
        """The receipt as a UTF-8 e-mail from ``sender``.

        >>> r = Receipt("ab", "u1", ("cap@x.cn",), "【报名回执】一分会：已接受", "好", "accepted")
        >>> r.message("office@x.cn", dt.datetime(2020, 11, 9, tzinfo=dt.timezone.utc))["To"]
        'cap@x.cn'
        """
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = ", ".join(self.to)
        msg["Subject"] = self.subject
        msg["Date"] = format_datetime(now if now.tzinfo else now.replace(tzinfo=dt.timezone.utc))
        if message_id:
            msg["Message-ID"] = message_id
        parent = in_reply_to or self.in_reply_to
        if parent:
            msg["In-Reply-To"] = parent
            msg["References"] = parent
        msg["Auto-Submitted"] = "auto-replied"     # RFC 3834: no auto-reply loops
        msg.set_content(self.body, charset="utf-8")
        if self.attachment is not None:
            data = Path(self.attachment).read_bytes()
            ctype = mimetypes.guess_type(self.attachment_name)[0] or XLSX_TYPE
            main, sub = ctype.split("/", 1)
            msg.add_attachment(data, maintype=main, subtype=sub, filename=self.attachment_name)
        return msg


def build_receipts(state: "LeagueState", out_dir: Path) -> list[Receipt]:
    """One receipt per registration submission that has somebody entitled to receive it,
    then one per mail without a workbook that has (:func:`bare_mail_recipients`).

    Uses ``state.submissions`` (status current / rejected / superseded / unreadable and
    ``returned_path``), ``state.entries`` and ``state.issues`` (those of the submission's
    file), and ``state.bare_mails``.  Submissions with nobody to tell are left out (see
    :func:`unreachable`).

    >>> build_receipts(state, Path("output/t2020"))[0].subject  # doctest: +SKIP
    '【报名回执】行政第一分工会：已接受'
    """
    t = state.tournament
    out: list[Receipt] = []
    for s in state.submissions:
        issues = issues_of(state, s)
        if _beside_form(state, s, issues):
            continue            # said in that form's receipt (:func:`_settled_beside`)
        to = recipients(t, s, issues)
        if not to:
            continue
        out.append(_receipt(state, Path(out_dir), s, issues, to))
    for m in state.bare_mails:
        to = bare_mail_recipients(state, m)
        if to:
            out.append(_bare_receipt(state, m, to))
    for r in state.resent_forms:
        unit = t.spec.unit_of_address(r.sender)
        if unit is not None and unit.id == r.branch:      # its own captain only
            out.append(_resent_receipt(state, r))
    return _in_script(state, out)


def _in_script(state: "LeagueState", receipts: list[Receipt]) -> list[Receipt]:
    """The receipts in the tournament's script: a Traditional league's (T2015, ``script:
    traditional``) subject and body converted as its pages are (:func:`pipeline.text.convert`:
    people's names as names, 《file names》 as received) — they were the only words of the
    league a captain read in Simplified."""
    script = getattr(state.tournament.spec, "script", "simplified")
    if script != "traditional" or not receipts:
        return receipts
    from ..text import convert, names_of

    with names_of(state):
        return [replace(r, subject=convert(r.subject, script), body=convert(r.body, script)) for r in receipts]


def _as_received(t: "Tournament", text: str) -> str:
    """A file's name or a mail's subject, quoted in a receipt, as the captain sent it: marked
    (:func:`pipeline.text.verbatim`) so that :func:`_in_script` leaves it as it is — a
    Traditional subject 後勤服務分工會 報名表 converted again read 報名錶 (a wristwatch)."""
    from ..text import typed

    return typed(text, t.spec)


def _settled(s: "Submission", issues: list["Issue"]) -> bool:
    """Whether ``s`` is a file not taken whose only problems were settled by a form in force
    (:func:`pipeline.run.settle_rejected_before`: its UNREADABLE_FILE … made information)."""
    return (s.status in ("rejected", "unreadable") and any(i.code in IDENTITY_CODES for i in issues)
            and not any(i.severity in (Severity.ERROR, Severity.WARNING) for i in issues))


def _same_mail(a: "Submission", b: "Submission") -> bool:
    """Whether two files came in one mail (or in copies of one): the same sender, the same time."""
    return a.sha256 != b.sha256 and a.sender == b.sender and aware(a.received) == aware(b.received)


def _beside_form(state: "LeagueState", s: "Submission", issues: list["Issue"]) -> bool:
    """Whether ``s`` is a file settled by a form taken from the same mail (a .xls copy of the
    .xlsx 以防打不开, the truncated form of a mail received again whole): no receipt of its
    own — a 需修改 receipt beside the form's 已接受 asked the captain to correct nothing.
    The form's receipt names it (:func:`_settled_beside`)."""
    return _settled(s, issues) and any(
        o.status in ("current", "accepted") and _same_mail(s, o) for o in state.submissions)


def _settled_beside(state: "LeagueState", s: "Submission") -> list[str]:
    """The lines of form ``s``'s receipt on the files of its mail that were not taken
    (:func:`_beside_form`)."""
    lines = []
    for o in state.submissions:
        if _same_mail(o, s) and _settled(o, issues_of(state, o)):
            why = "无法读取" if o.status == "unreadable" or any(
                i.code == "UNREADABLE_FILE" for i in issues_of(state, o)) else "不是可受理的报名表"
            t = state.tournament
            lines.append(f"同一封邮件所附的《{_as_received(t, o.file)}》{why}，"
                         f"已以这份报名表《{_as_received(t, s.file)}》为准，无需另行处理。")
    return lines


def unreachable(state: "LeagueState") -> list["Submission"]:
    """Submissions that get no receipt (no registered address may receive it)."""
    return [s for s in state.submissions if not recipients(state.tournament, s, issues_of(state, s))]


def issues_of(state: "LeagueState", s: "Submission") -> list["Issue"]:
    """The issues about one submission's file (:meth:`Submission.concerns`)."""
    return [i for i in state.issues if s.concerns(i)]


def branch_proven(s: "Submission", issues: list["Issue"]) -> bool:
    """True when the workbook's token proved its branch (R-identity): a form taken (current,
    superseded), or refused only for coming after the deadline or holding no entry — its
    unit is known all the same, and is told what stays registered."""
    taken = s.status in ("current", "superseded", "accepted") or (
        s.status == "rejected" and s.refused in ("late", "empty"))
    return bool(s.branch) and taken and not any(i.code in IDENTITY_CODES for i in issues)


def refusal(s: "Submission") -> str:
    """Why a form was refused as a whole when no edit of it can make it acceptable
    (:attr:`Submission.refused`, set where the submission is made): "form" — not the form
    this tournament issued for the unit (another unit's, another tournament's, an old
    template) — or "late"; "" when editing it can."""
    return s.refused if s.refused in ("form", "late") else ""


def recipients(t: "Tournament", s: "Submission", issues: list["Issue"]) -> tuple[str, ...]:
    """The registered addresses a submission's receipt goes to (possibly none).

    >>> recipients(t, Submission("h", "a.xlsx", "u1", now, sender="stranger@x.cn",
    ...                          status="rejected"), [])  # doctest: +SKIP
    ()
    """
    sender = (s.sender or "").strip().lower()
    if any(i.code in OFFICES_MATTER for i in issues):
        return ()       # "请使用本次比赛下发的报名表" to a captain who did: the office puts its id back
    if branch_proven(s, issues):
        unit = t.spec.unit(s.branch)
        registered = _addresses(unit.emails if unit else [])
        if sender and sender in registered:
            return (sender,)
        return tuple(registered)
    if t.spec.unit_of_address(sender) is not None:
        return (sender,)
    return ()


def bare_mail_recipients(state: "LeagueState", m: "BareMail") -> tuple[str, ...]:
    """Who a mail without a workbook's receipt goes to: its sender, when that is a
    registered address of some unit — unless the mail was sent by a program, or a
    registration workbook of that unit came at the same time or later (it answered it).

    >>> bare_mail_recipients(state, BareMail("h", "m.eml", now, sender="stranger@x.cn"))  # doctest: +SKIP
    ()
    """
    sender = (m.sender or "").strip().lower()
    unit = state.tournament.spec.unit_of_address(sender)
    if unit is None or m.automatic:
        return ()
    if any(_of_unit(state, s, unit) for s in state.submissions if aware(s.received) >= aware(m.received)):
        return ()
    return (sender,)


def _of_unit(state: "LeagueState", s: "Submission", unit: "UnitSpec") -> bool:
    """Whether a submission came from ``unit``: its token proved it, or one of the unit's
    registered addresses sent it."""
    if getattr(state.tournament.spec.unit_of_address(s.sender), "id", None) == unit.id:
        return True
    return s.branch == unit.id and branch_proven(s, issues_of(state, s))


def unit_names(t: "Tournament") -> dict[str, str]:
    """Each registered address (lower case) → the name of the unit that registered it (the
    first, when two did): what is said about an address the mail server refused.

    >>> unit_names(t)["cap1@a.example.cn"]  # doctest: +SKIP
    '行政第一分工会'
    """
    out: dict[str, str] = {}
    for u in t.spec.units:
        for e in _addresses(u.emails):
            out.setdefault(e, u.name)
    return out


def _addresses(emails: list[str]) -> list[str]:
    seen: list[str] = []
    for e in emails:
        e = e.strip().lower()
        if e and e not in seen:
            seen.append(e)
    return seen


def _unit_name(t: "Tournament", s: "Submission", proven: bool = True) -> str:
    """The unit a receipt greets: the workbook's when its token proved it; else the unit whose
    registered address sent it — the only one the receipt goes to (:func:`recipients`).  A
    form claiming another unit, sent from 公共体育部's address, greeted 艺术设计与教育分工会."""
    unit = t.spec.unit(s.branch) if s.branch and proven else None
    if unit is None:
        unit = t.spec.unit_of_address(s.sender) or (t.spec.unit(s.branch) if s.branch else None)
    return unit.name if unit else f"贵{t.spec.unit_word}"


def _location(i: "Issue", spec: object = None) -> str:
    """Where an issue is, as the receipt says it: the sheet's name as the workbook names its
    tab (:func:`pipeline.text.typed`) — a tab WPS renamed 報名表 was quoted 報名錶 in a
    Traditional receipt, a tab the workbook does not have."""
    from ..text import typed

    sheet = typed(i.sheet, spec) if i.sheet else ""
    if sheet and i.cell:
        return f"{sheet}!{i.cell}"
    return sheet or i.cell or "整个文件"


def _receipt(state: "LeagueState", out_dir: Path, s: "Submission", issues: list["Issue"],
             to: tuple[str, ...]) -> Receipt:
    t = state.tournament
    word = t.spec.unit_word
    proven = branch_proven(s, issues)
    name = _unit_name(t, s, proven)
    when = _shown(s.received, [ev.deadline for ev in t.spec.events])
    problems = [i for i in issues if i.severity in (Severity.ERROR, Severity.WARNING)]
    errors = [i for i in problems if i.severity == Severity.ERROR]
    entries = [e for e in state.entries if e.branch == s.branch] if proven and s.status != "superseded" else []
    lines = [f"{name}：", ""]
    attachment, attachment_name = None, ""

    if s.status == "superseded":
        kind = "superseded"
        subject = f"【报名回执】{name}：已被新报名表取代"
        kept = [ev for ev in t.spec.events if ev.id in s.kept]
        if s.together:
            subject = (f"【报名回执】{name}：以"
                       + ("同一封邮件中的另一份" if s.together[2] else "同时收到的另一份") + "报名表为准，这一份未采用")
            lines += _together_lines(t, s, when)
        elif kept:
            # its rows for the events closed before the newer form came still count (R2020-Q4)
            closed = _deadline_text(_deadline_groups(kept))
            lines.append(f"已收到贵{word}的报名表《{_as_received(t, s.file)}》（{when} 收到）。此后又收到了一份更新的报名表："
                         f"{'、'.join(ev.name for ev in kept)}的报名已于 {closed} 截止，仍以这份报名表为准；"
                         "其余项目以最后收到的一份为准。新表的回执另行发送。")
        else:
            lines.append(f"已收到贵{t.spec.unit_word}的报名表《{_as_received(t, s.file)}》（{when} 收到）。"
                         "此后又收到了一份更新的报名表，以最后收到的一份为准；新表的回执另行发送。")
    elif not errors and s.status in ("current", "accepted"):
        kind = "accepted"
        subject = f"【报名回执】{name}：已接受"
        lines.append(f"已收到并接受贵{t.spec.unit_word}的报名表《{_as_received(t, s.file)}》（{when} 收到）。登记如下：")
        lines += [""] + _entry_lines(t, entries) + [""]
        beside = _settled_beside(state, s)
        if beside:
            lines += beside + [""]
        if problems:
            lines.append("请留意以下提醒（不影响接受）：")
            lines += _problem_lines(problems, state.tournament.spec) + [""]
        win = _window(state, _events_of(state, s, None))
        if win.closed:
            lines.append(win.closed)
        if win.still:
            lines.append(_still_open(win))
        elif win.open and not win.closed:
            lines.append(f"如需修改，请在这份报名表上修改后{win.before}重新发送，以最后收到的一份为准。")
    elif refusal(s) == "form":
        kind = "needs_change"
        more, still_open = _foreign_lines(state, s, problems or issues, name, when)
        if _own_form_taken(state, s, _sender_unit(t, s), problems or issues):
            subject = f"【报名回执】{name}：其他{word}的报名表未受理，本{word}的报名表已受理"
        else:
            subject = f"【报名回执】{name}：未受理，" + (f"请使用本{word}的报名表" if still_open else "报名已截止")
        lines += more
    elif refusal(s) == "late":
        kind = "needs_change"
        subject = f"【报名回执】{name}：逾期收到，未受理"
        lines += _late_lines(state, s, problems or issues, entries, when)
    elif _unreadable(t, s, proven, problems or issues):
        kind = "needs_change"
        subject, more = _unreadable_lines(state, s, problems or issues, name, when)
        lines += more
    elif proven and s.status in ("current", "accepted") and _late_rows_only(errors):
        # only rows of closed events changed late: no edit makes them count (R2020-Q4)
        kind = "accepted"
        late = _late_events(t, errors)
        subject = f"【报名回执】{name}：已接受；{'、'.join(ev.name for ev in late)}的改动逾期，未受理"
        lines += _late_rows_lines(state, s, problems, late, entries, when)
        if s.returned_path and (out_dir / s.returned_path).is_file():
            attachment = out_dir / s.returned_path
            from ..text import convert
            attachment_name = f"{Path(s.file).stem}-{convert('已标注问题', t.spec.script)}.xlsx"
            lines += ["", f"附件《{attachment_name}》标出了逾期未受理的单元格，供核对。"]
    else:
        kind = "needs_change"
        n = len(problems) or len(issues)
        subject = f"【报名回执】{name}：需修改（{n} 个问题）"
        verdict = ("未被接受" if s.status in ("rejected", "unreadable")
                   else "部分内容有问题，有问题的报名未被登记")
        win = _window(state, _events_of(state, s, t.spec.unit(s.branch) if proven else t.spec.unit_of_address(s.sender)))
        if not win.open:        # nothing to change by mail any more
            subject = f"【报名回执】{name}：有 {n} 个问题（报名已截止）"
        ask = f"，请{win.before}逐条修改后重新发送" if not win.closed else ""
        lines.append(f"已收到贵{t.spec.unit_word}的报名表《{_as_received(t, s.file)}》（{when} 收到），{verdict}。"
                     f"共发现 {n} 个问题{ask}：")
        lines += [""] + _problem_lines(problems or issues, state.tournament.spec) + [""]
        annotated = bool(s.returned_path) and (out_dir / s.returned_path).is_file()
        if win.closed:
            lines.append(win.closed)
            if win.still and annotated:
                lines.append(_still_open(win, "请{before}修改后重新发送。"))
            lines.append("")
        if entries:
            lines.append("目前已登记的报名：")
            lines += _entry_lines(t, entries) + [""]
        if annotated:
            attachment = out_dir / s.returned_path
            # the captain's file name as sent, our words in the league's script (the body names it in 《》)
            from ..text import convert
            attachment_name = f"{Path(s.file).stem}-{convert('已标注问题', t.spec.script)}.xlsx"
            lines.append(f"附件《{_as_received(t, attachment_name)}》是标注了问题的报名表：有问题的单元格已标出并加了批注，"
                         + ("可直接在上面修改后发回。" if win.open else "供核对。"))
        elif win.open:
            lines.append(f"{win.still}请使用组委会下发给本{t.spec.unit_word}的报名表填写后{win.before}重新发送。")
    lines += _signature(t)
    return Receipt(sha256=s.sha256, branch=s.branch if proven else "", to=to, subject=subject,
                   body="\n".join(lines) + "\n", kind=kind, attachment=attachment,
                   attachment_name=attachment_name)


def _signature(t: "Tournament") -> list[str]:
    """A receipt's last lines: who sends it, and that it is sent by the system."""
    return ["", f"{t.spec.issuer or t.spec.name} {t.spec.name}组委会",
            f"（本邮件由系统自动发送，请勿直接回复此邮件询问；如有疑问请联系{_contact(t)}。）"]


def _contact(t: "Tournament") -> str:
    return t.spec.contact or "组委会"


def _shown(when: dt.datetime, deadlines: Iterable[dt.datetime | None] = ()) -> str:
    """A time as receipts print it, ``2020-11-09 15:00``; a received time in the minute of
    one of ``deadlines`` with its seconds (R2020-Q4: :func:`pipeline.timeutil.clock`)."""
    return stamp(when, deadlines)


def _events_of(state: "LeagueState", s: "Submission | None", unit: "UnitSpec | None") -> list["EventSpec"]:
    """The events whose deadlines a receipt gives: those the form's rows name; for a form
    whose rows name none (unreadable, empty), the unit's registered events; else every event."""
    spec = state.tournament.spec
    ids = set(s.events) if s is not None else set()
    if not ids and unit is not None:
        ids = {e.event for e in state.entries if e.branch == unit.id}
    return [ev for ev in spec.events if ev.id in ids] or list(spec.events)


def _deadline_groups(events: list["EventSpec"]) -> list[tuple[dt.datetime, list["EventSpec"]]]:
    """``events`` that have a deadline, by deadline (earliest first)."""
    groups: dict[dt.datetime, list["EventSpec"]] = {}
    for ev in events:
        if ev.deadline is not None:
            groups.setdefault(aware(ev.deadline), []).append(ev)
    return sorted(groups.items(), key=lambda g: g[0])


def _deadline_text(groups: list[tuple[dt.datetime, list["EventSpec"]]]) -> str:
    """``2020-11-09 15:00``; with several deadlines each with its events:
    ``围棋、桥牌 2015-10-30 23:59，双扣 2015-11-14 23:59``."""
    if len(groups) == 1:
        return _shown(groups[0][0])
    return "，".join(f"{'、'.join(ev.name for ev in evs)} {_shown(when)}" for when, evs in groups)


@dataclass(frozen=True)
class _Window:
    """Whether a corrected form sent now still counts, for the events a receipt is about
    (:func:`_window`).

    ``open``: for some of them (or for all, marked late, under ``accept-with-warning``).
    ``before``: 在 2020-11-09 15:00 前 / 在各项目截止前（…） — "" when no deadline is ahead.
    ``closed``: "" while no deadline has passed, else what that means (a sentence), with
    ``still`` the events still open then (双扣的报名, to be told ``before``)."""

    open: bool
    before: str = ""
    closed: str = ""
    still: str = ""


def _window(state: "LeagueState", events: list["EventSpec"]) -> _Window:
    """The receipt's words on the deadlines of ``events`` at ``state.now`` (:func:`window_at`)."""
    return window_at(state.tournament, state.now, events)


def window_at(t: "Tournament", now: dt.datetime, events: list["EventSpec"]) -> _Window:
    """The words on the deadlines of ``events`` (each event its own: spec events[].deadline)
    at ``now``, for a receipt (:func:`_window`) or a note that asks for a resend
    (:func:`pipeline.run.own_mail_after_deadline`).  A form received after a deadline is
    late (R2020-Q4): under ``late_policy: reject`` a correction sent then is refused, so a
    receipt asking for one (请逐条修改后重新发送, on every receipt after the deadline) sent the
    captain into a LATE_SUBMISSION; under ``accept-with-warning`` it is taken, marked late."""
    now = aware(now)
    closed = [ev for ev in events if ev.deadline is not None and now > aware(ev.deadline)]
    ahead = [ev for ev in events if ev not in closed]
    groups = _deadline_groups(ahead)
    if not groups:
        before = ""
    elif len(groups) == 1 and len(groups[0][1]) == len(ahead):
        before = f"在 {_shown(groups[0][0])} 前"
    else:
        before = f"在各项目截止前（{_deadline_text(groups)}）"
    if not closed:
        return _Window(True, before)
    shut = _deadline_groups(closed)
    every = not ahead           # every event of the form has closed
    # (several deadlines name their events themselves)
    what = ("报名" if len(closed) == len(t.spec.events) or len(shut) > 1
            else f"{'、'.join(ev.name for ev in closed)}的报名")
    when = f"已于 {_shown(shut[0][0])} 截止" if len(shut) == 1 else f"已截止（{_deadline_text(shut)}）"
    reject = t.spec.late_policy == "reject"
    if every and reject:
        said = (f"{what}{when}，已不能再通过邮件更正：截止后收到的报名表不予受理。"
                f"如确需更正，请联系{_contact(t)}。")
    elif every:
        said = (f"{what}{when}：此后重新发送的报名表将被标为逾期报名（LATE_SUBMISSION），"
                "由组委会决定是否接受。")
    elif reject:
        said = (f"{what}{when}，这些项目的报名已不能再通过邮件更改，截止后收到的改动不予受理；"
                f"如确需更改，请联系{_contact(t)}。")
    else:
        said = f"{what}{when}：重新发送的报名表中这些项目将被标为逾期报名，由组委会决定是否接受。"
    return _Window(bool(ahead) or not reject, before, said, f"{'、'.join(ev.name for ev in ahead)}的报名" if ahead else "")


def _still_open(win: _Window, ask: str = "如需修改，请在这份报名表上修改后{before}重新发送，以最后收到的一份为准。") -> str:
    """Once some of a receipt's events have closed while others are still open (``win.still``:
    T2015 closes 围棋/中国象棋/桥牌 on 10-30 and 双扣 on 11-14), the line naming those still open
    and until when — ``ask`` with ``{before}`` (在 2015-11-14 23:59 前): 双扣的报名如需修改，请在
    这份报名表上修改后在 2015-11-14 23:59 前重新发送，以最后收到的一份为准。  Every receipt that says
    which events have closed says this too (R2020-Q4, per event): a receipt of a mail without a
    workbook, or of a form resent unchanged, said only that 围棋… had closed, and the captain
    believed every event had.  "" when no event is still open."""
    return f"{win.still}{ask.format(before=win.before)}" if win.still else ""


def _foreign_lines(state: "LeagueState", s: "Submission", problems: list["Issue"], name: str,
                   when: str) -> tuple[list[str], bool]:
    """The body of a receipt of a file that is not the unit's issued form (:func:`refusal`
    "form"): it cannot be made acceptable by editing it — 请逐条修改后重新发送 and 可直接在上面
    修改后发回 sent the captain round again — so it says which form works, where it comes
    from, and what the unit has registered meanwhile.  No annotated copy is attached (its
    first sheet says 改好后请重新发送整个文件).  With whether a form sent now may still count."""
    from ..xlsx.registration import template_filename

    t = state.tournament
    word = t.spec.unit_word
    unit = _sender_unit(t, s)
    lines = [f"已收到贵{word}发来的《{_as_received(t, s.file)}》（{when} 收到），未被受理：它不是组委会下发给{name}的本次比赛报名表，"
             "在这份文件上修改后再发回，仍然不能受理。原因：", ""]
    lines += _problem_lines(problems, state.tournament.spec) + [""]
    issued = f"（文件名为《{_as_received(t, template_filename(t, unit))}》）" if unit is not None else ""
    win = _window(state, _events_of(state, s, unit))
    if win.closed:
        lines.append(win.closed)
    own = _own_form_taken(state, s, unit, problems)
    if own:
        lines += own
    elif win.open:
        lines.append(f"{win.still}请使用组委会下发给本{word}的报名表{issued}填写后{win.before}发送；以前填过的内容"
                     f"可以照抄过去。找不到这份报名表的，请联系{_contact(t)}索取。")
    if unit is not None:
        mine = [e for e in state.entries if e.branch == unit.id]
        lines += ["", f"贵{word}目前登记的报名（不受这份文件影响）：" if mine else f"贵{word}目前还没有登记的报名。"]
        if mine:
            lines += _entry_lines(t, mine)
    return lines, win.open


def _sender_unit(t: "Tournament", s: "Submission") -> "UnitSpec | None":
    """The unit a receipt of a file not its issued form speaks to: the registered address's
    that sent it, else the one the file names."""
    return t.spec.unit_of_address(s.sender) or (t.spec.unit(s.branch) if s.branch else None)


def _own_form_taken(state: "LeagueState", s: "Submission", unit: "UnitSpec | None",
                    problems: list["Issue"]) -> list[str]:
    """For a receipt of another unit's genuine form sent from ``unit``'s address
    (OTHER_UNITS_FORM) while ``unit``'s own form is taken (received before it, in the same
    mail, or after it): that its own form was taken and that this one counts for nobody —
    the other unit must send it itself.  A captain who mailed b04's own form and b06's in
    one mail was told 请使用组委会下发给本分工会的报名表…发送 beside the 已接受 of the very
    form it asked for (an audit).  [] when the unit has no form taken, or the file is no
    OTHER_UNITS_FORM (a form this unit filled in wrongly: its own form is the way) — or its
    note still asks the unit to send its own form (:func:`pipeline.run.settle_rejected_before`
    decides: a person in the file not on the unit's own form, or its own form received after
    it and the note not settled).  The receipt says what the note says: b04's update sent on
    b06's form (李四 added) got 已受理，不受这份文件影响，无需重新发送, and 李四 was lost; b04's own
    form received later the same night, item 1 said 请改用…重新发送 above 此后收到的…无需重新发送
    (a review)."""
    word = state.tournament.spec.unit_word
    mine = [i for i in problems if i.code == "OTHER_UNITS_FORM"]
    if unit is None or not mine or any(
            i.severity == Severity.ERROR and f"请改用组委会下发给本{word}的报名表" in i.message for i in mine):
        return []
    forms = [o for o in state.submissions if o.sha256 != s.sha256 and o.status in ("current", "accepted")
             and o.branch == unit.id and branch_proven(o, issues_of(state, o))]
    if not forms:
        return []
    t = state.tournament
    form = max(forms, key=lambda o: aware(o.received))
    name = f"《{_as_received(t, form.file)}》"
    if _same_mail(form, s):
        taken = f"同一封邮件所附的贵{word}自己的报名表{name}已受理（回执另行发送），无需重新发送。"
    elif aware(form.received) > aware(s.received):
        taken = f"此后收到的贵{word}自己的报名表{name}（{_shown(form.received)} 收到）已受理，无需重新发送。"
    else:
        taken = f"贵{word}自己的报名表{name}（{_shown(form.received)} 收到）已受理，不受这份文件影响，无需重新发送。"
    owner = next((u.name for u in t.spec.units if u.id != unit.id
                  and any(f"下发给{u.name}的报名表" in i.message for i in mine)), f"另一{word}")
    return [taken, f"《{_as_received(t, s.file)}》是{owner}的报名表，不计入任何{word}的报名；"
                   f"{owner}的报名须由{owner}从其登记的邮箱自行发送。"]


def _together_lines(t: "Tournament", s: "Submission", when: str) -> list[str]:
    """The body of the receipt of a form set aside for one received at the same time
    (SAME_TIME; :attr:`Submission.together`): both came in one mail (or the same minute),
    which one counts and why, and how to make this one count.  From an audit of mail intake:
    it said 此后又收到了一份更新的报名表, and there was no later form."""
    other, why, one_mail = s.together
    counts = f"《{_as_received(t, other)}》"
    because = {"saved": f"按表格最后保存的时间，以保存得较晚的{counts}为准",
               "attached": f"两份表格的保存时间相同，按附件在邮件中的先后，以排在后面的{counts}为准"}.get(
        why, f"两份表格没有记录可以区分先后的保存时间，暂以{counts}为准")
    where = f"同一封邮件中还附了另一份报名表{counts}" if one_mail else f"同一时间（同一分钟内）还收到了另一份报名表{counts}"
    return [f"已收到贵{t.spec.unit_word}的报名表《{_as_received(t, s.file)}》（{when} 收到）。{where}，"
            f"两份同时收到，无法按收到时间分先后：{because}，这一份没有采用；{counts}的回执另行发送。",
            "如果应以这一份为准，请在这一份上做任意修改（如在备注中注明日期）后单独重新发送"
            "（原样重发的文件与已收到的相同，不会生效）。"]


def _unreadable(t: "Tournament", s: "Submission", proven: bool, problems: list["Issue"]) -> bool:
    """Whether ``s`` is a file that could not be read as a form at all (UNREADABLE_FILE: a
    .xls, a damaged file) from a unit's registered address: there is nothing in it to correct
    cell by cell (:func:`_unreadable_lines`)."""
    return (not proven and s.status in ("unreadable", "rejected") and t.spec.unit_of_address(s.sender) is not None
            and bool(problems) and all(i.code == "UNREADABLE_FILE" for i in problems))


def _unreadable_lines(state: "LeagueState", s: "Submission", problems: list["Issue"], name: str,
                      when: str) -> tuple[str, list[str]]:
    """The subject and body of the receipt of a file that could not be read as a form
    (:func:`_unreadable`).  From an audit of mail intake: a correction re-sent as .xls after
    an accepted .xlsx got 需修改 … 逐条修改后重新发送 and 请使用组委会下发的报名表填写 — two
    instructions, the second wrong — and never said that the accepted form still stood.  It
    says why the file cannot be read and what to do (the issue's own words: 另存为 .xlsx, one
    instruction), until when, and — as NO_ATTACHMENT's receipt — that the form accepted before
    is not affected, with the unit's current entries."""
    t = state.tournament
    word = t.spec.unit_word
    unit = t.spec.unit_of_address(s.sender)
    xls = Path(s.file).suffix.lower() == ".xls"
    subject = f"【报名回执】{name}：文件无法读取，" + ("请另存为 .xlsx 后重新发送" if xls else "请重新发送")
    lines = [f"已收到贵{word}发来的《{_as_received(t, s.file)}》（{when} 收到），但这个文件无法作为报名表读取，没有受理：", ""]
    lines += _problem_lines(problems, state.tournament.spec) + [""]
    win = _window(state, _events_of(state, s, unit))
    if win.closed:
        lines.append(win.closed)
        if win.still:
            lines.append(_still_open(win, "请{before}重新发送，以最后收到的一份为准。"))
    elif win.before:
        lines.append(f"请{win.before}重新发送，以最后收到的一份为准。")
    forms = [o for o in state.submissions if unit is not None and o.status in ("current", "accepted")
             and o.branch == unit.id and branch_proven(o, issues_of(state, o))]
    mine = [e for e in state.entries if unit is not None and e.branch == unit.id]
    lines.append("")
    if forms:
        form = max(forms, key=lambda o: aware(o.received))
        if aware(form.received) > aware(s.received):       # (a receipt sent late: the form came after it)
            lines.append(f"此后收到的报名表《{_as_received(t, form.file)}》（{_shown(form.received)} 收到）已接受，"
                         "这个文件无需再处理。" + ("目前登记的报名：" if mine else ""))
        else:
            lines.append(f"此前收到并已接受的报名表《{_as_received(t, form.file)}》（{_shown(form.received)} 收到）"
                         "不受这个文件影响，仍然有效。" + ("目前登记的报名：" if mine else ""))
    elif mine:
        lines.append(f"贵{word}目前登记的报名（不受这个文件影响）：")
    else:
        lines.append(f"贵{word}目前还没有登记的报名。")
    if mine:
        lines += _entry_lines(t, mine)
    return subject, lines


def _late_lines(state: "LeagueState", s: "Submission", problems: list["Issue"], entries: list["Entry"],
                when: str) -> list[str]:
    """The body of a receipt of a form refused for coming after every deadline
    (``late_policy: reject``; :func:`refusal` "late"): sending it again, edited or not, is
    refused again.  It says so, what stays registered for the unit, and whom to ask."""
    t = state.tournament
    word = t.spec.unit_word
    closed = _deadline_text(_deadline_groups(_events_of(state, s, None)))
    lines = [f"已收到贵{word}的报名表《{_as_received(t, s.file)}》（{when} 收到）。这份报名表在报名截止"
             f"{f'（{closed}）' if closed else ''}之后收到，未被受理：", ""]
    lines += _problem_lines(problems, state.tournament.spec) + [""]
    lines.append(f"贵{word}目前登记的报名仍以此前按时收到的报名表为准：" if entries
                 else f"贵{word}目前没有登记的报名。")
    if entries:
        lines += [""] + _entry_lines(t, entries)
    lines += ["", f"报名已经截止，重新发送报名表也不能受理。如有特殊情况需要更改报名，请联系{_contact(t)}。"]
    return lines


def _late_rows_only(errors: list["Issue"]) -> bool:
    """Whether a form taken (current) has no error but LATE_SUBMISSION: rows of an event whose
    deadline had passed when it came, while another event of the form was still open
    (``late_policy: reject``, R2020-Q4 per event; :func:`pipeline.run._split_by_deadline`,
    :func:`pipeline.validate.checks.check_deadline`).  No edit of the form can make those
    rows count — only putting back what was registered in time clears the mark — so its
    receipt is no 需修改 / 可直接在上面修改后发回 (:func:`_late_rows_lines`)."""
    return bool(errors) and all(i.code == "LATE_SUBMISSION" for i in errors)


def _late_events(t: "Tournament", late: list["Issue"]) -> list["EventSpec"]:
    """The events that LATE_SUBMISSION issues are about (their messages quote the event's
    name: “围棋”报名截止时间为 …), in the spec's order; every event whose deadline has passed
    when none is quoted."""
    named = [ev for ev in t.spec.events if any(f"“{ev.name}”" in i.message for i in late)]
    return named or [ev for ev in t.spec.events if ev.deadline is not None]


def _late_rows_lines(state: "LeagueState", s: "Submission", problems: list["Issue"], late: list["EventSpec"],
                     entries: list["Entry"], when: str) -> list[str]:
    """The body of the receipt of a form taken whose only errors are late rows of closed events
    (:func:`_late_rows_only`): what was registered, that the late rows were not taken and
    cannot be by any edit, that nothing need be done (the registration made in time stands,
    named), how to clear the mark if the captain wishes (put back the registered players, or
    take out the rows of an event not registered in time), and until when the events still
    open may be changed (:func:`_still_open`).  A receipt 需修改（1 个问题） … 可直接在上面修改后
    发回 sent the captain to edit what no edit can make count."""
    t = state.tournament
    word = t.spec.unit_word
    names = "、".join(ev.name for ev in late)
    lines = [f"已收到并接受贵{word}的报名表《{s.file}》（{when} 收到）。但{names}的报名已截止，"
             f"这份报名表中{names}的改动是截止后收到的，未受理：", ""]
    lines += _problem_lines([i for i in problems if i.code == "LATE_SUBMISSION"], state.tournament.spec) + [""]
    lines.append(f"这不是在表上修改就能解决的问题：{names}的报名截止后已不能再更改，表上怎么改都不会生效。"
                 "不处理也可以，原来的登记继续有效：")
    for ev in late:
        mine = [e for e in entries if e.event == ev.id]
        if mine:
            who = _registered(ev, mine)
            lines.append(f"- {ev.name}仍以按时登记的报名为准（{who}）。如果想消除这个标记，请把报名表中{ev.name}的各行"
                         f"恢复为原来登记的内容（{who}）后再发送。")
        else:
            lines.append(f"- {ev.name}没有按时登记的报名，这份报名表中{ev.name}的各行不会登记。如果想消除这个标记，"
                         f"请删去报名表中{ev.name}的各行后再发送。")
    lines.append(f"如有特殊情况确需更改{names}的报名，请联系{_contact(t)}。")
    win = _window(state, _events_of(state, s, None))
    if win.still:
        lines.append(_still_open(win))
    others = [i for i in problems if i.code != "LATE_SUBMISSION"]
    if others:
        lines += ["", "请留意以下提醒（不影响接受）：", *_problem_lines(others, state.tournament.spec)]
    lines += ["", "目前已登记的报名：", *_entry_lines(t, entries)]
    return lines


def _registered(ev: "EventSpec", entries: list["Entry"]) -> str:
    """Who is registered for ``ev``: 梁平; a pair or team by its label: 机关1队：严红、莫红平."""
    if ev.is_team:
        return "；".join(f"{e.team}：{'、'.join(p.shown for p in e.players)}" for e in entries)
    return "、".join(p.shown for e in entries for p in e.players)


#: at most this many attachments are named in a receipt (a mail with every photo of a form)
SKIPPED_SHOWN = 8

#: what to do with an attachment that is no workbook, by its extension (a .xls is read, and
#: its own receipt says to save it as .xlsx: it is named here for a mail that has one anyway)
_HINTS = (
    ((".xls", ".et", ".ett", ".xlsb", ".ods", ".fods", ".ots", ".numbers"),
     ".xls、.et、.ods 等格式的表格：请在 Excel、WPS 或 LibreOffice 中打开，“另存为”Excel 工作簿（*.xlsx），"
     "再作为附件发送。"),
    # (a CSV saved back as .xlsx is still no form: its hidden check sheet is gone)
    ((".csv",), "CSV 文件丢失了报名表中的校验信息，请在下发的 .xlsx 报名表中填写后发送（不要另存为 CSV）。"),
    ((".zip", ".rar", ".7z", ".gz", ".tar"),
     "压缩包（.zip、.rar）：请先解压，把其中的 .xlsx 文件直接作为附件发送，不要压缩。"),
    ((".doc", ".docx", ".wps", ".pdf", ".txt", ".jpg", ".jpeg", ".png", ".gif", ".bmp", ".heic", ".webp"),
     "Word 文档（.doc）、PDF 和图片中的表格无法读取：请把内容填写在组委会下发的表格中，保存为 .xlsx。"),
    # (a shortcut dragged in instead of the file: handbook 二, as in the inbox)
    ((".lnk",), "Windows 的快捷方式（.lnk）不是文件本身：请把文件本身（填好的 .xlsx）作为附件重新发送。"),
)
_OTHER_HINT = "请使用组委会下发的表格（Excel 工作簿，.xlsx）填写。"


def _skipped_hints(names: tuple[str, ...]) -> list[str]:
    """What to do with attachments that are no workbook, once per kind, in a fixed order.

    >>> _skipped_hints(("报名表.zip", "a.doc", "b.et"))[0][:4]
    '.xls'
    """
    tnef = [n for n in names if Path(n).name.lower() == "winmail.dat"]
    exts = {Path(n).suffix.lower() for n in names if n not in tnef}
    hints = [hint for group, hint in _HINTS if exts & set(group)]
    if tnef:
        hints.append(_TNEF_HINT)
    if exts - {e for group, _ in _HINTS for e in group}:
        hints.append(_OTHER_HINT)
    return hints


#: Outlook's winmail.dat (TNEF): the captain used the form, but Outlook (RTF mail) packed it
_TNEF_HINT = ("winmail.dat 是 Outlook 以 RTF 格式发信时把附件打成的包，表格没有原样寄到：请在 Outlook 中把邮件格式改为"
              " HTML 或纯文本（“文件 → 选项 → 邮件 → 以下列格式撰写邮件”），再把填好的 .xlsx 作为附件重新发送。")

#: … and winmail.dat beside a workbook that was taken (NO_ATTACHMENT): Outlook's formatting data,
#: nothing to resend (the hint above told the captain to change Outlook's format and resend the
#: .xlsx that had been accepted — from an audit of mail intake)
_TNEF_BESIDE_HINT = "是 Outlook 附带的邮件格式信息（不是表格），不需要读取，无需处理。"


def _cloud_hint(links: tuple[str, ...]) -> str:
    """What to do about a mail whose body links to a cloud drive or a 超大附件 (:func:`pipeline.
    ingest.eml.cloud_links`) instead of attaching the form; "" without one.

    >>> _cloud_hint(("百度网盘",))[:13]
    '邮件中是网盘/超大附件链接'
    """
    if not links:
        return ""
    return (f"邮件中是网盘/超大附件链接（{'、'.join(links)}），系统不会下载链接中的文件，"
            "请把 .xlsx 作为普通附件直接发送（文件不大，不要用网盘或超大附件）。")


def _bare_receipt(state: "LeagueState", m: "BareMail", to: tuple[str, ...]) -> Receipt:
    """The receipt of a mail that carried no workbook (kind needs_change)."""
    t = state.tournament
    word = t.spec.unit_word
    unit = t.spec.unit_of_address(m.sender)
    name = unit.name if unit else f"贵{word}"
    when = f"{aware(m.received).astimezone(TZ):%Y-%m-%d %H:%M}"
    subject = " ".join((m.subject or "").split())
    subject = (f"主题“{_as_received(t, subject[:60])}{'…' if len(subject) > 60 else ''}”" if subject
               else "没有主题")
    lines = [f"{name}：", "",
             f"{when} 收到贵{word}的邮件（{subject}），但邮件中没有 Excel 工作簿（.xlsx）附件，"
             "这封邮件没有提交任何表格。", ""]
    if m.skipped:
        shown = "、".join(f"《{_as_received(t, n)}》" for n in m.skipped[:SKIPPED_SHOWN])
        more = f"等 {len(m.skipped)} 个附件" if len(m.skipped) > SKIPPED_SHOWN else ""
        lines += [f"邮件所附的{shown}{more}不是 Excel 工作簿（.xlsx），无法读取。"]
        lines += [f"- {hint}" for hint in _skipped_hints(m.skipped)] + [""]
        if m.links:
            lines += [_cloud_hint(m.links), ""]
    elif m.links:
        lines += [_cloud_hint(m.links), ""]
    else:
        lines += ["邮件没有附件（粘贴在邮件正文中的表格无法读取）。", ""]
    lines.append(f"请把填好的报名表（或成绩表）作为附件重新发送：使用组委会下发给本{word}的表格，"
                 ".xlsx 格式，直接作为附件（不要压缩，不要粘贴在正文中）。以最后收到的一份为准。")
    win = _window(state, _events_of(state, None, unit))
    if win.closed:
        lines.append(f"{win.closed}（成绩表不受报名截止时间限制。）")
        if win.still:
            lines.append(_still_open(win, "请{before}发送，以最后收到的一份为准。"))
    elif win.before:
        lines.append(f"报名表请{win.before}发送。")
    # (a captain who answers an accepted receipt with “收到” must not think the form lost)
    before = [s for s in state.submissions if unit is not None and s.status in ("current", "accepted")
              and s.branch == unit.id and branch_proven(s, issues_of(state, s))]
    if before:
        form = max(before, key=lambda s: aware(s.received))
        lines += ["", f"此前收到的报名表《{_as_received(t, form.file)}》（{aware(form.received).astimezone(TZ):%Y-%m-%d %H:%M} 收到）"
                  "不受这封邮件影响。"]
    lines += ["", "如果这封邮件本来就不是用来发送表格的（例如询问或回复），请忽略本回执。"]
    lines += _signature(t)
    return Receipt(sha256=m.sha256, branch="", to=to, subject=f"【报名回执】{name}：邮件中没有 Excel 表格，请重新发送",
                   body="\n".join(lines) + "\n", kind="needs_change")


def _resent_receipt(state: "LeagueState", r: "ResentForm") -> Receipt:
    """The receipt of a mail that sent a superseded form again unchanged (DUPLICATE_FILE,
    kind superseded): the captain is told the form did not count again, which form does,
    and how to make this one count — the warning reached the office only, and the captain
    who sent X, Y, then X “以此为准” believed X counted."""
    t = state.tournament
    unit = t.spec.unit(r.branch)
    name = unit.name if unit else f"贵{t.spec.unit_word}"
    when = f"{aware(r.received).astimezone(TZ):%Y-%m-%d %H:%M}"
    # (a mail --imap stored as <hash>.eml by its subject: no captain knows that name)
    mail = mail_named(r.file, r.subject, r.received, when=False, script=t.spec.script)
    lines = [f"{name}：", "", f"{when} 收到贵{t.spec.unit_word}的邮件{mail}。", "", r.message, ""]
    if r.form == "报名表":      # (a result sheet has no deadline of its own)
        win = _window(state, _events_of(state, None, unit))
        if win.closed:
            lines.append(win.closed)
            if win.still:
                lines.append(_still_open(win))
        elif win.before:
            lines.append(f"改动后的报名表请{win.before}发送。")
    lines += _signature(t)
    head = "报名回执" if r.form == "报名表" else "成绩表回执"
    return Receipt(sha256=r.sha256, branch=r.branch, to=(r.sender,),
                   subject=f"【{head}】{name}：重发的{r.form}与此前的一份相同，没有生效",
                   body="\n".join(lines) + "\n", kind="superseded")


def _problem_lines(issues: list["Issue"], spec: object = None) -> list[str]:
    """``1. [CODE] 位置：message``, the place said once (a registration check's message starts
    with it: :func:`pipeline.issues.unlocated`)."""
    from ..issues import unlocated

    return [f"{k}. [{i.code}] {_location(i, spec)}：{unlocated(i)}" for k, i in enumerate(issues, 1)]


def _entry_lines(t: "Tournament", entries: list["Entry"]) -> list[str]:
    if not entries:
        return ["（没有登记任何报名）"]
    lines: list[str] = []
    for ev in t.spec.events:
        mine = [e for e in entries if e.event == ev.id]      # in the order the sheet listed them
        if not mine:
            continue
        if ev.is_team:
            unit_word = "对" if ev.team_size == 2 else "队"
            lines.append(f"{ev.name}（{len(mine)} {unit_word}）：")
            lines += [f"  {e.team}：{'、'.join(p.shown for p in e.players)}" for e in mine]
        else:
            lines.append(f"{ev.name}（{len(mine)} 人）：{'、'.join(p.shown for e in mine for p in e.players)}")
    people = {p.key for e in entries for p in e.players}
    lines.append(f"合计 {len(entries)} 项报名，{len(people)} 人。")
    return lines
