/**
 * /login (§2 auth-free layout, signed-out only). §5 form texts: email and password required, password
 * minimum length, terms agreement required; server errors from the auth machine (§8: 'The login detail is
 * incorrect', 'Login failed. Please try again.', 'Servers are unavailable.'). Status 1 (confirm mail) is a
 * dialog emitted by the auth machine and shown by the root shell's dialog slot. After sign-in the route
 * guard sends the user where they were going (?next=…).
 *
 * Demo mode: GET /api/demo-account → { enabled, email, password } — a public, non-flow read and the only
 * REST call made by a view.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '../../../protocol/constants';
import { useAuthRef, useLoginFacts } from '../../state/hooks';
import { parseDemoAccount, validateLogin, type DemoAccount, type LoginFormErrors } from './validation';

/** Reads the demo account once; null when demo mode is off or the server does not answer. */
function useDemoAccount(): DemoAccount | null {
  const [demo, setDemo] = useState<DemoAccount | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetch(`${API_BASE}demo-account`, { signal: abort.signal, headers: { Accept: 'application/json' } })
      .then(async (res) => (res.ok ? parseDemoAccount(await res.json()) : null))
      .then((account) => setDemo(account?.enabled ? account : null))
      .catch(() => setDemo(null)); // no demo line when unreachable; the form still works
    return () => abort.abort();
  }, []);
  return demo;
}

export default function LoginScreen() {
  const { t } = useTranslation();
  const auth = useAuthRef();
  const { submitting, error } = useLoginFacts();
  const demo = useDemoAccount();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const agreedRef = useRef<HTMLInputElement>(null);

  // Errors show once the user has tried to submit, then follow the fields live.
  const errors: LoginFormErrors = attempted ? validateLogin({ email, password, agreed }) : {};

  const edited = () => {
    if (error) auth.send({ type: 'auth.dismissError' });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    const found = validateLogin({ email, password, agreed });
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    if (found.agreed) return agreedRef.current?.focus();
    auth.send({ type: 'auth.login', email: email.trim(), password });
  };

  const fillDemo = () => {
    if (!demo) return;
    setEmail(demo.email);
    setPassword(demo.password);
    edited();
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} mx="auto">
      <form onSubmit={onSubmit} noValidate aria-labelledby="login-title" data-testid="login-form">
        <Stack gap="md">
          <div>
            <Title order={1} id="login-title">
              {t('login.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('login.subtitle')}
            </Text>
          </div>

          {demo && (
            <Alert
              color="blue"
              variant="light"
              title={t('login.demoTitle')}
              role="note"
              data-testid="demo-account"
            >
              <Text size="sm">
                <strong>{demo.email}</strong> / <strong>{demo.password}</strong>
              </Text>
              <Button mt="xs" size="xs" variant="light" onClick={fillDemo} data-testid="use-demo">
                {t('login.demoUse')}
              </Button>
            </Alert>
          )}

          <TextInput
            ref={emailRef}
            label={t('login.email')}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              edited();
            }}
            error={errors.email ? t(errors.email) : undefined}
            required
            data-testid="login-email"
          />
          <PasswordInput
            ref={passwordRef}
            label={t('login.password')}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              edited();
            }}
            error={errors.password ? t(errors.password) : undefined}
            required
            data-testid="login-password"
          />
          <Checkbox
            ref={agreedRef}
            name="terms"
            checked={agreed}
            onChange={(e) => setAgreed(e.currentTarget.checked)}
            error={errors.agreed ? t(errors.agreed) : undefined}
            data-testid="login-terms"
            label={
              <>
                {t('login.agree')}{' '}
                <Anchor
                  component={Link}
                  to="/policies/terms-conditions"
                  target="_blank"
                  rel="noopener"
                  inherit
                >
                  {t('login.terms')}
                </Anchor>
              </>
            }
          />

          {error && (
            <Alert color="red" role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}

          <Button type="submit" loading={submitting} fullWidth data-testid="login-submit">
            {t('login.submit')}
          </Button>

          <Group justify="space-between">
            <Anchor component={Link} to="/register" size="sm">
              {t('login.register')}
            </Anchor>
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('login.forgot')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
