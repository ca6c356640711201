/**
 * The logs screens rendered (server-side, react-dom/server) from the feature's real actors on a fake peer
 * link: the lines of a log, §8 "No log file found" (a warning linking to the device) and "Log file modified
 * or deleted", and /logs without a connected device. Browser behaviour (follow, clicks, axe) is the
 * end-to-end suite's.
 */
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { assign, createActor, fromPromise, setup } from 'xstate';
import '../../../src/console/i18n';
import { authMachine, type StoredSession } from '../../../machines/accounts/auth.machine';
import type { Platform } from '../../../src/console/features/feature';
import { logsActors } from '../../../src/console/features/logs/actors';
import LogsScreen from '../../../src/console/features/logs/screens/LogsScreen';
import { DeviceCommandError } from '../../../src/console/platform/linkShared';
import { WithMantine } from '../../../src/console/shell/mantine';
import { SystemProvider, type ConsoleSystem } from '../../../src/console/shell/SystemProvider';

const flush = async () => {
  for (let i = 0; i < 6; i++) await new Promise((r) => setTimeout(r, 0));
};

type Progress = { onProgress?: (data: unknown) => void };

/** The logs actors (and auth, signed out) under one root; dev-1 connected when `connected`. */
async function consoleWith(connected: boolean) {
  const platform = {
    browserId: 'w',
    session: {},
    http: {},
    peerLink: {
      callDevice: async (
        _d: string,
        process: string,
        payload: { uuid: string; subtopic: string },
        o: Progress,
      ) => {
        if (process === 'log-info')
          return { topics: [{ topic: 'client', subtopics: ['agent', 'gone', 'rotating'] }] };
        if (process === 'endLogProcess') return { ended: true };
        if (payload.subtopic === 'gone')
          throw new DeviceCommandError('not_found', 'No log file found: client/gone', 'log');
        o.onProgress?.({ uuid: payload.uuid, seq: 0, lines: ['first line', 'second line'] });
        if (payload.subtopic === 'rotating') {
          throw new DeviceCommandError(
            'log_changed',
            'Log file modified or deleted: /var/log/x was truncated',
            'log',
          );
        }
        return { uuid: payload.uuid, lines: 2, reason: 'done' };
      },
      onDeviceEvent: () => () => undefined,
    },
  } as unknown as Platform;
  const devicePool = setup({}).createMachine({
    context: {
      order: connected ? ['dev-1'] : [],
      status: connected ? { 'dev-1': 'open' } : {},
      connections: { 'dev-1': { getSnapshot: () => ({ context: { device: { label: 'Device 1' } } }) } },
    },
    on: { never: { actions: assign({}) } },
  });
  const auth = authMachine.provide({
    actors: { restoreSession: fromPromise<StoredSession | null>(async () => null) },
  });
  const root = setup({}).createMachine({
    invoke: [
      { id: 'auth', systemId: 'auth', src: auth },
      { id: 'devicePool', systemId: 'devicePool', src: devicePool },
      ...logsActors(platform).map((a) => ({ id: a.systemId, systemId: a.systemId, src: a.logic })),
    ] as never,
  });
  const system = createActor(root).start() as unknown as ConsoleSystem;
  const logs = system.system.get('logs')!;
  logs.send({ type: 'logs.select', deviceId: 'dev-1' });
  await flush();
  return { system, logs };
}

const render = (system: ConsoleSystem) =>
  renderToString(
    <MemoryRouter initialEntries={['/logs']}>
      <SystemProvider system={system}>
        <WithMantine>
          <LogsScreen />
        </WithMantine>
      </SystemProvider>
    </MemoryRouter>,
  );

const open = (logs: { send: (e: never) => void }, subtopic: string) =>
  logs.send({
    type: 'logs.open',
    id: 'page',
    deviceId: 'dev-1',
    topic: 'client',
    subtopic,
    count: 10,
    follow: false,
  } as never);

describe('logs screen', () => {
  it('shows the device, its topics, and a log read to its end', async () => {
    const { system, logs } = await consoleWith(true);
    open(logs, 'agent');
    await flush();
    const html = render(system);
    expect(html).toContain('data-testid="logs-device"');
    expect(html).toContain('>Device 1</option>');
    expect(html).toContain('>rotating</option>');
    expect(html).toContain('data-status="ended"');
    expect(html).toContain('first line');
    expect(html).toContain('All lines asked for were read.');
    expect(html).toContain('role="log"');
    expect(html).toContain('aria-label="Lines of client / agent"');
  });

  it('§8 "No log file found" for the device is a warning linking to it', async () => {
    const { system, logs } = await consoleWith(true);
    open(logs, 'gone');
    await flush();
    const html = render(system);
    expect(html).toContain('data-testid="logs-no-file"');
    expect(html).toContain('No log file found');
    expect(html).toContain('for Device 1');
    expect(html).toContain('href="/control-panel/devices?device=dev-1"');
  });

  it('§8 "Log file modified or deleted" keeps the lines read before', async () => {
    const { system, logs } = await consoleWith(true);
    open(logs, 'rotating');
    await flush();
    const html = render(system);
    expect(html).toContain('data-testid="logs-changed"');
    expect(html).toContain('Log file modified or deleted');
    expect(html).toContain('second line');
  });

  it('without a connected device links to the devices', async () => {
    const { system } = await consoleWith(false);
    const html = render(system);
    expect(html).toContain('data-testid="logs-no-device"');
    expect(html).toContain('href="/control-panel/devices"');
  });
});
