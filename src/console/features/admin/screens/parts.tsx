/**
 * Pieces every admin screen shares: the admin panel's navigation (§2 children: dockers, clients, engines,
 * licences; and issue 13's users and audit log), the keyset pager, and the list's error and totals lines.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
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
