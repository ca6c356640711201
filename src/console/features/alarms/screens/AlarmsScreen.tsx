/**
 * /alarms (§2 auth route; issue 11; §3 Alarm): the user's alarms — name, cameras, classes, zones, minimum
 * score, cooldown, severity, calendars, whether active now — with New and Edit (AlarmEditor) and Delete
 * (confirmation).
 * Test ids: alarms-screen, alarms-table, alarm-row-<name>, alarms-add, alarm-edit, alarm-delete,
 * alarms-confirm, alarms-error, alarms-empty.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AlarmView } from '../../../../protocol/alarms';
import { DeleteIcon, EditIcon } from '../../../shell/icons';
import '../i18n';
import { alarmById, useAlarmsRef, useAlarmsView } from '../selectors';
import { AlarmEditor } from './AlarmEditor';

const SEVERITY_COLOR = { info: 'blue', warning: 'yellow', critical: 'red' } as const;

export default function AlarmsScreen() {
  const { t } = useTranslation();
  const ref = useAlarmsRef();
  const view = useAlarmsView();
  const [editor, setEditor] = useState<{
    alarm: AlarmView | null;
    key: number;
    newKind?: 'object' | 'face';
  } | null>(null);
  const savedAtOpen = useRef(view.saved);
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    ref.send({ type: 'alarms.load' });
  }, [ref]);
  // /alarms?new=face (from /face-alarms): the editor opens on a new face alarm, once.
  useEffect(() => {
    if (params.get('new') !== 'face') return;
    savedAtOpen.current = view.saved;
    setEditor({ alarm: null, key: Date.now(), newKind: 'face' });
    setParams({}, { replace: true });
  }, [params, setParams, view.saved]);
  useEffect(() => {
    if (editor && view.saved !== savedAtOpen.current) setEditor(null);
  }, [view.saved, editor]);
  const open = (alarm: AlarmView | null) => {
    savedAtOpen.current = view.saved;
    setEditor({ alarm, key: Date.now() });
  };

  return (
    <Stack gap="md" data-testid="alarms-screen">
      <Group justify="space-between">
        <Title order={1}>{t('alarms.title')}</Title>
        <Button
          onClick={() => open(null)}
          data-testid="alarms-add"
          disabled={view.state === 'loading' && view.rows.length === 0}
        >
          {t('alarms.add')}
        </Button>
      </Group>
      <Text c="dimmed">{t('alarms.intro')}</Text>
      {view.state === 'failed' ? (
        <Alert color="red" data-testid="alarms-error">
          {t('alarms.failed', { error: view.error })}
          <Button size="xs" ml="md" onClick={() => ref.send({ type: 'alarms.refresh' })}>
            {t('alarms.retry')}
          </Button>
        </Alert>
      ) : null}
      {view.state === 'loading' && view.rows.length === 0 ? (
        <Loader aria-label={t('alarms.loading')} />
      ) : null}
      {view.state !== 'loading' && view.state !== 'failed' && view.rows.length === 0 ? (
        <Text data-testid="alarms-empty">{t('alarms.empty')}</Text>
      ) : null}
      {view.rows.length > 0 ? (
        <Table striped data-testid="alarms-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alarms.name')}</Table.Th>
              <Table.Th>{t('alarms.cameras')}</Table.Th>
              <Table.Th>{t('alarms.classes')}</Table.Th>
              <Table.Th>{t('alarms.zonesHead')}</Table.Th>
              <Table.Th>{t('alarms.minScore')}</Table.Th>
              <Table.Th>{t('alarms.cooldown')}</Table.Th>
              <Table.Th>{t('alarms.severity')}</Table.Th>
              <Table.Th>{t('alarms.calendars')}</Table.Th>
              <Table.Th>{t('alarms.status')}</Table.Th>
              <Table.Th>{t('alarms.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rows.map((r) => (
              <Table.Tr key={r.id} data-testid={`alarm-row-${r.name}`} data-active={r.active}>
                <Table.Td>
                  {r.name}
                  {r.kind === 'face' ? (
                    <Badge ml="xs" variant="outline">
                      {t('alarms.kindFace')}
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{r.cameras.join(', ')}</Table.Td>
                <Table.Td>{r.classes.length ? r.classes.join(', ') : t('alarms.anyClass')}</Table.Td>
                <Table.Td>
                  {r.zones === 0 ? t('alarms.wholeFrame') : t('alarms.zones', { count: r.zones })}
                </Table.Td>
                <Table.Td>{r.minScore}</Table.Td>
                <Table.Td>{t('alarms.seconds', { count: r.cooldown })}</Table.Td>
                <Table.Td>
                  <Badge color={SEVERITY_COLOR[r.severity]} variant="light">
                    {t(`alarms.severities.${r.severity}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.calendars.length ? r.calendars.join(', ') : t('alarms.always')}</Table.Td>
                <Table.Td>
                  <Badge color={r.active ? 'green' : 'gray'} variant="light">
                    {!r.enabled ? t('alarms.disabled') : r.active ? t('alarms.active') : t('alarms.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('alarms.edit', { name: r.name })}
                      onClick={() => open(alarmById(ref, r.id))}
                      data-testid="alarm-edit"
                    >
                      <EditIcon />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('alarms.remove', { name: r.name })}
                      onClick={() => ref.send({ type: 'delete.ask', id: r.id })}
                      data-testid="alarm-delete"
                    >
                      <DeleteIcon />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {editor ? (
        <AlarmEditor
          key={editor.key}
          alarm={editor.alarm}
          cameras={view.cameras}
          calendars={view.calendars}
          busy={view.state === 'saving'}
          saveError={view.saveError}
          actor={ref}
          onClose={() => setEditor(null)}
          newKind={editor.newKind}
        />
      ) : null}
      <Modal
        opened={view.state === 'confirming'}
        onClose={() => ref.send({ type: 'delete.cancel' })}
        title={t('alarms.removeTitle')}
      >
        <Stack data-testid="alarms-confirm">
          <Text>{t('alarms.removeConfirm', { name: view.target?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => ref.send({ type: 'delete.cancel' })}>
              {t('alarms.cancel')}
            </Button>
            <Button color="red" onClick={() => ref.send({ type: 'delete.confirm' })}>
              {t('alarms.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
