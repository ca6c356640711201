/**
 * Pure views of the face gallery (`/blacklist-faces`) and the face alarms timeline (`/face-alarms`), and their
 * hooks. A server text of FACE_TEXTS becomes its i18n key (`faces.errors.<key>`), so the screens show it in
 * the user's language.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { faceAlarmsMachine, FacePerson } from '../../../../machines/faces/faceAlarms.machine';
import type { facesMachine } from '../../../../machines/faces/faces.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import {
  FACE_TEXTS,
  type FaceAlarmEvent,
  type FaceView,
  type SeenEvent,
  type SeenIdentity,
} from '../../../protocol/faces';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type FacesSnapshot = SnapshotFrom<typeof facesMachine>;
export type FaceAlarmsSnapshot = SnapshotFrom<typeof faceAlarmsMachine>;

/** An error to show: the i18n key of a known server text, else the text as it came. */
export type ShownError = { key: string } | { text: string };

export function shownError(message: string | null): ShownError | null {
  if (!message) return null;
  const key = (Object.keys(FACE_TEXTS) as (keyof typeof FACE_TEXTS)[]).find((k) => FACE_TEXTS[k] === message);
  return key ? { key: `faces.errors.${key}` } : { text: message };
}

export interface FacesScreenView {
  state: string;
  faces: FaceView[];
  /** The picker's events, each marked when its person is already in the gallery. */
  seen: (SeenEvent & { enrolled: boolean })[];
  /** The people an upload may be linked to (those not in the gallery yet). */
  identities: SeenIdentity[];
  busy: boolean;
  error: string | null;
  formError: ShownError | null;
  saved: number;
  target: FaceView | null;
}

export function facesToView(s: FacesSnapshot): FacesScreenView {
  const c = s.context;
  const inGallery = new Set(c.faces.map((f) => f.identity));
  return {
    state: String(s.value),
    faces: c.faces,
    seen: c.seen.map((e) => ({ ...e, enrolled: inGallery.has(e.identity) })),
    identities: c.identities.filter((i) => !inGallery.has(i.identity)),
    busy: s.hasTag('busy'),
    error: c.error,
    formError: shownError(c.formError),
    saved: c.saved,
    target: c.target,
  };
}

export interface FaceAlarmsView {
  state: string;
  events: (FaceAlarmEvent & { person: string | null })[];
  people: FacePerson[];
  identity: string;
  hasMore: boolean;
  busy: boolean;
  error: string | null;
}

export function faceAlarmsToView(s: FaceAlarmsSnapshot): FaceAlarmsView {
  const c = s.context;
  return {
    state: String(s.value),
    // The gallery's label when the person is enrolled; else the identity (null: no identity at all).
    events: c.events.map((e) => ({ ...e, person: e.label ?? null })),
    people: c.people,
    identity: c.identity,
    hasMore: c.next !== null,
    busy: s.hasTag('busy'),
    error: c.error,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const useFacesRef = (): AnyActorRef => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.faces);
export const useFaceAlarmsRef = (): AnyActorRef => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.faceAlarms);

export function useFacesView(): FacesScreenView {
  return useSelector(useFacesRef(), (s: FacesSnapshot) => facesToView(s), same);
}
export function useFaceAlarmsView(): FaceAlarmsView {
  return useSelector(useFaceAlarmsRef(), (s: FaceAlarmsSnapshot) => faceAlarmsToView(s), same);
}
