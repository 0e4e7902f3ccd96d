"""Drawing with reportlab: card faces and sheets, table aids, the rulebook, the balance report.

Renderers take the rectangles that :mod:`kitgen.layout` computes and draw them;
they return PDF bytes and never write files.
"""
