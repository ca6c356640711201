/**
 * The header's profile badge (issue 13: "the header shows the new name/avatar without reload"): the user's
 * picture (or initials) and name, linking to /profile/personal-information. It reads the profile actor, which
 * every save and avatar upload updates.
 */
import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { useHeaderView } from '../selectors';

export default function HeaderProfile() {
  const { t } = useTranslation();
  const view = useHeaderView();
  if (!view) return null;
  return (
    <UnstyledButton
      component={Link}
      to="/profile/personal-information"
      aria-label={t('profile.header.profile', { name: view.name })}
      data-testid="header-profile"
    >
      <Group gap={6} wrap="nowrap">
        <Avatar
          src={view.image}
          alt={t('profile.header.avatarAlt', { name: view.name })}
          size={26}
          radius="xl"
          data-testid="header-avatar"
          data-src={view.image ?? ''}
        >
          {view.initials}
        </Avatar>
        <Text size="sm" className="header-profile-name" data-testid="header-profile-name" maw={160} truncate>
          {view.name}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
