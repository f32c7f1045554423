"""The journal on a full disk: a clear error at the edge, nothing half-written, replayable once space is
freed. Runs on a 4 MB tmpfs of its own (needs root to mount it; skipped elsewhere)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphbrain.journal import Journal, JournalUnwritable


@pytest.fixture()
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    cmd = ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)]
    out = subprocess.run(cmd, capture_output=True, check=False)
    if out.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {out.stderr.decode(errors='replace').strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass


def test_a_full_disk_refuses_the_turn_clearly_and_keeps_the_journal(small_disk: Path) -> None:
    journal = Journal(small_disk / "journal.sqlite3", target="test")
    events = {"messages": [{"role": "user", "content": "TODO: 写迁移文档 and ship it. " * 50}]}
    kept = [journal.append("ns", "s", f"t{i}", events) for i in range(5)]
    _fill(small_disk / "filler")
    with pytest.raises(JournalUnwritable, match="cannot be written .* free space"):
        for i in range(5, 500):  # until SQLite's pages are used up too
            journal.append("ns", "s", f"t{i}", events)
    refused = i
    (small_disk / "filler").unlink()
    # Nothing half-written: the turns before the refusal are intact and pending, in order; the refused
    # turn is not there; the journal takes new turns again.
    pending = [e.turn_id for e in journal.pending()]
    assert pending[:5] == [f"t{n}" for n in range(5)] and f"t{refused}" not in pending
    assert pending == [f"t{n}" for n in range(len(pending))]
    assert journal.append("ns", "s", f"t{refused}", events) > max(kept)
    journal.close()
    reopened = Journal(small_disk / "journal.sqlite3", target="test")
    assert [e.turn_id for e in reopened.pending()][-1] == f"t{refused}"
    reopened.close()
