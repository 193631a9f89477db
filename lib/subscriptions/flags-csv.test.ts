import { describe, expect, it } from 'vitest';
import { flagsCsv } from './email-flags';

describe('flagsCsv', () => {
  it('writes a header and one CRLF line per email, flags space-separated', () => {
    expect(flagsCsv([{ email: 'a@example.com', flags: ['unsubscribed', 'complained'], updated_at: '2026-11-22T10:00:00.000Z' }])).toBe(
      'email,flags,updated_at\r\na@example.com,unsubscribed complained,2026-11-22T10:00:00.000Z\r\n',
    );
  });

  it('quotes cells with commas or quotes and defuses spreadsheet formulas', () => {
    const csv = flagsCsv([
      { email: '"odd,one"@example.com', flags: ['blacklisted'], updated_at: 't' },
      { email: '=cmd@example.com', flags: ['blacklisted'], updated_at: 't' },
    ]);
    expect(csv.split('\r\n').slice(1, 3)).toEqual(['"""odd,one""@example.com",blacklisted,t', `"'=cmd@example.com",blacklisted,t`]);
  });

  it('quotes a cell with a semicolon or a tab, which spreadsheets in many locales split on', () => {
    const csv = flagsCsv([{ email: 'a@b;=1+1', flags: ['complained'], updated_at: 't' }]);
    expect(csv.split('\r\n')[1]).toBe('"a@b;=1+1",complained,t');
  });
});
