/**
 * The log viewer of one device (issue 16 "Logs"): topic and subtopic (§3 Log info), count (§9 default 10),
 * follow; show / pause / follow / stop; search; download as a .log file; the lines, newest at the bottom (at
 * most LOG_ROWS_MAX rows, windowed). §8 "No log file found" is a warning with a link to the device page
 * (/control-panel/devices?device={id}); "Log file modified or deleted" ends a follow with a warning.
 * Test ids: logs-viewer (data-status, data-uuid: the log process on the device), logs-topic, logs-subtopic, logs-count, logs-follow, logs-open, logs-pause,
 * logs-resume, logs-stop, logs-download, logs-search, logs-status, logs-shown, logs-lost, logs-rows,
 * log-row (data-seq), logs-no-file, logs-changed, logs-failed, logs-topics-failed.
 */
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { logFileName, logFileText, type LogLine } from '../../../../../machines/logs/logLines';
import '../i18n';
import {
  useDeviceInfo,
  useLogsRef,
  useLogTailHead,
  useLogTailView,
  useTailRef,
  type LogTailRef,
  type LogTailView,
} from '../selectors';

/** §9 "Default log count 10". */
const DEFAULT_COUNT = 10;
const MAX_COUNT = 10_000;

/** Height of one row (px): rows do not wrap (long lines scroll sideways), so the list can be windowed. */
const ROW_PX = 18;
/** Height of the lines box (px). */
const BOX_PX = 480;
/** Rows rendered beyond the visible ones, above and below. */
const OVERSCAN = 10;

const Row = memo(function Row({ line, top }: { line: LogLine; top: number }) {
  return (
    <div
      data-testid="log-row"
      data-seq={line.seq}
      style={{ position: 'absolute', top, left: 0, minWidth: '100%', height: ROW_PX, whiteSpace: 'pre' }}
    >
      {line.text}
    </div>
  );
});

/**
 * The rows, windowed: of the (at most LOG_ROWS_MAX) rows only those in view plus OVERSCAN are in the DOM, so
 * a log followed at 1,000 lines/s keeps about fifty row elements. Following, the box sticks to the bottom.
 */
