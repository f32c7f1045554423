"""Benchmarks that measure graphbrain on the caller's own data (no CLI here; the CLI wires them)."""
