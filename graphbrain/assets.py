"""Where the files graphbrain ships beside its code are: the named Cypher queries and the demo seeds.

Their home is the repository's top-level ``cypher/`` and ``seeds/`` folders; a built wheel carries a copy
of each inside the package (``graphbrain/_shipped/``, put there by ``setup.py``'s build step), so an
installed graphbrain finds them without the checkout. A checkout (and an editable install) reads the
top-level folders themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

__all__ = ["asset_dir"]

_PACKAGE = Path(__file__).resolve().parent


def asset_dir(name: Literal["cypher", "seeds"]) -> Path:
    """The shipped folder ``name``: the wheel's copy when installed, else the checkout's own."""
    packaged = _PACKAGE / "_shipped" / name
    if packaged.is_dir():
        return packaged
    return _PACKAGE.parent / name
