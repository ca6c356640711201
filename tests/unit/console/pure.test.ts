import { describe, expect, it } from 'vitest';
import { resolutionLabel } from '../../../src/protocol/commands';
import { resolveLanguage } from '../../../src/console/i18n/language';
import { en } from '../../../src/console/i18n/en';
import {
  canConnect,
  connectionLabel,
  deviceType,
  formatMemoryMb,
  formatPercent,
  formatRtt,
  pageCount,
  streamStatusLabel,
  streamStateOf,
} from '../../../src/console/lib/format';
import {
  SIDEBAR_INITIAL_OPEN,
  isNarrowViewport,
  sidebarOpenAfterResize,
} from '../../../src/console/shell/sidebar';
import { enqueueDialog, noticeColour } from '../../../src/console/shell/notices';
import { parseDemoAccount, validateLogin } from '../../../src/console/features/accounts/validation';

/** Resolves an i18n key like 'login.errors.emailRequired' in the English resource. */
const english = (key: string | undefined): string | undefined =>
  key?.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en) as
    string | undefined;

describe('sidebar (spec §2)', () => {
  it('starts collapsed', () => {
    expect(SIDEBAR_INITIAL_OPEN).toBe(false);
  });

  it('collapses when the window narrows below 1155 px', () => {
    expect(isNarrowViewport(1154)).toBe(true);
    expect(isNarrowViewport(1155)).toBe(false);
    expect(sidebarOpenAfterResize(true, 1280, 1100)).toBe(false);
  });

  it('stays as the user left it while the width stays on one side of 1155 px', () => {
    expect(sidebarOpenAfterResize(true, 1280, 1400)).toBe(true);
    expect(sidebarOpenAfterResize(true, 1000, 900)).toBe(true);
  });

  it('never opens by itself when the window widens', () => {
    expect(sidebarOpenAfterResize(false, 1000, 1400)).toBe(false);
  });

  it('collapses on the first measurement of a narrow window', () => {
    expect(sidebarOpenAfterResize(true, null, 800)).toBe(false);
  });
});

describe('login form (spec §5)', () => {
  it('requires the email, the password and the terms agreement', () => {
    const errors = validateLogin({ email: '', password: '', agreed: false });
    expect(english(errors.email)).toBe('Email is required');
    expect(english(errors.password)).toBe('Password is required');
    expect(english(errors.agreed)).toBe('You must agree to the terms');
  });

  it('asks for a password of at least 6 characters', () => {
    expect(english(validateLogin({ email: 'a@b.co', password: '12345', agreed: true }).password)).toBe(
      'Password must be at least 6 characters',
    );
  });

  it('rejects an address that is not an e-mail', () => {
    expect(english(validateLogin({ email: 'nobody', password: 'secret1', agreed: true }).email)).toBe(
      'Enter a valid email address',
    );
  });

  it('accepts a complete form', () => {
    expect(validateLogin({ email: ' demo@edge.local ', password: 'demo-edge-2026', agreed: true })).toEqual(
      {},
    );
  });

  it('reads the demo account only when it has the expected shape', () => {
    expect(parseDemoAccount({ enabled: true, email: 'd@e.f', password: 'pw' })).toEqual({
      enabled: true,
      email: 'd@e.f',
      password: 'pw',
    });
    expect(parseDemoAccount({ enabled: false })).toEqual({ enabled: false, email: '', password: '' });
    expect(parseDemoAccount({ enabled: true, email: 3 })).toBeNull();
    expect(parseDemoAccount('nope')).toBeNull();
  });
});

describe('device and stream labels', () => {
  it('calls chipset 0 x86 and anything else Jetson (spec §9)', () => {
    expect(deviceType('0')).toBe('x86');
    expect(deviceType('33')).toBe('Jetson');
  });

  it('names every connection state', () => {
    expect(connectionLabel('notConnected')).toBe('Not connected');
    expect(connectionLabel('opening')).toBe('Opening');
    expect(connectionLabel('open')).toBe('Open');
    expect(connectionLabel('closed')).toBe('Closed');
    expect(connectionLabel('errored')).toBe('Error');
    expect(connectionLabel(undefined)).toBe('Not connected');
  });

  it('offers Connect for devices without a live link only', () => {
    expect(canConnect(undefined)).toBe(true);
    expect(canConnect('errored')).toBe(true);
    expect(canConnect('opening')).toBe(false);
    expect(canConnect('open')).toBe(false);
  });

  it('writes the stream status line', () => {
    expect(streamStatusLabel('starting', null)).toBe('Starting');
    expect(streamStatusLabel('reconnecting', null)).toBe('Reconnecting');
    expect(streamStatusLabel('paused', null)).toBe('Paused (hidden)');
    expect(streamStatusLabel('playing', null)).toBe('Playing');
    expect(streamStatusLabel('failed', 'Device disconnected')).toBe('Failed: Device disconnected');
  });

  it('shows a stream that waits for its device or backs off as reconnecting', () => {
    expect(streamStateOf('waitingForDevice')).toBe('reconnecting');
    expect(streamStateOf('retrying')).toBe('reconnecting');
    expect(streamStateOf({ playing: { recorder: 'idle' } })).toBe('playing');
    expect(streamStateOf('paused')).toBe('paused');
    expect(streamStateOf({ paused: 'held' })).toBe('paused');
    expect(streamStateOf('resuming')).toBe('connecting');
  });

  it('formats usage values with units, and a dash when unknown', () => {
    expect(formatPercent(41.6)).toBe('42 %');
    expect(formatPercent(null)).toBe('–');
    expect(formatMemoryMb(1024.4, 8192)).toBe('1024 / 8192 MiB');
    expect(formatRtt(0.4)).toBe('0 ms');
    expect(formatRtt(undefined)).toBe('–');
  });

  it('labels a resolution option as "format Resolution: WxH FPS: n" (spec §3)', () => {
    expect(resolutionLabel({ pixel_format: 'YUYV', width: 640, height: 480, fps: 30 })).toBe(
      'YUYV Resolution: 640x480 FPS: 30',
    );
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
  });
});

describe('language (spec §2)', () => {
  it('uses the stored language when supported, else English', () => {
    expect(resolveLanguage('de')).toBe('de');
    expect(resolveLanguage('jp')).toBe('jp');
    expect(resolveLanguage('xx')).toBe('en');
    expect(resolveLanguage(null)).toBe('en');
  });
});

describe('notices and dialogs (spec §2)', () => {
  it('colours toasts by variant', () => {
    expect(noticeColour('danger')).toBe('red');
    expect(noticeColour('warning')).toBe('yellow');
    expect(noticeColour('success')).toBe('green');
    expect(noticeColour('info')).toBe('blue');
  });

  it('shows one dialog for the same fact reported twice', () => {
    const d = { key: 1, source: 'a', title: 'Device is not reachable', message: 'm' };
    const queue = enqueueDialog(enqueueDialog([], d), { ...d, key: 2, source: 'b' });
    expect(queue).toHaveLength(1);
    expect(enqueueDialog(queue, { ...d, key: 3, message: 'other' })).toHaveLength(2);
  });
});
