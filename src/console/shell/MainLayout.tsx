/**
 * The signed-in shell of §2 ("Main layout"): header with the sidebar toggle, signalling status, language
 * and user menu; the sidebar (starts collapsed, toggles, collapses automatically under 1155 px); the
 * routed screen in <main>.
 */
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  Menu,
  NativeSelect,
  NavLink,
  ScrollArea,
  Text,
  Tooltip,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../protocol/constants';
import { setLanguage } from '../i18n';
import { LANGUAGE_NAMES, resolveLanguage } from '../i18n/language';
import { useAuthRef, useSession } from '../features/accounts/selectors';
import { useSignalRef, useSignalView } from '../features/signalling/selectors';
import { RouteFallback } from './RouteFallback';
import { HeaderSlots } from './Slots';
import { WithMantine } from './mantine';
import { SIDEBAR_INITIAL_OPEN, sidebarOpenAfterResize } from './sidebar';

/** Sidebar entries: i18n key and path. Admin-only entries are hidden from other users (§6). */
const NAV_ITEMS: ReadonlyArray<{ key: string; to: string; admin?: boolean }> = [
  { key: 'nav.dashboard', to: '/dashboard' },
  { key: 'nav.devices', to: '/control-panel/devices' },
  { key: 'nav.cameras', to: '/control-panel/cameras' },
  { key: 'nav.jobs', to: '/jobs' },
  { key: 'nav.engines', to: '/control-panel/engines' },
  { key: 'nav.containers', to: '/control-panel/containers' },
  { key: 'nav.logs', to: '/logs' },
  { key: 'nav.alarms', to: '/alarms' },
  { key: 'nav.repositories', to: '/repositories' },
  { key: 'nav.analytics', to: '/analytics/dashboard-collections-manager' },
  { key: 'nav.profile', to: '/profile/personal-information' },
  { key: 'nav.adminPanel', to: '/admin-panel/dockers', admin: true },
];

/** Keeps the sidebar rule of §2: starts collapsed; collapses whenever the viewport narrows below 1155 px. */
function useSidebar(): [boolean, () => void] {
  const [open, setOpen] = useState(SIDEBAR_INITIAL_OPEN);
  const prevWidth = useRef<number | null>(null);
  useEffect(() => {
    const onResize = () => {
      const width = window.innerWidth;
      setOpen((o) => sidebarOpenAfterResize(o, prevWidth.current, width));
      prevWidth.current = width;
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return [open, () => setOpen((o) => !o)];
}

/** The signed-in layout, with Mantine's provider (the signed-out path has none; shell/mantine.tsx). */
export default function MainLayout() {
  return (
    <WithMantine>
      <MainShell />
    </WithMantine>
  );
}

function MainShell() {
  const { t } = useTranslation();
  const [open, toggle] = useSidebar();
  const { pathname } = useLocation();
  const { isAdmin } = useSession();

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'xs', collapsed: { desktop: !open, mobile: !open } }}
      padding="md"
    >
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header component="header">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          {/* The brand keeps its line; the right side gives way first (its search and name narrow by width). */}
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Burger
              opened={open}
              onClick={toggle}
              size="sm"
              aria-label={t('nav.toggleSidebar')}
              aria-expanded={open}
              aria-controls="sidebar"
              data-testid="sidebar-toggle"
            />
            {/* The brand is not a heading: each screen's own title is the page's h1. */}
            <Text component="div" fw={700} size="xl" style={{ whiteSpace: 'nowrap' }}>
              <Link to="/dashboard" className="brand-link">
                {t('app.title')}
              </Link>
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <HeaderSlots />
            <SignalBadge />
            <LanguagePicker />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        component="nav"
        id="sidebar"
        aria-label={t('nav.main')}
        p="xs"
        data-testid="sidebar"
        data-open={open}
        // Collapsed = slid off screen; inert keeps its links out of the tab order and the accessibility tree.
        inert={!open}
      >
        <ScrollArea>
          {NAV_ITEMS.filter((item) => !item.admin || isAdmin).map((item) => (
            <NavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={t(item.key)}
              active={pathname === item.to || pathname.startsWith(item.to + '/')}
              aria-current={pathname === item.to ? 'page' : undefined}
            />
          ))}
          <NavLink component="a" href="/docs" label={t('nav.docs')} />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" component="main" tabIndex={-1}>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/** §4 Signal connection status, with a retry when it failed. */
function SignalBadge() {
  const { t } = useTranslation();
  const { status, canRetry } = useSignalView();
  const signal = useSignalRef();
  const colour = { none: 'gray', connecting: 'yellow', connected: 'green', failed: 'red' }[status];
  return (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      <Tooltip label={t('signal.label')}>
        <Badge color={colour} variant="light" data-testid="signal-status" aria-live="polite">
          <span className="signal-badge-label">{t('signal.label')}: </span>
          {t(`signal.${status}`)}
        </Badge>
      </Tooltip>
      {canRetry && (
        <Button size="compact-xs" variant="subtle" onClick={() => signal.send({ type: 'signal.retry' })}>
          {t('signal.retry')}
        </Button>
      )}
    </Group>
  );
}

/** §2 interface language (stored in localStorage). */
function LanguagePicker() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      size="xs"
      style={{ flexShrink: 0 }}
      aria-label={t('user.language')}
      value={resolveLanguage(i18n.language)}
      onChange={(e) => setLanguage(resolveLanguage(e.currentTarget.value) as Language)}
      data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
    />
  );
}

/** User menu with the e-mail, profile and sign out (§4 logout). */
function UserMenu() {
  const { t } = useTranslation();
  const auth = useAuthRef();
  const { email } = useSession();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          aria-label={email ? `${t('user.menu')} (${email})` : t('user.menu')}
          data-testid="user-menu"
        >
          {email ?? t('user.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/profile/personal-information">
          {t('user.profile')}
        </Menu.Item>
        <Menu.Item color="red" onClick={() => auth.send({ type: 'auth.logout' })} data-testid="sign-out">
          {t('user.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
