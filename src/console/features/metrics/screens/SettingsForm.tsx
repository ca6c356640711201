/**
 * The history-saving settings of one device (§7 change-save-metrics-info): keep a history on/off, sample
 * interval (s), retention (h). Checked as the device checks them (metricsData.settingsProblem) before saving;
 * the device's refusal is shown too. Test ids: metrics-settings, metrics-save, metrics-interval,
 * metrics-retention, metrics-settings-submit, metrics-settings-status (data-status).
 */
import { Alert, Button, Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MetricsViewRef } from '../../../../../machines/metrics/metrics.machine';
import type { SaveSettings } from '../../../../../machines/metrics/metricsData';
import type { MetricsTabView } from '../selectors';

/** Error text and typed value with enough contrast (WCAG AA 4.5:1): Mantine's error red has 3.3:1 on white. */
const FIELD_STYLES = {
  error: { color: 'var(--mantine-color-red-8)' },
  input: { color: 'var(--mantine-color-text)' },
};

export function SettingsForm({ view, actor }: { view: MetricsTabView; actor: MetricsViewRef }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<SaveSettings | null>(view.settings);
  // The device's settings arrive with the history (and after each save).
  useEffect(() => {
    if (view.settings) setForm(view.settings);
  }, [view.settings]);
  if (!form) return null;
  const problem = view.settingsStatus === 'invalid' ? view.settingsProblem : null;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="metrics-settings-title"
      data-testid="metrics-settings"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'settings.save', settings: form });
        }}
      >
        <Stack gap="sm">
          <Title order={3} id="metrics-settings-title" size="h4">
            {t('metrics.settings.title')}
          </Title>
          <Switch
            label={t('metrics.settings.save')}
            checked={form.save}
            onChange={(e) => setForm({ ...form, save: e.currentTarget.checked })}
            data-testid="metrics-save"
          />
          <Group align="flex-start">
            <NumberInput
              label={t('metrics.settings.interval')}
              value={form.interval_s}
              onChange={(v) => setForm({ ...form, interval_s: typeof v === 'number' ? v : Number(v) })}
              allowDecimal={false}
              styles={FIELD_STYLES}
              error={
                problem === 'interval' || problem === 'tooMany'
                  ? t(`metrics.settings.errors.${problem}`)
                  : undefined
              }
              data-testid="metrics-interval"
            />
            <NumberInput
              label={t('metrics.settings.retention')}
              value={form.retention_h}
              onChange={(v) => setForm({ ...form, retention_h: typeof v === 'number' ? v : Number(v) })}
              allowDecimal={false}
              styles={FIELD_STYLES}
              error={problem === 'retention' ? t('metrics.settings.errors.retention') : undefined}
              data-testid="metrics-retention"
            />
          </Group>
          <Group>
            <Button
              type="submit"
              loading={view.settingsStatus === 'saving'}
              data-testid="metrics-settings-submit"
            >
              {t('metrics.settings.submit')}
            </Button>
            <Text
              size="sm"
              role="status"
              data-testid="metrics-settings-status"
              data-status={view.settingsStatus}
            >
              {view.settingsStatus === 'saved' ? t('metrics.settings.saved') : ''}
            </Text>
          </Group>
          {view.settingsStatus === 'failed' && (
            <Alert color="red" role="alert">
              {t('metrics.settings.failed', { error: view.settingsError })}
            </Alert>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
