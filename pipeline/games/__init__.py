"""Games, one module each, behind one registry (``GAMES``)."""
import importlib

from ..registry import Registry


def _register_all() -> None:
    """Import every game module (importing one registers it), when ``GAMES`` is first asked."""
    for name in ("bridge", "checkers", "doudizhu", "go", "guandan", "shuangkou", "shuangsheng", "xiangqi"):
        importlib.import_module(f".{name}", __name__)


GAMES: Registry = Registry("game", load=_register_all)


def event_points(ev) -> dict[str, int]:
    """An event's points (win/draw/loss/bye/forfeit_win/forfeit_loss): its game's defaults
    with the spec's ``points`` over them — for the runner's scoring and the documents' notes."""
    return {**GAMES.get(ev.game).default_points, **(ev.points or {})}
