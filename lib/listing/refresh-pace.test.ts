import { expect, it } from 'vitest';
import { FRESHNESS_MS, nextRefreshAt, REFRESH_PACE } from './index-store';

it('pauses REFRESH_PACE times a refresh’s duration, cut short so a change shows within FRESHNESS_MS', () => {
  // Short refreshes: the whole pause.
  expect(nextRefreshAt(1_000, 1_200)).toBe(1_200 + REFRESH_PACE * 200);
  // 3 s refreshes: a change waits for the running one, the pause and its own: 3 + 4 + 3 = 10 s.
  expect(nextRefreshAt(0, 3_000)).toBe(3_000 + (FRESHNESS_MS - 6_000));
  // Refreshes of half the bound or more: no pause at all.
  expect(nextRefreshAt(0, 6_000)).toBe(6_000);
});
