#!/usr/bin/env bash
# Start/stop a Neo4j 5.26 for graphbrain's tests, CI and local development.
#
#   scripts/neo4j.sh start    # reuse $NEO4J_URI if reachable; else Docker compose; else the embedded
#                             # launcher in tools/neo4j-local (built once with Maven, then cached)
#   scripts/neo4j.sh stop     # stop what `start` started (TERM, then KILL after a grace period)
#   scripts/neo4j.sh status   # "running ..." (exit 0) or "not running" (exit 3)
#   scripts/neo4j.sh uri      # print the bolt URI that `start` uses
#   scripts/neo4j.sh build    # only build the local launcher (no-op when up to date)
#
# Environment:
#   NEO4J_URI                      an existing server to use as is (when its port answers)
#   NEO4J_PASSWORD                 password of user neo4j (default: graphbrain)
#   GRAPHBRAIN_NEO4J_PORT          bolt port of the local server (default: 7687)
#   GRAPHBRAIN_NEO4J_DATA          data dir of the local server (default: .neo4j-local/data, under the repo;
#                                  .neo4j-local/data-PORT for a port other than 7687)
#   GRAPHBRAIN_NEO4J_JAVA_OPTS     JVM options (default: -Xms256m -Xmx1g ...)
#   GRAPHBRAIN_NEO4J_PAGECACHE     page cache size (default: 128m)
#   GRAPHBRAIN_NEO4J_START_TIMEOUT seconds to wait for readiness (default: 120)
#   GRAPHBRAIN_NEO4J_NO_DOCKER=1   never try Docker, even when an engine answers
set -euo pipefail
set +m

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"

