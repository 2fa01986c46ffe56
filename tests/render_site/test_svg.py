"""Bracket geometry and SVG safety (R2020-F1 shape: 22 → 11 → 6 incl. bye → 3 → round robin)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from pipeline.render import site_vm, svg

from .conftest import EVIL, knockout_event, make_state, _spec

SVG_NS = "{http://www.w3.org/2000/svg}"


def _columns(ko_rounds: int):
    state = make_state(ko_rounds=ko_rounds)
    es = state.events["xiangqi"]
    names = site_vm.Names(state)
    stages = site_vm.split_stages(es.rounds)
    chain = [s for s in stages if site_vm.stage_kind(s, es.spec.format.type) == "knockout"]
    pool = next((s for s in stages if site_vm.stage_kind(s, es.spec.format.type) == "round_robin"), None)
    return site_vm.bracket_columns(es, chain, pool, names, project=not es.complete)


def test_R2020_F1_bracket_boxes_per_round():
    cols = _columns(6)
    lay = svg.layout_bracket(cols)
    assert lay.column_counts() == [11, 6, 3, 1]
    assert [sum(b.kind == "bye" for b in c.boxes) for c in cols] == [0, 1, 0, 0]
    assert len(cols[-1].boxes[0].lines) == 3          # the round-robin pool of three
    # the pool box shows its totals: titled by its rounds, not 决赛循环赛第1轮
    assert cols[-1].title == "决赛循环赛（第4–6轮）" and cols[-1].boxes[0].caption == "决赛循环赛（总积分）"
    # one line from every box that sends someone on: 11 + 6 + 3 connectors
    assert len(lay.connectors) == 11 + 6 + 3
    assert not any(c.dashed for c in lay.connectors)


def test_R2020_F1_bracket_projects_undrawn_rounds():
    cols = _columns(0)          # only round 1 drawn, no results yet
    lay = svg.layout_bracket(cols)
    assert lay.column_counts() == [11, 6, 3, 1]
    assert all(b.kind == "projected" for c in cols[1:] for b in c.boxes)
    assert sum(b.caption == "轮空" for b in cols[1].boxes) == 1


def test_R2020_F1_projection_counts():
    assert site_vm.project_knockout(22, 3) == [(11, 0), (5, 1), (3, 0)]
    assert site_vm.project_knockout(2, 1) == [(1, 0)]
    assert site_vm.project_knockout(3, 3) == []
    assert site_vm.project_knockout(5, 1) == [(2, 1), (1, 1), (1, 0)]


def test_bracket_boxes_do_not_overlap_and_feed_left_to_right():
    lay = svg.layout_bracket(_columns(6))
    by_col: dict[int, list] = {}
    for b in lay.boxes:
        by_col.setdefault(b.column, []).append(b)
    for boxes in by_col.values():
        boxes.sort(key=lambda b: b.y)
        for a, b in zip(boxes, boxes[1:]):
            assert a.y + a.h + svg.BOX_GAP <= b.y
    for c in lay.connectors:
        assert c.x1 < c.x2
    assert lay.width >= max(b.x + b.w for b in lay.boxes)
    assert lay.height >= max(b.y + b.h for b in lay.boxes)


def test_bracket_reorders_so_winners_sit_next_to_their_next_match():
    """The redraw in the fixture reverses the order; the layout puts each round-2 match
    between the two round-1 matches that feed it, so no connector goes backwards by more
    than one box."""
    lay = svg.layout_bracket(_columns(6))
    pool_x = max(b.x for b in lay.boxes)
    knockout_lines = [c for c in lay.connectors if c.x2 < pool_x]
    assert len(knockout_lines) == 17
    for c in knockout_lines:
        assert abs(c.y2 - c.y1) < 80


def test_winners_bold_and_bye_box_in_svg():
    text = svg.bracket_svg(_columns(6))
    root = ET.fromstring(text)
    assert root.tag == SVG_NS + "svg"
    bold = [t for t in root.iter(SVG_NS + "text") if t.get("font-weight") == "bold"]
    assert len(bold) > 20
    assert any("box-bye" in (g.get("class") or "") for g in root.iter(SVG_NS + "g"))


def test_svg_escapes_names():
    cols = [svg.BracketColumn(EVIL, (svg.BracketBox("x", (svg.BoxLine(EVIL, note="&<>"),)),))]
    text = svg.bracket_svg(cols, title=EVIL)
    assert "<script>" not in text
    ET.fromstring(text)        # well-formed
    bars = svg.stacked_bar_svg([svg.BarRow(EVIL, (1, 2))], [EVIL, "跳棋"])
    assert "<script>" not in bars
    ET.fromstring(bars)


def test_fit_cuts_long_text():
    assert svg.fit("一二三四五", 40) == "一二…"
    assert svg.fit("abc", 100) == "abc"


def test_tables_of_three_bracket_has_table_boxes():
    state = make_state()
    names = site_vm.Names(state)
    es = state.events["doudizhu"]
    [picture] = site_vm.event_brackets(es, names)
    root = ET.fromstring(picture)
    boxes = [g for g in root.iter(SVG_NS + "g") if "box-match" in (g.get("class") or "")]
    assert len(boxes) == 4     # 3 round-1 tables + the final table
    assert site_vm.stage_kind(es.rounds[:1]) == "tables"


def test_knockout_event_fixture_spec_is_consistent():
    es = knockout_event(_spec(), 6)
    assert len(es.entries) == 22 and len(es.rounds) == 6


def test_losers_dashed_line_keeps_off_the_winners_vertical():
    """Semi-finals feed a final (winners, solid) and a third-place match (losers,
    dashed): the dashed lines turn down on their own vertical, not on the solid one."""
    line = svg.BoxLine
    semis = svg.BracketColumn("半决赛", (
        svg.BracketBox("s1", (line("甲", key="a"), line("乙", key="b")), advancing=("a",)),
        svg.BracketBox("s2", (line("丙", key="c"), line("丁", key="d")), advancing=("c",)),
    ))
    last = svg.BracketColumn("决赛", (
        svg.BracketBox("f", (line("甲", key="a"), line("丙", key="c")), caption="决赛"),
        svg.BracketBox("t", (line("乙", key="b"), line("丁", key="d")), caption="三四名"),
    ))
    lay = svg.layout_bracket([semis, last])
    solid = {c.vx for c in lay.connectors if not c.dashed}
    dashed = {c.vx for c in lay.connectors if c.dashed}
    # the winners meet on one vertical; each loser has its own (they could not be told apart)
    assert len(lay.connectors) == 4 and len(solid) == 1 and len(dashed) == 2
    assert solid.isdisjoint(dashed)
    drawn = svg.bracket_svg([semis, last])
    for x in solid | dashed:
        assert f"H{x:g}V" in drawn
