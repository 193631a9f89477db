import { appContext } from '@/lib/runtime/context';
import { listShops } from '@/lib/shops/manage-shops';
import { adminForPage } from '@/lib/staff/page-session';
import { StaffManager } from './staff-manager';

// GET /admin/staff – admins add, change, reset and remove staff accounts
export default async function StaffPage() {
  const user = await adminForPage();
  const shops = await listShops(appContext());
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Staff</h1>
      <StaffManager shops={shops.map((s) => ({ id: s.shop_id, name: s.name }))} selfId={user.id} />
    </section>
  );
}
