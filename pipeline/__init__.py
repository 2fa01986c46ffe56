"""league: staff chess-and-card tournaments from spreadsheets to certificates."""
__version__ = "0.1.0"
