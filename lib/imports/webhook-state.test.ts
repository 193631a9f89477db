import { expect, it } from 'vitest';
import { webhookState } from './webhook-state';

const failed = (status?: number, message = status ? `HTTP ${status}` : 'connect ECONNREFUSED') => ({ at: '2026-01-01T00:00:00Z', outcome: 'failed' as const, status, message });

it('tells where an import’s webhook stands from its attempts and its job', () => {
  expect(webhookState(null, true, [], 5)).toEqual({ state: 'none' });
  expect(webhookState('https://h.example', false, [], 5)).toEqual({ state: 'waiting', attempts: 0 });
  expect(webhookState('https://h.example', true, [], 5)).toEqual({ state: 'queued', attempts: 0 });
  expect(webhookState('https://h.example', true, [failed(500), { at: '2026-01-01T00:01:00Z', outcome: 'delivered', status: 204 }], 5)).toEqual({ state: 'delivered', attempts: 2, at: '2026-01-01T00:01:00Z' });
  const job = { state: 'retry', retry_limit: 5, start_after: '2026-01-01T00:05:00.000Z' };
  expect(webhookState('https://h.example', true, [failed(500)], 5, job)).toEqual({ state: 'retrying', attempts: 1, last_error: 'answered HTTP 500', next_attempt_at: '2026-01-01T00:05:00.000Z' });
  expect(webhookState('https://h.example', true, [failed()], 5)).toMatchObject({ state: 'retrying', last_error: 'connect ECONNREFUSED', next_attempt_at: null });
  // The first try and five retries failed: no more.
  expect(webhookState('https://h.example', true, Array.from({ length: 6 }, () => failed(502)), 5)).toEqual({ state: 'gave_up', attempts: 6, last_error: 'answered HTTP 502' });
  expect(webhookState('https://h.example', true, [failed(500)], 5, { ...job, state: 'failed' })).toMatchObject({ state: 'gave_up' });
  expect(webhookState('https://h.example', true, [failed(undefined, 'refused, never sent: a private address')], 5)).toEqual({ state: 'gave_up', attempts: 1, last_error: 'refused, never sent: a private address' });
});
