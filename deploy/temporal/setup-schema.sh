#!/bin/sh
# One-shot (temporal-schema in docker-compose.yml): brings Temporal's persistence and visibility databases to the
# schema of this admin-tools version. Idempotent, so it runs on every `docker compose up`; the databases themselves
# come from deploy/postgres/init-databases.sql. The password is read from SQL_PASSWORD.
set -eu
schema_dir=/etc/temporal/schema/postgresql/v12

for target in "$DBNAME:temporal" "$VISIBILITY_DBNAME:visibility"; do
  database=${target%%:*}
  kind=${target##*:}
  echo "schema of $database ($kind)"
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --db "$database" \
    setup-schema -v 0.0
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --db "$database" \
    update-schema -d "$schema_dir/$kind/versioned"
done
echo 'Temporal schema is up to date'
