/**
 * The issue-13 flow machines with their real actors (`.provide()`), for the screens that run them
 * (register, success-register, confirm-mail, forgot-password, reset, two-factor enrolment, mailbox). Loaded with
 * those screens. Mails are asked for in the interface language.
 */
import { fromPromise } from 'xstate';
import { mailboxMachine } from '../../../../machines/accounts/mailbox.machine';
import { mailLinkMachine } from '../../../../machines/accounts/mailLink.machine';
import { mailRequestMachine } from '../../../../machines/accounts/mailRequest.machine';
import { registerMachine } from '../../../../machines/accounts/register.machine';
import { twoFactorSetupMachine } from '../../../../machines/accounts/twoFactorSetup.machine';
import { resolveLanguage } from '../../i18n/language';
import i18n from '../../i18n';
import { accountFlowsApi } from './flowsApi';
import { accountsHttp } from './httpRef';

const api = () => accountFlowsApi(accountsHttp());
/** The interface language, as the mail language. */
export const mailLanguage = () => resolveLanguage(i18n.language);

export const registerLogic = () =>
  registerMachine.provide({
    actors: {
      loadConfig: fromPromise(() => api().registerConfig()),
      register: fromPromise(({ input }) => api().register(input, mailLanguage())),
    },
  });

/** resend-verification on /success-register. */
export const resendVerificationLogic = () =>
  mailRequestMachine.provide({
    actors: { request: fromPromise(({ input }) => api().resendVerification(input.email, mailLanguage())) },
  });

/** reset-password-request on /forgot-password. Failures read "Server not Accessible." (§8). */
export const resetRequestLogic = () =>
  mailRequestMachine.provide({
    actors: {
      request: fromPromise(async ({ input }) => {
        try {
          await api().requestPasswordReset(input.email, mailLanguage());
        } catch {
          throw new Error('Server not Accessible.');
        }
      }),
    },
  });

export const mailLinkLogic = () =>
  mailLinkMachine.provide({
    actors: {
      confirm: fromPromise(({ input }) => api().confirmMail(input.token)),
      reset: fromPromise(({ input }) => api().resetPassword(input.token, input.password)),
    },
  });

export const twoFactorSetupLogic = () =>
  twoFactorSetupMachine.provide({
    actors: {
      loadState: fromPromise(() => api().twoFactorState()),
      startSetup: fromPromise(() => api().startTwoFactorSetup()),
      enable: fromPromise(({ input }) => api().enableTwoFactor(input.code)),
      disable: fromPromise(({ input }) => api().disableTwoFactor(input.password)),
    },
  });

export const mailboxLogic = () =>
  mailboxMachine.provide({
    actors: {
      load: fromPromise(() => api().mailbox()),
      clear: fromPromise(() => api().clearMailbox()),
    },
  });
