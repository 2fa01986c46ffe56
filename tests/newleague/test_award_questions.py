"""`league new`'s award questions: 评定奖项 listed with 、, the scheme's own Chinese title,
group awards only for formats with groups, award places a format cannot rank, and the
check-in time of a format that re-forms pairs on the day."""
from __future__ import annotations

import pytest
import yaml

from pipeline import newleague
from pipeline.spec import load_tournament

from .helpers import answer_at_the_prompt, small_answers
from .test_answers_audit import _script
from .test_newleague import _questionnaire


# -- 评定奖项: 、 is the usual separator of a Chinese list -------------------------------------
@pytest.mark.parametrize("text", ["体育道德风尚奖、最佳新人奖", "体育道德风尚奖，最佳新人奖", "体育道德风尚奖;最佳新人奖",
                                  "体育道德风尚奖；最佳新人奖", " 体育道德风尚奖 、 最佳新人奖、"])
def test_judged_awards_are_split_at_every_list_separator(text):
    assert newleague.v_award_names(text) == ["体育道德风尚奖", "最佳新人奖"]


def test_judged_awards_listed_with_a_dun_comma_on_the_questionnaire_are_two_awards(tmp_path):
    a = small_answers(2)
    a["discretionary_awards"] = "体育道德风尚奖、最佳新人奖"
    q, _ = _questionnaire(tmp_path, a)
    newleague.create(tmp_path / "t2026", questionnaire=q)
    assert load_tournament(tmp_path / "t2026").spec.discretionary_awards == ["体育道德风尚奖", "最佳新人奖"]


def test_judged_awards_listed_with_a_dun_comma_at_the_prompt_are_two_awards(tmp_path):
    script = _script(small_answers(2))
    script[-1] = "体育道德风尚奖、最佳新人奖"
    path, _said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["discretionary_awards"] == ["体育道德风尚奖", "最佳新人奖"]


# -- 评奖方式: the title the prompt lists is an answer ------------------------------------------
@pytest.mark.parametrize("text,scheme", [("按名次设奖", "ranked"), ("ranked（按名次设奖）", "ranked"),
                                         ("前N名", "top_n"), ("各组前N名", "group_top"), ("名次奖", "ranked"),
                                         ("", "ranked")])
def test_each_scheme_is_answered_by_the_title_the_prompt_lists(text, scheme):
    from pipeline.score import AWARD_SCHEMES

    assert newleague.v_scheme(text) == scheme
    for name, obj in AWARD_SCHEMES.items():     # every choice the prompt lists, and its title alone
        assert newleague.v_scheme(f"{name}（{obj.title}）") == newleague.v_scheme(obj.title) == name


def test_the_listed_title_is_taken_at_the_prompt(tmp_path):
    script = _script(small_answers(2))
    script[script.index("ranked")] = "按名次设奖"
    path, said = answer_at_the_prompt(tmp_path / "t2026", script, defaults=True)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["events"][0]["awards"]["scheme"] == "ranked"
    assert not script and not any("没有评奖方式" in s for s in said), said
