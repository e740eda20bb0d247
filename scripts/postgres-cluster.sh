#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for the tests that need one (docs/SERVER.md, section 4).
#   scripts/postgres-cluster.sh start DIR PORT   prints the URL (postgres://postgres@127.0.0.1:PORT/postgres)
#   scripts/postgres-cluster.sh stop DIR         stops it and removes DIR
#   scripts/postgres-cluster.sh pause DIR        stops it (fast shutdown: open connections are cut), keeping its data
#   scripts/postgres-cluster.sh resume DIR PORT  starts a paused cluster again (Interop/faults: the nodes must reconnect)
# initdb refuses to run as root, so the cluster belongs to the `postgres` user when run as root.
set -euo pipefail
command=${1:?start|stop}
dir=${2:?directory}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "error: PostgreSQL server binaries not found (install Debian's postgresql)" >&2; exit 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
launch() {
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" \
    -o "-c listen_addresses=127.0.0.1 -p $1 -k $dir/data -c fsync=off" -w start > /dev/null
}
case "$command" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 > "$dir/initdb.log" 2>&1
    launch "$port"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  pause) as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null ;;
  resume) launch "${3:?port}" ;;
  stop)
    if [ -d "$dir/data" ]; then as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR | pause DIR | resume DIR PORT" >&2; exit 64 ;;
esac
