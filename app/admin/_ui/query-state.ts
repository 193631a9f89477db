'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';

// A change asked for before the address caught up with the one before: the next change builds
// on it, not on the stale address (two filters changed in quick succession both hold).
let pending: { path: string; query: string } | null = null;

/**
 * A page's state kept in its address (filters, pages, views), so a reload or a shared link shows
 * the same. `go` changes some keys; a change resets `page` unless it sets it or `keepPage`.
 */
export function useQueryState() {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const current = search.toString();
  useEffect(() => {
    pending = null;
  }, [current]);
  const go = (changes: Record<string, string | null>, keepPage = false) => {
    const next = new URLSearchParams(pending?.path === pathname ? pending.query : current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!keepPage && !('page' in changes)) next.delete('page');
    pending = { path: pathname, query: next.toString() };
    router.replace(`${pathname}${next.size ? `?${next}` : ''}`, { scroll: false });
  };
  const clear = () => {
    pending = { path: pathname, query: '' };
    router.replace(pathname, { scroll: false });
  };
  return { search, go, clear };
}
