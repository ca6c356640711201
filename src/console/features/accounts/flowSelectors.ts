/**
 * What the issue-13 screens read of their flow machines: pure snapshot → view functions (unit-tested) and the
 * hooks over them. Views send events and read these; they never call REST.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { mailboxMachine } from '../../../../machines/accounts/mailbox.machine';
import type { mailLinkMachine } from '../../../../machines/accounts/mailLink.machine';
import type { mailRequestMachine } from '../../../../machines/accounts/mailRequest.machine';
import type { registerMachine } from '../../../../machines/accounts/register.machine';
import type { twoFactorMachine } from '../../../../machines/accounts/twoFactor.machine';
import type {
  PendingSetup,
  twoFactorSetupMachine,
} from '../../../../machines/accounts/twoFactorSetup.machine';
import type { CaughtMail } from '../../../protocol/mail';
import { useAuthRef } from './selectors';

export interface RegisterView {
  loading: boolean;
  submitting: boolean;
  sent: boolean;
  error: string | null;
  recaptchaSiteKey: string | null;
}
export function registerToView(s: SnapshotFrom<typeof registerMachine>): RegisterView {
  return {
    loading: s.matches('loading'),
    submitting: s.matches('submitting'),
    sent: s.matches('sent'),
    error: s.context.error,
    recaptchaSiteKey: s.context.recaptchaSiteKey ?? null,
  };
}

export interface MailRequestView {
  sending: boolean;
  sent: boolean;
  email: string;
  error: string | null;
}
export function mailRequestToView(s: SnapshotFrom<typeof mailRequestMachine>): MailRequestView {
  return {
    sending: s.matches('sending'),
    sent: s.matches('sent'),
    email: s.context.email,
    error: s.context.error,
  };
}

export type MailLinkPhase = 'confirming' | 'failed' | 'editing' | 'saving' | 'done' | 'expired';
export interface MailLinkView {
  phase: MailLinkPhase;
  error: string | null;
  email: string | null;
}
export function mailLinkToView(s: SnapshotFrom<typeof mailLinkMachine>): MailLinkView {
  const phases: MailLinkPhase[] = ['confirming', 'failed', 'editing', 'saving', 'done', 'expired'];
  const phase = phases.find((p) => s.matches(p)) ?? 'confirming';
  return { phase, error: s.context.error, email: s.context.email };
}

export interface VerifyCodeView {
  /** A challenge is open (login answered status 3); false: the page says to sign in again. */
  open: boolean;
  verifying: boolean;
  resending: boolean;
  codeMailed: boolean;
  error: string | null;
}
export function verifyCodeToView(s: SnapshotFrom<typeof twoFactorMachine> | undefined): VerifyCodeView {
  if (!s) return { open: false, verifying: false, resending: false, codeMailed: false, error: null };
  return {
    open: s.status === 'active',
    verifying: s.matches('verifying'),
    resending: s.matches('resending'),
    codeMailed: s.context.codeMailed,
    error: s.context.error,
  };
}

/** The auth actor's two-factor child (while auth is signedOut.twoFactor), or undefined. */
export function useTwoFactorRef(): ActorRefFrom<typeof twoFactorMachine> | undefined {
  return useSelector(
    useAuthRef(),
    (s) => s.children.twoFactor as ActorRefFrom<typeof twoFactorMachine> | undefined,
  );
}

/** The facts of the /verification-code screen, for an open challenge's actor. */
export function useVerifyCodeView(ref: ActorRefFrom<typeof twoFactorMachine>): VerifyCodeView {
  return useSelector(ref, verifyCodeToView, shallowEqual);
}

export type TwoFactorPhase =
  'loading' | 'failed' | 'off' | 'starting' | 'scanning' | 'enabling' | 'showingCodes' | 'on' | 'disabling';
export interface TwoFactorSetupView {
  phase: TwoFactorPhase;
  busy: boolean;
  enabled: boolean;
  recoveryCodesLeft: number;
  pending: PendingSetup | null;
  recoveryCodes: string[] | null;
  error: string | null;
}
export function twoFactorSetupToView(s: SnapshotFrom<typeof twoFactorSetupMachine>): TwoFactorSetupView {
  const phases: TwoFactorPhase[] = [
    'loading',
    'failed',
    'off',
    'starting',
    'scanning',
    'enabling',
    'showingCodes',
    'on',
    'disabling',
  ];
  return {
    phase: phases.find((p) => s.matches(p)) ?? 'loading',
    busy: s.hasTag('busy'),
    enabled: s.context.enabled,
    recoveryCodesLeft: s.context.recoveryCodesLeft,
    pending: s.context.pending,
    recoveryCodes: s.context.recoveryCodes,
    error: s.context.error,
  };
}

export interface MailboxView {
  loading: boolean;
  enabled: boolean;
  messages: CaughtMail[];
  error: string | null;
}
export function mailboxToView(s: SnapshotFrom<typeof mailboxMachine>): MailboxView {
  return {
    loading: s.hasTag('busy'),
    enabled: s.context.enabled,
    messages: s.context.messages,
    error: s.context.error,
  };
}
