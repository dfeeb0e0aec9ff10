"""Collections: the jobs archivists do on many games at once.

Which games a run keeps (:mod:`.filters`), which games are copies of one another
(:mod:`.duplicates`), and the repair of an illegal move the replay found the only
fitting move for (:mod:`.repair`).  Each works on one game tree and what its replay
established, so that the commands (``pdn duplicates``, the filter options of
``validate``, ``stats`` and ``convert``, ``convert --dedupe --repair``) and the
Python API share them; docs/collections.md describes them for users.
"""
