import type { ReplaySource } from './shop-index';
import { StringTable } from './string-table';

/**
 * What the next build replays: each document's dictionary numbers (laid out by the layout), and
 * the group ids in use — the previous index's (`known`) and those first seen in this build
 * (`added`), renumbered by `denseGroup` when the build made group numbers dense again.
 */
export function replaySource(
  tokens: { offsets: Int32Array; numbers: Int32Array | Uint16Array },
  groupIds: { known: StringTable | null; added: Map<string, number> },
  denseGroup: Int32Array | null,
  groupCount: number,
): ReplaySource {
  const inUse = function* (entries: Iterable<[string, number]>): Generator<[string, number]> {
    for (const [groupId, group] of entries) {
      if (!denseGroup) yield [groupId, group];
      else if (denseGroup[group] >= 0) yield [groupId, denseGroup[group]];
    }
  };
  const { known, added } = groupIds;
  // The previous table again when no group id came or was renumbered (the usual rebuild).
  const groups = known && added.size === 0 && !denseGroup ? known : new StringTable([...(known ? inUse(known.entries()) : []), ...inUse(added)]);
  return { tokenOffsets: tokens.offsets, tokenNumbers: tokens.numbers, groups, groupCount };
}
