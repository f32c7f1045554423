"""Named Cypher queries, loaded from the top-level ``cypher/`` folder (or its copy in an installed wheel).

Python refers to a query by its name, ``"<stage>/<name>"``, which maps to ``cypher/<stage>/<name>.cypher``.
Where a backend's dialect differs, ``cypher/<stage>/<name>.<backend>.cypher`` takes precedence, so a
second backend adds files only where it must. Every file is read once and cached; ``check_all()``
loads them all at start-up so a missing or empty file fails early.

Schema files may hold several statements separated by ``;`` at line end, and may use ``{{dimension}}``,
which is filled only with a validated integer (index options do not accept parameters).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from graphbrain.errors import QueryNotFoundError

_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)+$")
_TEMPLATE = re.compile(r"\{\{(\w+)\}\}")
# What a {{placeholder}} of render() may become: a plain label or relationship type, or labels joined by ':'.
_IDENTIFIERS = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}(:[A-Za-z][A-Za-z0-9_]{0,63})*$")


def default_cypher_dir() -> Path:
    """``$GRAPHBRAIN_CYPHER_DIR``, else the shipped ``cypher/`` (the checkout's top-level folder, or its
    copy inside an installed wheel)."""
    env = os.environ.get("GRAPHBRAIN_CYPHER_DIR")
    if env:
        return Path(env)
    from graphbrain.assets import asset_dir

    return asset_dir("cypher")


class QueryLibrary:
    def __init__(self, root: Path | None = None, backend: str = "neo4j") -> None:
        self.root = root or default_cypher_dir()
        self.backend = backend
        self._cache: dict[str, str] = {}
        self._lock = threading.Lock()

    def path_of(self, name: str) -> Path:
        if not _NAME.match(name):
            raise QueryNotFoundError(f"bad query name {name!r}: expected '<stage>/<name>' in lowercase")
        specific = self.root / f"{name}.{self.backend}.cypher"
        if specific.is_file():
            return specific
        return self.root / f"{name}.cypher"

    def get(self, name: str) -> str:
        text = self._cache.get(name)
        if text is not None:
            return text
        path = self.path_of(name)
        if not path.is_file():
            raise QueryNotFoundError(f"no Cypher file for query {name!r} (looked for {path})")
        text = path.read_text(encoding="utf-8").strip()
        if not text:
            raise QueryNotFoundError(f"Cypher file {path} is empty")
        with self._lock:
            self._cache[name] = text
        return text

    def statements(self, name: str, **ints: int) -> list[str]:
        """Split a multi-statement file and fill ``{{key}}`` placeholders with integers only."""

        def fill(key: str, value: object) -> str:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"template value {key!r} must be an int")
            return str(value)

        text = _fill_template(name, self.get(name), ints, fill)
        parts = re.split(r";\s*(?:\n|$)", text)
        return [p.strip() for p in parts if p.strip() and not _only_comments(p)]

    def render(self, name: str, **identifiers: str) -> str:
        """A query whose labels or relationship types are ``{{placeholders}}`` (Cypher takes no parameter
        there), each filled only with a plain identifier (or identifiers joined by ``:``); comment lines
        are dropped. Anything else is refused, so a label can never carry a query fragment."""

        def fill(key: str, value: object) -> str:
            if not isinstance(value, str) or not _IDENTIFIERS.match(value):
                raise ValueError(f"template value {key!r} of {name!r} is not a plain identifier: {value!r}")
            return value

        return _fill_template(name, strip_comments(self.get(name)), identifiers, fill)

    def names(self) -> list[str]:
        """Every query this backend has: a generic file, or one of its own (another backend's internal
        queries, with no generic file, are not this backend's)."""
        out = set()
        for path in self.root.rglob("*.cypher"):
            rel = path.relative_to(self.root).as_posix()[: -len(".cypher")]
            stem, _, suffix = rel.rpartition(".")
            if not stem or "/" in suffix:
                out.add(rel)
            elif suffix == self.backend or (self.root / f"{stem}.cypher").is_file():
                out.add(stem)
        return sorted(out)

    def check_all(self) -> list[str]:
        """Load every query; returns their names. Raises on the first missing or empty one."""
        names = self.names()
        for name in names:
            self.get(name)
        return names


def _fill_template(name: str, text: str, values: Mapping[str, object], fill: Callable[[str, object], str]) -> str:
    """``text`` with each ``{{key}}`` replaced by ``fill(key, values[key])``; a key without a value is an error."""

    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            raise QueryNotFoundError(f"query {name!r} needs template value {key!r}")
        return fill(key, values[key])

    return _TEMPLATE.sub(one, text)


def strip_comments(text: str) -> str:
    """``text`` without its ``//`` comment lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("//") for line in text.splitlines())
