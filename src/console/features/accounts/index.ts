/**
 * The accounts feature (spec §4 Auth, §5 login form; server routes `accounts` and `mail`): the login screen, the
 * auth actor's side effects, its notices (the §8 invalid-token toast, the confirm-mail dialog), and the issue-13
 * screens: /register, /success-register, /confirm-mail/{token}, /forgot-password, /forgot-password/{token},
 * /success, /verification-code, the two-factor panel on /profile/account-information, and the development
 * mailbox (/dev/mailbox, with its header link for admins while the server runs the SMTP catcher).
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { provideAccounts } from './actors';

export const accounts: ConsoleFeature = {
  name: 'accounts',
  routes: {
    login: lazyScreen(() => import('./screens/LoginScreen')),
    register: lazyScreen(() => import('./screens/RegisterScreen')),
    successRegister: lazyScreen(() => import('./screens/SuccessRegisterScreen')),
    confirmMail: lazyScreen(() => import('./screens/ConfirmMailScreen')),
    forgotPassword: lazyScreen(() => import('./screens/ForgotPasswordScreen')),
    resetPassword: lazyScreen(() => import('./screens/ResetPasswordScreen')),
    success: lazyScreen(() => import('./screens/SuccessScreen')),
    verificationCode: lazyScreen(() => import('./screens/VerificationCodeScreen')),
    accountInformation: lazyScreen(() => import('./screens/AccountInformationScreen')),
    mailbox: lazyScreen(() => import('./screens/MailboxScreen')),
  },
  headerSlots: [lazyScreen(() => import('./screens/MailboxLink'))],
  provide: provideAccounts,
  notices: [
    // The confirm-mail dialog belongs to auth's confirmMail state (§4 status 1): closing it closes that too.
    { systemId: SYSTEM_IDS.auth, onDialogClose: { type: 'auth.confirmMail.close' } },
  ],
};
