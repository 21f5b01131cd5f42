/**
 * SQL expressions that build the API's JSON text in PostgreSQL, for the pages the API only passes through (issue 40):
 * a page arrives as one text per row instead of a dozen columns decoded, mapped to objects and encoded again.
 * Their output is byte for byte what `JSON.stringify` makes of the same values (test/store/jsonTextSql.test.ts):
 * `to_json` escapes strings as JSON does, a jsonb's text is spliced in as the API splices it.
 */

/** A timestamptz as `Date#toISOString` writes it: UTC, milliseconds (the microseconds cut, as a Date cuts them). */
export const isoTimestampSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `"key":value` when the value is not null, else nothing (the API omits absent optional fields). */
export const optionalFieldSql = (key: string, valueJson: string, separator = ',') => `coalesce('${separator}"${key}":' || ${valueJson}, '')`;

/** A text column as a JSON string, or null. */
export const jsonStringSql = (column: string) => `to_json(${column})::text`;
