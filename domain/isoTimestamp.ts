/**
 * Timestamps as the API writes them: ISO 8601 in UTC to the millisecond, exactly what Date#toISOString gives.
 *
 * Why not Date#toISOString itself (issue #19): V8 formats it in its runtime through snprintf, and a page of 50
 * tenants formats up to 150 of them; a profile of the API under the API keys list showed V8's date formatting among
 * its costs. This does the same arithmetic in JavaScript, for less (docs/performance.md).
 */

const MS_PER_DAY = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: inside them the year has four digits and no sign. */
const FIRST_MS = -62_167_219_200_000;
const END_MS = 253_402_300_800_000;

const ZERO = 48;
const digit = (n: number, place: number) => ZERO + (Math.floor(n / place) % 10);

/** The same string as `date.toISOString()`, which still answers (and throws) outside years 0–9999 and for an invalid date. */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= FIRST_MS && ms < END_MS)) return date.toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  // The proleptic Gregorian date of a day number (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // One flat string from its character codes: concatenating the parts made a rope of a dozen strings per timestamp.
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1), 45, digit(month, 10), digit(month, 1), 45, digit(day, 10), digit(day, 1), 84,
    digit(hours, 10), digit(hours, 1), 58, digit(minutes, 10), digit(minutes, 1), 58, digit(seconds, 10), digit(seconds, 1), 46,
    digit(millis, 100), digit(millis, 10), digit(millis, 1), 90,
  );
}

/** PostgreSQL's text of a timestamptz in a UTC session: `2026-11-23 23:35:03.5501+00`, the fraction optional. */
const POSTGRES_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

/**
 * A timestamp as PostgreSQL's driver hands it over (text, or a Date) in the API's format. Text in a UTC session is
 * rewritten as text, its fraction cut to milliseconds as a Date would keep it; any other form goes through a Date.
 */
export function isoOfStoredTimestamp(value: string | Date): string {
  if (typeof value !== 'string') return isoTimestamp(value);
  if (!POSTGRES_UTC.test(value)) return isoTimestamp(new Date(value));
  const fraction = value.length > 22 ? value.slice(20, -3) : '';
  return `${value.slice(0, 10)}T${value.slice(11, 19)}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0')}Z`;
}
