import { redirect } from 'next/navigation';

// GET / – the admin app is the only page
export default function Home() {
  redirect('/admin');
}