function Rows({ view, label, stick }: { view: LogTailView; label: string; stick: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const total = view.rows.length;
  const inView = Math.ceil(BOX_PX / ROW_PX);
  const first = stick
    ? Math.max(0, total - inView - OVERSCAN)
    : Math.max(0, Math.min(total - inView, Math.floor(scrollTop / ROW_PX)) - OVERSCAN);
  const last = Math.min(total, first + inView + 2 * OVERSCAN);
  useLayoutEffect(() => {
    if (stick && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [view.rows, stick]);
  return (
    <div
      ref={box}
      data-testid="logs-rows"
      role="log"
      aria-live="off"
      aria-label={label}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      style={{
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        fontSize: 12,
        lineHeight: `${ROW_PX}px`,
        height: BOX_PX,
        overflow: 'auto',
        padding: 8,
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 4,
        background: 'var(--mantine-color-body)',
      }}
    >
      <div style={{ position: 'relative', height: total * ROW_PX }}>
        {view.rows.slice(first, last).map((line, i) => (
          <Row key={line.seq} line={line} top={(first + i) * ROW_PX} />
        ))}
      </div>
    </div>
  );
}

/**
 * The counts and the rows of one log: the only part that re-renders with every batch (the controls follow
 * the log's status alone).
 */
function LiveLines({ tail }: { tail: LogTailRef }) {
  const { t } = useTranslation();
  const view = useLogTailView(tail);
  return (
    <>
      <Group gap="md">
        <Text size="sm" c="dimmed" data-testid="logs-shown" data-received={view.received}>
          {t('logs.shown', { shown: view.rows.length, received: view.received })}
        </Text>
        {view.lost > 0 && (
          <Text size="sm" c="red.8" data-testid="logs-lost">
            {t('logs.lost', { count: view.lost })}
          </Text>
        )}
      </Group>
      <Rows
        view={view}
        stick={view.status === 'following' || view.status === 'loading'}
        label={t('logs.rowsLabel', { topic: view.topic, subtopic: view.subtopic })}
      />
      {view.rows.length === 0 && view.status !== 'loading' && (
        <Text size="sm" c="dimmed">
          {view.buffered === 0 ? t('logs.empty') : t('logs.noMatch')}
        </Text>
      )}
    </>
  );
}

export interface LogViewerProps {
  /** The viewer's id among open logs ('page' on /logs, `tab-<deviceId>` on the device page). */
  viewerId: string;
  deviceId: string;
  deviceName: string;
}

export function LogViewer({ viewerId, deviceId, deviceName }: LogViewerProps) {
  const { t } = useTranslation();
  const logs = useLogsRef();
  const info = useDeviceInfo(deviceId);
  const tail = useTailRef(viewerId);
  const view = useLogTailHead(tail);
  const [topic, setTopic] = useState('');
  const [subtopic, setSubtopic] = useState('');
  const [count, setCount] = useState<number>(DEFAULT_COUNT);
  const [follow, setFollow] = useState(true);

  // The device's topics, once (the registry ignores a second ask while one runs).
  useEffect(() => {
    if (logs.getSnapshot().context.info[deviceId]?.status !== 'ready') {
      logs.send({ type: 'logs.loadInfo', deviceId });
    }
  }, [logs, deviceId]);
  // Leaving the viewer (or changing device) stops its log on the device.
  useEffect(() => () => logs.send({ type: 'logs.close', id: viewerId }), [logs, viewerId, deviceId]);

  const topicEntry = info.topics.find((x) => x.topic === topic) ?? info.topics[0];
  const subtopics = topicEntry?.subtopics ?? [];
  const chosenTopic = topicEntry?.topic ?? '';
  const chosenSub = subtopics.includes(subtopic) ? subtopic : (subtopics[0] ?? '');
  const live = view.status === 'loading' || view.status === 'following' || view.status === 'paused';

  const open = () =>
    logs.send({
      type: 'logs.open',
      id: viewerId,
      deviceId,
      topic: chosenTopic,
      subtopic: chosenSub,
      count: Math.max(0, Math.min(MAX_COUNT, Math.floor(count || 0))),
      follow,
    });
  const download = () => {
    const lines = tail?.getSnapshot().context.lines ?? [];
    const url = URL.createObjectURL(new Blob([logFileText(lines)], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = logFileName(deviceName, view.topic, view.subtopic);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const statusText =
    view.status === 'ended'
      ? `${t('logs.status.ended')}: ${t(`logs.ended.${view.endReason === 'done' || view.endReason === 'link_closed' ? view.endReason : 'stopped'}`)}`
      : view.status === 'failed'
        ? t('logs.status.failed')
        : t(`logs.status.${view.status}`);
  const deviceLink = `/control-panel/devices?device=${encodeURIComponent(deviceId)}`;

  return (
    <Stack gap="sm" data-testid="logs-viewer" data-status={view.status} data-uuid={view.uuid}>
      {info.status === 'failed' && (
        <Alert color="red" data-testid="logs-topics-failed" title={t('logs.title')}>
          <Text size="sm">{t('logs.topicsFailed', { device: deviceName, error: info.error ?? '' })}</Text>
          <Button
            mt="xs"
            size="xs"
            variant="light"
            onClick={() => logs.send({ type: 'logs.loadInfo', deviceId })}
          >
            {t('logs.refreshTopics')}
          </Button>
        </Alert>
      )}
      {info.status === 'ready' && info.topics.length === 0 && <Text size="sm">{t('logs.noTopics')}</Text>}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label={t('logs.topic')}
          data-testid="logs-topic"
          value={chosenTopic}
          disabled={info.topics.length === 0}
          onChange={(e) => setTopic(e.currentTarget.value)}
          data={
            info.topics.length
              ? info.topics.map((x) => x.topic)
              : [{ value: '', label: t('logs.loadingTopics') }]
          }
        />
        <NativeSelect
          label={t('logs.subtopic')}
          data-testid="logs-subtopic"
          value={chosenSub}
          disabled={subtopics.length === 0}
          onChange={(e) => setSubtopic(e.currentTarget.value)}
          data={subtopics.length ? subtopics : [{ value: '', label: '–' }]}
        />
        <NumberInput
          label={t('logs.count')}
          data-testid="logs-count"
          w={150}
          min={0}
          max={MAX_COUNT}
          allowDecimal={false}
          allowNegative={false}
          value={count}
          onChange={(v) => setCount(typeof v === 'number' ? v : Number(v) || 0)}
        />
        <Checkbox
          label={t('logs.follow')}
          data-testid="logs-follow"
          checked={follow}
          onChange={(e) => setFollow(e.currentTarget.checked)}
          mb={8}
        />
        <Button data-testid="logs-open" onClick={open} disabled={!chosenTopic || !chosenSub}>
          {view.status === 'idle' ? t('logs.open') : t('logs.restart')}
        </Button>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {view.status === 'following' && (
          <Button
            variant="default"
            data-testid="logs-pause"
            onClick={() => tail?.send({ type: 'log.pause' })}
          >
            {t('logs.pause')}
          </Button>
        )}
        {view.status === 'paused' && (
          <Button
            variant="default"
            data-testid="logs-resume"
            onClick={() => tail?.send({ type: 'log.follow' })}
          >
            {t('logs.resume')}
          </Button>
        )}
        {live && (
          <Button
            color="red"
            variant="light"
            data-testid="logs-stop"
            onClick={() => tail?.send({ type: 'log.stop' })}
          >
            {t('logs.stop')}
          </Button>
        )}
        <Button variant="default" data-testid="logs-download" onClick={download} disabled={!view.hasLines}>
          {t('logs.download')}
        </Button>
        <TextInput
          label={t('logs.search')}
          placeholder={t('logs.searchPlaceholder')}
          data-testid="logs-search"
          type="search"
          value={view.search}
          disabled={!tail}
          onChange={(e) => tail?.send({ type: 'log.search', search: e.currentTarget.value })}
        />
      </Group>
      <Text size="sm" role="status" data-testid="logs-status">
        {statusText}
      </Text>
      {view.error?.kind === 'noLogFile' && (
        <Alert color="yellow" data-testid="logs-no-file" title={t('logs.texts.noLogFile')}>
          <Text size="sm">
            {t('logs.forDevice', { device: deviceName })} ({view.topic} / {view.subtopic}){' '}
            <Anchor component={Link} to={deviceLink} size="sm">
              {t('logs.openDevice', { device: deviceName })}
            </Anchor>
          </Text>
        </Alert>
      )}
      {view.error?.kind === 'changed' && (
        <Alert color="yellow" data-testid="logs-changed" title={t('logs.texts.logChanged')}>
          <Text size="sm">{view.error.message}</Text>
        </Alert>
      )}
      {view.error?.kind === 'other' && (
        <Alert color="red" data-testid="logs-failed" title={t('logs.status.failed')}>
          <Text size="sm">{t('logs.failed', { error: view.error.message })}</Text>
        </Alert>
      )}
      {tail && view.status !== 'idle' && <LiveLines tail={tail} />}
    </Stack>
  );
}
