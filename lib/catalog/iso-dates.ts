// Dates as items send them (spec 2.4: ISO 8601), and the instants they name.

const isoDateTime = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant an ISO 8601 date or date-time names; without a zone it is read as UTC. */
export function parseIsoDate(value: string): Date {
  const normalised = value.replace(' ', 'T');
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(normalised) || !normalised.includes('T');
  return new Date(zoned ? normalised : `${normalised}Z`);
}

// A catalog's items share few dates (days, mostly): each date's instant is kept once read, a few
// thousand at most, where reading one took ~1 µs.
const INSTANTS_KEPT = 4096;
const instants = new Map<string, string | null>();

/**
 * The instant an ISO 8601 date or date-time naming a day of the calendar in a year from 1 to 9999
 * stands for, as toISOString gives it; null for any other text.
 */
export function isoInstant(value: string): string | null {
  const kept = instants.get(value);
  if (kept !== undefined) return kept;
  if (!isoDateTime.test(value)) return null;
  const date = parseIsoDate(value);
  const year = date.getUTCFullYear();
  const instant = year >= 1 && year <= 9999 && isCalendarDay(value) ? date.toISOString() : null;
  if (instants.size >= INSTANTS_KEPT) instants.clear();
  instants.set(value, instant);
  return instant;
}

/**
 * Whether the YYYY-MM-DD a date starts with is a day of the calendar: Date reads 2024-02-30 as
 * 1 March rather than refusing it (the spec asks for a valid date).
 */
function isCalendarDay(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** An ISO 8601 date or date-time naming a day of the calendar, in a year from 1 to 9999. */
export function isIsoDate(value: string): boolean {
  return isoInstant(value) !== null;
}
