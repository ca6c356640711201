/**
 * The accounts feature's texts in English (§2 'en'), the complete set: register, mail confirmation, password
 * reset, two-factor sign-in and enrolment, the development mailbox. §8 texts keep the spec's wording.
 */
export const en = {
  register: {
    title: 'Create an account',
    subtitle: 'Register to manage your edge AI devices.',
    email: 'E-mail',
    username: 'Name',
    password: 'Password',
    passwordHint: 'At least {{min}} characters.',
    agree: 'I agree to the',
    terms: 'terms and conditions',
    submit: 'Register',
    haveAccount: 'Already registered? Sign in',
    captcha: 'Security check',
    captchaRequired: 'Please confirm you are not a robot.',
    errors: {
      emailRequired: 'E-mail is required',
      emailInvalid: 'Enter a valid e-mail address',
      usernameRequired: 'Name is required',
      passwordRequired: 'Password is required',
      passwordMin: 'Password must be at least {{min}} characters',
      termsRequired: 'You must agree to the terms and conditions',
    },
  },
  successRegister: {
    title: 'Check your mailbox',
    body: 'If {{email}} can be registered, a confirmation link is on its way to it. Open it to activate your account.',
    bodyNoEmail: 'A confirmation link is on its way. Open it to activate your account.',
    resend: 'Send the link again',
    resent: 'A new link is on its way.',
    signIn: 'Go to sign in',
  },
  confirm: {
    title: 'Confirm e-mail',
    confirming: 'Confirming your e-mail address…',
    done: 'Your e-mail address {{email}} is confirmed. You can sign in now.',
    retry: 'Try again',
    signIn: 'Sign in',
  },
  forgot: {
    title: 'Forgot your password?',
    subtitle: 'Enter your e-mail address and we will send you a link to choose a new password.',
    email: 'E-mail',
    submit: 'Send reset link',
    sent: 'If {{email}} has an account, a password reset link is on its way to it. It is valid for one hour.',
    again: 'Use another address',
    back: 'Back to sign in',
  },
  reset: {
    title: 'Choose a new password',
    password: 'New password',
    repeat: 'Repeat the new password',
    submit: 'Save password',
    mismatch: 'The passwords do not match',
  },
  success: {
    title: 'Password changed',
    body: 'Your password has been changed and every other session was signed out. Sign in with the new password.',
    signIn: 'Sign in',
  },
  verify: {
    title: 'Two-factor verification',
    subtitle: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
    code: 'Verification code',
    submit: 'Verify',
    resend: 'Send me a code by e-mail instead',
    mailed: 'A one-time code is on its way to your e-mail address. It is valid for 10 minutes.',
    cancel: 'Back to sign in',
    noChallenge: 'This sign-in is no longer open. Please sign in again.',
    codeRequired: 'Enter the code',
  },
  twoFactor: {
    title: 'Two-factor authentication',
    intro: 'Ask for a code from an authenticator app (TOTP) each time you sign in.',
    loading: 'Loading…',
    on: 'Two-factor sign-in is on. Recovery codes left: {{count}}.',
    off: 'Two-factor sign-in is off.',
    start: 'Turn on two-factor sign-in',
    scan: 'Scan this QR code with your authenticator app, or enter the key by hand, then type the code it shows.',
    qrAlt: 'QR code of the authenticator key for {{email}}',
    secret: 'Key',
    code: 'Code from the app',
    confirm: 'Turn on',
    cancel: 'Cancel',
    codesTitle: 'Your recovery codes',
    codesBody:
      'Keep these codes somewhere safe. Each one signs you in once when your app is out of reach. They are shown only now.',
    codesDone: 'I have saved them',
    password: 'Password',
    disable: 'Turn off two-factor sign-in',
    retry: 'Retry',
  },
  mailbox: {
    title: 'Mailbox (development)',
    intro:
      'Mail the server sent while it runs its embedded SMTP catcher (no SMTP_URL). Only admins see it; with SMTP_URL set it is off.',
    disabled: 'The embedded mail catcher is off: mail goes to SMTP_URL.',
    empty: 'No mail yet.',
    to: 'To',
    from: 'From',
    received: 'Received',
    links: 'Links',
    refresh: 'Refresh',
    clear: 'Empty the mailbox',
    link: 'Mailbox',
  },
  profile: {
    title: 'Account information',
    email: 'E-mail',
    username: 'Name',
  },
};

export type AccountsTexts = typeof en;
type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
/** A language's texts: every key of English, any wording. */
export type AccountsTranslation = Translation<AccountsTexts>;
