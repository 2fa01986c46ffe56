"""Games, one module each, behind one registry (``GAMES``)."""
from ..registry import Registry

GAMES: Registry = Registry("game")

# importing a game module registers it
