import { adminForPage } from '@/lib/staff/page-session';
import { NewShopForm } from './new-shop-form';

// GET /admin/shops/new – an admin creates a shop and copies its credentials once
export default async function NewShopPage() {
  await adminForPage();
  return (
    <section className="max-w-2xl space-y-4">
      <h1 className="text-2xl font-semibold">New shop</h1>
      <NewShopForm />
    </section>
  );
}
