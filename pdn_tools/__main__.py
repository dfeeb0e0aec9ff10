"""``python -m pdn_tools`` runs the ``pdn`` command line."""

import sys

try:
    from pdn_tools.cli import main
except (KeyboardInterrupt, RuntimeError) as exc:
    # Ctrl-C while the command starts: no traceback (a RuntimeError it caused too, as
    # in pdn_tools.cli)
    if not isinstance(exc, KeyboardInterrupt) and not isinstance(exc.__cause__, KeyboardInterrupt):
        raise
    sys.stderr.write("pdn: interrupted\n")
    raise SystemExit(130) from None

main(prog_name="pdn")
