/** What PostgreSQL accepts as a uuid: a key of another shape is "not found" without a statement that would fail on it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (key: string): boolean => UUID.test(key);
