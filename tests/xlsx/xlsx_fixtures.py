"""A small tournament spec for the Excel-writer tests, built in memory (no files read)."""
from __future__ import annotations

import copy
from pathlib import Path

from pipeline.spec import Tournament, TournamentSpec, validated

SECRET = b"test-secret-0123456789abcdef"

SPEC = {
    "id": "t-test",
    "name": "第四届教职工棋牌联赛",
    "contact": "工会办公室 成老师（钉钉）",
    "unit_word": "分工会",
    "units": [
        {"id": "admin1", "name": "行政第一分工会", "captain": "王军", "members": 120,
         "emails": ["a1@example.edu"]},
        {"id": "sci", "name": "理学院/化学分工会", "captain": "李华", "members": 45},
    ],
    "events": [
        {"id": "xiangqi", "name": "象棋", "game": "xiangqi", "deadline": "2020-11-09T15:00:00",
         "quota": {"rule": "fixed", "per_branch": 2}, "format": {"type": "knockout_rr"}},
        {"id": "shuangsheng", "name": "双升", "game": "shengji", "team_size": 2,
         "deadline": "2020-11-09T15:00:00",
         "quota": {"rule": "fixed", "per_branch": 2}, "format": {"type": "knockout_rr"}},
        {"id": "shuangkou", "name": "双扣", "game": "shuangkou", "team_size": 2,
         "quota": {"rule": "bands", "extra_every": 50,
                   "bands": [{"min_members": 0, "entries": 1}, {"min_members": 50, "entries": 2},
                             {"min_members": 100, "entries": 3}]},
         "format": {"type": "swiss"}},
        {"id": "guandan", "name": "掼蛋", "game": "guandan", "team_size": 2,
         "quota": {"rule": "ratio", "ratio": 0.15}, "format": {"type": "groups"}},
        {"id": "go", "name": "围棋", "game": "go", "quota": {"rule": "open"}, "format": {"type": "swiss"}},
    ],
    "pickup_points": ["福建路、花园路", "镇江", "桥头", "自行到达"],
    "discretionary_awards": ["风尚奖", "潜力选手奖", "优胜奖"],
    "branch_award": "组织奖",
}


def make_tournament(tmp_path: Path, **changes) -> Tournament:
    """A Tournament from SPEC with top-level keys replaced.  The spec is validated with
    the pydantic model directly, so tests do not depend on the game/format registries."""
    raw = copy.deepcopy(SPEC)
    raw.update(changes)
    return Tournament(tmp_path, validated(TournamentSpec, raw), SECRET)

