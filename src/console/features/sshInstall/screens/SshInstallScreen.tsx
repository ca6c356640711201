/**
 * /control-panel/devices/ssh-install (issue 12; spec §3/§4 "SSH install"): the connection form (device name,
 * host, port, user, password or private key file), then the install's three step groups — each step with its
 * status, live output, elapsed time and, on failure, its error code, message and "Retry from this step" — the
 * host key fingerprint, the restart confirmation, Cancel and Disconnect. Reads the registry's current install
 * through selectors; sends events only.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  FileInput,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { SshInstallRef } from '../../../../../machines/sshInstall/sshInstall.machine';
import '../i18n';
import {
  installToView,
  useCurrentInstall,
  useSshInstallsRef,
  type GroupView,
  type InstallView,
  type StepView,
} from '../selectors';

const STATUS_COLOUR: Record<string, string> = {
  pending: 'gray',
  running: 'blue',
  ok: 'green',
  failed: 'red',
  skipped: 'gray',
  canceled: 'orange',
};

/** `Date.now()` re-read every 250 ms while `live` (a running step's elapsed time). */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [live]);
  return live ? now : Date.now();
}

function ConnectForm({ view, onSubmit }: { view: InstallView | null; onSubmit: (f: FormValues) => void }) {
  const { t } = useTranslation();
  const [v, setV] = useState<FormValues>(() => ({
    label: view?.target.device ?? '',
    hostname: view?.target.hostname ?? '',
    port: view?.target.port ?? 22,
    username: view?.target.username ?? '',
    method: 'password',
    password: '',
    pemFile: null,
    passphrase: '',
  }));
  const set = <K extends keyof FormValues>(k: K, value: FormValues[K]) => setV((o) => ({ ...o, [k]: value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(v);
  };
  const ready =
    v.label.trim() &&
    v.hostname.trim() &&
    v.username.trim() &&
    (v.method === 'password' ? v.password : v.pemFile);
  return (
    <form onSubmit={submit} aria-label={t('sshInstall.title')}>
      <Stack gap="sm" maw={520}>
        <TextInput
          label={t('sshInstall.form.label')}
          required
          value={v.label}
          disabled={!!view}
          onChange={(e) => set('label', e.currentTarget.value)}
          data-testid="ssh-label"
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('sshInstall.form.hostname')}
            required
            value={v.hostname}
            onChange={(e) => set('hostname', e.currentTarget.value)}
            data-testid="ssh-hostname"
          />
          <NumberInput
            label={t('sshInstall.form.port')}
            required
            min={1}
            max={65535}
            value={v.port}
            onChange={(n) => set('port', typeof n === 'number' ? n : Number(n) || 22)}
            data-testid="ssh-port"
          />
        </Group>
        <TextInput
          label={t('sshInstall.form.username')}
          required
          autoComplete="off"
          value={v.username}
          onChange={(e) => set('username', e.currentTarget.value)}
          data-testid="ssh-username"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="ssh-method-label">
            {t('sshInstall.form.method')}
          </Text>
          <SegmentedControl
            aria-labelledby="ssh-method-label"
            value={v.method}
            onChange={(m) => set('method', m as FormValues['method'])}
            data={[
              { value: 'password', label: t('sshInstall.form.password') },
              { value: 'key', label: t('sshInstall.form.key') },
            ]}
            data-testid="ssh-method"
          />
        </Stack>
        {v.method === 'password' ? (
          <PasswordInput
            label={t('sshInstall.form.password')}
            required
            autoComplete="new-password"
            value={v.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            data-testid="ssh-password"
          />
        ) : (
          <>
            <FileInput
              label={t('sshInstall.form.pemFile')}
              required
              value={v.pemFile}
              onChange={(f) => set('pemFile', f)}
              data-testid="ssh-pem"
            />
            <PasswordInput
              label={t('sshInstall.form.passphrase')}
              autoComplete="off"
              value={v.passphrase}
              onChange={(e) => set('passphrase', e.currentTarget.value)}
              data-testid="ssh-passphrase"
            />
          </>
        )}
        <Text size="sm" c="dimmed">
          {t('sshInstall.form.credentialsNote')}
        </Text>
        <Group>
          <Button type="submit" disabled={!ready} data-testid="ssh-connect">
            {t('sshInstall.form.connect')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface FormValues {
  label: string;
  hostname: string;
  port: number;
  username: string;
  method: 'password' | 'key';
  password: string;
  pemFile: File | null;
  passphrase: string;
}

function StepRow({ step, view, actor }: { step: StepView; view: InstallView; actor: SshInstallRef }) {
  const { t } = useTranslation();
  const name = t(`sshInstall.steps.${step.endpoint}`);
  const showOutput = step.status === 'running' || step.status === 'failed';
  return (
    <li className="ssh-step" data-testid={`ssh-step-${step.endpoint}`} data-status={step.status}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Badge
            color={STATUS_COLOUR[step.status]}
            variant="light"
            data-testid={`ssh-step-status-${step.endpoint}`}
          >
            {t(`sshInstall.stepStatus.${step.status}`)}
          </Badge>
          <Text fw={500}>{name}</Text>
        </Group>
        {step.elapsedMs !== null ? (
          <Text size="sm" c="dimmed" data-testid={`ssh-step-elapsed-${step.endpoint}`}>
            {t('sshInstall.elapsed', { seconds: (step.elapsedMs / 1000).toFixed(1) })}
          </Text>
        ) : null}
      </Group>
      {step.error ? (
        <Alert
          color="red"
          mt={4}
          title={t('sshInstall.errorCode', { code: step.error.code })}
          data-testid={`ssh-step-error-${step.endpoint}`}
        >
          <Text size="sm">{step.error.message}</Text>
          {view.canRetry && view.failure?.endpoint === step.endpoint ? (
            <Button
              mt="xs"
              size="xs"
              onClick={() => actor.send({ type: 'ssh.retry' })}
              data-testid="ssh-retry"
            >
              {t('sshInstall.retry')}
            </Button>
          ) : null}
        </Alert>
      ) : step.message && step.status !== 'running' ? (
        <Text size="sm" c="dimmed">
          {step.message}
        </Text>
      ) : null}
      {step.output.length > 0 ? (
        <details open={showOutput}>
          <summary>{t('sshInstall.showOutput')}</summary>
          <Code
            block
            className="ssh-output"
            data-testid={`ssh-output-${step.endpoint}`}
            tabIndex={0}
            aria-label={`${t('sshInstall.showOutput')}: ${name}`}
          >
            {step.output.join('\n')}
          </Code>
        </details>
      ) : null}
    </li>
  );
}

function GroupCard({ group, view, actor }: { group: GroupView; view: InstallView; actor: SshInstallRef }) {
  const { t } = useTranslation();
  const title = t(`sshInstall.groups.${group.id}`);
  return (
    <Card
      withBorder
      component="section"
      aria-label={title}
      data-testid={`ssh-group-${group.id}`}
      data-status={group.status}
    >
      <Group justify="space-between">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Badge color={STATUS_COLOUR[group.status]} variant="light">
          {group.status === 'ok'
            ? t('sshInstall.groupOk')
            : group.status === 'failed'
              ? t('sshInstall.groupFailed')
              : t(`sshInstall.stepStatus.${group.status}`)}
        </Badge>
      </Group>
      <ul className="ssh-steps" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {group.children.map((s) => (
          <StepRow key={s.endpoint} step={s} view={view} actor={actor} />
        ))}
      </ul>
    </Card>
  );
}

function InstallPanel({ actor }: { actor: SshInstallRef }) {
  const { t } = useTranslation();
  const registry = useSshInstallsRef();
  const running = useSelector(actor, (s) => s.hasTag('stepRunning'));
  const now = useNow(running);
  const view = useSelector(
    actor,
    (s) => installToView(s, now),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
  const device = view.target.device;
  const key = actor.getSnapshot().context.key;

  if (view.phase === 'form' || view.phase === 'connecting') {
    return (
      <Stack>
        {view.connectError ? (
          <Alert
            color="red"
            title={
              view.connectError.status && view.connectError.status >= 500
                ? t('sshInstall.texts.serverTrouble')
                : t('sshInstall.texts.connectFailed')
            }
            data-testid="ssh-connect-error"
          >
            <Text size="sm">
              <Code>{view.connectError.code}</Code> {view.connectError.message}
            </Text>
            {view.canForgetHostKey ? (
              <Button
                mt="xs"
                size="xs"
                color="red"
                variant="light"
                onClick={() => actor.send({ type: 'ssh.forgetHostKey' })}
                data-testid="ssh-forget-host-key"
              >
                {t('sshInstall.forgetHostKey')}
              </Button>
            ) : null}
          </Alert>
        ) : null}
        {view.phase === 'connecting' ? (
          <Text role="status">{t('sshInstall.status.connecting')}</Text>
        ) : (
          <ConnectForm
            view={view}
            onSubmit={(f) =>
              actor.send({
                type: 'ssh.connect',
                target: targetOf(f),
                credentials: credentialsOf(f),
              })
            }
          />
        )}
      </Stack>
    );
  }

  const finished = view.phase === 'done' || view.phase === 'canceled' || view.phase === 'closed';
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text fw={600} data-testid="ssh-device">
            {device} — {view.target.username}@{view.target.hostname}:{view.target.port}
          </Text>
          {view.fingerprint ? (
            <Text size="sm" data-testid="ssh-fingerprint">
              {t('sshInstall.hostKey', { fingerprint: view.fingerprint, type: view.keyType ?? '' })} —{' '}
              {view.pinnedNow ? t('sshInstall.hostKeyPinned') : t('sshInstall.hostKeyMatches')}
            </Text>
          ) : null}
        </Stack>
        <Badge size="lg" data-testid="ssh-status">
          {t(`sshInstall.status.${view.sshStatus ?? 'finished'}`)}
        </Badge>
      </Group>
      <Group>
        {view.canInstall ? (
          <Button onClick={() => actor.send({ type: 'ssh.install' })} data-testid="ssh-install">
            {t('sshInstall.install')}
          </Button>
        ) : null}
        {view.canCancel ? (
          <Button
            color="red"
            variant="light"
            onClick={() => actor.send({ type: 'ssh.cancel' })}
            data-testid="ssh-cancel"
          >
            {t('sshInstall.cancel')}
          </Button>
        ) : null}
        {view.canDisconnect || view.phase === 'failed' ? (
          <Button
            variant="default"
            onClick={() => actor.send({ type: 'ssh.disconnect' })}
            data-testid="ssh-disconnect"
          >
            {t('sshInstall.disconnect')}
          </Button>
        ) : null}
        {finished ? (
          <>
            {view.phase === 'done' ? (
              <Button
                component={Link}
                to={`/control-panel/devices?device=${encodeURIComponent(view.target.deviceId)}`}
                data-testid="ssh-open-device"
              >
                {t('sshInstall.openDevice')}
              </Button>
            ) : null}
            <Button
              variant="default"
              onClick={() => registry.send({ type: 'sshInstalls.dismiss', key })}
              data-testid="ssh-another"
            >
              {t('sshInstall.another')}
            </Button>
          </>
        ) : null}
      </Group>
      {view.phase === 'done' ? (
        <Alert color="green" data-testid="ssh-done">
          {t('sshInstall.done', { device })}
        </Alert>
      ) : null}
      {view.phase === 'canceled' ? (
        <Alert color="orange" data-testid="ssh-canceled">
          {t('sshInstall.canceledNote')}
        </Alert>
      ) : null}
      {view.phase !== 'connected' ? (
        <Stack gap="sm" aria-live="polite" aria-relevant="additions text">
          {view.groups.map((g) => (
            <GroupCard key={g.id} group={g} view={view} actor={actor} />
          ))}
        </Stack>
      ) : null}
      <Modal
        opened={view.phase === 'confirmRestart'}
        onClose={() => actor.send({ type: 'ssh.restart.decline' })}
        title={t('sshInstall.restart.title', { device })}
        data-testid="ssh-restart-dialog"
      >
        <Text size="sm">{t('sshInstall.restart.message')}</Text>
        <Group justify="flex-end" mt="md">
          <Button
            variant="default"
            onClick={() => actor.send({ type: 'ssh.restart.decline' })}
            data-testid="ssh-restart-decline"
          >
            {t('sshInstall.restart.decline')}
          </Button>
          <Button
            color="red"
            onClick={() => actor.send({ type: 'ssh.restart.confirm' })}
            data-testid="ssh-restart-confirm"
            data-autofocus
          >
            {t('sshInstall.restart.confirm')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

/** The form's host and account, trimmed. */
function targetOf(f: FormValues) {
  return { device: f.label.trim(), hostname: f.hostname.trim(), port: f.port, username: f.username.trim() };
}

function credentialsOf(f: FormValues) {
  return f.method === 'password'
    ? { kind: 'password' as const, password: f.password }
    : { kind: 'key' as const, pemFile: f.pemFile as Blob, passphrase: f.passphrase || undefined };
}

export default function SshInstallScreen() {
  const { t } = useTranslation();
  const registry = useSshInstallsRef();
  const current = useCurrentInstall();
  return (
    <Stack p="md" gap="md">
      <Title order={1}>{t('sshInstall.title')}</Title>
      <Text c="dimmed">{t('sshInstall.intro')}</Text>
      {current ? (
        <InstallPanel key={current.id} actor={current} />
      ) : (
        <ConnectForm
          view={null}
          onSubmit={(f) =>
            registry.send({
              type: 'sshInstalls.start',
              target: { deviceId: '', ...targetOf(f) },
              credentials: credentialsOf(f),
            })
          }
        />
      )}
    </Stack>
  );
}
