"""A Traditional league (R2015, ``script: traditional``) prints people's names as names
(handbook: 人名按人名转换) — an audit of t2015-tcm found ordinary surnames and the office's
own people printed as words: 嶽琪芳, 遊剛, 佔平, 塗俊健 on the certificates; 祖衝之, 王長徵
where OpenCC itself writes 祖沖之, 王長征; the notice's 主任：餘華, 副主任：範偉、沈後發,
发送至校工会 於麗 and a draw sheet's 裁判：於麗."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pipeline.spec import CommitteeRole, load_tournament
from pipeline.text import contact_people, convert, convert_name, names_kept, people

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("typed, printed", [
    ("岳琪芳", "岳琪芳"), ("游刚", "游剛"), ("占平", "占平"), ("涂俊健", "涂俊健"),      # surnames as typed
    ("于丽", "于麗"), ("余华", "余華"), ("范伟", "范偉"), ("沈后发", "沈后發"),
    ("祖冲之", "祖沖之"), ("王长征", "王長征"),            # not the rarer 衝, 徵 of each character alone
    ("王金发", "王金發"), ("李秀发", "李秀發"),            # not OpenCC's word 金髮 (blond), 秀髮 (hair)
    ("岳云鹏", "岳雲鵬"), ("谢军杰", "謝軍杰"), ("陈晓岚", "陳曉嵐"),
])
def test_R2015_names_print_as_names(typed, printed):
    assert convert_name(typed) == printed


def test_R2015_the_offices_people_are_names_too(tmp_path):
    """The committee, the contact person and the referees of tournament.yaml are among the
    people a page converts as names (:func:`pipeline.text.people`)."""
    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    go = dataclasses.replace(t.spec.events[0], referee="于丽、范伟")
    spec = dataclasses.replace(t.spec, contact="校工会 于丽（联系电话 13880406245）",
                               committee=[CommitteeRole(role="主任", names=["余华"]),
                                          CommitteeRole(role="副主任", names=["范伟", "沈后发"])],
                               events=[go, *t.spec.events[1:]])
    with names_kept(people(spec, [])):
        shown = convert("主任：余华\n副主任：范伟、沈后发\n发送至校工会 于丽（联系电话 13880406245）\n裁判：于丽、范伟",
                        "traditional")
    assert shown == "主任：余華\n副主任：范偉、沈后發\n發送至校工會 于麗（聯繫電話 13880406245）\n裁判：于麗、范偉"


@pytest.mark.parametrize("typed, printed", [
    ("李小云", "李小雲"), ("王子云", "王子雲"), ("张云云", "張雲雲"), ("胡云", "胡雲"),
    ("王长吁", "王長籲"), ("高几", "高幾"),
])
def test_R2015_a_name_is_not_read_as_a_phrase(typed, printed):
    """OpenCC keeps 云 in its phrases 小云, 子云, 云云, 胡云 (and 吁, 几 in others): a name is
    no phrase, each character converts alone — 李小云 was printed 李小云, half Simplified."""
    assert convert_name(typed) == printed


@pytest.mark.parametrize("contact, named", [
    ("于丽", ["于丽"]),
    ("于丽 13880406245", ["于丽"]),
    ("于丽（校工会，电话 13880406245）", ["于丽"]),
    ("联系人：于丽，电话：13880406245", ["于丽"]),
    ("联系人 于丽 电话 13880406245", ["于丽"]),
    ("校工会 办公室 于丽 13880406245", ["于丽"]),
    ("校工会 于丽、余华（电话 13880406245）", ["于丽", "余华"]),
    ("于丽 校工会 13880406245", ["于丽"]),
    ("校工会办公室 电话 13880406245", []),
    ("校工会 后勤处 于丽", ["于丽"]),
    ("校工会 于丽（联系电话 13880406245）", ["于丽"]),
    ("医学技术学院 黄泽娟（OA邮箱，联系电话 13880406245）", ["黄泽娟"]),
    ("于丽 yuli@union.example.edu.cn", ["于丽"]),
    ("工会办公室 成洁（钉钉）", ["成洁"]),
    ("校工会办公室", []),
])
def test_R2015_the_contact_person_is_found(contact, named):
    """The person in tournament.yaml's ``contact`` (:func:`pipeline.text.contact_people`):
    the person alone, first, beside labels (联系人：), phones and units — never a unit or
    an office (后勤处 was taken for the name and printed 后勤處), nor the word 电话."""
    assert contact_people(contact) == named


def test_R2015_an_office_beside_the_contact_is_converted_as_words(tmp_path):
    t = load_tournament(ROOT / "sample_sheets" / "t2015-tcm", cache_parent=tmp_path)
    spec = dataclasses.replace(t.spec, contact="校工会 后勤处 于丽")
    with names_kept(people(spec, [])):
        assert convert("发送至：校工会 后勤处 于丽", "traditional") == "發送至：校工會 後勤處 于麗"
