/** A container's Docker state (§3 Container State) as a badge: running green, paused/restarting yellow, else grey. */
import { Badge } from '@mantine/core';
import type { ContainerState } from '../../../../protocol/containers';

const COLOURS: Partial<Record<ContainerState, string>> = {
  running: 'green',
  paused: 'yellow',
  restarting: 'yellow',
  dead: 'red',
};

export function StateBadge({ state }: { state: ContainerState }) {
  return (
    <Badge color={COLOURS[state] ?? 'gray'} variant="light" data-state={state}>
      {state}
    </Badge>
  );
}
