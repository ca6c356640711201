/**
 * The alarm editor (issue 11 `/alarms`; §3 Alarm): name, kind, cameras (§3 sources IP / PHYSICAL), classes,
 * zones drawn on the first camera's still (ZoneEditor), minimum score, cooldown, severity, calendars (the
 * scheduling calendars of /schedulers), the alarm channels its events go to (/alarm-channels' ChannelPicker),
 * enabled. Save sends `alarm.save` to the list machine; the modal closes when the machine reports the save.
 * Test ids: alarm-editor, alarm-name, alarm-kind, alarm-cameras, alarm-classes, alarm-min-score,
 * alarm-cooldown, alarm-severity, alarm-calendars, channel-picker, alarm-enabled, alarm-save,
 * alarm-save-error, alarm-still.
 */
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { AlarmCamera } from '../../../../../machines/alarms/alarms.machine';
import {
  ALARM_DEFAULT_COOLDOWN_S,
  ALARM_DEFAULT_MIN_SCORE,
  SEVERITIES,
  type AlarmView,
  type Severity,
  type Zone,
} from '../../../../protocol/alarms';
import { ChannelPicker } from '../../alarmChannels/screens/ChannelPicker';
import { alarmChannelIds, cameraStill } from '../actors';
import { ZoneEditor } from './ZoneEditor';

