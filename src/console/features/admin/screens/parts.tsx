/**
 * Pieces every admin screen shares: the admin panel's navigation (§2 children: dockers, clients, engines,
 * licences; and issue 13's users and audit log), the keyset list's loading and debounced search, its table
 * frame, the keyset pager, and the list's error and totals lines.
 */
import { Alert, Button, Group, Table, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { NavLink } from 'react-router-dom';
import type { ListView } from '../selectors';

const LINKS = [
  ['/admin-panel/dockers', 'dockers'],
  ['/admin-panel/users', 'users'],
  ['/admin-panel/clients', 'clients'],
  ['/admin-panel/engines', 'engines'],
  ['/admin-panel/licences', 'licences'],
  ['/admin-panel/audit-log', 'auditLog'],
] as const;

export function AdminNav() {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('admin.nav.label')}>
      <Group gap="md" wrap="wrap">
        {LINKS.map(([to, key]) => (
          <NavLink key={to} to={to} end={false} className="ui-link">
            {t(`admin.nav.${key}`)}
          </NavLink>
        ))}
      </Group>
    </nav>
  );
}

/** First / previous / next / last page of a keyset list, and how many rows match. */
export function Pager({
  view,
  onPage,
  testId,
}: {
  view: ListView<unknown>;
  onPage: (cursor: string | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" data-testid={`${testId}-pager`}>
      <Text size="sm" data-testid={`${testId}-total`}>
        {view.totalCapped
          ? t('admin.list.totalCapped', { count: view.total - 1 })
          : t('admin.list.total', { count: view.total })}
      </Text>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          disabled={!view.canPrev || view.loading}
          onClick={() => onPage(null)}
        >
          {t('admin.list.first')}
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={!view.canPrev || view.loading}
          onClick={() => onPage(view.prev)}
        >
          {t('admin.list.prev')}
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={!view.canNext || view.loading}
          onClick={() => onPage(view.next)}
        >
          {t('admin.list.next')}
        </Button>
        <Button
          variant="default"
          size="xs"
          disabled={!view.canNext || view.loading}
          onClick={() => onPage('last')}
        >
          {t('admin.list.last')}
        </Button>
      </Group>
    </Group>
  );
}

export function ListError({ view, onRetry }: { view: ListView<unknown>; onRetry: () => void }) {
  const { t } = useTranslation();
  if (!view.error) return null;
  return (
    <Alert color="red" role="alert">
      <Text size="sm">{t('admin.list.failed', { error: view.error })}</Text>
      <Button size="xs" mt="xs" onClick={onRetry}>
        {t('admin.list.retry')}
      </Button>
    </Alert>
  );
}

/** A date-time in the console's language. */
export function useTimeFormat(): (iso: string) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language;
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => fmt.format(new Date(iso));
}

/** Search typed into a list's box reaches its machine this long after the last key, ms. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A keyset list screen's wiring (machines/admin/adminList.machine.ts): loads the list once on mount and sends
 * the search text as `list.query` SEARCH_DEBOUNCE_MS after typing stops. Returns the box's text and setter.
 */
export function useKeysetList(
  ref: AnyActorRef,
  view: ListView<unknown>,
): [search: string, setSearch: (text: string) => void] {
  const [search, setSearch] = useState(view.query.search ?? '');
  useEffect(() => {
    ref.send({ type: 'list.load' });
  }, [ref]);
  useEffect(() => {
    if ((view.query.search ?? '') === search) return;
    const timer = setTimeout(() => ref.send({ type: 'list.query', patch: { search } }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, ref, view.query.search]);
  return [search, setSearch];
}

/**
 * A keyset list's table: column headers, then `children` (the rows), or one "nothing here" row when a loaded
 * page is empty. `aria-busy` while a page loads.
 */
export function ListTable({
  view,
  testId,
  headers,
  minWidth = 900,
  children,
}: {
  view: ListView<unknown>;
  testId: string;
  headers: string[];
  minWidth?: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped data-testid={testId} aria-busy={view.loading}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h, i) => (
              <Table.Th key={i}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.rows.length === 0 && view.state === 'ready' && (
            <Table.Tr>
              <Table.Td colSpan={headers.length}>{t('admin.list.empty')}</Table.Td>
            </Table.Tr>
          )}
          {children}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
