"""Competition formats, one module each, behind one registry (``FORMATS``)."""
from ..registry import Registry

FORMATS: Registry = Registry("format")

# importing a format module registers it
from . import knockout  # noqa: E402,F401
from . import round_robin  # noqa: E402,F401
from . import pairs_movement  # noqa: E402,F401
from . import groups_knockout  # noqa: E402,F401
from . import tables_of_three  # noqa: E402,F401
from . import groups_standings  # noqa: E402,F401
from . import swiss  # noqa: E402,F401
