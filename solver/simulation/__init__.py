"""Automated playtesting of any rules engine (:mod:`solver.engine`): parallel runs and balance figures.

:mod:`.runner` (play games from their seeds, locally or on Dask), :mod:`.stats` (the generic
figures and findings, and the engine's own section merged in), :mod:`.variants` (the variant
files of ``--compare``) and :mod:`.simulate` (one call: play, sum up).  The report is written
and drawn by the kit generator (:mod:`kitgen.outputs.balance`, :mod:`kitgen.render.balance_report`).
"""
