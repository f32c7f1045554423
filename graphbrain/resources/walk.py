"""The files under a directory, for directory ingest: filtered, pruned and in a deterministic order.

Glob patterns are matched against the path relative to the root with "/" separators: ``*`` and ``?``
stay within one path segment, ``**`` spans any number of directories, and a pattern with no "/"
matches the file name at any depth (as ``Path.rglob`` would). Python 3.11's ``Path.match`` has no
recursive ``**``, hence the small translator here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path

from graphbrain.errors import InputError

__all__ = ["DEFAULT_EXCLUDED_DIRS", "iter_files", "matches_glob"]

# Hidden directories (.git, .venv, .mypy_cache, ...) are skipped on their own; these are not hidden.
DEFAULT_EXCLUDED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})


@cache
def _compile(pattern: str) -> re.Pattern[str]:
    pattern = pattern.strip().lstrip("/")
    if "/" not in pattern:
        pattern = "**/" + pattern
    out: list[str] = []
    segments = pattern.split("/")
    for k, seg in enumerate(segments):
        last = k == len(segments) - 1
        if seg == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
            continue
        i = 0
        while i < len(seg):
            ch = seg[i]
            if ch == "*":
                out.append("[^/]*")
            elif ch == "?":
                out.append("[^/]")
            elif ch == "[":
                j = seg.find("]", i + 2)
                if j == -1:
                    out.append(re.escape(ch))
                else:
                    body = seg[i + 1 : j]
                    if body.startswith("!"):
                        body = "^" + body[1:]
                    out.append(f"[{body.replace(chr(92), chr(92) * 2)}]")
                    i = j
            else:
                out.append(re.escape(ch))
            i += 1
        if not last:
            out.append("/")
    return re.compile("".join(out) + r"\Z")


def matches_glob(relative_path: str, pattern: str) -> bool:
    """Whether a root-relative "/"-separated path matches ``pattern`` (see the module docstring)."""
    return _compile(pattern).match(relative_path) is not None


def iter_files(
    root: str | Path,
    glob: str = "**/*",
    *,
    exclude: Collection[str] = (),
    exclude_dirs: Collection[str] = DEFAULT_EXCLUDED_DIRS,
    include_hidden: bool = False,
) -> Iterator[Path]:
    """Regular files under ``root`` that match ``glob`` and none of ``exclude``, sorted by relative path.

    Hidden files and directories (a name starting with ".") and ``exclude_dirs`` are skipped (the
    latter are not even entered, so a ``node_modules`` costs nothing). Symbolic links to directories are
    not followed (no loops); links to files are listed. A file given as ``root`` is listed alone.
    """
    base = Path(root)
    if base.is_file():
        yield base
        return
    if not base.is_dir():
        raise InputError(f"{base}: no such directory")
    found: list[tuple[str, Path]] = []
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        # Prune in place so os.walk does not descend; sorting here is for reproducible walks only.
        dirnames[:] = sorted(d for d in dirnames if d not in exclude_dirs and (include_hidden or not d.startswith(".")))
        here = Path(dirpath)
        for name in filenames:
            if not include_hidden and name.startswith("."):
                continue
            path = here / name
            if not path.is_file():
                continue  # a broken link, a socket, a fifo
            rel = path.relative_to(base).as_posix()
            if matches_glob(rel, glob) and not any(matches_glob(rel, x) for x in exclude):
                found.append((rel, path))
    found.sort(key=lambda item: item[0])
    for _, path in found:
        yield path
