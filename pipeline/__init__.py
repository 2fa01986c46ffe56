"""league: staff chess-and-card tournaments from spreadsheets to certificates."""
__version__ = "0.1.0"

# first: every dataclass the package makes after this takes its compiled methods from the
# cache beside the bytecode (pipeline.dataclass_code; ~40 ms of every command's start)
from .dataclass_code import install as _install_dataclass_code  # noqa: E402

_install_dataclass_code()
