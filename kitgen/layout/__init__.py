"""Placing things: pure geometry in PDF points (origin bottom-left).

Card sheets, crop marks, duplex mirroring, gutterfold, card faces, board tiling,
packing of table aids, and the grids of exports and charts.  Nothing here
imports reportlab or draws.
"""
