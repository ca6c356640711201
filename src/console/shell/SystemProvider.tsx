/**
 * React context holding the console's actor system (ARCHITECTURE "Console state"): the started root actor
 * from `createConsoleSystem()` (src/console/system.ts). Each feature reaches its actors through its own
 * selectors.ts (`actorOf(system, systemId)`).
 */
import { createContext, use, type ReactNode } from 'react';
import type { Actor, AnyActorRef } from 'xstate';
import type { systemMachine } from '../../../machines/system.machine';

/** The started root actor. */
export type ConsoleSystem = Actor<typeof systemMachine>;

const SystemContext = createContext<ConsoleSystem | null>(null);

/** Provides `system` (created once, in main.tsx, so StrictMode's double effects never start two). */
export function SystemProvider({ system, children }: { system: ConsoleSystem; children: ReactNode }) {
  return <SystemContext value={system}>{children}</SystemContext>;
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
