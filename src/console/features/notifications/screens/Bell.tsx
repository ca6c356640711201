/**
 * The notification bell in the shell's header (spec §3 Notification: title, message, variant, time, read, id;
 * issue 11): an icon button with the unread count; its popover lists the latest notifications (newest first),
 * each with its time and a Mark read button, and Mark all read. Pushed notifications appear at once (the
 * inbox actor's socket). Only reads the inbox actor's view. Test ids: bell, bell-count, bell-list,
 * notification-item, bell-read-all.
 */
import { ActionIcon, Button, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useInboxRef, useInboxView } from '../selectors';

const COLORS = { success: 'green.9', info: 'blue.9', warning: 'yellow.9', danger: 'red.9' } as const;

function BellIcon() {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

export default function Bell() {
  const { t, i18n } = useTranslation();
  const ref = useInboxRef();
  const view = useInboxView();
  const locale = i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language;
  return (
    // The Indicator wraps the Popover, not the other way round: Popover.Target puts aria-expanded on its child,
    // which must be the button (axe aria-allowed-attr).
    <Indicator
      label={<span data-testid="bell-count">{view.badge}</span>}
      size={16}
      color="red.9"
      disabled={view.unread === 0}
      offset={4}
    >
      <Popover width={360} position="bottom-end" shadow="md" trapFocus>
        <Popover.Target>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={view.unread ? t('inbox.bellUnread', { count: view.unread }) : t('inbox.bell')}
            data-testid="bell"
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown data-testid="bell-list">
          <Group justify="space-between" mb="xs">
            <Text fw={600}>{t('inbox.title')}</Text>
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={view.unread === 0}
              onClick={() => ref.send({ type: 'inbox.markAllRead' })}
              data-testid="bell-read-all"
            >
              {t('inbox.markAllRead')}
            </Button>
          </Group>
          {!view.connected && !view.loading && (
            <Text size="xs" c="dimmed" role="status">
              {t('inbox.offline')}
            </Text>
          )}
          {view.error && (
            <Group gap="xs">
              <Text size="sm" c="red.9" role="alert">
                {view.error}
              </Text>
              <Button size="compact-xs" onClick={() => ref.send({ type: 'inbox.retry' })}>
                {t('inbox.retry')}
              </Button>
            </Group>
          )}
          <ScrollArea.Autosize mah={400}>
            {view.items.length === 0 ? (
              <Text size="sm">{t('inbox.none')}</Text>
            ) : (
              <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {view.items.map((n) => (
                  <li key={n.id} data-testid="notification-item" data-read={n.read}>
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <div
                        style={{
                          borderLeft: `3px solid var(--mantine-color-${COLORS[n.variant].replace('.', '-')})`,
                          paddingLeft: 8,
                        }}
                      >
                        <Text size="sm" fw={n.read ? 400 : 700}>
                          {n.title}
                        </Text>
                        <Text size="xs">{n.message}</Text>
                        <Text size="xs" c="dimmed">
                          {new Date(n.time).toLocaleString(locale)}
                          {n.read ? '' : ` · ${t('inbox.unread')}`}
                        </Text>
                      </div>
                      {!n.read && (
                        <Button
                          size="compact-xs"
                          variant="default"
                          aria-label={t('inbox.markReadOf', { title: n.title })}
                          onClick={() => ref.send({ type: 'inbox.markRead', id: n.id })}
                        >
                          {t('inbox.markRead')}
                        </Button>
                      )}
                    </Group>
                  </li>
                ))}
              </Stack>
            )}
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
