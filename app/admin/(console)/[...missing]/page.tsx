import { notFound } from 'next/navigation';

// /admin/… that is no page: the app's own 404, inside its chrome.
export default function MissingPage() {
  notFound();
}
