#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store tests.
#
#   url=$(.ci/postgres.sh)              # install if needed, start, print the SQLAlchemy URL
#   PTC_TEST_POSTGRES_URL=$url python -m pytest -q tests/store
#   .ci/postgres.sh stop                # stop the cluster and delete its files
#
# The cluster listens on 127.0.0.1:$PTC_PG_PORT (default 54329) with trust authentication,
# keeps its files in $PTC_PG_DIR (default /tmp/ptc-pg-<port>) and runs with fsync off: it is
# for tests only. Everything but the URL goes to stderr. Debian/Ubuntu (apt) only.
set -euo pipefail

PORT="${PTC_PG_PORT:-54329}"
DIR="${PTC_PG_DIR:-/tmp/ptc-pg-$PORT}"
USER_NAME=ptc
DB_NAME=ptc
URL="postgresql+psycopg://$USER_NAME@127.0.0.1:$PORT/$DB_NAME"

log() { echo ".ci/postgres.sh: $*" >&2; }

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

BIN="$(find_bin || true)"
if [ -z "$BIN" ] && [ "${1:-start}" != stop ]; then
    if ! command -v apt-get >/dev/null; then
        log "PostgreSQL is not installed and apt-get is not available"; exit 1
    fi
    log "installing postgresql with apt-get"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q postgresql >&2
    BIN="$(find_bin)"
fi

# PostgreSQL refuses to run as root: use the postgres system user then.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "${1:-start}" in
stop)
    if [ -n "$BIN" ] && [ -f "$DIR/PG_VERSION" ]; then
        as_owner "$BIN/pg_ctl" -D "$DIR" -m immediate stop >&2 || true
    fi
    rm -rf "$DIR"
    log "stopped and removed $DIR"
    exit 0
    ;;
start) ;;
*) echo "usage: $0 [start|stop]" >&2; exit 2 ;;
esac

if [ ! -f "$DIR/PG_VERSION" ]; then
    rm -rf "$DIR"
    mkdir -p "$DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$DIR"
    as_owner "$BIN/initdb" -D "$DIR" -A trust -U "$USER_NAME" --no-sync -E UTF8 >&2
fi

if ! as_owner "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
    as_owner "$BIN/pg_ctl" -D "$DIR" -w -t 60 -l "$DIR/server.log" \
        -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
        start >&2
fi

if ! as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" -d postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1; then
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" "$DB_NAME" >&2
fi

echo "$URL"
