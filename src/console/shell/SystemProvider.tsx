/**
 * React context holding the console's actor system (ARCHITECTURE "Console state"): the started root actor
 * from `createConsoleSystem()` (src/console/system.ts). Each feature reaches its actors through its own
 * selectors.ts (`actorOf(system, systemId)`).
 */
import { createContext, use, type ReactNode } from 'react';
import type { Actor, AnyActorRef } from 'xstate';
import type { systemMachine } from '../../../machines/system.machine';
import type { DeviceTab } from '../features/feature';

/** The started root actor. */
export type ConsoleSystem = Actor<typeof systemMachine>;

const SystemContext = createContext<ConsoleSystem | null>(null);
/** A device tab with the feature whose lazily loaded actors its panel needs (null: none). */
export type FeatureDeviceTab = DeviceTab & { feature: string | null };
const DeviceTabsContext = createContext<readonly FeatureDeviceTab[]>([]);

/**
 * Provides `system` (created once, in main.tsx, so StrictMode's double effects never start two) and the device
 * tabs the features add (App.tsx reads them from FEATURES; the device page reads them here, so no feature
 * imports the composition root).
 */
export function SystemProvider({
  system,
  deviceTabs = [],
  children,
}: {
  system: ConsoleSystem;
  deviceTabs?: readonly FeatureDeviceTab[];
  children: ReactNode;
}) {
  return (
    <SystemContext value={system}>
      <DeviceTabsContext value={deviceTabs}>{children}</DeviceTabsContext>
    </SystemContext>
  );
}

/** The features' device tabs (SystemProvider). */
export function useDeviceTabs(): readonly FeatureDeviceTab[] {
  return use(DeviceTabsContext);
}

/** The root actor of the console system. Throws outside <SystemProvider>: a wiring bug, not a user error. */
export function useSystem(): ConsoleSystem {
  const system = use(SystemContext);
  if (!system) throw new Error('useSystem() needs a <SystemProvider> above it');
  return system;
}

/** The long-lived actor `systemId` (machines/systemIds.ts), typed by the caller. Throws when it is not running. */
export function actorOf<T extends AnyActorRef>(system: ConsoleSystem, systemId: string): T {
  const ref = system.system.get(systemId) as T | undefined;
  if (!ref) throw new Error(`console system: actor '${systemId}' is not running`);
  return ref;
}
