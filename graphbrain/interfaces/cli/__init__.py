"""The graphbrain command line (click): a thin adapter over ``Brain``.

Every command has --help, --config, --namespace and --json (machine output; readable tables otherwise).
A GraphbrainError ends the command with its message in red and exit status 1; bad JSON input names the
file and the position. Commands never re-implement logic: each calls one ``Brain`` method.

One module per command group registers its commands on ``main`` (app.py) when imported here; output.py
prints, inputs.py reads what the user gives.
"""

from graphbrain.interfaces.cli import bench, core, explore, maintenance, memory, replay, serve, traces
from graphbrain.interfaces.cli.app import main, run

__all__ = ["bench", "core", "explore", "main", "maintenance", "memory", "replay", "run", "serve", "traces"]
