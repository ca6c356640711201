/**
 * The side list of /map (issue 16 §2): every device, placed or not, paged and searchable — the accessible path
 * to the map. Each row: the label (a link to the device page), its status (icon + word, not only colour), its
 * coordinates or "Not on the map", and the actions "Show on map" (highlights and centres its marker), "Place on
 * map" (then a click on the map), "Set coordinates" (a small latitude/longitude form, checked before sending)
 * and "Remove from map".
 * Test ids: map-list, map-search, map-located, map-row-<device_id>, map-show-<device_id>,
 * map-place-<device_id>, map-coords-<device_id>, map-remove-<device_id>, map-lat, map-lng, map-save-coords,
 * map-prev, map-next.
 */
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { locationProblem, type Located } from '../../../../../machines/map/map.machine';
import { MAP_LIST_PER_PAGE_DEFAULT, type MapDevice } from '../../../../protocol/map';
import { devicePath, type MapRef, type MapView } from '../selectors';

function CoordsForm({ device, map, onDone }: { device: MapDevice; map: MapRef; onDone: () => void }) {
  const { t } = useTranslation();
  const [lat, setLat] = useState(device.latitude === null ? '' : String(device.latitude));
  const [lng, setLng] = useState(device.longitude === null ? '' : String(device.longitude));
  const [tried, setTried] = useState(false);
  const latitude = lat.trim() === '' ? Number.NaN : Number(lat);
  const longitude = lng.trim() === '' ? Number.NaN : Number(lng);
  const latBad = locationProblem(latitude, 0) !== null;
  const lngBad = locationProblem(0, longitude) !== null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (latBad || lngBad) return;
    map.send({ type: 'map.setLocation', deviceId: device.device_id, latitude, longitude });
    onDone();
  };
  return (
    <form onSubmit={submit} aria-label={t('map.setCoordinatesOf', { label: device.label })} noValidate>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          size="xs"
          label={t('map.latitude')}
          inputMode="decimal"
          value={lat}
          onChange={(e) => setLat(e.currentTarget.value)}
          error={tried && latBad ? t('map.latitudeRange') : undefined}
          data-testid="map-lat"
          w={110}
        />
        <TextInput
          size="xs"
          label={t('map.longitude')}
          inputMode="decimal"
          value={lng}
          onChange={(e) => setLng(e.currentTarget.value)}
          error={tried && lngBad ? t('map.longitudeRange') : undefined}
          data-testid="map-lng"
          w={110}
        />
        <Button type="submit" size="xs" mt={22} data-testid="map-save-coords">
          {t('map.save')}
        </Button>
        <Button variant="subtle" size="xs" mt={22} onClick={onDone}>
          {t('map.cancel')}
        </Button>
      </Group>
    </form>
  );
}

function Row({ device, map, view }: { device: MapDevice; map: MapRef; view: MapView }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const located = device.latitude !== null && device.longitude !== null;
  const busy = view.saving || view.placing !== null;
  return (
    <li
      data-testid={`map-row-${device.device_id}`}
      className="map-row"
      aria-current={view.selected === device.device_id ? 'true' : undefined}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={devicePath(device.device_id)} fw={600} size="sm">
            {device.label}
          </Anchor>
          <Badge
            variant={device.is_active ? 'filled' : 'outline'}
            color={device.is_active ? '#1b5e20' : 'gray.8'}
            leftSection={<span aria-hidden="true">{device.is_active ? '●' : '◇'}</span>}
          >
            {device.is_active ? t('map.online') : t('map.offline')}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {located
            ? t('map.coordinates', { lat: device.latitude!.toFixed(5), lng: device.longitude!.toFixed(5) })
            : t('map.notLocated')}
        </Text>
        {editing ? (
          <CoordsForm device={device} map={map} onDone={() => setEditing(false)} />
        ) : (
          <Group gap="xs">
            {located && (
              <Button
                size="compact-xs"
                variant="subtle"
                aria-label={t('map.showOnMapOf', { label: device.label })}
                data-testid={`map-show-${device.device_id}`}
                onClick={() => map.send({ type: 'map.select', deviceId: device.device_id })}
              >
                {t('map.showOnMap')}
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="light"
              disabled={busy}
              aria-label={t('map.placeDevice', { label: device.label })}
              data-testid={`map-place-${device.device_id}`}
              onClick={() => map.send({ type: 'map.place', deviceId: device.device_id })}
            >
              {t('map.placeOnMap')}
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={busy}
              aria-label={t('map.setCoordinatesOf', { label: device.label })}
              data-testid={`map-coords-${device.device_id}`}
              onClick={() => setEditing(true)}
            >
              {t('map.setCoordinates')}
            </Button>
            {located && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="#a61e1e"
                disabled={busy}
                aria-label={t('map.removeOf', { label: device.label })}
                data-testid={`map-remove-${device.device_id}`}
                onClick={() => map.send({ type: 'map.clearLocation', deviceId: device.device_id })}
              >
                {t('map.remove')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </li>
  );
}

export function DeviceList({ view, map }: { view: MapView; map: MapRef }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(view.rowsTotal / MAP_LIST_PER_PAGE_DEFAULT));
  const page = view.query.page;
  return (
    <Stack gap="sm" data-testid="map-list" aria-busy={view.listStatus === 'loading'}>
      <TextInput
        label={t('map.search')}
        value={view.query.search}
        onChange={(e) => map.send({ type: 'map.list', search: e.currentTarget.value })}
        data-testid="map-search"
      />
      <NativeSelect
        label={t('map.show')}
        value={view.query.located}
        onChange={(e) => map.send({ type: 'map.list', located: e.currentTarget.value as Located })}
        data={[
          { value: 'all', label: t('map.showAll') },
          { value: 'yes', label: t('map.showLocated') },
          { value: 'no', label: t('map.showUnlocated') },
        ]}
        data-testid="map-located"
      />
      {view.listStatus === 'ready' && view.rows.length === 0 && <Text size="sm">{t('map.none')}</Text>}
      <ul className="map-rows" aria-label={t('map.devices')}>
        {view.rows.map((d) => (
          <Row key={d.device_id} device={d} map={map} view={view} />
        ))}
      </ul>
      {pages > 1 && (
        <Group justify="space-between" gap="xs">
          <ActionIcon
            variant="default"
            aria-label={t('map.previous')}
            disabled={page <= 1}
            onClick={() => map.send({ type: 'map.list', page: page - 1 })}
            data-testid="map-prev"
          >
            <span aria-hidden="true">‹</span>
          </ActionIcon>
          <Text size="sm">{t('map.page', { page, pages })}</Text>
          <ActionIcon
            variant="default"
            aria-label={t('map.next')}
            disabled={page >= pages}
            onClick={() => map.send({ type: 'map.list', page: page + 1 })}
            data-testid="map-next"
          >
            <span aria-hidden="true">›</span>
          </ActionIcon>
        </Group>
      )}
    </Stack>
  );
}
