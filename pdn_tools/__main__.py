"""``python -m pdn_tools`` runs the ``pdn`` command line."""

import sys

try:
    try:
        from pdn_tools.cli import main
    except (KeyboardInterrupt, RuntimeError) as exc:
        # Ctrl-C while the command starts: no traceback (a RuntimeError it caused too, as
        # in pdn_tools.cli; a SIGTERM or SIGHUP once pdn_tools.cli handles them, told as
        # such)
        cause = exc if isinstance(exc, KeyboardInterrupt) else exc.__cause__
        if not isinstance(cause, KeyboardInterrupt):
            raise
        signum = getattr(cause, "signum", None)
        if isinstance(signum, int):
            sys.stderr.write("pdn: terminated\n")
            raise SystemExit(128 + signum) from None
        sys.stderr.write("pdn: interrupted\n")
        raise SystemExit(130) from None

    main(prog_name="pdn")
finally:
    # Under ``python -m``, CPython remembers a KeyboardInterrupt that once left code it
    # ran from source text (``exec`` of a string, as ``dataclasses`` and ``namedtuple``
    # do when a class is made) and then ends the process by SIGINT at exit, whatever
    # status the command chose, even when the command handled that Ctrl-C.  Running
    # source text once more clears the note, so the status is the command's own: 130.
    exec("")
