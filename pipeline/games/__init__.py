"""Games, one module each, behind one registry (``GAMES``)."""
from ..registry import Registry

GAMES: Registry = Registry("game")

# importing a game module registers it
from . import bridge, checkers, doudizhu, go, guandan, shuangkou, shuangsheng, xiangqi  # noqa: E402,F401
