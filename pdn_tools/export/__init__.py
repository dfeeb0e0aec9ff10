"""Writers of game trees: PDN text (more formats come with the exporters)."""
