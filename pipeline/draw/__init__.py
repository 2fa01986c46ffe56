"""Competition formats, one module each, behind one registry (``FORMATS``)."""
from ..registry import Registry

FORMATS: Registry = Registry("format")

# importing a format module registers it
