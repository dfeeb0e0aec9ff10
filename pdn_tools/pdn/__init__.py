"""The PDN format: bytes to text to game trees, knowing nothing of the rules.

Layer 3 of the pipeline.  :mod:`.source` turns bytes into text (encodings, BOM, line
ends), :mod:`.split` cuts the text into game chunks, :mod:`.grammar` loads the Lark
grammar and :mod:`.build` turns a chunk into a :class:`~.model.Game` tree;
:mod:`.reader` strings them together as a stream.  :mod:`.tags`, :mod:`.results`,
:mod:`.gametype` and :mod:`.commands` say what tag values, results, GameType tags and
embedded ``[%…]`` commands mean.

May import: :mod:`pdn_tools.diagnostics` and :mod:`pdn_tools.version`.  Never the rules
engine (whether a move is legal is the replay's question) nor any layer above.
"""
