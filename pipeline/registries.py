"""The one place that knows every registry: checks a spec's names against them.

Each package owns its registry (``draw.FORMATS``, ``games.GAMES``,
``score.TIEBREAKS``, ``score.AWARD_SCHEMES``); importing the package registers its
modules.  Messages are Chinese (the office reads them from ``league new`` and from
``league run`` exit 2) and keep the registry name, so the YAML key is easy to find.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .registry import Registry

if TYPE_CHECKING:
    from .spec import EventSpec, TournamentSpec

#: Chinese word for each registry kind, as used in messages.
KIND_WORDS = {"game": "游戏", "format": "赛制", "tiebreak": "破同分规则", "award scheme": "评奖方式"}


def _is_chinese(text: str) -> bool:
    return any(not ch.isascii() for ch in text)


def fits(game: Any, fmt: Any) -> bool:
    """Whether a format can run a game: the same seats per table, and the format is one the
    game allows when it names some (bridge: only a pairs movement, whose tables play the
    same boards so matchpoints can compare them)."""
    allowed = getattr(game, "formats", ())
    return fmt.seats == game.seats and (not allowed or fmt.name in allowed)


def side_size(game: Any) -> int:
    """Players on each side of a table: 2 for a partnership game (掼蛋, 桥牌, 双升, 双扣)."""
    return int(getattr(game, "side_size", 1))


def team_size_problem(game: Any, team_size: int, event: str = "") -> str | None:
    """Why ``team_size`` cannot be the game's, else None (``event``: the event's name, said
    beside the game's when it differs).  A team is one side of a table
    (the draw seats each entry, with all its players, at one seat), so every game's team
    size is its side size: 1 for 象棋/围棋/跳棋/斗地主, 2 for a partnership (掼蛋, 桥牌,
    双升, 双扣).  There are no team events whose members play board by board: a 3-person
    斗地主 team drawn into one seat put 9 people at a 3-player table.

    >>> from pipeline.games import GAMES
    >>> team_size_problem(GAMES.get("doudizhu"), 3)
    '斗地主每方 1 人：每桌 3 名选手各坐一方、各自对局，每队人数（team_size）请填 1，现为 3（一队的人会被排进同一个座位）。'
    >>> team_size_problem(GAMES.get("guandan"), 1, "扑克")
    '“扑克”（掼蛋）每方 2 人（固定搭档）：每桌 2 对搭档对坐，每队人数（team_size）请填 2，现为 1。'
    >>> team_size_problem(GAMES.get("xiangqi"), 1) is None
    True
    """
    side = side_size(game)
    if team_size == side:
        return None
    what = game.title if event in ("", game.title) else f"“{event}”（{game.title}）"
    if side == 1:
        return (f"{what}每方 1 人：每桌 {game.seats} 名选手各坐一方、各自对局，"
                f"每队人数（team_size）请填 1，现为 {team_size}（一队的人会被排进同一个座位）。")
    return (f"{what}每方 {side} 人（固定搭档）：每桌 {game.seats} 对搭档对坐，"
            f"每队人数（team_size）请填 {side}，现为 {team_size}。")


def known_names(reg: Registry[Any]) -> str:
    """The registered names with their Chinese aliases, for a message.

    >>> r = Registry("format"); _ = r.register("swiss", "瑞士制", "dutch")(object())
    >>> known_names(r)
    'swiss（瑞士制）'
    """
    parts = []
    for name, _obj in reg.items():
        cn = [a for a in reg.aliases(name) if _is_chinese(a)]
        parts.append(f"{name}（{'、'.join(cn)}）" if cn else name)
    return "；".join(parts)


def unknown_message(reg: Registry[Any], value: str) -> str:
    """Chinese sentence for a name the registry does not know, listing the known ones.

    >>> r = Registry("game"); _ = r.register("go", "围棋")(object())
    >>> unknown_message(r, "weiqi2")
    '没有游戏“weiqi2”，请改为以下之一：go（围棋）。'
    """
    word = KIND_WORDS.get(reg.kind, reg.kind)
    return f"没有{word}“{value}”，请改为以下之一：{known_names(reg)}。"


def _shown(reg: Registry[Any], value: str) -> str:
    """``“象棋”（xiangqi）`` when the spec used an alias, else ``“xiangqi”``."""
    name = reg.canonical(value)
    return f"“{value}”" if name == value else f"“{value}”（{name}）"


def _chinese_half(message: str) -> str:
    """Format option checks answer ``english / 中文``; the office reads the Chinese half."""
    head, sep, tail = message.rpartition(" / ")
    return tail if sep and _is_chinese(tail) else message


#: the points keys in Chinese (spec-reference: win/draw/loss/bye/forfeit_win/forfeit_loss)
POINT_WORDS = {"win": "胜", "draw": "和", "loss": "负", "bye": "轮空", "forfeit_win": "对方弃权判胜",
               "forfeit_loss": "弃权判负", "win_equal": "同级胜", "loss_equal": "同级负", "absent": "双方缺席"}

#: points keys every game reads besides its own defaults (games.common.forfeit: both sides absent)
EXTRA_POINTS = ("absent",)


def points_problem(game: Any, points: dict[str, int] | None) -> str:
    """A key of an event's ``points`` that its game does not score (``lose`` for ``loss``:
    silently ignored, every loss scored the default), with the nearest key; "" when none.

    >>> from pipeline.games import GAMES
    >>> points_problem(GAMES.get("go"), {"win": 2, "lose": 1})
    'points 中的“lose”不是积分项（这个键不起作用，负局仍按默认计分）：是不是 loss（负）？可用的键：win（胜）、draw（和）、loss（负）、bye（轮空）、forfeit_win（对方弃权判胜）、forfeit_loss（弃权判负）、absent（双方缺席）'
    """
    import difflib

    known = [*game.default_points, *EXTRA_POINTS]
    for key in points or {}:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.5)
            meant = (f"（这个键不起作用，{POINT_WORDS.get(near[0], near[0])}局仍按默认计分）：是不是 {near[0]}"
                     f"（{POINT_WORDS.get(near[0], near[0])}）？") if near else "。"
            return (f"points 中的“{key}”不是积分项{meant}可用的键："
                    + "、".join(f"{k}（{POINT_WORDS.get(k, k)}）" for k in known))
    return ""


def check_event(ev: "EventSpec", spec: "TournamentSpec") -> tuple[str, str] | None:
    """(key, Chinese message) for the first unusable name in an event, else None.

    A game and a format must seat the same number of players per table, e.g.
    ``赛制“tables_of_three”每桌 3 人，但游戏“xiangqi”需要 2 人。……``
    """
    from .draw import FORMATS
    from .games import GAMES
    from .score import AWARD_SCHEMES, TIEBREAKS

    if ev.game not in GAMES:
        return "game", unknown_message(GAMES, ev.game)
    game = GAMES.get(ev.game)
    if ev.format.type not in FORMATS:
        return "format.type", unknown_message(FORMATS, ev.format.type)
    fmt = FORMATS.get(ev.format.type)
    problem = fmt.check_options(ev.format.options)
    if problem:
        return "format", f"赛制{_shown(FORMATS, ev.format.type)}的选项有误：{_chinese_half(problem)}"
    if not fits(game, fmt):
        fitting = "、".join(n for n, f in FORMATS.items() if fits(game, f))
        if fmt.seats != game.seats:
            return "format.type", (f"赛制{_shown(FORMATS, ev.format.type)}每桌 {fmt.seats} 人，"
                                   f"但游戏{_shown(GAMES, ev.game)}需要 {game.seats} 人。"
                                   f"请改用每桌 {game.seats} 人的赛制：{fitting}。")
        return "format.type", (f"游戏{_shown(GAMES, ev.game)}不能用赛制{_shown(FORMATS, ev.format.type)}"
                               f"（比赛成绩要在同一轮各桌之间比较），请改用：{fitting}。")
    problem = team_size_problem(game, ev.team_size, ev.name)
    if problem:
        return "team_size", problem
    for i, tb in enumerate(ev.tiebreaks or ()):
        if tb not in TIEBREAKS:
            return f"tiebreaks[{i}]", unknown_message(TIEBREAKS, tb)
    if ev.awards.scheme not in AWARD_SCHEMES:
        return "awards.scheme", unknown_message(AWARD_SCHEMES, ev.awards.scheme)
    scheme = AWARD_SCHEMES.get(ev.awards.scheme)
    problem = scheme.check_options(ev.awards.options, ev.awards.prizes)
    if problem:
        return "awards", problem
    # an award the spec gives by unit or by the judges, listed among the event's places too
    # (优秀组织奖 went to each event's 7th place): whatever its name
    other = {*spec.discretionary_awards, *([spec.branch_award] if spec.branch_award else [])}
    given = {a for a, _ in scheme.places(ev.awards.options)} | {str(ev.awards.options.get("rest") or "")}
    odd = sorted((given & other) - {""})
    if odd:
        return "awards", (f"奖项“{odd[0]}”已写在赛事的 {'branch_award' if odd[0] == spec.branch_award else 'discretionary_awards'}"
                          "（按单位颁发或评定的奖项），又列在本项目的名次奖项中，会发给某一名次：请从本项目的 awards 中删去。")
    problem = check_game_options(game, ev.game_options)
    if problem:
        return "game_options", problem
    problem = points_problem(game, ev.points)
    if problem:
        return "points", problem
    return None


#: the game_options read for every game (the notice prints the time limit); a game reads
#: its own too (``option_keys``: 象棋/围棋 game_minutes, move_seconds; 斗地主 round_minutes …);
#: any other key is the office's own note (best_of …), kept as written
SHARED_OPTIONS = ("time_limit_minutes",)

#: a key this many letters or fewer off an option is a typo of it (``start_point``)
TYPO_EDITS = 2


def edits(a: str, b: str) -> int:
    """Letters added, removed or changed to make ``b`` of ``a``, as :mod:`difflib` aligns
    them (two swapped letters count two).

    >>> edits("start_point", "start_points"), edits("penatly_mode", "penalty_mode"), edits("hand_minutes", "round_minutes")
    (1, 2, 3)
    """
    import difflib

    return sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2
               in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if tag != "equal")


def check_game_options(game: Any, options: dict[str, Any]) -> str | None:
    """A key a letter or two off a game's own option (``start_point`` for ``start_points``:
    every 斗地主 table then failed its zero-sum check) is a typo, named; a value the game
    cannot use is named too.  Other keys are the office's notes (best_of_3, hand_minutes
    beside 斗地主's round_minutes …): a key like an option but more than two letters off it
    is a note, not a typo."""
    import difflib

    read = (*getattr(game, "option_keys", ()), *SHARED_OPTIONS)
    for key in options:
        if key in read:
            continue
        near = [n for n in difflib.get_close_matches(str(key), read, n=3, cutoff=0.8)
                if edits(str(key), n) <= TYPO_EDITS]
        if near:
            return f"game_options.{key} 不是游戏{_shown_game(game)}的选项，是不是 {near[0]}？"
    check = getattr(game, "check_options", None)
    if check is not None:
        try:
            check(options)
        except (TypeError, ValueError) as e:
            return f"game_options 有误：{e}"
    return None


def _shown_game(game: Any) -> str:
    return f"“{game.title}”（{game.id}）"
