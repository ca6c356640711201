/**
 * What views read of the camera grid actor (systemId 'streams': slots, pages, the stream modal), of its
 * opener (the opening flow's dialogs) and of each stream actor (§2 Camera control page, stream modal, stream
 * detail; §4 Stream slots). `streamToView`, `openerToView` and `modalOf` map snapshots to facts with
 * `matches` and `hasTag`; the hooks select primitives or small memoised values.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { cameraGridMachine, OpenerRef } from '../../../../machines/cameras/cameraGrid.machine';
import type { CameraCandidate } from '../../../../machines/cameras/opener.machine';
import type { ResolutionOption } from '../../../protocol/commands';
import type { RecordingFile, StreamStats, streamMachine } from '../../../../machines/cameras/stream.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from '../../shell/SystemProvider';

export type StreamsRef = ActorRefFrom<typeof cameraGridMachine>;
/** One stream's actor (spawned by the grid). */
export type StreamRef = ActorRefFrom<typeof streamMachine>;
type StreamsSnapshot = SnapshotFrom<typeof cameraGridMachine>;
type StreamSnapshot = SnapshotFrom<typeof streamMachine>;
type OpenerSnapshot = SnapshotFrom<OpenerRef>;
/** One grid entry (stream, camera, page, layout cell). */
export type GridEntry = StreamsSnapshot['context']['entries'][number];

/** The camera grid actor (systemId 'streams'). */
export const streamsRefOf = (system: ConsoleSystem): StreamsRef =>
  actorOf<StreamsRef>(system, SYSTEM_IDS.streams);
/** The camera grid actor (§2 Camera control page, §4 Stream slots). */
export function useStreamsRef(): StreamsRef {
  return streamsRefOf(useSystem());
}

/** Any selection of the grid snapshot. */
export function useStreamsSelector<T>(
  selector: (s: StreamsSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useStreamsRef(), selector, compare);
}

// ---- one stream ------------------------------------------------------------------------------------

/**
 * What a stream cell shows (§2 "status of a stream"): waiting for the device and retrying both show as
 * 'reconnecting', a held stream asked to play again as 'connecting'.
 */
export type StreamStatus =
  'starting' | 'connecting' | 'playing' | 'paused' | 'reconnecting' | 'failed' | 'closed';

/** Facts of one stream cell, flattened to primitives plus the MediaStream, stats and recording objects. */
export interface StreamView {
  status: StreamStatus;
  error: string | null;
  deviceLabel: string;
  cameraLabel: string;
  mediaStream: MediaStream | null;
  /** Recorder: 'idle' | 'recording' | 'saving' (only while playing; otherwise 'idle'). */
  recorder: 'idle' | 'recording' | 'saving';
  recording: RecordingFile | null;
  statsOn: boolean;
  stats: StreamStats | null;
  application: boolean;
  resolutionLabel: string | null;
}

/** The status a stream snapshot shows. */
export function streamStatusOf(s: StreamSnapshot): StreamStatus {
  if (s.matches({ live: 'playing' })) return 'playing';
  if (s.hasTag('paused')) return 'paused';
  if (s.matches('closed')) return 'closed';
  if (s.hasTag('reconnecting')) return 'reconnecting';
  if (s.hasTag('error')) return 'failed';
  // Negotiating a new connection, or resuming a held one.
  if (s.hasTag('busy')) return 'connecting';
  return 'starting';
}

export function streamToView(s: StreamSnapshot): StreamView {
  const recorder = s.hasTag('recording')
    ? 'recording'
    : s.matches({ live: { playing: { recorder: 'saving' } } })
      ? 'saving'
      : 'idle';
  const r = s.context.resolution;
  return {
    status: streamStatusOf(s),
    error: s.context.error,
    deviceLabel: s.context.deviceLabel,
    cameraLabel: s.context.camera.label || s.context.camera.name,
    mediaStream: s.context.mediaStream,
    recorder,
    recording: s.context.recording,
    statsOn: s.context.statsOn,
    stats: s.context.stats,
    application: s.context.application,
    resolutionLabel: r ? `${r.width}x${r.height} ${r.fps} fps` : null,
  };
}
export function useStreamView(ref: StreamRef): StreamView {
  return useSelector(ref, streamToView, shallowEqual);
}

