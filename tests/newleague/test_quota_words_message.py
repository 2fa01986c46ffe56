"""A quota rule the questionnaire does not recognise asked for English alone (“请写 fixed 2、
bands 0:1,30:2、ratio 0.15 或 open”), though the Chinese words are taken and are what the
office types: the message offers them too, and each form it offers is taken."""
from __future__ import annotations

import re

import pytest

from pipeline import newleague
from pipeline.newleague import BadAnswer


def test_an_unrecognised_quota_rule_suggests_the_chinese_forms():
    with pytest.raises(BadAnswer) as e:
        newleague.v_quota("按人数")
    said = str(e.value)
    for form in ("固定 2", "分档 0:1,30:2", "比例 15%", "不限"):
        assert form in said, said
    # every form it offers is one that is taken
    for form in re.findall(r"(?:固定 2|分档 0:1,30:2|比例 15%|不限|fixed 2|bands 0:1,30:2|ratio 0.15|open)", said):
        newleague.v_quota(form)
