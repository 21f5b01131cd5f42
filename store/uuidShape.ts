/**
 * What PostgreSQL accepts as a uuid. A batched read casts every key of its batch to uuid[], so a key of another shape
 * would fail the statement for every request in it: such a key is answered "not found" without asking.
 */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
