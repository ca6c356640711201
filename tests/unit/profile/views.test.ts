/**
 * Pure views of the profile feature (src/console/features/profile/views.ts) and the form helpers
 * (machines/profile/profileForm.ts): §5 "password only when provided", the header's initials, stream bars
 * (§7 usage/all_stream_limits), and the usage charts' series with every day of the range.
 */
import { describe, expect, it } from 'vitest';
import {
  formOf,
  profileUpdateOf,
  validateProfile,
  type ProfileUser,
} from '../../../machines/profile/profileForm';
import {
  daySeconds,
  deviceTokenRowsOf,
  headerToView,
  networkDaysOf,
  networkRowsOf,
  networkSeriesOf,
  storageSeriesOf,
  streamBarsOf,
} from '../../../src/console/features/profile/views';
import type { NetworkUsage } from '../../../src/protocol/profile';

const user: ProfileUser = {
  id: 'u',
  email: 'pat@example.com',
  username: 'Pat Quinn',
  bio: 'hi',
  image: null,
  roles: [],
};

describe('profile form helpers', () => {
  it('send nothing for an unchanged form, and the password only when provided (§5)', () => {
    const v = formOf(user);
    expect(profileUpdateOf(v, user)).toEqual({});
    expect(profileUpdateOf({ ...v, bio: '  ' }, user)).toEqual({ bio: null });
    expect(profileUpdateOf({ ...v, email: ' NEW@example.com ', currentPassword: 'pw' }, user)).toEqual({
      email: 'new@example.com',
      current_password: 'pw',
    });
    expect(
      profileUpdateOf(
        { ...v, password: 'secret-12', passwordConfirm: 'secret-12', currentPassword: 'pw' },
        user,
      ),
    ).toEqual({
      password: 'secret-12',
      current_password: 'pw',
    });
  });

  it('validate each field with an i18n key', () => {
    const v = formOf(user);
    expect(validateProfile(v, user)).toEqual({});
    expect(
      validateProfile({ ...v, email: 'nope', username: ' ', password: 'short', passwordConfirm: 'x' }, user),
    ).toEqual({
      email: 'emailInvalid',
      username: 'usernameRequired',
      password: 'passwordTooShort',
      passwordConfirm: 'passwordMismatch',
      currentPassword: 'currentPasswordRequired',
    });
    expect(validateProfile({ ...v, bio: 'x'.repeat(501) }, user)).toEqual({ bio: 'bioTooLong' });
  });
});

describe('profile views', () => {
  it('header: name, picture and initials', () => {
    expect(headerToView(null)).toBeNull();
    expect(headerToView(user)).toEqual({ name: 'Pat Quinn', image: null, initials: 'PQ' });
    expect(headerToView({ ...user, username: ' ', image: '/api/avatars/u?v=1' })).toMatchObject({
      name: 'pat@example.com',
      image: '/api/avatars/u?v=1',
      initials: 'P',
    });
  });

  it('stream bars: limit, streams in use when known, percent capped at 100', () => {
    const bars = streamBarsOf(
      [
        { deviceId: 'a', max_streams: 16 },
        { deviceId: 'b', max_streams: 4 },
        { deviceId: 'c', max_streams: 2 },
      ],
      new Map([['a', 'Gate']]),
      new Map([
        ['a', 4],
        ['c', 3],
      ]),
    );
    expect(bars).toEqual([
      { deviceId: 'a', label: 'Gate', limit: 16, used: 4, percent: 25 },
      { deviceId: 'b', label: 'b', limit: 4, used: null, percent: 0 },
      { deviceId: 'c', label: 'c', limit: 2, used: 3, percent: 100 },
    ]);
  });

  it('network: every day of the range, devices summed per day; table newest first with labels', () => {
    const n: NetworkUsage = {
      days: 3,
      from: '2026-11-25',
      to: '2026-11-27',
      devices: [{ device_id: 'd1', label: 'Jetson' }],
      rows: [
        { day: '2026-11-25', device_id: 'd1', bytes_from_device: 10, bytes_to_device: 1 },
        { day: '2026-11-27', device_id: 'd1', bytes_from_device: 5, bytes_to_device: 2 },
        { day: '2026-11-27', device_id: 'd2', bytes_from_device: 7, bytes_to_device: 3 },
      ],
      turn_counted: false,
    };
    const days = networkDaysOf(n);
    expect(days).toEqual([
      { day: '2026-11-25', fromDevice: 10, toDevice: 1 },
      { day: '2026-11-26', fromDevice: 0, toDevice: 0 },
      { day: '2026-11-27', fromDevice: 12, toDevice: 5 },
    ]);
    expect(networkSeriesOf(days)).toEqual([
      [daySeconds('2026-11-25'), daySeconds('2026-11-26'), daySeconds('2026-11-27')],
      [10, 0, 12],
      [1, 0, 5],
    ]);
    expect(networkRowsOf(n).map((r) => `${r.day} ${r.label}`)).toEqual([
      '2026-11-27 Jetson',
      '2026-11-27 d2',
      '2026-11-25 Jetson',
    ]);
  });

  it('storage series and device token expiry', () => {
    expect(
      storageSeriesOf({ total_bytes: 5, categories: [], history: [{ day: '2026-11-27', bytes: 5 }] }),
    ).toEqual([[daySeconds('2026-11-27')], [5]]);
    const rows = deviceTokenRowsOf(
      [
        {
          id: '1',
          device_id: 'a',
          label: 'A',
          issued_at: null,
          expires_at: null,
          has_token: true,
          is_active: false,
        },
        {
          id: '2',
          device_id: 'b',
          label: 'B',
          issued_at: 'x',
          expires_at: '2020-01-01T00:00:00Z',
          has_token: true,
          is_active: true,
        },
      ],
      Date.parse('2026-11-27T00:00:00Z'),
    );
    expect(rows.map((r) => r.expired)).toEqual([false, true]);
  });
});
