-- First start of the stack's PostgreSQL (docker-entrypoint-initdb.d): one role and one database per owner, so the
-- registry, Temporal and Keycloak never share tables. Development passwords; docker-compose.yml passes the same.

-- The Tenant Registry (DATABASE_URL of the API and the worker); the service migrates its own schema.
CREATE ROLE registry LOGIN PASSWORD 'registry';
CREATE DATABASE tenant_registry OWNER registry;

-- Temporal: its persistence and its visibility store; the temporal-schema job creates the tables.
CREATE ROLE temporal LOGIN PASSWORD 'temporal';
CREATE DATABASE temporal OWNER temporal;
CREATE DATABASE temporal_visibility OWNER temporal;

-- Keycloak (KC_DB_URL_DATABASE).
CREATE ROLE keycloak LOGIN PASSWORD 'keycloak';
CREATE DATABASE keycloak OWNER keycloak;
