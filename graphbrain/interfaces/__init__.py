"""Thin adapters (CLI, HTTP, MCP) over the same Brain methods; none re-implements logic."""
