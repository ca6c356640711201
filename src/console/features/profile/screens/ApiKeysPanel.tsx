/**
 * API keys on /profile/keys-secrets (issue 13, Grafana-style): a form (name, scope read-only or full,
 * expiry), the table (name, shown prefix, scope, created, expires, last used, state, revoke) and the new key
 * shown once with a copy button (§8 "Generated!", "New token is copied to clipboard."). Revoking asks first.
 * Test ids: api-keys, api-key-name, api-key-scope, api-key-expiry, api-key-create, api-key-created,
 * api-key-secret, api-key-copy, api-key-done, api-key-row-<name>, api-key-revoke-<name>, api-key-revoke-confirm.
 */
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PROFILE_IDS } from '../../../../../machines/profile/ids';
import type { ApiKeyScope } from '../../../../protocol/profile';
import { useApiKeysView, useProfileRef } from '../selectors';
import { useFormats } from './format';
import './profile.css';

const EXPIRY_CHOICES = ['never', '7', '30', '90', '365'] as const;
const STATE_COLOR = { active: 'green', expired: 'gray', revoked: 'red' } as const;

export function ApiKeysPanel() {
  const { t } = useTranslation();
  const ref = useProfileRef(PROFILE_IDS.apiKeys);
  const view = useApiKeysView();
  const f = useFormats();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [expiry, setExpiry] = useState<(typeof EXPIRY_CHOICES)[number]>('never');
  useEffect(() => {
    ref.send({ type: 'keys.load' });
  }, [ref]);
  const create = (e: FormEvent) => {
    e.preventDefault();
    ref.send({ type: 'key.create', name, scope, expiresInDays: expiry === 'never' ? null : Number(expiry) });
  };
  useEffect(() => {
    if (view.state === 'created') setName('');
  }, [view.state]);
  const copy = (secret: string) =>
    navigator.clipboard.writeText(secret).then(
      () => ref.send({ type: 'key.copied' }),
      () => undefined,
    );

  return (
    <Paper withBorder p="md" data-testid="api-keys">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.keys.apiTitle')}
        </Title>
        <Text size="sm">{t('profile.keys.apiIntro')}</Text>
        {view.error && (
          <Alert color="red" role="alert" data-testid="api-key-error">
            {view.error}
          </Alert>
        )}
        <form onSubmit={create} noValidate className="profile-form">
          <Group align="end" gap="sm">
            <TextInput
              label={t('profile.keys.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={view.invalid ? t('profile.keys.nameRequired') : undefined}
              data-testid="api-key-name"
              maxLength={64}
            />
            <NativeSelect
              label={t('profile.keys.scope')}
              value={scope}
              onChange={(e) => setScope(e.currentTarget.value as ApiKeyScope)}
              data={[
                { value: 'read', label: t('profile.keys.scopeRead') },
                { value: 'full', label: t('profile.keys.scopeFull') },
              ]}
              data-testid="api-key-scope"
            />
            <NativeSelect
              label={t('profile.keys.expiry')}
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value as (typeof EXPIRY_CHOICES)[number])}
              data={EXPIRY_CHOICES.map((c) => ({
                value: c,
                label: c === 'never' ? t('profile.keys.never') : t('profile.keys.days', { count: Number(c) }),
              }))}
              data-testid="api-key-expiry"
            />
            <Button type="submit" loading={view.state === 'creating'} data-testid="api-key-create">
              {t('profile.keys.create')}
            </Button>
          </Group>
        </form>
        {view.created && (
          <Alert color="green" title={t('profile.keys.createdTitle')} data-testid="api-key-created">
            <Stack gap="xs">
              <Text size="sm">{t('profile.keys.shownOnce')}</Text>
              <Group gap="xs" wrap="nowrap" align="start">
                <Code block data-testid="api-key-secret" style={{ wordBreak: 'break-all', flex: 1 }}>
                  {view.created.secret}
                </Code>
                <Button
                  size="xs"
                  variant="light"
                  data-testid="api-key-copy"
                  onClick={() => void copy(view.created!.secret)}
                >
                  {t('profile.keys.copy')}
                </Button>
              </Group>
              <Group>
                <Button
                  size="xs"
                  variant="default"
                  data-testid="api-key-done"
                  onClick={() => ref.send({ type: 'key.dismiss' })}
                >
                  {t('profile.keys.done')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {view.keys.length === 0 ? (
          <Text size="sm">{view.state === 'loading' ? t('profile.loading') : t('profile.keys.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-label={t('profile.keys.apiTitle')}>
              <Table.Thead>
                <Table.Tr>
                  {(
                    [
                      'colName',
                      'colKey',
                      'colScope',
                      'colCreated',
                      'colExpires',
                      'colLastUsed',
                      'colState',
                      'colActions',
                    ] as const
                  ).map((c) => (
                    <Table.Th key={c} scope="col">
                      {t(`profile.keys.${c}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {view.keys.map((k) => (
                  <Table.Tr key={k.id} data-testid={`api-key-row-${k.name}`} data-state={k.state}>
                    <Table.Td>{k.name}</Table.Td>
                    <Table.Td>
                      <Code>{k.prefix}…</Code>
                    </Table.Td>
                    <Table.Td>
                      {k.scope === 'read' ? t('profile.keys.scopeRead') : t('profile.keys.scopeFull')}
                    </Table.Td>
                    <Table.Td>{f.dateTime(k.created_at)}</Table.Td>
                    <Table.Td>{k.expires_at ? f.dateTime(k.expires_at) : t('profile.keys.never')}</Table.Td>
                    <Table.Td data-testid={`api-key-used-${k.name}`}>
                      {k.last_used_at ? f.dateTime(k.last_used_at) : t('profile.keys.neverUsed')}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATE_COLOR[k.state]} variant="light">
                        {t(`profile.keys.state${k.state[0]!.toUpperCase()}${k.state.slice(1)}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {k.state === 'active' && (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={t('profile.keys.revoke', { name: k.name })}
                          data-testid={`api-key-revoke-${k.name}`}
                          disabled={view.busy}
                          onClick={() => ref.send({ type: 'key.revoke', id: k.id })}
                        >
                          {t('profile.keys.revokeShort')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <Modal
        opened={view.confirming !== null}
        onClose={() => ref.send({ type: 'key.revoke.cancel' })}
        title={t('profile.keys.revokeTitle', { name: view.confirming?.name ?? '' })}
        centered
      >
        <Text size="sm">{t('profile.keys.revokeText')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => ref.send({ type: 'key.revoke.cancel' })}>
            {t('profile.keys.cancel')}
          </Button>
          <Button
            color="red"
            data-testid="api-key-revoke-confirm"
            onClick={() => ref.send({ type: 'key.revoke.confirm' })}
          >
            {t('profile.keys.revokeShort')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
