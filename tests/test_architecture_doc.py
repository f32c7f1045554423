"""docs/architecture.md names modules that exist: the map a newcomer reads first must match the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
# `commit/pipeline.py`, `compose/`, `retrieve/exact.py` ... inside backticks; a bare name (`semantic.py`)
# is resolved against the folders named before it in the same bullet, paragraph or table row.
PATH_RE = re.compile(r"`([A-Za-z_][\w./{},-]*(?:\.py|\.cypher|/))`")


def _candidates(token: str) -> list[Path]:
    if token.startswith(("tests/", "docs/", "cypher/", "scripts/")):
        return [ROOT / token]
    if token.endswith(".cypher"):
        return [ROOT / "cypher" / token]
    return [ROOT / "graphbrain" / token, ROOT / token]


def test_every_module_the_architecture_page_names_exists() -> None:
    missing = []
    folders: list[Path] = []  # the folders named so far in this paragraph, bullet or table row
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith(("- ", "|", "#")):
            folders = []
        for token in PATH_RE.findall(line):
            if "{" in token:
                continue
            tried = _candidates(token) + [folder / token for folder in reversed(folders)]
            found = next((p for p in tried if p.exists()), None)
            if found is None:
                missing.append(token)
            else:
                folders.append(found if found.is_dir() else found.parent)
    assert not missing, f"docs/architecture.md names modules that do not exist: {sorted(set(missing))}"


def test_every_package_is_on_the_map() -> None:
    text = DOC.read_text(encoding="utf-8")
    packages = sorted(
        p.relative_to(ROOT / "graphbrain").as_posix()
        for p in (ROOT / "graphbrain").rglob("__init__.py")
        if p.parent != ROOT / "graphbrain"
    )
    # a subpackage may be named relative to its parent (`routes/` under `interfaces/http/`)
    absent = [pkg for pkg in (str(Path(p).parent) for p in packages) if f"{Path(pkg).name}/" not in text]
    assert not absent, f"packages docs/architecture.md does not mention: {absent}"