export function AlarmEditor(props: {
  alarm: AlarmView | null;
  cameras: AlarmCamera[];
  calendars: { id: string; name: string }[];
  busy: boolean;
  saveError: string | null;
  actor: AnyActorRef;
  onClose: () => void;
  /** The kind a new alarm starts with ('face' when opened from /face-alarms' "Create a face alarm"). */
  newKind?: 'object' | 'face';
}) {
  const { t } = useTranslation();
  const a = props.alarm;
  const [name, setName] = useState(a?.name ?? '');
  const [kind, setKind] = useState<'object' | 'face'>(a?.kind ?? props.newKind ?? 'object');
  const [sources, setSources] = useState<string[]>(a?.sources.map((s) => s.value) ?? []);
  const [classes, setClasses] = useState<string[]>(a?.classes ?? []);
  const [zones, setZones] = useState<Zone[]>(a?.zones ?? []);
  const [minScore, setMinScore] = useState<number>(a?.min_score ?? ALARM_DEFAULT_MIN_SCORE);
  const [cooldown, setCooldown] = useState<number>(a?.cooldown_seconds ?? ALARM_DEFAULT_COOLDOWN_S);
  const [severity, setSeverity] = useState<Severity>(a?.severity ?? 'warning');
  const [calendars, setCalendars] = useState<string[]>(a?.calendar_ids ?? []);
  const [enabled, setEnabled] = useState(a?.enabled ?? true);
  // The alarm's channels: a new alarm has none; an existing one's are read first (null until then, and then
  // left as they are on save if they could not be read).
  const [channelIds, setChannelIds] = useState<string[] | null>(a ? null : []);
  const [still, setStill] = useState<{ src: string | null; state: 'none' | 'loading' | 'ready' | 'failed' }>({
    src: null,
    state: 'none',
  });
  const first = props.cameras.find((c) => c.value === sources[0]) ?? null;

  useEffect(() => {
    if (!first || first.type !== 'PHYSICAL') {
      setStill({ src: null, state: 'none' });
      return;
    }
    let live = true;
    setStill({ src: null, state: 'loading' });
    cameraStill(first).then(
      (src) => live && setStill({ src, state: 'ready' }),
      () => live && setStill({ src: null, state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [first?.value]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!a) return;
    let live = true;
    alarmChannelIds(a.id).then(
      (ids) => live && setChannelIds(ids),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [a?.id]); // eslint-disable-line react-hooks/exhaustive-deps

  const save = () =>
    props.actor.send({
      type: 'alarm.save',
      id: a?.id ?? null,
      ...(channelIds && (a || channelIds.length > 0) ? { channel_ids: channelIds } : {}),
      body: {
        name,
        kind,
        sources: sources
          .map((v) => props.cameras.find((c) => c.value === v))
          .filter((c): c is AlarmCamera => !!c)
          .map((c) => ({ type: c.type, text: c.text, value: c.value })),
        classes,
        zones,
        min_score: minScore,
        cooldown_seconds: cooldown,
        severity,
        calendar_ids: calendars,
        silences: a?.silences ?? [],
        enabled,
      },
    });

  const cameraLabel = (c: AlarmCamera) => (c.deviceLabel ? `${c.text} (${c.deviceLabel})` : c.text);
  return (
    <Modal opened onClose={props.onClose} title={a ? t('alarms.editTitle') : t('alarms.newTitle')} size="xl">
      <Stack gap="sm" data-testid="alarm-editor">
        <TextInput
          label={t('alarms.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-testid="alarm-name"
        />
        <Select
          label={t('alarms.kind')}
          data={[
            { value: 'object', label: t('alarms.kindObject') },
            { value: 'face', label: t('alarms.kindFace') },
          ]}
          value={kind}
          onChange={(v) => setKind(v === 'face' ? 'face' : 'object')}
          allowDeselect={false}
          data-testid="alarm-kind"
        />
        <MultiSelect
          label={t('alarms.cameras')}
          data={props.cameras.map((c) => ({ value: c.value, label: cameraLabel(c) }))}
          value={sources}
          onChange={setSources}
          searchable
          data-testid="alarm-cameras"
        />
        <TagsInput
          label={t('alarms.classes')}
          description={t('alarms.classesHelp')}
          value={classes}
          onChange={setClasses}
          data={['person', 'car', 'ball', 'bicycle', 'truck', 'dog']}
          data-testid="alarm-classes"
        />
        {still.state === 'loading' ? <Text size="sm">{t('alarms.stillLoading')}</Text> : null}
        {still.state === 'failed' ? <Text size="sm">{t('alarms.stillFailed')}</Text> : null}
        <div data-testid="alarm-still" data-state={still.state}>
          <ZoneEditor zones={zones} onChange={setZones} still={still.src} />
        </div>
        <Group grow>
          <NumberInput
            label={t('alarms.minScore')}
            min={0}
            max={1}
            step={0.05}
            decimalScale={2}
            value={minScore}
            onChange={(v) => setMinScore(typeof v === 'number' ? v : Number(v) || 0)}
            data-testid="alarm-min-score"
          />
          <NumberInput
            label={t('alarms.cooldown')}
            min={0}
            max={86400}
            value={cooldown}
            onChange={(v) => setCooldown(Math.round(typeof v === 'number' ? v : Number(v) || 0))}
            data-testid="alarm-cooldown"
          />
          <Select
            label={t('alarms.severity')}
            data={SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severities.${s}`) }))}
            value={severity}
            onChange={(v) => setSeverity((v as Severity) ?? 'warning')}
            allowDeselect={false}
            data-testid="alarm-severity"
          />
        </Group>
        <MultiSelect
          label={t('alarms.calendars')}
          description={t('alarms.calendarsHelp')}
          data={props.calendars.map((c) => ({ value: c.id, label: c.name }))}
          value={calendars}
          onChange={setCalendars}
          data-testid="alarm-calendars"
        />
        <ChannelPicker value={channelIds ?? []} onChange={setChannelIds} />
        <Switch
          label={t('alarms.enabled')}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
          data-testid="alarm-enabled"
        />
        {props.saveError ? (
          <Alert color="red" data-testid="alarm-save-error">
            {props.saveError}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('alarms.cancel')}
          </Button>
          <Button
            onClick={save}
            loading={props.busy}
            disabled={!name.trim() || sources.length === 0}
            data-testid="alarm-save"
          >
            {t('alarms.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
