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
