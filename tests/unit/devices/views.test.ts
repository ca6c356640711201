import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { deviceConnectionMachine } from '../../../machines/devices/deviceConnection.machine';
import { devicesTableMachine } from '../../../machines/devices/devicesTable.machine';
import {
  connectionColour,
  connectionLabel,
  deviceType,
  formatMemoryMb,
  formatPercent,
  formatRtt,
  pageCount,
} from '../../../src/console/features/devices/format';
import { connectionToView, tableToView } from '../../../src/console/features/devices/selectors';
import { makeDevice } from '../machines/fixtures';

/** A device connection snapshot in `value` (the machine's own initial context). */
const connectionIn = (value: Parameters<typeof deviceConnectionMachine.resolveState>[0]['value']) =>
  deviceConnectionMachine.resolveState({
    value,
    context: createActor(deviceConnectionMachine, { input: { device: makeDevice(1) } }).getSnapshot().context,
  });
const tableIn = (value: Parameters<typeof devicesTableMachine.resolveState>[0]['value']) =>
  devicesTableMachine.resolveState({
    value,
    context: createActor(devicesTableMachine).getSnapshot().context,
  });

describe('device labels and figures', () => {
  it('calls chipset 0 x86 and anything else Jetson (spec §9)', () => {
    expect(deviceType('0')).toBe('x86');
    expect(deviceType('33')).toBe('Jetson');
  });

  it('names every connection status', () => {
    expect(connectionLabel('notConnected')).toBe('Not connected');
    expect(connectionLabel('opening')).toBe('Opening');
    expect(connectionLabel('open')).toBe('Open');
    expect(connectionLabel('closed')).toBe('Closed');
    expect(connectionLabel('errored')).toBe('Error');
    expect(connectionLabel(undefined)).toBe('Not connected');
    expect(connectionColour('open')).toBe('green');
  });

  it('formats usage values with units, and a dash when unknown', () => {
    expect(formatPercent(41.6)).toBe('42 %');
    expect(formatPercent(null)).toBe('–');
    expect(formatMemoryMb(1024.4, 8192)).toBe('1024 / 8192 MiB');
    expect(formatRtt(0.4)).toBe('0 ms');
    expect(formatRtt(undefined)).toBe('–');
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
  });
});

describe('what a device connection view shows (connectionToView)', () => {
  it('shows a device without a connection actor as not connected, with Connect', () => {
    expect(connectionToView(undefined)).toMatchObject({
      status: 'notConnected',
      canConnect: true,
      down: false,
    });
  });

  it('reads every state of the machine as its §4 status', () => {
    expect(connectionToView(connectionIn('notConnected')).status).toBe('notConnected');
    expect(connectionToView(connectionIn('opening')).status).toBe('opening');
    expect(connectionToView(connectionIn('open')).status).toBe('open');
    expect(connectionToView(connectionIn({ reconnecting: 'waiting' })).status).toBe('reconnecting');
    expect(connectionToView(connectionIn('closed')).status).toBe('closed');
    expect(connectionToView(connectionIn('errored')).status).toBe('errored');
  });

  it('offers Connect for devices without a live link only, and Retry after a failure or a close', () => {
    expect(connectionToView(connectionIn('notConnected'))).toMatchObject({ canConnect: true, down: false });
    expect(connectionToView(connectionIn('errored'))).toMatchObject({ canConnect: true, down: true });
    expect(connectionToView(connectionIn('closed'))).toMatchObject({ canConnect: true, down: true });
    expect(connectionToView(connectionIn('opening')).canConnect).toBe(false);
    expect(connectionToView(connectionIn({ reconnecting: 'waiting' })).canConnect).toBe(false);
  });
});

describe('what the devices table view shows (tableToView)', () => {
  it('reads idle, loading, ready and failed', () => {
    expect(tableToView(tableIn('idle')).status).toBe('idle');
    expect(tableToView(tableIn('loading')).status).toBe('loading');
    expect(tableToView(tableIn('ready')).status).toBe('ready');
    expect(tableToView(tableIn('failed')).status).toBe('failed');
  });

  it('loads a table that never loaded when a screen showing it opens, and only then', () => {
    const table = createActor(devicesTableMachine).start();
    expect(table.getSnapshot().can({ type: 'table.visit' })).toBe(true);
    table.send({ type: 'table.visit' });
    expect(tableToView(table.getSnapshot()).status).toBe('loading');
    expect(table.getSnapshot().can({ type: 'table.visit' })).toBe(false);
    table.stop();
  });
});
