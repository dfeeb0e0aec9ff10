"""``python -m pdn_tools`` runs the ``pdn`` command line."""

import sys

try:
    from pdn_tools.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command starts: no traceback
    sys.stderr.write("pdn: interrupted\n")
    raise SystemExit(130) from None

main(prog_name="pdn")
