"""Game text to game tree: the Lark grammar, its loading, and the tree builder."""
