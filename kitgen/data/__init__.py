"""Reading and checking a game: game.toml, the card sheet, components, art files.

Everything a user wrote is read here and nowhere else, and checked into typed
objects that the layers above trust.
"""
