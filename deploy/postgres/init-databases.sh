#!/bin/sh
# First start of the stack's PostgreSQL (docker-entrypoint-initdb.d): one role and one database per owner, so the
# registry, Temporal and Keycloak never share tables. Passwords come from the environment (.env, see .env.example)
# and reach SQL as psql variables, quoted by psql.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v registry_password="$REGISTRY_DB_PASSWORD" \
  -v registry_app_password="$REGISTRY_APP_DB_PASSWORD" \
  -v temporal_password="$TEMPORAL_DB_PASSWORD" \
  -v keycloak_password="$KEYCLOAK_DB_PASSWORD" <<'SQL'
-- The Tenant Registry: `registry` owns the schema and runs the migrations (DATABASE_MIGRATION_URL of the compose
-- migrate service only); the API and the worker run as `registry_app` (DATABASE_URL), which the migrate service
-- grants only what it uses (store/runtimeRolePrivileges.ts).
CREATE ROLE registry LOGIN PASSWORD :'registry_password';
CREATE DATABASE tenant_registry OWNER registry;
CREATE ROLE registry_app LOGIN PASSWORD :'registry_app_password';

-- Temporal: its persistence and its visibility store; the temporal-schema job creates the tables.
CREATE ROLE temporal LOGIN PASSWORD :'temporal_password';
CREATE DATABASE temporal OWNER temporal;
CREATE DATABASE temporal_visibility OWNER temporal;

-- Keycloak (KC_DB_URL_DATABASE).
CREATE ROLE keycloak LOGIN PASSWORD :'keycloak_password';
CREATE DATABASE keycloak OWNER keycloak;
SQL
