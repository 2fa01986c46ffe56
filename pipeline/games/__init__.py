"""Games, one module each, behind one registry (``GAMES``)."""
from ..registry import Registry

GAMES: Registry = Registry("game")


def event_points(ev) -> dict[str, int]:
    """An event's points (win/draw/loss/bye/forfeit_win/forfeit_loss): its game's defaults
    with the spec's ``points`` over them — for the runner's scoring and the documents' notes."""
    return {**GAMES.get(ev.game).default_points, **(ev.points or {})}

# importing a game module registers it
from . import bridge, checkers, doudizhu, go, guandan, shuangkou, shuangsheng, xiangqi  # noqa: E402,F401
