/**
 * The profile pages' navigation (spec §2 "/profile … Children: my-licences, storage-data-usage,
 * network-data-usage, keys-secrets, stream-management, account-information", and personal-information): a
 * labelled nav of links, the current one marked with aria-current.
 */
import { Group, NavLink as MantineLink, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import '../i18n';

export const PROFILE_PAGES = [
  { path: '/profile/personal-information', key: 'personal' },
  { path: '/profile/account-information', key: 'account' },
  { path: '/profile/keys-secrets', key: 'keys' },
  { path: '/profile/stream-management', key: 'streams' },
  { path: '/profile/storage-data-usage', key: 'storage' },
  { path: '/profile/network-data-usage', key: 'network' },
  { path: '/profile/my-licences', key: 'licences' },
] as const;

export function ProfileNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <nav aria-label={t('profile.nav.label')}>
      <Group gap={4} wrap="wrap">
        {PROFILE_PAGES.map((p) => (
          <MantineLink
            key={p.path}
            component={Link}
            to={p.path}
            label={t(`profile.nav.${p.key}`)}
            active={pathname === p.path}
            aria-current={pathname === p.path ? 'page' : undefined}
            w="auto"
            style={{ borderRadius: 4 }}
          />
        ))}
      </Group>
    </nav>
  );
}

/** A profile page: the navigation, its title and its content. */
export function ProfilePage({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" p="md" data-testid={testId}>
      <ProfileNav />
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}
