"""Write openapi.json at the repo root from the HTTP app (a test checks the committed file is current).

.venv/bin/python scripts/gen_openapi.py           # write
.venv/bin/python scripts/gen_openapi.py --check   # exit 1 when the file is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from graphbrain.interfaces.http import openapi_document

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "openapi.json"


def main(argv: list[str]) -> int:
    text = openapi_document()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else ""
        if current != text:
            print(f"{TARGET.name} is stale: run python scripts/gen_openapi.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
