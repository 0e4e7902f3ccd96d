"""kitgen: print-and-play kits for tabletop card games, built from data."""

__version__ = "0.1.0"
