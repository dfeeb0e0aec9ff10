"""Reports on checked games, one module per output format.

Layer 5 of the pipeline, beside :mod:`pdn_tools.export`.  A report says what was found
(codes, places, counts) rather than writing the game: :mod:`.records` holds the
per-game summary every format starts from, :mod:`.selection` the ``--select`` /
``--ignore`` filter, and each format (text, JSON, GitHub, SARIF, JUnit, the board
views of ``pdn show``, statistics) has its own module.

May import the format, the rules engine and the replay; never the exporters, the
runners or the command line.
"""
