/**
 * /profile/stream-management (spec §2 Profile; §3 "Stream limit list"; §7 usage/all_stream_limits →
 * stream_limits): each device's stream limit as a bar of the streams it sends now. Streams in use come from
 * the device's own check-health (`streams` + `paused_streams`) while it is connected to this console; the
 * server does not see peer-to-peer streams, so a device that is not connected shows its limit only.
 * Test ids: streams-screen, stream-bar-<device_id>.
 */
import { Alert, Button, Group, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import type { DeviceTokenInfo } from '../../../../protocol/profile';
import { useDeviceConnectionRef } from '../../devices/selectors';
import '../i18n';
import { useProfileRef, useReportView } from '../selectors';
import { streamBarsOf, type StreamBar } from '../views';
import { ProfilePage } from './ProfileNav';

/** Streams a connected device reports sending (null when not connected or not yet reported). */
function useStreamsInUse(deviceId: string): number | null {
  const ref = useDeviceConnectionRef(deviceId);
  return useSelector(ref, (s) => {
    const h = (s?.context as { health?: { streams?: number; paused_streams?: number } } | undefined)?.health;
    return h && typeof h.streams === 'number' ? h.streams + (h.paused_streams ?? 0) : null;
  });
}

function Bar({ bar }: { bar: StreamBar }) {
  const { t } = useTranslation();
  const used = useStreamsInUse(bar.deviceId);
  const [row] = streamBarsOf(
    [{ deviceId: bar.deviceId, max_streams: bar.limit }],
    new Map([[bar.deviceId, bar.label]]),
    used === null ? new Map() : new Map([[bar.deviceId, used]]),
  );
  const shown = row!;
  const text =
    shown.used === null
      ? t('profile.streams.notConnected', { limit: shown.limit })
      : t('profile.streams.inUse', { used: shown.used, limit: shown.limit });
  return (
    <Stack
      gap={4}
      data-testid={`stream-bar-${bar.deviceId}`}
      data-used={shown.used ?? ''}
      data-limit={shown.limit}
    >
      <Group justify="space-between">
        <Text fw={600} size="sm">
          {bar.label}
        </Text>
        <Text size="sm">{text}</Text>
      </Group>
      <Progress.Root size="lg">
        <Progress.Section
          value={shown.percent}
          color={shown.percent >= 90 ? 'red' : shown.percent >= 70 ? 'yellow' : 'blue'}
          aria-label={t('profile.streams.bar', { name: bar.label })}
          aria-valuetext={text}
        />
      </Progress.Root>
    </Stack>
  );
}

export default function StreamManagementScreen() {
  const { t } = useTranslation();
  const limitsRef = useProfileRef(PROFILE_IDS.streamLimits);
  const devicesRef = useProfileRef(PROFILE_IDS.deviceTokens);
  const limits = useReportView<{ deviceId: string; max_streams: number }[]>(PROFILE_IDS.streamLimits);
  const devices = useReportView<DeviceTokenInfo[]>(PROFILE_IDS.deviceTokens);
  useEffect(() => {
    limitsRef.send({ type: 'report.load' });
    devicesRef.send({ type: 'report.load' });
  }, [limitsRef, devicesRef]);
  const labels = new Map((devices.data ?? []).map((d) => [d.device_id, d.label]));
  const bars = streamBarsOf(limits.data ?? [], labels, new Map());
  return (
    <ProfilePage title={t('profile.streams.title')} testId="streams-screen">
      <Text size="sm">{t('profile.streams.intro')}</Text>
      {limits.state === 'failed' ? (
        <Alert color="red" role="alert">
          {t('profile.failed', { error: limits.error })}
          <Button size="xs" ml="sm" onClick={() => limitsRef.send({ type: 'report.load' })}>
            {t('profile.retry')}
          </Button>
        </Alert>
      ) : limits.data === null ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('profile.loading')}</Text>
        </Group>
      ) : bars.length === 0 ? (
        <Text size="sm">{t('profile.streams.none')}</Text>
      ) : (
        <Paper withBorder p="md">
          <Stack gap="md">
            {bars.map((b) => (
              <Bar key={b.deviceId} bar={b} />
            ))}
          </Stack>
        </Paper>
      )}
    </ProfilePage>
  );
}