// ---- the grid --------------------------------------------------------------------------------------

/** The grid entries on the shown page, the page (0-based) and the page count (§2: 12 per page). */
export interface GridPageView {
  entries: GridEntry[];
  page: number;
  pageCount: number;
  total: number;
  loading: boolean;
  /** The saved layout could not be loaded yet (outage): it is loaded again, and nothing is saved until then. */
  notLoaded: boolean;
}
export function gridPageOf(s: StreamsSnapshot): GridPageView {
  const all = s.context.entries;
  return {
    entries: all.filter((e) => e.page === s.context.page),
    page: s.context.page,
    pageCount: Math.max(1, ...all.map((e) => e.page + 1)),
    total: all.length,
    loading: s.hasTag('loading'),
    notLoaded: s.context.loadFailures > 0,
  };
}
export function useGridPage(): GridPageView {
  return useStreamsSelector(
    gridPageOf,
    (a, b) =>
      a.page === b.page &&
      a.pageCount === b.pageCount &&
      a.total === b.total &&
      a.loading === b.loading &&
      a.notLoaded === b.notLoaded &&
      shallowEqual(a.entries, b.entries),
  );
}

// ---- the opener ------------------------------------------------------------------------------------

/** The opener's dialog step (§2 chooser and conflict dialogs, quota refusal, resolution choice). */
export type OpenerStep =
  'idle' | 'busy' | 'choosingCamera' | 'refused' | 'conflict' | 'killing' | 'killed' | 'choosingResolution';

/** What the opener's dialogs show (machines/cameras/opener.machine.ts). */
export interface OpenerView {
  step: OpenerStep;
  candidates: CameraCandidate[];
  /** Chooser photos by device id (null: could not be taken). */
  photos: Record<string, string | null>;
  /** Other processes using the camera (conflict dialog). */
  inUseBy: number;
  killResult: boolean | null;
  resolutions: ResolutionOption[];
  refusal: string | null;
}

/** The step an opener snapshot shows: its dialog, 'busy' while it checks or loads, else 'idle'. */
export function openerStepOf(s: OpenerSnapshot): OpenerStep {
  if (s.matches('choosingCamera')) return 'choosingCamera';
  if (s.matches('refused')) return 'refused';
  if (s.matches('conflict')) return 'conflict';
  if (s.matches('killing')) return 'killing';
  if (s.matches('killed')) return 'killed';
  if (s.matches('choosingResolution')) return 'choosingResolution';
  return s.hasTag('busy') ? 'busy' : 'idle';
}

/** The opener snapshot mapped to what its dialogs show. */
export function openerToView(s: OpenerSnapshot): OpenerView {
  return {
    step: openerStepOf(s),
    candidates: s.context.candidates,
    photos: s.context.photos,
    inUseBy: s.context.usage.length,
    killResult: s.context.killResult,
    resolutions: s.context.resolutions,
    refusal: s.context.refusal,
  };
}

/** The grid's opener (invoked with the grid, so present while the grid runs). */
export function useOpenerRef(): OpenerRef | undefined {
  return useStreamsSelector((s) => s.children.opener as OpenerRef | undefined);
}
const IDLE_OPENER: OpenerView = {
  step: 'idle',
  candidates: [],
  photos: {},
  inUseBy: 0,
  killResult: null,
  resolutions: [],
  refusal: null,
};
export function useOpenerView(): OpenerView {
  return useSelector(useOpenerRef(), (s) => (s ? openerToView(s) : IDLE_OPENER), shallowEqual);
}

/** The stream modal (§2): which stream, and whether it is open, minimised with its notice, or closed. */
export interface ModalView {
  streamId: string | null;
  mode: 'closed' | 'open' | 'notice' | 'minimized';
}
export function modalOf(s: StreamsSnapshot): ModalView {
  const mode = s.matches({ modal: 'open' })
    ? 'open'
    : s.matches({ modal: { minimized: 'notice' } })
      ? 'notice'
      : s.matches({ modal: 'minimized' })
        ? 'minimized'
        : 'closed';
  return { streamId: s.context.modalStreamId, mode };
}
export function useModalView(): ModalView {
  return useStreamsSelector(modalOf, shallowEqual);
}
