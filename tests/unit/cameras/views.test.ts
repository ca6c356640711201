import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { cameraGridMachine } from '../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../machines/cameras/opener.machine';
import { streamMachine } from '../../../machines/cameras/stream.machine';
import { streamStatusLabel } from '../../../src/console/features/cameras/format';
import {
  modalOf,
  openerStepOf,
  openerToView,
  streamToView,
} from '../../../src/console/features/cameras/selectors';
import { makeCamera } from '../machines/fixtures';

type StreamValue = Parameters<typeof streamMachine.resolveState>[0]['value'];
type GridValue = Parameters<typeof cameraGridMachine.resolveState>[0]['value'];

const streamContext = createActor(streamMachine, {
  input: { streamId: 's1', deviceId: 'dev-1', deviceLabel: 'Device 1', camera: makeCamera('cam-1') },
}).getSnapshot().context;
const streamIn = (value: StreamValue) => streamMachine.resolveState({ value, context: streamContext });
const gridContext = createActor(cameraGridMachine, { input: { idPrefix: 'web-test' } }).getSnapshot().context;
const gridIn = (value: GridValue) => cameraGridMachine.resolveState({ value, context: gridContext });
type OpenerValue = Parameters<typeof openerMachine.resolveState>[0]['value'];
const openerContext = createActor(openerMachine, { input: {} }).getSnapshot().context;
const openerIn = (value: OpenerValue, context: Partial<typeof openerContext> = {}) =>
  openerMachine.resolveState({ value, context: { ...openerContext, ...context } });

describe('what a stream cell shows (streamToView)', () => {
  it('shows a stream that waits for its device or backs off as reconnecting', () => {
    expect(streamToView(streamIn('waitingForDevice')).status).toBe('reconnecting');
    expect(streamToView(streamIn('retrying')).status).toBe('reconnecting');
  });

  it('shows playing, paused (also while held), connecting (also while resuming), failed and closed', () => {
    expect(streamToView(streamIn({ live: 'playing' })).status).toBe('playing');
    expect(streamToView(streamIn('released')).status).toBe('paused');
    expect(streamToView(streamIn({ live: 'held' })).status).toBe('paused');
    expect(streamToView(streamIn({ live: 'connecting' })).status).toBe('connecting');
    expect(streamToView(streamIn({ live: 'resuming' })).status).toBe('connecting');
    expect(streamToView(streamIn('starting')).status).toBe('starting');
    expect(streamToView(streamIn('failed')).status).toBe('failed');
    expect(streamToView(streamIn('closed')).status).toBe('closed');
  });

  it('reads the recorder only while playing', () => {
    expect(streamToView(streamIn({ live: 'playing' })).recorder).toBe('idle');
    expect(streamToView(streamIn({ live: { playing: { recorder: 'recording' } } })).recorder).toBe(
      'recording',
    );
    expect(streamToView(streamIn({ live: { playing: { recorder: 'saving' } } })).recorder).toBe('saving');
    expect(streamToView(streamIn({ live: 'held' })).recorder).toBe('idle');
  });

  it('writes the stream status line', () => {
    expect(streamStatusLabel('starting', null)).toBe('Starting');
    expect(streamStatusLabel('reconnecting', null)).toBe('Reconnecting');
    expect(streamStatusLabel('paused', null)).toBe('Paused (hidden)');
    expect(streamStatusLabel('playing', null)).toBe('Playing');
    expect(streamStatusLabel('failed', 'Device disconnected')).toBe('Failed: Device disconnected');
  });
});

describe('what the grid shows of the opener and the modal', () => {
  it('names the opener dialog shown, busy while checking or loading, idle otherwise', () => {
    expect(openerStepOf(openerIn('idle'))).toBe('idle');
    expect(openerStepOf(openerIn('checking'))).toBe('busy');
    expect(openerStepOf(openerIn('loadingResolutions'))).toBe('busy');
    expect(openerStepOf(openerIn('conflict'))).toBe('conflict');
    expect(openerStepOf(openerIn('killing'))).toBe('killing');
    expect(openerStepOf(openerIn('killed'))).toBe('killed');
    expect(openerStepOf(openerIn('choosingCamera'))).toBe('choosingCamera');
    expect(openerStepOf(openerIn('choosingResolution'))).toBe('choosingResolution');
    expect(openerStepOf(openerIn('refused'))).toBe('refused');
  });

  it('shows what each opener dialog needs: the refusal, the processes in use, the kill result', () => {
    expect(openerToView(openerIn('refused', { refusal: 'Server unavailable' })).refusal).toBe(
      'Server unavailable',
    );
    const usage = [{ id: 'other-viewer', kind: 'stream' as const }];
    expect(openerToView(openerIn('conflict', { usage })).inUseBy).toBe(1);
    expect(openerToView(openerIn('killed', { killResult: false }))).toMatchObject({
      step: 'killed',
      killResult: false,
    });
  });

  it('reads the modal as closed, open, minimised with its notice, or minimised', () => {
    expect(modalOf(gridIn({ modal: 'closed' })).mode).toBe('closed');
    expect(modalOf(gridIn({ modal: 'open' })).mode).toBe('open');
    expect(modalOf(gridIn({ modal: { minimized: 'notice' } })).mode).toBe('notice');
    expect(modalOf(gridIn({ modal: { minimized: 'quiet' } })).mode).toBe('minimized');
  });
});
