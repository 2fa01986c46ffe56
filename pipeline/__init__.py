"""league: staff chess-and-card tournaments from spreadsheets to certificates."""
import os as _os
import sys as _sys

__version__ = "0.1.0"


def templates_dir() -> str:
    """The ``templates/`` folder of the documents and the site: beside the package in a
    clone (and its editable install), else where an installed wheel put it
    (``<prefix>/share/league/templates``, pyproject's ``data-files``)."""
    here = _os.path.join(_os.path.dirname(_os.path.dirname(_os.path.realpath(__file__))), "templates")
    if _os.path.isdir(here):
        return here
    return _os.path.join(_sys.prefix, "share", "league", "templates")
