import { notFound } from 'next/navigation';

// An admin page that does not exist: the HTML 404 page (the catch-all at the root answers JSON).
export default function MissingAdminPage() {
  notFound();
}
