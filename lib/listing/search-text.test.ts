import { expect, it } from 'vitest';
import { queryWords, searchWords } from './search-text';

// Found by engine.property.int.test.ts against the reference: the final sigma is σ, wherever it
// stands and however it was typed, so a word typed in capitals still finds words it begins.
it('folds the final sigma to σ', () => {
  expect(searchWords('ΟΔΟΣ οδος οδοσ')).toEqual(['οδοσ', 'οδοσ', 'οδοσ']);
  expect(searchWords('ΟΔΟΣΤΡΩΜΑ')[0].startsWith(queryWords('ΟΔΟΣ')[0])).toBe(true);
});
