import { AppError } from './errors';
import { processWide } from '@/lib/process-wide';

// Requests refused before authentication do not count against a shop's rate limit, yet each
// costs a body read, a JSON parse and a scrypt: failed authentications are limited per client
// address instead, in each process's memory.
const WINDOW_MS = 60_000;
// One per process (lib/process-wide.ts): Next.js loads this module once per route bundle, and a
// sign-in's failures must count with the imports' (one budget per address, whichever route it guesses at).
const failures = processWide<Map<string, number[]>>('auth-failures').getOrMake(() => new Map());

function recent(address: string, now: number): number[] {
  const kept = (failures.get(address) ?? []).filter((at) => at > now - WINDOW_MS);
  if (kept.length) failures.set(address, kept);
  else failures.delete(address);
  return kept;
}

/**
 * Throws RATE_LIMITED while `address` (or another key: an account) has had `perMinute` failed
 * authentications in a minute.
 */
export function assertNotLockedOut(address: string, perMinute: number, now = Date.now(), what = 'Too many failed authentications from this address'): void {
  const list = recent(address, now);
  if (list.length < perMinute) return;
  const retryAfter = Math.max(1, Math.ceil((list[0] + WINDOW_MS - now) / 1000));
  throw new AppError('RATE_LIMITED', `${what}; retry in ${retryAfter} s`, { retryAfterSeconds: retryAfter });
}

/** Awaits an authentication; a refusal (UNAUTHORIZED) counts against `address`. */
export function countingRefusal<T>(address: string, authentication: Promise<T>): Promise<T> {
  return authentication.catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'UNAUTHORIZED') noteAuthFailure(address);
    throw error;
  });
}

export function noteAuthFailure(address: string, now = Date.now()): void {
  const list = recent(address, now);
  list.push(now);
  failures.set(address, list);
  // Bound the memory an address spray can take.
  if (failures.size > 100_000) failures.delete(failures.keys().next().value!);
}

/** The peer address the server saw; set by bin/start.ts, never taken from the client. */
export function clientAddress(req: Request): string {
  return req.headers.get('x-vitrine-client-address') ?? 'unknown';
}
