'use client';

import { useState } from 'react';
import type { ImportEmail } from '@/lib/imports/import-details';
import { formatDateTime } from '@/app/admin/_ui/format';

/** The failure notices composed for this import, as their recipients see them. */
export function ImportEmails({ emails, failed }: { emails: ImportEmail[]; failed: boolean }) {
  const [asText, setAsText] = useState(false);
  return (
    <section aria-labelledby="emails">
      <h2 id="emails" className="mb-2 text-lg font-semibold">
        Failure email
      </h2>
      {emails.length === 0 ? (
        <p className="text-sm text-slate-700">
          {failed ? 'No email was composed: no staff member of this shop takes technical notices.' : 'Emails are sent only when an import fails.'}
        </p>
      ) : (
        <div className="space-y-3">
          <p className="break-anywhere text-sm text-slate-700" data-testid="email-recipients">
            To {emails.map((e) => e.recipient).join(', ')} · {emails.every((e) => e.sent_at) ? `sent ${formatDateTime(emails[0].sent_at)}` : emails.some((e) => e.error) ? `not sent: ${emails.find((e) => e.error)!.error}` : 'kept in the outbox (no SMTP_URL set)'}
          </p>
          <p className="break-anywhere font-medium" data-testid="email-subject">
            {emails[0].subject}
          </p>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={asText} onChange={(e) => setAsText(e.target.checked)} /> Show the plain-text version
          </label>
          {asText ? (
            <pre className="overflow-x-auto whitespace-pre-wrap rounded-lg border border-slate-200 bg-white p-3 text-xs">{emails[0].text}</pre>
          ) : (
            // Rendered apart from the app: no scripts, no access to the admin's session.
            <iframe title="The failure email" sandbox="" srcDoc={emails[0].html} className="h-80 w-full rounded-lg border border-slate-200 bg-white" />
          )}
        </div>
      )}
    </section>
  );
}
