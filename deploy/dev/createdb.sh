#!/usr/bin/env bash
# Create the database named in DATABASE_URL when it does not exist yet.
set -euo pipefail
url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/cms}"
name="${url##*/}"; name="${name%%\?*}"
server="${url%/*}/postgres"
if ! psql "$server" -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'" | grep -q 1; then
  psql "$server" -qc "CREATE DATABASE \"$name\"" && echo "Database $name created"
fi
