"""Many inputs at once: which files to read, how to cut them, and checking in workers.

Layer 6 of the pipeline.  :mod:`.paths` expands the paths a command is given,
:mod:`.check` reads and replays the games of one file (or of chunks cut from it) into
picklable :class:`~pdn_tools.report.records.Checked` values, :mod:`.slots` cuts a large
input into game-aligned batches and :mod:`.parallel` runs them in worker processes,
returning results in input order.  :mod:`.collisions` refuses outputs that are an
input or each other, and :mod:`.rejects` copies a rejected game too large to keep
from its input.

May import every layer below it (format, rules, replay, reports, exporters); never
the command line.
"""
