"""``python -m graphbrain.interfaces.cli``: the ``graphbrain`` command (the benches start it this way)."""

from graphbrain.interfaces.cli import run

run()
