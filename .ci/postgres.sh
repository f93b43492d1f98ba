#!/usr/bin/env bash
# Sourced by .ci/run: a throwaway PostgreSQL for the server tests. Installs Debian's postgresql when
# missing, starts a cluster on loopback with its own data dir and a free port, creates a role and a
# database for the tests, exports SPOC_TEST_PG_URL and SPOC_REQUIRE_PG=1 (so the tests fail rather
# than skip without it), and stops the cluster and deletes its files when the calling shell exits.
# Run on its own to try it:  bash -c 'source .ci/postgres.sh && psql "$SPOC_TEST_PG_URL" -c "select 1"'

spoc_pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

if [ -z "$(spoc_pg_bin)" ]; then
  echo "Installing Debian's postgresql for the server tests"
  SPOC_PG_SUDO=""
  [ "$(id -u)" -ne 0 ] && SPOC_PG_SUDO="sudo"
  $SPOC_PG_SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SPOC_PG_SUDO apt-get install -y -qq postgresql >/dev/null
fi
SPOC_PG_BIN="$(spoc_pg_bin)"

# initdb and pg_ctl refuse to run as root: then the cluster belongs to the postgres user.
if [ "$(id -u)" -eq 0 ]; then
  spoc_pg_as() { runuser -u postgres -- "$@"; }
else
  spoc_pg_as() { "$@"; }
fi

SPOC_PG_DIR="$(mktemp -d /tmp/spoc-ci-pg.XXXXXX)"
[ "$(id -u)" -eq 0 ] && chown postgres "$SPOC_PG_DIR"

# The first free port from 54329 on (a port that accepts a connection is taken).
SPOC_PG_PORT=54329
while (exec 3<>"/dev/tcp/127.0.0.1/$SPOC_PG_PORT") 2>/dev/null; do SPOC_PG_PORT=$((SPOC_PG_PORT + 1)); done

spoc_pg_stop() {
  spoc_pg_as "$SPOC_PG_BIN/pg_ctl" -D "$SPOC_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$SPOC_PG_DIR"
}
trap spoc_pg_stop EXIT

SPOC_PG_PASSWORD="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
# Local socket connections (the setup below) are trusted; TCP on loopback needs the password.
spoc_pg_as "$SPOC_PG_BIN/initdb" -D "$SPOC_PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null
spoc_pg_as "$SPOC_PG_BIN/pg_ctl" -D "$SPOC_PG_DIR/data" -l "$SPOC_PG_DIR/log" -w \
  -o "-p $SPOC_PG_PORT -k $SPOC_PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null
# The tests create (and drop) one database per test file, so the role may create databases.
spoc_pg_as "$SPOC_PG_BIN/psql" -q -h "$SPOC_PG_DIR" -p "$SPOC_PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
  -c "CREATE ROLE spoc_test LOGIN CREATEDB PASSWORD '$SPOC_PG_PASSWORD'" \
  -c "CREATE DATABASE spoc_test OWNER spoc_test"

export SPOC_TEST_PG_URL="postgres://spoc_test:$SPOC_PG_PASSWORD@127.0.0.1:$SPOC_PG_PORT/spoc_test"
export SPOC_REQUIRE_PG=1
echo "PostgreSQL $("$SPOC_PG_BIN/postgres" --version | awk '{print $3}') for the server tests on 127.0.0.1:$SPOC_PG_PORT"
