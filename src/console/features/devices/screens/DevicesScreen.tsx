/**
 * /control-panel/devices — the server-paginated devices table (§7 get_devices/, §9 defaults: page 1, 5 per
 * page, label ascending; §5 quick search ≥ 2 characters, 200 ms debounce — both in the devicesTable
 * machine). Each row shows the device, its connection state from its own deviceConnection actor (§4) and,
 * while open, live health and usage; a row subscribes to its own actor so a metrics tick re-renders only
 * that row. A device's label opens its page: `?device={id}` (§2 "A log warning links to
 * /control-panel/devices?device={id}") shows the device page (features/devicePage) instead of the table.
 */
import { memo, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../../protocol/rest';
import { connectionColour, deviceType, pageCount } from '../format';
import {
  useConnectionView,
  useDeviceConnectionRef,
  useDevicePoolRef,
  useDevicesTableView,
  useDevicesTableVisit,
  useDevicesTableRef,
  useDevicesTableRows,
  useDevicesTableSelector,
  useClientVersion,
  type DeviceConnectionRef,
} from '../selectors';
import type { DeviceConnectionStatus } from '../../../../../machines/devices/deviceConnection.machine';
import './devices.css';
import { FeatureReady } from '../../../shell/FeatureReady';
import { lazyScreen } from '../../../shell/lazyScreen';
import { RouteFallback } from '../../../shell/RouteFallback';
import { LiveMetricsLine } from './LiveMetricsLine';
import { GroupFilter } from '../../groups/screens/GroupFilter';

/** The device page (features/devicePage), in its own chunk. */
const DevicePage = lazyScreen(() => import('../../devicePage/screens/DevicePage'));

/** Page sizes offered (the server accepts 1…100). */
const PER_PAGE_OPTIONS = [5, 10, 20, 50];

export default function DevicesScreen() {
  const [params] = useSearchParams();
  const deviceId = params.get('device');
  if (deviceId) {
    return (
      <Suspense fallback={<RouteFallback />}>
        <FeatureReady feature="devicePage">
          <DevicePage deviceId={deviceId} />
        </FeatureReady>
      </Suspense>
    );
  }
  return <DevicesTable />;
}

/** The devices table (§7 get_devices/). */
function DevicesTable() {
  const { t } = useTranslation();
  const rowTexts = useMemo(
    (): RowTexts => ({
      yes: t('devices.yes'),
      no: t('devices.no'),
      connect: t('devices.connect'),
      disconnect: t('devices.disconnect'),
      retry: t('devices.retry'),
      ...(Object.fromEntries(CONNECTION_STATES.map((state) => [state, t(`connection.${state}`)])) as Record<
        DeviceConnectionStatus,
        string
      >),
    }),
    [t],
  );
  const table = useDevicesTableRef();
  const query = useDevicesTableView();
  const rows = useDevicesTableRows();
  const [search, setSearch] = useState(query.search);
  // Group filter (issue 16 §2 groups): `?group=<id>` (quick search) chooses it; descendants count too.
  const groupId = useDevicesTableSelector((s) => s.context.groupId);
  const [params] = useSearchParams();
  const askedGroup = params.get('group');
  useEffect(() => {
    if (askedGroup) table.send({ type: 'table.group', groupId: askedGroup });
  }, [askedGroup, table]);

  useDevicesTableVisit();

  const sortDir = (column: typeof query.orderBy) =>
    query.orderBy === column ? (query.orderAs === 'asc' ? 'ascending' : 'descending') : 'none';
  const sortBy = (column: typeof query.orderBy) =>
    table.send({
      type: 'table.sort',
      orderBy: column,
      orderAs: query.orderBy === column && query.orderAs === 'asc' ? 'desc' : 'asc',
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{t('devices.title')}</Title>
          <Text c="dimmed" size="sm" data-testid="devices-summary">
            {t('devices.total', { count: query.totalItems, online: query.activeDevicesCount })}
          </Text>
        </div>
        <Group align="flex-end">
          <TextInput
            label={t('devices.search')}
            description={t('devices.searchHint')}
            type="search"
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              table.send({ type: 'table.search', search: e.currentTarget.value });
            }}
            data-testid="devices-search"
          />
          <NativeSelect
            label={t('devices.perPage')}
            value={String(query.perPage)}
            onChange={(e) => table.send({ type: 'table.perPage', perPage: Number(e.currentTarget.value) })}
            data={PER_PAGE_OPTIONS.map(String)}
            data-testid="devices-per-page"
          />
          <GroupFilter
            groupType="device"
            value={groupId}
            onChange={(id) => table.send({ type: 'table.group', groupId: id })}
            onChanged={() => table.send({ type: 'table.refresh' })}
          />
        </Group>
      </Group>

      {query.status === 'failed' && (
        <Alert color="red" role="alert" title={t('devices.loadFailed')}>
          <Text size="sm">{query.error}</Text>
          <Button mt="xs" size="xs" variant="light" onClick={() => table.send({ type: 'table.refresh' })}>
            {t('devices.reload')}
          </Button>
        </Alert>
      )}

      <Paper withBorder>
        <Table.ScrollContainer minWidth={1100}>
          <Table striped highlightOnHover aria-busy={query.status === 'loading'} data-testid="devices-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-sort={sortDir('label')}>
                  <UnstyledButton
                    onClick={() => sortBy('label')}
                    data-testid="sort-label"
                    className="sort-button"
                  >
                    {t('devices.label')} {sortArrow(sortDir('label'))}
                  </UnstyledButton>
                </Table.Th>
                <Table.Th>{t('devices.type')}</Table.Th>
                <Table.Th>{t('devices.clientVersion')}</Table.Th>
                <Table.Th aria-sort={sortDir('is_active')}>
                  <UnstyledButton onClick={() => sortBy('is_active')} className="sort-button">
                    {t('devices.online')} {sortArrow(sortDir('is_active'))}
                  </UnstyledButton>
                </Table.Th>
                <Table.Th>{t('devices.connection')}</Table.Th>
                <Table.Th>{t('devices.action')}</Table.Th>
                <Table.Th>{t('devices.live')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((device, i) => (
                // Keyed by position: a page change updates the rows in place instead of replacing 50 of them
                // (the row keeps no state of its own; its hooks follow the device it is given).
                <DeviceRow key={i} device={device} texts={rowTexts} />
              ))}
              {rows.length === 0 && query.status !== 'loading' && (
                <Table.Tr>
                  <Table.Td colSpan={7}>
                    <Text c="dimmed">{t('devices.empty')}</Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      <nav aria-label={t('devices.pagination')}>
        <Pagination
          total={pageCount(query.totalItems, query.perPage)}
          value={query.page}
          onChange={(page) => table.send({ type: 'table.page', page })}
          getControlProps={(control) =>
            control === 'previous' || control === 'next'
              ? { 'aria-label': t(control === 'next' ? 'devices.nextPage' : 'devices.previousPage') }
              : {}
          }
          data-testid="devices-pagination"
        />
      </nav>
    </Stack>
  );
}

function sortArrow(dir: 'ascending' | 'descending' | 'none'): string {
  return dir === 'ascending' ? '▲' : dir === 'descending' ? '▼' : '';
}

/**
 * A 50-row page renders 400 cells: plain <tr>/<td> with the Table's own classes and data attributes (as
 * `<Table striped highlightOnHover>` gives Table.Tr/Td) look the same and skip a Mantine component each
 * (~40 % of a 50-row page change in Chromium's profile).
 */
const ROW_PROPS = {
  className: Table.classes.tr,
  'data-with-row-border': true,
  'data-striped': 'odd',
  'data-hover': true,
} as const;
const CELL = Table.classes.td;

/** Every connection state a row can show (§4). */
const CONNECTION_STATES: readonly DeviceConnectionStatus[] = [
  'notConnected',
  'opening',
  'open',
  'reconnecting',
  'closed',
  'errored',
];

/** The row texts, translated once per table render instead of once per row. */
type RowTexts = Record<'yes' | 'no' | 'connect' | 'disconnect' | 'retry' | DeviceConnectionStatus, string>;

/** One device row; its live part follows only this device's connection actor. */
const DeviceRow = memo(function DeviceRow({ device, texts }: { device: Device; texts: RowTexts }) {
  const connection = useDeviceConnectionRef(device.device_id);
  return (
    <tr {...ROW_PROPS} data-testid={`device-row-${device.device_id}`}>
      <td className={CELL}>
        <Anchor
          component={Link}
          to={`/control-panel/devices?device=${encodeURIComponent(device.device_id)}`}
          fw={500}
          data-testid={`device-open-${device.device_id}`}
        >
          {device.label}
        </Anchor>
        <div className="devices-table__id">{device.device_id}</div>
      </td>
      <td className={CELL}>{deviceType(device.chipset_id)}</td>
      <td className={CELL}>
        <ClientVersion device={device} connection={connection} />
      </td>
      <td className={CELL}>
        <Badge color={device.is_active ? 'green' : 'gray'} variant="light">
          {device.is_active ? texts.yes : texts.no}
        </Badge>
      </td>
      <ConnectionCells device={device} connection={connection} texts={texts} />
    </tr>
  );
});

/** The version the server lists, replaced by the one the device reports once connected. */
function ClientVersion({
  device,
  connection,
}: {
  device: Device;
  connection: DeviceConnectionRef | undefined;
}) {
  const live = useClientVersion(connection);
  return <>{live ?? device.client_version ?? '–'}</>;
}

/** Connection state, the Connect/Disconnect button and live health & usage of one device (§4). */
function ConnectionCells({
  device,
  connection,
  texts,
}: {
  device: Device;
  connection: DeviceConnectionRef | undefined;
  texts: RowTexts;
}) {
  const pool = useDevicePoolRef();
  const { status: state, canConnect: connectable, down, error } = useConnectionView(connection);
  return (
    <>
      <td className={CELL}>
        <Badge
          color={connectionColour(state)}
          variant="light"
          data-testid={`device-connection-${device.device_id}`}
          data-state={state}
        >
          {texts[state]}
        </Badge>
        {error && down && (
          <Text size="xs" c="red" mt={2} maw={220} data-testid={`device-error-${device.device_id}`}>
            {error}
          </Text>
        )}
      </td>
      <td className={CELL}>
        {connectable ? (
          <Button
            size="xs"
            onClick={() => pool.send({ type: 'device.connect', device })}
            aria-label={`${texts.connect} ${device.label}`}
            data-testid={`device-connect-${device.device_id}`}
          >
            {down ? texts.retry : texts.connect}
          </Button>
        ) : (
          <Button
            size="xs"
            variant="default"
            onClick={() => pool.send({ type: 'device.disconnect', deviceId: device.device_id })}
            aria-label={`${texts.disconnect} ${device.label}`}
            data-testid={`device-disconnect-${device.device_id}`}
          >
            {texts.disconnect}
          </Button>
        )}
      </td>
      <td className={CELL}>
        {state === 'open' ? (
          <LiveMetricsLine connection={connection} testId={`device-live-${device.device_id}`} />
        ) : (
          <span className="devices-table__none">–</span>
        )}
      </td>
    </>
  );
}
