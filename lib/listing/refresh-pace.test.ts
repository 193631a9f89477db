import { expect, it } from 'vitest';
import { FRESHNESS_MS, MIN_PACE, nextRefreshAt, REFRESH_PACE } from './index-store';

it('pauses REFRESH_PACE times a refresh’s duration, cut short so a change shows within FRESHNESS_MS, never below MIN_PACE', () => {
  // Short refreshes: the whole pause.
  expect(nextRefreshAt(1_000, 1_200)).toBe(1_200 + REFRESH_PACE * 200);
  // 3.5 s refreshes: a change waits for the running one, the pause and its own: 3.5 + 3.5 + 3.5 (the floor).
  expect(nextRefreshAt(0, 3_500)).toBe(3_500 + Math.max(MIN_PACE * 3_500, FRESHNESS_MS - 7_000));
  expect(nextRefreshAt(0, 3_000)).toBe(3_000 + (FRESHNESS_MS - 6_000));
  // Long refreshes: the serving thread still gets as much time again for everything else.
  expect(nextRefreshAt(0, 6_000)).toBe(6_000 + MIN_PACE * 6_000);
});
