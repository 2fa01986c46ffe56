"""The handbook covers every issue code and links images that exist and stay small."""
from __future__ import annotations

import re
from pathlib import Path

from pipeline.issues import CODES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_handbook_explains_every_issue_code():
    text = (DOCS / "handbook.md").read_text(encoding="utf-8")
    missing = [c for c in CODES if f"| `{c}` |" not in text]
    assert not missing, f"handbook.md has no row for {missing}"


def test_handbook_images_exist_and_are_small():
    text = (DOCS / "handbook.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images
    for rel in images:
        path = DOCS / rel
        assert path.is_file(), rel
        assert path.stat().st_size < 300_000, rel


def test_the_handbook_says_the_pickup_column_as_the_form_has_it(tmp_path):
    """The handbook and the key reference said the registration form gets a 乘车地点 column only
    when pick-up points are given (报名表多出“乘车地点”一列); every form has it (the contract's nine
    labels, test_the_contract_header_even_without_pickup_or_team_events), marked 不填 without a bus."""
    from pipeline import specdoc
    from pipeline.layout import REG_COLUMNS

    assert "乘车地点" in REG_COLUMNS
    text = (DOCS / "handbook.md").read_text(encoding="utf-8") + specdoc.generate()
    flat = re.sub(r"\s+", "", text)
    assert "多出“乘车地点”一列" not in flat and "报名表多一列" not in flat
    assert "不安排班车直接回车：报名表仍有这一列" in flat
