import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { cameraGridMachine } from '../../../machines/cameras/cameraGrid.machine';
import { streamMachine } from '../../../machines/cameras/stream.machine';
import { streamStatusLabel } from '../../../src/console/features/cameras/format';
import { modalOf, openerStepOf, streamToView } from '../../../src/console/features/cameras/selectors';
import { makeCamera } from '../machines/fixtures';

type StreamValue = Parameters<typeof streamMachine.resolveState>[0]['value'];
type GridValue = Parameters<typeof cameraGridMachine.resolveState>[0]['value'];

const streamContext = createActor(streamMachine, {
  input: { streamId: 's1', deviceId: 'dev-1', deviceLabel: 'Device 1', camera: makeCamera('cam-1') },
}).getSnapshot().context;
const streamIn = (value: StreamValue) => streamMachine.resolveState({ value, context: streamContext });
const gridContext = createActor(cameraGridMachine, { input: { idPrefix: 'web-test' } }).getSnapshot().context;
const gridIn = (value: GridValue) => cameraGridMachine.resolveState({ value, context: gridContext });

describe('what a stream cell shows (streamToView)', () => {
  it('shows a stream that waits for its device or backs off as reconnecting', () => {
    expect(streamToView(streamIn('waitingForDevice')).status).toBe('reconnecting');
    expect(streamToView(streamIn('retrying')).status).toBe('reconnecting');
  });

  it('shows playing, paused (also while held), connecting (also while resuming), failed and closed', () => {
    expect(streamToView(streamIn('playing')).status).toBe('playing');
    expect(streamToView(streamIn('paused')).status).toBe('paused');
    expect(streamToView(streamIn({ paused: 'held' })).status).toBe('paused');
    expect(streamToView(streamIn('connecting')).status).toBe('connecting');
    expect(streamToView(streamIn('resuming')).status).toBe('connecting');
    expect(streamToView(streamIn('starting')).status).toBe('starting');
    expect(streamToView(streamIn('failed')).status).toBe('failed');
    expect(streamToView(streamIn('closed')).status).toBe('closed');
  });

  it('reads the recorder only while playing', () => {
    expect(streamToView(streamIn('playing')).recorder).toBe('idle');
    expect(streamToView(streamIn({ playing: { recorder: 'recording' } })).recorder).toBe('recording');
    expect(streamToView(streamIn({ playing: { recorder: 'saving' } })).recorder).toBe('saving');
    expect(streamToView(streamIn('paused')).recorder).toBe('idle');
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
  it('names the opener dialog shown, busy while checking, idle otherwise', () => {
    expect(openerStepOf(gridIn({ opener: 'idle' }))).toBe('idle');
    expect(openerStepOf(gridIn({ opener: 'checking' }))).toBe('busy');
    expect(openerStepOf(gridIn({ opener: 'conflict' }))).toBe('conflict');
    expect(openerStepOf(gridIn({ opener: 'choosingResolution' }))).toBe('choosingResolution');
    expect(openerStepOf(gridIn({ opener: 'refused' }))).toBe('refused');
  });

  it('reads the modal as closed, open, minimised with its notice, or minimised', () => {
    expect(modalOf(gridIn({ modal: 'closed' })).mode).toBe('closed');
    expect(modalOf(gridIn({ modal: 'open' })).mode).toBe('open');
    expect(modalOf(gridIn({ modal: { minimized: 'notice' } })).mode).toBe('notice');
    expect(modalOf(gridIn({ modal: { minimized: 'quiet' } })).mode).toBe('minimized');
  });
});
