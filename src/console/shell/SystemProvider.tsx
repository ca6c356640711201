/**
 * React context holding the console's actor system (ARCHITECTURE "Console state"): the started root actor
 * from `createConsoleSystem()`. Views reach the long-lived actors through the hooks in ./hooks.ts.
 */
import { createContext, use, type ReactNode } from 'react';
import type { ConsoleSystem } from '../system';

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
