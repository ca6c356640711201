/**
 * The five §2 policy pages in English: what this console really stores and does (README "Decisions"), written
 * for the people who use it. Each page: a title, a one-line summary and sections of paragraphs.
 */
export const en: PolicyTranslation = {
  updated: 'Last updated: 27 November 2026',
  nav: 'Policies',
  'privacy-policy': {
    title: 'Privacy policy',
    summary: 'What this console stores about you, why, for how long, and what you can ask for.',
    sections: [
      {
        heading: 'Who is responsible',
        paragraphs: [
          'This console is run by the organisation that operates this server (“we”). Questions about your data go through the contact page; we answer within 30 days.',
        ],
      },
      {
        heading: 'What we store',
        paragraphs: [
          'Your account: e-mail address, user name, optional bio and picture, a salted argon2id hash of your password (never the password itself), your roles, and, if you turn on two-factor sign-in, what it needs (the authenticator secret and your recovery codes, stored protected).',
          'Your devices and their settings: names, device identifiers, groups, map positions, stream limits, camera layouts, IP camera addresses (their passwords are encrypted and only given to the device that reaches the camera), models and applications you upload or create.',
          'Licences and payments: your licences, orders (plan, amount, time) and, if you choose to save them, billing addresses and cards. For a card we keep only its brand, last four digits and expiry date; the card number and security code are never stored. With Stripe, the card is typed on Stripe’s own page and never reaches this server.',
          'Messages you send through the contact form: name, e-mail address, subject and text.',
        ],
      },
      {
        heading: 'What we do not store',
        paragraphs: [
          'Live video travels peer-to-peer from your device to your browser. It passes through our servers only when a relay (TURN) is needed, encrypted end to end, and is not recorded by us. Recordings you make stay in your browser or on your own device.',
        ],
      },
      {
        heading: 'Why',
        paragraphs: [
          'To provide the service you signed up for (contract), to keep it secure (legitimate interest: sign-in rate limits, audit of administrator actions), to bill what you buy and keep invoices (legal obligation), and to answer your messages.',
        ],
      },
      {
        heading: 'How long',
        paragraphs: [
          'Account data is kept until your account is deleted. Orders are kept as long as tax law requires (usually 10 years). Contact messages are kept while we need them to answer you; ask us and we delete yours. Sign-in sessions expire after 30 days without use.',
        ],
      },
      {
        heading: 'Who else sees it',
        paragraphs: [
          'Nobody, except the processors needed to run the service: the payment provider when you pay (Stripe, when configured), the mail provider that delivers our mails, and Google reCAPTCHA on the registration form when it is enabled. We do not sell data or use it for advertising.',
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You can see and correct your data in your profile, and ask us through the contact page for a copy of it, for its correction or deletion, or object to its use. You may also complain to your data protection authority.',
        ],
      },
    ],
  },
  'cookie-policy': {
    title: 'Cookie policy',
    summary: 'This console uses no advertising or tracking cookies.',
    sections: [
      {
        heading: 'What the console keeps in your browser',
        paragraphs: [
          'Your sign-in tokens and your interface language are kept in your browser’s local storage, so that you stay signed in and see the console in your language. They are removed when you sign out (the language stays).',
          'Files you are uploading are kept in the browser’s IndexedDB until the upload ends, so an upload can resume after a reload.',
        ],
      },
      {
        heading: 'Cookies we set',
        paragraphs: [
          'One cookie, only when you open a web application running on one of your devices (for example JupyterLab): it proves that the page is yours, is limited to that application’s address, cannot be read by scripts (HttpOnly, SameSite=Strict) and expires after 8 hours.',
        ],
      },
      {
        heading: 'Cookies of others',
        paragraphs: [
          'Stripe’s payment page (when payments go through Stripe) and Google reCAPTCHA (when enabled on the registration form) set their own cookies on their own domains, under their own policies.',
        ],
      },
      {
        heading: 'Your choice',
        paragraphs: [
          'Because we use only what the service needs to work, there is nothing to consent to. You can clear local storage and cookies in your browser at any time; you will then be signed out.',
        ],
      },
    ],
  },
  'terms-conditions': {
    title: 'Terms and conditions',
    summary: 'The agreement between you and us when you use this console.',
    sections: [
      {
        heading: 'The service',
        paragraphs: [
          'The console lets you manage your edge AI devices: see them, connect to them, watch their cameras, run containers and models, and install the device software. It works only with devices you own or are allowed to operate.',
        ],
      },
      {
        heading: 'Your account',
        paragraphs: [
          'Keep your password and device tokens secret; you are responsible for what is done with them. Tell us at once if you think your account is being misused. You must be at least 16 years old to have an account.',
        ],
      },
      {
        heading: 'Plans, licences and payment',
        paragraphs: [
          'The free tier is included for every device. Paid licences are for one device or for your account, for the period shown at purchase, and start at payment (or when your running licence of the same plan ends). Prices are shown at checkout before you pay. Licences do not renew automatically.',
          'When a licence ends, the device returns to the free tier: nothing is deleted, but what the licence added stops. Ask for a refund through the contact page; consumers in the EU may withdraw from a purchase within 14 days.',
        ],
      },
      {
        heading: 'Acceptable use',
        paragraphs: [
          'You must follow the user guidelines and the law, especially on video surveillance and personal data. We may suspend an account that endangers others or the service, and will tell you why.',
        ],
      },
      {
        heading: 'Availability and liability',
        paragraphs: [
          'We run the service with care but cannot promise it is never interrupted. We are liable for damage we cause intentionally or by gross negligence; otherwise our liability is limited to the amount you paid us in the last 12 months.',
        ],
      },
      {
        heading: 'Changes and ending',
        paragraphs: [
          'We tell you about changes to these terms 30 days before they apply; you may close your account before then. You can ask us to close your account at any time through the contact page.',
        ],
      },
    ],
  },
  'user-guidelines': {
    title: 'User guidelines',
    summary: 'How to use the console safely and fairly.',
    sections: [
      {
        heading: 'Cameras and people',
        paragraphs: [
          'Only connect cameras you are allowed to use. Tell people where cameras are, do not film private places, and follow the video surveillance and data protection rules of your country. Face and plate recognition often needs a legal basis and a notice: check before you turn it on.',
        ],
      },
      {
        heading: 'Devices and access',
        paragraphs: [
          'Install the device software only on machines you administer. Share access by creating accounts for people, not by sharing your password. Replace a device token at once if it may have leaked; the old one stops working.',
        ],
      },
      {
        heading: 'Models and containers',
        paragraphs: [
          'Upload only models and images you have the right to use, and respect their licences. Do not run software that attacks other systems, mines cryptocurrency on shared resources, or hides what it does.',
        ],
      },
      {
        heading: 'Fair use',
        paragraphs: [
          'Stream quotas and rate limits keep the service fast for everyone: do not work around them. Automated access goes through API keys with the scopes you need.',
        ],
      },
      {
        heading: 'Reporting problems',
        paragraphs: [
          'Report security issues and misuse through the contact page. We read every report and do not take action against good-faith security research.',
        ],
      },
    ],
  },
  'legal-guidelines': {
    title: 'Legal guidelines',
    summary: 'The legal framework of the service and how to reach us.',
    sections: [
      {
        heading: 'Operator',
        paragraphs: [
          'The operator of this server publishes its name, address and registration details on request through the contact page; a self-hosted installation is operated by the organisation that installed it.',
        ],
      },
      {
        heading: 'Applicable law',
        paragraphs: [
          'These pages are governed by the law of the operator’s country; consumers keep the protection of the law of their own country. The EU General Data Protection Regulation applies to personal data we process.',
        ],
      },
      {
        heading: 'Notices and requests',
        paragraphs: [
          'Notices of illegal content, intellectual property claims and requests from authorities are sent through the contact page with “Legal” in the subject. We confirm receipt and act without undue delay.',
        ],
      },
      {
        heading: 'Disputes',
        paragraphs: [
          'Please contact us first; most problems are solved quickly. Consumers in the EU may also use their national consumer dispute resolution bodies.',
        ],
      },
      {
        heading: 'Open source',
        paragraphs: [
          'The console is built with open-source software; each component keeps its own licence, listed with the source code.',
        ],
      },
    ],
  },
};

/** One policy page. */
export interface PolicyPage {
  title: string;
  summary: string;
  sections: { heading: string; paragraphs: string[] }[];
}
/** A language's policy texts: the five pages (same sections in every language). */
export interface PolicyTranslation {
  updated: string;
  nav: string;
  'privacy-policy': PolicyPage;
  'cookie-policy': PolicyPage;
  'terms-conditions': PolicyPage;
  'user-guidelines': PolicyPage;
  'legal-guidelines': PolicyPage;
}
export type PolicyTexts = PolicyTranslation;
