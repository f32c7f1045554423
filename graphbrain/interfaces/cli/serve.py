"""The servers: the HTTP API with its graph page, and the MCP server."""

from __future__ import annotations

from typing import Literal

import click

from graphbrain.interfaces.cli.app import choice_option, common, main


@main.command()
@click.option("--host", default=None, help="Bind address (default: brain.yml's server.host, 127.0.0.1).")
@click.option("--port", default=None, type=int, help="Port (default: brain.yml's server.port, 8765).")
@common
def serve(host: str | None, port: int | None, config_path: str | None, namespace: str | None, as_json: bool) -> None:
    """Serve the HTTP API (OpenAPI at /docs) and the graph page (/ui); loopback unless told otherwise.

    \b
    Example:
      graphbrain serve --port 8765
    """
    from graphbrain.interfaces.http import run

    run(config_path, namespace, host, port)


@main.command()
@choice_option("--transport", choices=["stdio", "http"])
@click.option("--host", default="127.0.0.1", show_default=True, help="Bind address of the http transport.")
@click.option("--port", default=8766, show_default=True, type=int, help="Port of the http transport.")
@click.option(
    "--allow-cypher",
    is_flag=True,
    help="Offer the cypher_read tool. It can read EVERY namespace in the database: for an admin's own agent only.",
)
@common
def mcp(
    transport: Literal["stdio", "http"],
    host: str,
    port: int,
    allow_cypher: bool,
    config_path: str | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """Serve graphbrain's tools to agents over MCP (stdio, or streamable HTTP on loopback).

    Every tool acts in --namespace only, except cypher_read, which is off unless --allow-cypher.
    (graphbrain serve offers the same tools at /mcp behind its bearer tokens.)

    \b
    Example:
      graphbrain mcp --transport stdio --namespace acme
    """
    from graphbrain.interfaces.mcp_server import run

    run(config_path, namespace, transport, host, port, allow_cypher=allow_cypher)
