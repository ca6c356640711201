/**
 * The groups feature's pure selectors (src/console/features/groups/selectors.ts): the forest in display order
 * with depths and descendants (what the tree, the filters and the "Move to" choices are built from).
 */
import { describe, expect, it } from 'vitest';
import { flattenGroups } from '../../../src/console/features/groups/selectors';
import type { Group } from '../../../src/protocol/devices';

const g = (id: string, children: Group[] = []): Group => ({
  id,
  name: id.toUpperCase(),
  group_type: 'device',
  children,
});

describe('flattenGroups', () => {
  it('lists parents before children with depth, parent and every descendant', () => {
    const flat = flattenGroups([g('a', [g('b', [g('c')]), g('d')]), g('e')]);
    expect(flat.map((f) => [f.id, f.depth, f.parentId, f.descendants])).toEqual([
      ['a', 0, null, ['b', 'c', 'd']],
      ['b', 1, 'a', ['c']],
      ['c', 2, 'b', []],
      ['d', 1, 'a', []],
      ['e', 0, null, []],
    ]);
  });

  it('gives nothing for no groups', () => {
    expect(flattenGroups([])).toEqual([]);
  });
});
