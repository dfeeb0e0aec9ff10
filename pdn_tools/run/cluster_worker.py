"""What a worker process of a local Dask cluster does when it starts (a Dask preload).

A local cluster's workers (``--dask local:N``) run in this process's group, so a
Ctrl-C at the terminal reaches each of them too, and each would print a traceback.
The command that started them stops them anyway; so they leave Ctrl-C to it.
"""

from __future__ import annotations

import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    """Dask calls this in each worker process as it starts: Ctrl-C is ignored there."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
