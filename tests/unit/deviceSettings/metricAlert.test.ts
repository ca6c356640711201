/**
 * Metric alerts reach the user: the device's 'settings.metricAlert' link event becomes the machine's event,
 * the machine emits a warning toast naming device, metric, value and threshold with its i18n keys, the
 * notifications actor keeps the keys, and the toast shows them in the user's language (English fallback).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { deviceSettingsMachine } from '../../../machines/deviceSettings/deviceSettings.machine';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import { notificationsMachine } from '../../../machines/notifications/notifications.machine';
import { metricAlertEvent } from '../../../src/console/features/deviceSettings/actors';
import { registerDeviceSettingsTexts } from '../../../src/console/features/deviceSettings/i18n';
import i18n from '../../../src/console/i18n';
import { translated } from '../../../src/console/shell/Toasts';

describe('metric alert toasts', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('reads the link event data, refusing what is not an alert', () => {
    const data = { metric: 'temperature', value: 91.5, threshold: 85, at: 1, label: 'Gate' };
    expect(metricAlertEvent('dev-1', data)).toEqual({
      type: 'settings.metricAlert',
      deviceId: 'dev-1',
      device: 'Gate',
      metric: 'temperature',
      value: 91.5,
      threshold: 85,
    });
    // No label: the device id names it.
    expect(metricAlertEvent('dev-1', { metric: 'cpu', value: 95, threshold: 90 })).toMatchObject({
      device: 'dev-1',
    });
    for (const bad of [
      null,
      'cpu',
      { metric: 'disk', value: 1, threshold: 1 },
      { metric: 'cpu', value: '95', threshold: 90 },
      { metric: 'cpu', value: Infinity, threshold: 90 },
      { metric: 'cpu', value: 95 },
    ]) {
      expect(metricAlertEvent('dev-1', bad)).toBeNull();
    }
  });

  it('emits a warning toast with English texts and the keys of the six languages', () => {
    const actor = createActor(deviceSettingsMachine).start();
    const notices: NoticeEmitted[] = [];
    actor.on('notice', (e) => notices.push(e as unknown as NoticeEmitted));
    const event = metricAlertEvent('dev-1', { metric: 'cpu', value: 95, threshold: 90, label: 'Box A' })!;
    actor.send(event);
    expect(notices).toEqual([
      {
        type: 'notice',
        variant: 'warning',
        title: 'Metric alert: Box A',
        message: 'CPU use is 95 %, over the alert threshold of 90 %.',
        i18n: {
          title: {
            key: 'deviceSettings.metricAlert.title',
            values: { device: 'Box A', value: 95, threshold: 90 },
          },
          message: {
            key: 'deviceSettings.metricAlert.cpu',
            values: { device: 'Box A', value: 95, threshold: 90 },
          },
        },
      },
    ]);
    actor.stop();
  });

  it('the notifications actor keeps the keys, and the toast shows them in the chosen language', async () => {
    const notifications = createActor(notificationsMachine).start();
    const i18nTexts = {
      title: { key: 'deviceSettings.metricAlert.title', values: { device: 'Box A' } },
      message: { key: 'deviceSettings.metricAlert.memory', values: { value: 97, threshold: 90 } },
    };
    notifications.send({
      type: 'notice.show',
      title: 'Metric alert: Box A',
      message: 'Memory use is 97 %, over the alert threshold of 90 %.',
      variant: 'warning',
      source: 'deviceSettings',
      i18n: i18nTexts,
    });
    const [toast] = notifications.getSnapshot().context.toasts;
    expect(toast?.i18n).toEqual(i18nTexts);

    registerDeviceSettingsTexts();
    await i18n.changeLanguage('de');
    expect(translated(toast!.title, toast!.i18n?.title)).toBe('Metrik-Alarm: Box A');
    expect(translated(toast!.message, toast!.i18n?.message)).toBe(
      'Speicherauslastung 97 %, über der Alarmschwelle von 90 %.',
    );
    // A key without a text, or no key: the English words.
    expect(translated('Fallback', { key: 'deviceSettings.metricAlert.nope' })).toBe('Fallback');
    expect(translated('Plain', undefined)).toBe('Plain');
  });
});
