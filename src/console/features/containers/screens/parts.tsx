/**
 * Small pieces the containers screens share: a container's state badge (§3 Container State), a yes/no badge,
 * an environment's Jupyter and GPU badges, a container's short id linking to its details, and a table's
 * caption, column headers and empty row.
 */
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { ContainerState } from '../../../../protocol/containers';

const COLOURS: Partial<Record<ContainerState, string>> = {
  running: 'green',
  paused: 'yellow',
  restarting: 'yellow',
  dead: 'red',
};

/** A container's Docker state as a badge: running green, paused/restarting yellow, dead red, else grey. */
export function StateBadge({ state }: { state: ContainerState }) {
  return (
    <Badge color={COLOURS[state] ?? 'gray'} variant="light" data-state={state}>
      {state}
    </Badge>
  );
}

/** "Yes" (green) or "No" (grey), translated. */
export function YesNoBadge({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={value ? 'green' : 'gray'} variant="light">
      {value ? t('containers.yes') : t('containers.no')}
    </Badge>
  );
}

/** An environment's Jupyter and GPU badges (shown only when it has them). */
export function EnvironmentBadges({ jupyter, gpu }: { jupyter: boolean; gpu: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      {jupyter && <Badge variant="light">{t('containers.jupyterBadge')}</Badge>}
      {gpu && (
        <Badge variant="light" color="grape">
          {t('containers.gpuBadge')}
        </Badge>
      )}
    </Group>
  );
}

/** A table's caption and its row of column headers (scope col), in order. */
export function TableHead({ caption, columns }: { caption: string; columns: readonly string[] }) {
  return (
    <>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th scope="col" key={column}>
              {column}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
    </>
  );
}

/** A container's short id (12 characters) as a link to /containers/details/{id} (§2). */
export function ContainerIdLink({ shortId }: { shortId: string }) {
  return (
    <Anchor component={Link} to={`/containers/details/${shortId}`} ff="monospace" size="sm">
      {shortId}
    </Anchor>
  );
}

/** The one row of an empty table: `text` across its `columns`. */
export function EmptyRow({ columns, text, testId }: { columns: number; text: string; testId?: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Text size="sm" c="dimmed" data-testid={testId}>
          {text}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
