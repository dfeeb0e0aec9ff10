"""``python -m pdn_tools`` runs the ``pdn`` command line."""

from pdn_tools.cli import main

main(prog_name="pdn")
