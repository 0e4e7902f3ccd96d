"""Placing things: pure geometry in PDF points (origin bottom-left).

Card sheets, crop marks, duplex mirroring, gutterfold, the boxes of card
layouts, board tiling, packing of table aids, the calibration sheet, rulebook
diagrams, and the grids of the contact sheet and Tabletop Simulator exports.
Nothing here imports reportlab or draws.
"""
