/**
 * What a console feature gives the composition root (src/console/system.ts) — ARCHITECTURE "Folder layout":
 * `features/<feature>/index.ts` exports one `ConsoleFeature`; the root merges every feature's `provide`
 * and starts its `actors`, the router reads its `routes`, the notifications actor shows what its `notices`
 * sources emit.
 */
import type { ComponentType } from 'react';
import type { AnyActorRef, EventObject, SnapshotFrom } from 'xstate';
import type { FeatureActor, systemMachine } from '../../../machines/system.machine';
import type { Http } from '../platform/http';
import type { PeerLink } from '../platform/peerLink';
import type { SessionStore } from '../platform/storage';
import type { RouteEntry } from '../routes/table';

/** The transport the features' actors run on (src/console/platform/). */
export interface Platform {
  /** This tab's PeerJS peer id. */
  browserId: string;
  http: Http;
  peerLink: PeerLink;
  session: SessionStore;
}

/** Implementations of the root system machine's own actors (auth, notifications), by name. */
export type SystemActors = NonNullable<NonNullable<Parameters<typeof systemMachine.provide>[0]>['actors']>;

/** A screen of the §2 route table (routes/table.ts); it receives its route entry. */
export type FeatureScreen = ComponentType<{ entry: RouteEntry }>;

/**
 * An actor whose `notice` and `dialog` emissions (machines/notifications/emitted.ts) are shown by the
 * notifications actor.
 */
export interface NoticeSource {
  /** systemId of the long-lived actor (machines/systemIds.ts). */
  systemId: string;
  /** Child actors that emit too (one connection per device…), read from the source's snapshot. */
  children?: (snapshot: SnapshotFrom<AnyActorRef>) => readonly AnyActorRef[];
  /** Sent back to the source when the user closes one of its dialogs. */
  onDialogClose?: EventObject;
}

/**
 * A tab of the device page (`/control-panel/devices?device={id}&tab={id}`, issue "Operate a device"): Overview,
 * Metrics, Logs, Settings, Storage, Software, Power. Features add theirs; the page orders them by `order`.
 */
export interface DeviceTab {
  /** The tab's id: the URL's `tab` value, and its test id `device-tab-<id>`. */
  id: string;
  /** i18n key of its label (in the feature's own texts). */
  label: string;
  /** Position: Overview 0, Metrics 10, Logs 20, Settings 30, Storage 40, Software 50, Power 60. */
  order: number;
  /** The tab's panel for one device (lazyScreen-style chunk); shown only while it is the selected tab. */
  panel: ComponentType<{ deviceId: string }>;
}

export interface ConsoleFeature {
  /** The feature's name: its folder under features/ and machines/, as in src/protocol and the server. */
  name: string;
  /** Screens by the `screen` key of their route entries in routes/table.ts. */
  routes?: Record<string, FeatureScreen>;
  /** Implementations (`.provide()`) of the root machine's own actors the feature owns (accounts: auth). */
  provide?: (platform: Platform) => Partial<SystemActors>;
  /** The feature's long-lived actors (machines with their `.provide()` implementations) the root starts. */
  actors?: (platform: Platform) => readonly FeatureActor[];
  /**
   * The feature's long-lived actors in a chunk of their own, loaded after the first sign-in (so /login ships
   * none of their machines) and started then; its screens and slots wait for them (shell/FeatureReady.tsx).
   */
  loadActors?: () => Promise<(platform: Platform) => readonly FeatureActor[]>;
  /** Components the signed-in shell's header shows (e.g. quick search), before the signalling badge. */
  headerSlots?: readonly ComponentType[];
  /** Tabs the feature adds to the device page. */
  deviceTabs?: readonly DeviceTab[];
  /**
   * systemIds of the feature's long-lived actors (started with `actors`, not `loadActors`) whose snapshot tag
   * `busy` shows the root shell's top progress bar while a user is signed in (the devices table loading).
   */
  busy?: readonly string[];
  /** The feature's actors whose notices and dialogs are shown. */
  notices?: readonly NoticeSource[];
  /** Components the root shell renders for signed-in users (outside the layout), e.g. the stream modal. */
  signedInSlots?: readonly ComponentType[];
}
