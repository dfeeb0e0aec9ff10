"""Reports on read (and checked) games, one module per output format."""
