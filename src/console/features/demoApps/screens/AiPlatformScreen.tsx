/**
 * §2 /ai-platform: the AI platform (README "Decisions where the spec is silent": AI platform): every device
 * with the demo AI applications it can run and the engine that answers each, with links to open them.
 * Test ids: platform-device (data-device), platform-app (data-app, data-available).
 */
import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AiPlatformRef } from '../../../../../machines/demoApps/demoApps.machine';
import '../i18n';
import '../demoApps.css';
import { usePlatform } from '../selectors';

const PAGE: Record<string, string> = {
  nanoowl: '/nanoowl',
  llava: '/llava',
  speed: '/speed_application',
  ibb: '/ibb',
};

export default function AiPlatformScreen() {
  const ref = usePlatform();
  return ref ? <Platform actor={ref} /> : null;
}

function Platform({ actor }: { actor: AiPlatformRef }) {
  const { t } = useTranslation();
  const state = useSelector(actor, (s) => s.value);
  const { devices, error } = useSelector(actor, (s) => s.context);
  return (
    <Stack className="demo-page" data-testid="demo-platform">
      <Group justify="space-between">
        <Title order={1}>{t('demoApps.platform.title')}</Title>
        <Button
          variant="default"
          onClick={() => actor.send({ type: 'platform.load' })}
          loading={state === 'loading'}
        >
          {t('demoApps.platform.refresh')}
        </Button>
      </Group>
      <Text>{t('demoApps.platform.intro')}</Text>
      {state === 'loading' && <Text role="status">{t('demoApps.platform.loading')}</Text>}
      {state === 'failed' && (
        <Alert color="red">{t('demoApps.platform.failed', { error: error ?? '' })}</Alert>
      )}
      {state === 'ready' && devices.length === 0 && <Text>{t('demoApps.platform.empty')}</Text>}
      {devices.map((d) => (
        <Card key={d.device_id} withBorder data-testid="platform-device" data-device={d.device_id}>
          <Title order={2} size="h4">
            {d.label}
          </Title>
          {!d.online && <Text c="dimmed">{t('demoApps.platform.offline', { error: d.error ?? '' })}</Text>}
          <Stack gap={4}>
            {d.engines.map((e) => (
              <Group key={e.app} data-testid="platform-app" data-app={e.app} data-available={e.available}>
                <Anchor component={Link} to={PAGE[e.app] ?? '/'}>
                  {t(`demoApps.apps.${e.app}`)}
                </Anchor>
                <Text size="sm">
                  {e.available
                    ? t('demoApps.platform.available', { engine: `${e.engine} · ${e.model ?? ''}` })
                    : `${t('demoApps.platform.notAvailable')}: ${e.reason ?? ''}`}
                </Text>
              </Group>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