PASSWORD="${NEO4J_PASSWORD:-graphbrain}"
PORT="${GRAPHBRAIN_NEO4J_PORT:-7687}"
HOST="127.0.0.1"
STATE_DIR="$ROOT/.neo4j-local"
# The default port uses neo4j.pid / neo4j.log / data; any other port gets its own files and data dir,
# so a second, isolated server can run beside the first.
SUFFIX=""
[[ "$PORT" == 7687 ]] || SUFFIX="-$PORT"
DATA_DIR="${GRAPHBRAIN_NEO4J_DATA:-$STATE_DIR/data$SUFFIX}"
case "$DATA_DIR" in /*) ;; *) DATA_DIR="$ROOT/$DATA_DIR" ;; esac
LOG_FILE="$STATE_DIR/neo4j$SUFFIX.log"
PID_FILE="$STATE_DIR/neo4j$SUFFIX.pid"
MODE_FILE="$STATE_DIR/mode$SUFFIX"
BUILD_LOG="$STATE_DIR/build.log"
TOOL_DIR="$ROOT/tools/neo4j-local"
JAR="$TOOL_DIR/target/neo4j-local.jar"
LIB_DIR="$TOOL_DIR/target/lib"
START_TIMEOUT="${GRAPHBRAIN_NEO4J_START_TIMEOUT:-120}"
JAVA_OPTS_DEFAULT="-Xms256m -Xmx1g -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -XX:-OmitStackTraceInFastThrow -Dio.netty.tryReflectionSetAccessible=true"
JAVA_OPTS="${GRAPHBRAIN_NEO4J_JAVA_OPTS:-$JAVA_OPTS_DEFAULT}"
LOCAL_URI="bolt://$HOST:$PORT"

log() { printf '%s\n' "neo4j.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

# port_open HOST PORT: true when a TCP connection succeeds within 2 s.
port_open() {
  local h="$1" p="$2"
  # shellcheck disable=SC2016  # $0/$1 expand in the child shell
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$h" "$p" >/dev/null 2>&1
}

# Split NEO4J_URI (scheme://host[:port][/...]) into URI_HOST and URI_PORT.
parse_uri() {
  local rest="${1#*://}"
  rest="${rest%%/*}"
  rest="${rest##*@}"
  if [[ "$rest" == \[*\]* ]]; then            # [ipv6]:port
    URI_HOST="${rest%%]*}"; URI_HOST="${URI_HOST#[}"
    rest="${rest#*]}"; URI_PORT="${rest#:}"
  elif [[ "$rest" == *:* ]]; then
    URI_HOST="${rest%%:*}"; URI_PORT="${rest##*:}"
  else
    URI_HOST="$rest"; URI_PORT=""
  fi
  [[ -n "$URI_PORT" ]] || URI_PORT=7687
}

uri_reachable() {
  [[ -n "${NEO4J_URI:-}" ]] || return 1
  parse_uri "$NEO4J_URI"
  port_open "$URI_HOST" "$URI_PORT"
}

read_pid() {
  local pid=""
  [[ -f "$PID_FILE" ]] && pid="$(tr -dc '0-9' <"$PID_FILE" 2>/dev/null || true)"
  printf '%s' "$pid"
}

# pid_alive PID: the process exists and is our launcher (guards against pid reuse).
pid_alive() {
  local pid="$1"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [[ -r "/proc/$pid/cmdline" ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'neo4j-local' || return 1
  fi
  return 0
}

local_running() { pid_alive "$(read_pid)"; }

docker_available() {
  [[ "${GRAPHBRAIN_NEO4J_NO_DOCKER:-0}" != "1" ]] || return 1
  command -v docker >/dev/null 2>&1 || return 1
  timeout 20 docker info >/dev/null 2>&1
}

compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose -f "$ROOT/docker-compose.yml" "$@"
  elif command -v docker-compose >/dev/null 2>&1; then
    docker-compose -f "$ROOT/docker-compose.yml" "$@"
  else
    die "docker is available but neither 'docker compose' nor 'docker-compose' is"
  fi
}

find_java() {
  local cand
  for cand in "${JAVA_HOME:+$JAVA_HOME/bin/java}" "$(command -v java 2>/dev/null || true)" \
      /usr/lib/jvm/java-17-openjdk-amd64/bin/java /usr/lib/jvm/java-21-openjdk-amd64/bin/java \
      /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; do
    [[ -n "$cand" && -x "$cand" ]] || continue
    local ver
    ver="$("$cand" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)"
    if [[ "$ver" =~ ^[0-9]+$ ]] && ((ver >= 17)); then
      printf '%s' "$cand"
      return 0
    fi
  done
  return 1
}

needs_build() {
  [[ -f "$JAR" && -d "$LIB_DIR" ]] || return 0
  [[ -n "$(ls -A "$LIB_DIR" 2>/dev/null)" ]] || return 0
  [[ -z "$(find "$TOOL_DIR/pom.xml" "$TOOL_DIR/src" -type f -newer "$JAR" 2>/dev/null | head -n1)" ]] || return 0
  return 1
}

build() {
  mkdir -p "$STATE_DIR"
  if ! needs_build; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed to build tools/neo4j-local (apt-get install maven)"
  local java jhome t0
  java="$(find_java)" || die "no Java 17+ found (set JAVA_HOME)"
  jhome="$(dirname "$(dirname "$(readlink -f "$java")")")"
  log "building tools/neo4j-local (first time only; log: $BUILD_LOG)"
  t0=$SECONDS
  if ! (cd "$TOOL_DIR" && JAVA_HOME="$jhome" mvn -q -B -Dstyle.color=never package -DskipTests) >"$BUILD_LOG" 2>&1; then
    tail -n 40 "$BUILD_LOG" >&2 || true
    die "Maven build failed (see $BUILD_LOG)"
  fi
  [[ -f "$JAR" ]] || die "build produced no $JAR"
  touch "$JAR"
  log "built in $((SECONDS - t0)) s"
}

# Hold an exclusive lock for the rest of the script (concurrent `start`s build and launch once).
# fd 9 must not leak into the server (it would hold the lock for its whole life).
take_lock() {
  mkdir -p "$STATE_DIR"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$STATE_DIR/lock"
    flock -w 600 9 || die "timed out waiting for $STATE_DIR/lock"
  fi
}

wait_ready() {
  local deadline=$((SECONDS + START_TIMEOUT)) pid
  while ((SECONDS < deadline)); do
    pid="$(read_pid)"
    if ! pid_alive "$pid"; then
      sleep 1
      pid="$(read_pid)"
      if ! pid_alive "$pid"; then
        tail -n 40 "$LOG_FILE" >&2 || true
        rm -f "$PID_FILE"
        die "the local Neo4j exited during start-up (see $LOG_FILE)"
      fi
    fi
    if grep -q "^NEO4J_FAILED" "$LOG_FILE" 2>/dev/null; then
      tail -n 40 "$LOG_FILE" >&2 || true
      stop_local >/dev/null 2>&1 || true
      die "the local Neo4j failed to start (see $LOG_FILE)"
    fi
    if grep -q "^NEO4J_READY bolt://$HOST:$PORT" "$LOG_FILE" 2>/dev/null && port_open "$HOST" "$PORT"; then
      return 0
    fi
    sleep 0.5
  done
  tail -n 40 "$LOG_FILE" >&2 || true
  die "the local Neo4j was not ready within ${START_TIMEOUT}s (see $LOG_FILE)"
}

start_local() {
  take_lock
  if local_running; then
    printf '%s\n' "$LOCAL_URI"
    return 0
  fi
  rm -f "$PID_FILE"
  if port_open "$HOST" "$PORT"; then
    log "warning: $HOST:$PORT already answers but is not a server started by this script; using it as is"
    printf '%s\n' "$LOCAL_URI"
    return 0
  fi
  build
  local java t0
  java="$(find_java)" || die "no Java 17+ found (set JAVA_HOME)"
  mkdir -p "$DATA_DIR"
  [[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.1"
  t0=$SECONDS
  # shellcheck disable=SC2086  # JAVA_OPTS is a list of words
  NEO4J_PASSWORD="$PASSWORD" GRAPHBRAIN_NEO4J_PAGECACHE="${GRAPHBRAIN_NEO4J_PAGECACHE:-128m}" \
    nohup setsid "$java" $JAVA_OPTS -jar "$JAR" \
      --host "$HOST" --port "$PORT" --data "$DATA_DIR" --pid-file "$PID_FILE" \
      </dev/null >"$LOG_FILE" 2>&1 9>&- &
  echo "$!" >"$PID_FILE.tmp"
  # The launcher writes its own pid; keep ours only if it has not done so yet.
  [[ -s "$PID_FILE" ]] || mv -f "$PID_FILE.tmp" "$PID_FILE"
  rm -f "$PID_FILE.tmp"
  echo local >"$MODE_FILE"
  wait_ready
  log "local Neo4j ready in $((SECONDS - t0)) s (pid $(read_pid), log $LOG_FILE)"
  printf '%s\n' "$LOCAL_URI"
}

start_docker() {
  log "starting Neo4j with docker compose"
  NEO4J_PASSWORD="$PASSWORD" GRAPHBRAIN_NEO4J_PORT="$PORT" compose up -d neo4j >&2
  echo docker >"$MODE_FILE"
  local deadline=$((SECONDS + START_TIMEOUT)) cid health
  cid="$(compose ps -q neo4j 2>/dev/null || true)"
  while ((SECONDS < deadline)); do
    health="$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$cid" 2>/dev/null || echo unknown)"
    if [[ "$health" == healthy || "$health" == none ]] && port_open "$HOST" "$PORT"; then
      printf '%s\n' "$LOCAL_URI"
      return 0
    fi
    sleep 2
  done
  die "the Neo4j container was not healthy within ${START_TIMEOUT}s (docker compose logs neo4j)"
}

cmd_start() {
  if [[ -n "${NEO4J_URI:-}" ]]; then
    if uri_reachable; then
      printf '%s\n' "$NEO4J_URI"
      return 0
    fi
    log "NEO4J_URI=$NEO4J_URI does not answer; starting one"
  fi
  if local_running; then
    printf '%s\n' "$LOCAL_URI"
    return 0
  fi
  if docker_available; then
    start_docker
  else
    start_local
  fi
}

stop_local() {
  local pid i
  pid="$(read_pid)"
  if ! pid_alive "$pid"; then
    rm -f "$PID_FILE"
    return 1
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 120; i++)); do           # up to 60 s for a clean shutdown (checkpoint)
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid did not stop after TERM; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
  rm -f "$PID_FILE"
  return 0
}

cmd_stop() {
  if stop_local; then
    echo "stopped"
  elif [[ "$(cat "$MODE_FILE" 2>/dev/null || true)" == docker ]] && docker_available; then
    compose stop neo4j >&2
    echo "stopped"
  else
    echo "not running"
  fi
  rm -f "$MODE_FILE"
}

cmd_status() {
  if local_running; then
    echo "running (local, pid $(read_pid)) $LOCAL_URI"
    return 0
  fi
  if [[ "$(cat "$MODE_FILE" 2>/dev/null || true)" == docker ]] && port_open "$HOST" "$PORT"; then
    echo "running (docker) $LOCAL_URI"
    return 0
  fi
  if [[ -n "${NEO4J_URI:-}" ]] && uri_reachable; then
    echo "running (external) $NEO4J_URI"
    return 0
  fi
  echo "not running"
  return 3
}

cmd_uri() {
  if [[ -n "${NEO4J_URI:-}" ]]; then
    printf '%s\n' "$NEO4J_URI"
  else
    printf '%s\n' "$LOCAL_URI"
  fi
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  uri) cmd_uri ;;
  build) take_lock; build ;;
  -h | --help | help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) echo "usage: $0 {start|stop|status|uri|build}" >&2; exit 2 ;;
esac
