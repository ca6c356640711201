/**
 * The device page (`/control-panel/devices?device={id}&tab={tab}`; §2 log-warning link; issue "Operate a
 * device" §1): the device's name and presence (§7 presence poll, 30 s), and its tabs — Overview here, the
 * others from the features that add them (ConsoleFeature.deviceTabs: Metrics, Logs, Settings, Storage,
 * Software, Power). The selected tab is in the URL, so it survives a reload; only the selected panel is
 * mounted. The page only reads the devicePage actor's view and sends it events.
 */
import { Alert, Anchor, Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import '../i18n';
import { FeatureReady } from '../../../shell/FeatureReady';
import type { LazyScreen } from '../../../shell/lazyScreen';
import { RouteFallback } from '../../../shell/RouteFallback';
import { useDeviceTabs, type FeatureDeviceTab } from '../../../shell/SystemProvider';
import { useDevicePageRef, useDevicePageView } from '../selectors';
import { OverviewTab } from './OverviewTab';

const OVERVIEW: FeatureDeviceTab = {
  id: 'overview',
  label: 'devicePage.overview',
  order: 0,
  panel: OverviewTab,
  feature: null,
};

/** Overview first, then every feature's tab by `order`. */
function pageTabs(added: readonly FeatureDeviceTab[]): FeatureDeviceTab[] {
  return [OVERVIEW, ...added].sort((a, b) => a.order - b.order);
}

/** The tab label: the page's own name for the well-known tabs, else the feature's key. */
const TAB_KEYS: Record<string, string> = {
  metrics: 'devicePage.tabMetrics',
  logs: 'devicePage.tabLogs',
  settings: 'devicePage.tabSettings',
  storage: 'devicePage.tabStorage',
  software: 'devicePage.tabSoftware',
  power: 'devicePage.tabPower',
};

export default function DevicePage({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const page = useDevicePageRef();
  const view = useDevicePageView();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tabs = pageTabs(useDeviceTabs());
  const selected = tabs.some((tab) => tab.id === params.get('tab')) ? params.get('tab')! : 'overview';

  useEffect(() => {
    page.send({ type: 'page.open', deviceId });
    return () => page.send({ type: 'page.close' });
  }, [page, deviceId]);

  // Fetch every tab's chunk now, so a click on a tab renders it at once.
  useEffect(() => {
    for (const tab of tabs) (tab.panel as Partial<LazyScreen<object>>).preload?.();
    // The tabs are fixed for the console's life (App.tsx).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (view.removal.deleted) navigate('/control-panel/devices', { replace: true });
  }, [view.removal.deleted, navigate]);

  const label = view.device?.label ?? deviceId;
  return (
    <Stack gap="md" data-testid="device-page">
      <Anchor component={Link} to="/control-panel/devices" size="sm" data-testid="device-page-back">
        ← {t('devicePage.back')}
      </Anchor>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{label}</Title>
          <Text size="xs" c="dimmed">
            {deviceId}
          </Text>
        </div>
        <Badge
          variant="light"
          color={view.online === null ? 'gray' : view.online ? 'green' : 'red'}
          title={t('devicePage.presenceHint')}
          data-testid="device-presence"
          data-online={view.online === null ? undefined : String(view.online)}
        >
          {view.online === null
            ? t('devicePage.presenceUnknown')
            : view.online
              ? t('devicePage.online')
              : t('devicePage.offline')}
        </Badge>
      </Group>

      {view.record === 'loading' && <Text c="dimmed">{t('devicePage.loading')}</Text>}
      {view.record === 'notFound' && (
        <Alert color="yellow" role="alert" data-testid="device-page-not-found">
          {t('devicePage.notFound', { id: deviceId })}
        </Alert>
      )}
      {view.record === 'failed' && (
        <Alert color="red" role="alert">
          <Text size="sm">{t('devicePage.loadFailed', { error: view.error })}</Text>
          <Button mt="xs" size="xs" variant="light" onClick={() => page.send({ type: 'page.reload' })}>
            {t('devicePage.reload')}
          </Button>
        </Alert>
      )}

      {view.record === 'ready' && view.device && (
        <Tabs
          value={selected}
          keepMounted={false}
          onChange={(tab) =>
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                next.set('tab', tab ?? 'overview');
                return next;
              },
              { replace: true },
            )
          }
        >
          <Tabs.List aria-label={t('devicePage.tabs')}>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.id} value={tab.id} data-testid={`device-tab-${tab.id}`}>
                {t(TAB_KEYS[tab.id] ?? tab.label)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map(({ id, panel: Panel, feature }) => (
            <Tabs.Panel key={id} value={id} pt="md" data-testid={`device-panel-${id}`}>
              <Suspense fallback={<RouteFallback />}>
                {feature ? (
                  <FeatureReady feature={feature}>
                    <Panel deviceId={deviceId} />
                  </FeatureReady>
                ) : (
                  <Panel deviceId={deviceId} />
                )}
              </Suspense>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Stack>
  );
}
