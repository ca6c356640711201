/** The records screen's pure views: the device chooser (connected ones enabled) and sizes. */
import { describe, expect, it } from 'vitest';
import { formatSize, recordDevicesOf } from '../../../src/console/features/records/selectors';

const conn = (label: string) => ({ getSnapshot: () => ({ context: { device: { label } } }) });

describe('records selectors', () => {
  it('lists every pooled device, connected only when its link is open', () => {
    const devices = recordDevicesOf({
      context: {
        order: ['a', 'b', 'c'],
        status: { a: 'open', b: 'connecting' },
        connections: { a: conn('Box A'), b: conn('Box B') },
      },
    });
    expect(devices).toEqual([
      { deviceId: 'a', name: 'Box A', connected: true, status: 'open' },
      { deviceId: 'b', name: 'Box B', connected: false, status: 'connecting' },
      { deviceId: 'c', name: 'c', connected: false, status: 'closed' },
    ]);
    expect(recordDevicesOf(undefined)).toEqual([]);
  });

  it('formats sizes', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(2048)).toBe('2.0 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
