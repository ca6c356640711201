/**
 * §2 Stream modal for a remoteDesktop stream (§3 Stream remoteDesktop flag, isFullScreen, openWindows): the
 * device label, the live remote screen (DesktopScreen), full screen and close buttons, the window list with
 * a close button per window (§7 close-remote-window), and the §9 stats line (frame rate over 2000 ms,
 * resolution, round-trip time).
 *
 * Test ids: remote-desktop-modal, remote-desktop-fullscreen, remote-desktop-close, remote-desktop-status
 * (data-phase), remote-desktop-retry, remote-desktop-windows, remote-desktop-window-<id> (data-focused),
 * remote-desktop-window-close-<id>, remote-desktop-stats.
 */
import { ActionIcon, Alert, Button, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import '../remoteDesktop.css';
import { statsParts, useRemoteDesktopRef, useRemoteDesktopView } from '../selectors';
import { DesktopScreen } from './DesktopScreen';

export default function RemoteDesktopModal() {
  const { t } = useTranslation();
  const desktop = useRemoteDesktopRef();
  const view = useRemoteDesktopView();
  const body = useRef<HTMLDivElement>(null);

  // §3 isFullScreen follows the document (the user may leave full screen with the browser's own keys).
  useEffect(() => {
    const onChange = () => desktop.send({ type: 'view.fullScreen', on: document.fullscreenElement === body.current && !!body.current }); // prettier-ignore
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [desktop]);

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void body.current?.requestFullscreen?.().catch(() => undefined);
  };
  const stats = statsParts(view.stats);

  return (
    <Modal
      opened
      onClose={() => desktop.send({ type: 'desktop.close' })}
      closeOnEscape={!view.captured}
      title={t('remoteDesktop.dialogTitle', { device: view.label })}
      size="min(96vw, 1400px)"
      data-testid="remote-desktop-modal"
      closeButtonProps={{ 'aria-label': t('remoteDesktop.close') }}
    >
      <div ref={body} className="remote-desktop-body" data-testid="remote-desktop-body">
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" role="status" data-testid="remote-desktop-status" data-phase={view.phase}>
              {view.phase === 'connecting' && t('remoteDesktop.connecting')}
              {view.phase === 'live' && view.backend && t(`remoteDesktop.backend.${view.backend}`)}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Tooltip
                label={view.fullScreen ? t('remoteDesktop.exitFullScreen') : t('remoteDesktop.fullScreen')}
              >
                <ActionIcon
                  variant="light"
                  aria-label={
                    view.fullScreen ? t('remoteDesktop.exitFullScreen') : t('remoteDesktop.fullScreen')
                  }
                  aria-pressed={view.fullScreen}
                  data-testid="remote-desktop-fullscreen"
                  onClick={toggleFullScreen}
                >
                  <span aria-hidden="true">⛶</span>
                </ActionIcon>
              </Tooltip>
              <Button
                size="xs"
                variant="default"
                data-testid="remote-desktop-close"
                onClick={() => desktop.send({ type: 'desktop.close' })}
              >
                {t('remoteDesktop.close')}
              </Button>
            </Group>
          </Group>
          {view.phase === 'failed' && (
            <Alert color="red" role="alert">
              <Group justify="space-between">
                <span>{t('remoteDesktop.failed', { error: view.error ?? '' })}</span>
                <Button
                  size="xs"
                  data-testid="remote-desktop-retry"
                  onClick={() => desktop.send({ type: 'desktop.retry' })}
                >
                  {t('remoteDesktop.retry')}
                </Button>
              </Group>
            </Alert>
          )}
          <div className="remote-desktop-layout">
            <div className="remote-desktop-stage">
              {view.phase === 'connecting' && <Loader className="remote-desktop-loader" aria-hidden="true" />}
              <DesktopScreen
                desktop={desktop}
                mediaStream={view.mediaStream}
                captured={view.captured}
                label={view.label}
              />
            </div>
            <nav
              className="remote-desktop-windows"
              aria-label={t('remoteDesktop.windows')}
              data-testid="remote-desktop-windows"
            >
              <Text fw={600} size="sm">
                {t('remoteDesktop.windows')}
              </Text>
              {view.windows.length === 0 && <Text size="sm">{t('remoteDesktop.noWindows')}</Text>}
              <ul>
                {[...view.windows].reverse().map((w) => {
                  const title = w.title || t('remoteDesktop.untitled');
                  return (
                    <li
                      key={w.id}
                      data-testid={`remote-desktop-window-${w.id}`}
                      data-focused={w.focused ? 'true' : 'false'}
                    >
                      <span className="remote-desktop-window-title">
                        {title}
                        {w.focused && (
                          <Text span size="xs" c="dimmed">{` (${t('remoteDesktop.focused')})`}</Text>
                        )}
                      </span>
                      <ActionIcon
                        size="sm"
                        variant="subtle"
                        color="red"
                        aria-label={t('remoteDesktop.closeWindow', { title })}
                        loading={view.closingId === w.id}
                        disabled={view.closingId !== null}
                        data-testid={`remote-desktop-window-close-${w.id}`}
                        onClick={() => desktop.send({ type: 'windows.close', windowId: w.id })}
                      >
                        <span aria-hidden="true">×</span>
                      </ActionIcon>
                    </li>
                  );
                })}
              </ul>
              {view.windowsError && (
                <Text size="xs" c="red">
                  {t('remoteDesktop.windowsFailed', { error: view.windowsError })}
                </Text>
              )}
            </nav>
          </div>
          <Text size="xs" data-testid="remote-desktop-stats" aria-live="off">
            {t('remoteDesktop.stats', stats)}
          </Text>
          {view.inputError && (
            <Text size="xs" c="red">
              {t('remoteDesktop.inputFailed', { error: view.inputError })}
            </Text>
          )}
        </Stack>
      </div>
    </Modal>
  );
}
