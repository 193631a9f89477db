import { adminForPage } from '@/lib/staff/page-session';
import { OutboxList } from './outbox-list';

// GET /admin/outbox – every email the service composed, as sent (or kept, without SMTP_URL)
export default async function OutboxPage() {
  await adminForPage();
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Email outbox</h1>
      <OutboxList />
    </section>
  );
}
