/**
 * Device tokens on /profile/keys-secrets (§3 Device token access_token; §9 device token expiry 5184000 s =
 * 60 days): each device, when its current token was generated and when it expires, and a link to the device
 * page's Overview, where the existing "new device token" flow runs (confirmed, shown once, §8 "Generated!").
 * Test ids: device-tokens, device-token-row-<device_id>, device-token-new-<device_id>.
 */
import { Alert, Anchor, Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import type { DeviceTokenInfo } from '../../../../protocol/profile';
import { useProfileRef, useReportView } from '../selectors';
import { deviceTokenRowsOf } from '../views';
import { useFormats } from './format';

export function DeviceTokensPanel() {
  const { t } = useTranslation();
  const ref = useProfileRef(PROFILE_IDS.deviceTokens);
  const view = useReportView<DeviceTokenInfo[]>(PROFILE_IDS.deviceTokens);
  const f = useFormats();
  useEffect(() => {
    ref.send({ type: 'report.load' });
  }, [ref]);
  const rows = deviceTokenRowsOf(view.data ?? []);
  return (
    <Paper withBorder p="md" data-testid="device-tokens">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.keys.devicesTitle')}
        </Title>
        <Text size="sm">{t('profile.keys.devicesIntro')}</Text>
        {view.state === 'failed' && (
          <Alert color="red" role="alert">
            {t('profile.failed', { error: view.error })}
            <Button size="xs" ml="sm" onClick={() => ref.send({ type: 'report.load' })}>
              {t('profile.retry')}
            </Button>
          </Alert>
        )}
        {rows.length === 0 ? (
          <Text size="sm">{view.state === 'ready' ? t('profile.keys.noDevices') : t('profile.loading')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={600}>
            <Table striped aria-label={t('profile.keys.devicesTitle')}>
              <Table.Thead>
                <Table.Tr>
                  {(['colDevice', 'colIssued', 'colExpires', 'colOnline', 'colActions'] as const).map((c) => (
                    <Table.Th key={c} scope="col">
                      {t(`profile.keys.${c}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id} data-testid={`device-token-row-${r.device_id}`}>
                    <Table.Td>{r.label}</Table.Td>
                    <Table.Td>
                      {!r.has_token
                        ? t('profile.keys.noToken')
                        : r.issued_at
                          ? f.dateTime(r.issued_at)
                          : t('profile.keys.unknown')}
                    </Table.Td>
                    <Table.Td>
                      {r.expires_at ? (
                        <Text size="sm" c={r.expired ? 'red.9' : undefined}>
                          {f.dateTime(r.expires_at)}
                        </Text>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={r.is_active ? 'green' : 'gray'} variant="light">
                        {r.is_active ? t('profile.keys.online') : t('profile.keys.offline')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/control-panel/devices?device=${encodeURIComponent(r.device_id)}&tab=overview`}
                        size="sm"
                        aria-label={t('profile.keys.newToken', { name: r.label })}
                        data-testid={`device-token-new-${r.device_id}`}
                      >
                        {t('profile.keys.newTokenShort')}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
