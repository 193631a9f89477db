import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { EMAIL_EVENTS, FlaggedEmail } from './schemas';

// `changed`: emails that got a flag they lacked; `unchanged`: emails that had every flag listed.
export type FlagsImport = { changed: number; unchanged: number; rejected: { line: number; message: string }[] };

const MAX_LINES = 50_000;

/** The cells of one CSV line (RFC 4180 quotes; `,` or `;` between cells). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',' || c === ';') {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out.map((v) => v.trim());
}

/**
 * Adds flags from CSV text: each line an email and its flags (separated by spaces), as the
 * export writes them (its header and `updated_at` column are skipped); a line with an email only
 * gets `defaultFlag`. Lines that cannot be read are reported by number, the others applied.
 */
export async function importFlags(ctx: Pick<AppContext, 'sql'>, shopId: string, csv: string, defaultFlag?: string): Promise<FlagsImport> {
  if (defaultFlag !== undefined && !(EMAIL_EVENTS as readonly string[]).includes(defaultFlag)) throw new AppError('VALIDATION', `flag must be one of ${EMAIL_EVENTS.join(', ')}`);
  const lines = csv.split(/\r?\n/);
  if (lines.length > MAX_LINES) throw new AppError('VALIDATION', `A CSV may have at most ${MAX_LINES.toLocaleString('en-US')} lines`);
  const rejected: FlagsImport['rejected'] = [];
  const byEmail = new Map<string, string[]>();
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const [first, second = ''] = cells(line);
    if (i === 0 && first.toLowerCase() === 'email') return; // the header
    const email = FlaggedEmail.safeParse(first.replace(/^'/, ''));
    if (!email.success) return rejected.push({ line: i + 1, message: `${first || '(empty)'} is not an email address` });
    const flags = second ? second.split(/\s+/).filter(Boolean) : defaultFlag ? [defaultFlag] : [];
    if (flags.length === 0) return rejected.push({ line: i + 1, message: 'no flag: add one after the email, or choose a flag for lines without one' });
    const unknown = flags.find((f) => !(EMAIL_EVENTS as readonly string[]).includes(f));
    if (unknown) return rejected.push({ line: i + 1, message: `${unknown} is not a flag (${EMAIL_EVENTS.join(', ')})` });
    const kept = byEmail.get(email.data) ?? [];
    for (const flag of flags) if (!kept.includes(flag)) kept.push(flag);
    byEmail.set(email.data, kept);
  });
  const rows = [...byEmail];
  let changed = 0;
  await ctx.sql.begin(async (tx) => {
    for (let at = 0; at < rows.length; at += 1000) {
      const chunk = rows.slice(at, at + 1000);
      // Flags travel as one text each ("a b"): unnest cannot take an array of arrays.
      const written = await tx`
        insert into email_flags (shop_id, email, flags)
        select ${shopId}, r.email, string_to_array(r.flags, ' ') from unnest(${chunk.map(([email]) => email)}::text[], ${chunk.map(([, flags]) => flags.join(' '))}::text[]) as r(email, flags)
        on conflict (shop_id, email) do update
           set flags = email_flags.flags || array(select f from unnest(excluded.flags) as f where not f = any(email_flags.flags)), updated_at = now()
         where exists (select 1 from unnest(excluded.flags) as f where not f = any(email_flags.flags))
        returning 1`;
      changed += written.length;
    }
  });
  return { changed, unchanged: rows.length - changed, rejected: rejected.slice(0, 100) };
}
