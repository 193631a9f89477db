import type { ImportProblem } from '@/db/schema';
import { storableText } from '@/db/storable-text';
import { keepsItsDigits } from '@/lib/catalog/schemas';
import type { StatesTold } from './state-table';

// Stored problems per import are capped; counts stay exact.
const KEEP = 1000;

/** What applying one import did: counts, and the first problems of each kind. */
export class ImportOutcome {
  itemsTotal = 0;
  applied = 0;
  rejected = 0;
  warningCount = 0;
  readonly errors: ImportProblem[] = [];
  readonly warnings: ImportProblem[] = [];
  // Whether anything stored changed, so readers must refresh.
  changed = false;
  // Set when the applier bumped the catalog version itself (it stamps changed rows with it).
  version?: number;
  // What an import of products or availability tells of the shop's states, for the import
  // pipeline to follow once it commits (lib/imports/pipeline/known-states.ts).
  states?: StatesTold;

  reject(problem: ImportProblem): void {
    this.rejected++;
    if (this.errors.length < KEEP) this.errors.push(storableProblem(problem));
  }

  warn(problem: ImportProblem): void {
    this.warningCount++;
    if (this.warnings.length < KEEP) this.warnings.push(storableProblem(problem));
  }
}

// Problems quote what the shop sent, which may hold characters jsonb refuses.
function storableProblem(problem: ImportProblem): ImportProblem {
  return {
    ...problem,
    ...(problem.item_id !== undefined ? { item_id: storableText(problem.item_id) } : {}),
    message: storableText(problem.message),
  };
}

/**
 * The id a rejected entry names, trimmed, when a stored product could have it: it is listed so
 * its product keeps its availability. One with a NUL names none (PostgreSQL text holds no NUL),
 * and would fail the statement it is sent in.
 */
export function rejectedIdOf(problem: ImportProblem): string | undefined {
  return problem.item_id === undefined || problem.item_id.includes('\0') ? undefined : problem.item_id.trim();
}

/** The id an entry names, for its error: none for a number that lost digits (keepsItsDigits), which would name another id. */
export function itemIdOf(item: unknown): string | undefined {
  const id = item && typeof item === 'object' && 'id' in item ? (item as { id: unknown }).id : item;
  if (typeof id === 'string' || (typeof id === 'number' && keepsItsDigits(id))) return String(id);
  return undefined;
}
