/** A string PostgreSQL can store in text and jsonb: NUL removed, unpaired surrogates as U+FFFD. */
export function storableText(value: string): string {
  const clean = value.includes('\0') ? value.replaceAll('\0', '') : value;
  return clean.isWellFormed() ? clean : clean.toWellFormed();
}
