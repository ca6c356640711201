/**
 * /map (§2 auth route; issue 16 §2 "devices on a map"): the Leaflet map with a marker per located device (click
 * or Enter opens the device page) beside the side list of every device (screens/DeviceList.tsx), which places a
 * device ("Place on map", then a click on the map; or coordinates typed in) and removes it. When tiles cannot
 * load, a notice says so and the markers stay on a plain background. Opening the screen (re)loads the map and
 * the list (`map.open`); Escape cancels placing.
 * Test ids: map-screen, map-loading, map-error, map-list-error, map-tiles-failed, map-capped, map-placing,
 * map-cancel-place, map-notice, map-save-error, map-refresh (+ MapCanvas's and DeviceList's).
 */
import { Alert, Button, Grid, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { MAP_TEXTS, type MapDevice } from '../../../../protocol/map';
import '../i18n';
import { devicePath, useMapRef, useMapView } from '../selectors';
import { DeviceList } from './DeviceList';
import { MapCanvas } from './MapCanvas';

export default function MapScreen() {
  const { t } = useTranslation();
  const map = useMapRef();
  const view = useMapView();
  const navigate = useNavigate();

  useEffect(() => {
    map.send({ type: 'map.open' });
    return () => map.send({ type: 'map.close' });
  }, [map]);

  useEffect(() => {
    if (!view.placing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') map.send({ type: 'map.cancel' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view.placing, map]);

  const placingLabel =
    view.rows.find((d) => d.device_id === view.placing)?.label ??
    view.markers.find((d) => d.device_id === view.placing)?.label ??
    view.placing;
  // The range texts the machine checks are shown in the user's language; the server's own texts as they are.
  const saveMessage =
    view.saveError?.message === MAP_TEXTS.latitudeRange
      ? t('map.latitudeRange')
      : view.saveError?.message === MAP_TEXTS.longitudeRange
        ? t('map.longitudeRange')
        : (view.saveError?.message ?? '');
  const titleOf = (d: MapDevice) =>
    t('map.markerTitle', { label: d.label, status: d.is_active ? t('map.online') : t('map.offline') });

  return (
    <Stack gap="md" data-testid="map-screen">
      <Group justify="space-between">
        <Title order={1}>{t('map.title')}</Title>
        <Button
          variant="default"
          size="xs"
          onClick={() => map.send({ type: 'map.open' })}
          loading={view.status === 'loading'}
          data-testid="map-refresh"
        >
          {t('map.refresh')}
        </Button>
      </Group>

      {view.error && (
        <Alert color="red" data-testid="map-error" title={t('map.loadFailed')}>
          <Group gap="sm">
            <Text size="sm">{view.error.message}</Text>
            <Button size="xs" onClick={() => map.send({ type: 'map.retry' })}>
              {t('map.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {view.tilesFailed && (
        <Alert color="yellow" data-testid="map-tiles-failed" role="status">
          <Text size="sm">{t('map.tilesFailed')}</Text>
        </Alert>
      )}
      {view.markersTotal > view.markers.length && (
        <Text size="sm" data-testid="map-capped">
          {t('map.capped', { shown: view.markers.length, total: view.markersTotal })}
        </Text>
      )}
      {view.placing && (
        <Alert color="blue" data-testid="map-placing" role="status">
          <Group gap="sm">
            <Text size="sm">{t('map.placing', { label: placingLabel })}</Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => map.send({ type: 'map.cancel' })}
              data-testid="map-cancel-place"
            >
              {t('map.cancel')}
            </Button>
          </Group>
        </Alert>
      )}
      <div role="status" aria-live="polite">
        {view.notice && (
          <Text size="sm" c="green.9" data-testid="map-notice">
            {view.notice === 'placed' ? t('map.placed') : t('map.cleared')}
          </Text>
        )}
      </div>
      {view.saveError && (
        <Alert
          color="red"
          data-testid="map-save-error"
          withCloseButton
          closeButtonLabel={t('map.dismiss')}
          onClose={() => map.send({ type: 'map.dismiss' })}
        >
          <Text size="sm">{t('map.saveFailed', { message: saveMessage })}</Text>
        </Alert>
      )}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 8 }}>
          {view.config ? (
            <MapCanvas
              config={view.config}
              markers={view.markers}
              selected={view.selected}
              placing={view.placing !== null}
              tilesFailed={view.tilesFailed}
              label={t('map.mapLabel')}
              titleOf={titleOf}
              onOpen={(deviceId) => navigate(devicePath(deviceId))}
              onPick={(latitude, longitude) => map.send({ type: 'map.pick', latitude, longitude })}
              onTiles={(failed) => map.send({ type: 'map.tiles', failed })}
              onBounds={(box) => map.send({ type: 'map.bounds', box })}
            />
          ) : (
            view.status === 'loading' && (
              <Group gap="sm" data-testid="map-loading">
                <Loader size="sm" />
                <Text size="sm">{t('map.loading')}</Text>
              </Group>
            )
          )}
          <Text size="xs" c="dimmed" mt={4}>
            {t('map.located', { count: view.locatedTotal })}
          </Text>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Title order={2} size="h4" mb="xs">
            {t('map.devices')}
          </Title>
          {view.listError && (
            <Alert color="red" data-testid="map-list-error" title={t('map.listFailed')} mb="sm">
              <Group gap="sm">
                <Text size="sm">{view.listError.message}</Text>
                <Button size="xs" onClick={() => map.send({ type: 'map.retry' })}>
                  {t('map.retry')}
                </Button>
              </Group>
            </Alert>
          )}
          <DeviceList view={view} map={map} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
