import { describe, expect, it } from 'vitest';
import { resolutionLabel } from '../../../src/protocol/commands';
import { resolveLanguage } from '../../../src/console/i18n/language';
import {
  SIDEBAR_INITIAL_OPEN,
  isNarrowViewport,
  sidebarOpenAfterResize,
} from '../../../src/console/shell/sidebar';
import { noticeColour } from '../../../src/console/shell/notices';

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

describe('labels', () => {
  it('labels a resolution option as "format Resolution: WxH FPS: n" (spec §3)', () => {
    expect(resolutionLabel({ pixel_format: 'YUYV', width: 640, height: 480, fps: 30 })).toBe(
      'YUYV Resolution: 640x480 FPS: 30',
    );
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
});
