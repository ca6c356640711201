/**
 * The account mails (issue 13 "Accounts"), in the six interface languages of §2; the request names the language
 * (default en). Plain text: each link stands on a line of its own.
 *   confirm       /confirm-mail/{token} after register or resend-verification (24 h)
 *   known         someone registered with an address that has an account (no enumeration: same answer)
 *   reset         /forgot-password/{token} (1 h)
 *   code          a one-time sign-in code for a pending two-factor challenge (10 min)
 */
import type { MailLanguage } from '../../protocol/accounts';
import type { OutgoingMail } from '../mail';

interface MailTexts {
  confirmSubject: string;
  confirmBody: string;
  knownSubject: string;
  knownBody: string;
  resetSubject: string;
  resetBody: string;
  codeSubject: string;
  codeBody: string;
  ignore: string;
}

const TEXTS: Record<MailLanguage, MailTexts> = {
  en: {
    confirmSubject: 'Confirm your e-mail address',
    confirmBody: 'Hello {name},\n\nOpen this link to confirm your e-mail address (valid for 24 hours):',
    knownSubject: 'You already have an account',
    knownBody:
      'Hello {name},\n\nSomeone tried to register with this address, which already has an account. If you forgot your password, reset it here:',
    resetSubject: 'Reset your password',
    resetBody: 'Hello {name},\n\nOpen this link to choose a new password (valid for 1 hour, once):',
    codeSubject: 'Your sign-in code',
    codeBody: 'Hello {name},\n\nYour one-time sign-in code is {code}. It is valid for 10 minutes.',
    ignore: 'If this was not you, ignore this mail.',
  },
  ch: {
    confirmSubject: '确认您的电子邮件地址',
    confirmBody: '{name}，您好：\n\n打开此链接以确认您的电子邮件地址（24 小时内有效）：',
    knownSubject: '您已有账户',
    knownBody: '{name}，您好：\n\n有人尝试使用此地址注册，但该地址已有账户。如果您忘记了密码，请在此重置：',
    resetSubject: '重置您的密码',
    resetBody: '{name}，您好：\n\n打开此链接以设置新密码（1 小时内有效，仅限一次）：',
    codeSubject: '您的登录验证码',
    codeBody: '{name}，您好：\n\n您的一次性登录验证码是 {code}，10 分钟内有效。',
    ignore: '如果这不是您本人的操作，请忽略此邮件。',
  },
  es: {
    confirmSubject: 'Confirme su dirección de correo',
    confirmBody: 'Hola {name}:\n\nAbra este enlace para confirmar su dirección de correo (válido 24 horas):',
    knownSubject: 'Ya tiene una cuenta',
    knownBody:
      'Hola {name}:\n\nAlguien intentó registrarse con esta dirección, que ya tiene una cuenta. Si olvidó su contraseña, restablézcala aquí:',
    resetSubject: 'Restablezca su contraseña',
    resetBody: 'Hola {name}:\n\nAbra este enlace para elegir una contraseña nueva (válido 1 hora, una vez):',
    codeSubject: 'Su código de inicio de sesión',
    codeBody: 'Hola {name}:\n\nSu código de inicio de sesión de un solo uso es {code}. Es válido 10 minutos.',
    ignore: 'Si no fue usted, ignore este correo.',
  },
  jp: {
    confirmSubject: 'メールアドレスの確認',
    confirmBody: '{name} 様\n\n次のリンクを開いてメールアドレスを確認してください（24 時間有効）：',
    knownSubject: 'アカウントは既に存在します',
    knownBody:
      '{name} 様\n\nこのアドレスで登録が試みられましたが、既にアカウントがあります。パスワードをお忘れの場合はこちらで再設定してください：',
    resetSubject: 'パスワードの再設定',
    resetBody: '{name} 様\n\n次のリンクを開いて新しいパスワードを設定してください（1 時間有効、1 回限り）：',
    codeSubject: 'サインインコード',
    codeBody: '{name} 様\n\nワンタイムのサインインコードは {code} です。10 分間有効です。',
    ignore: 'お心当たりがない場合は、このメールを無視してください。',
  },
  de: {
    confirmSubject: 'Bestätigen Sie Ihre E-Mail-Adresse',
    confirmBody:
      'Hallo {name},\n\nöffnen Sie diesen Link, um Ihre E-Mail-Adresse zu bestätigen (24 Stunden gültig):',
    knownSubject: 'Sie haben bereits ein Konto',
    knownBody:
      'Hallo {name},\n\njemand hat versucht, sich mit dieser Adresse zu registrieren, zu der bereits ein Konto gehört. Wenn Sie Ihr Passwort vergessen haben, setzen Sie es hier zurück:',
    resetSubject: 'Passwort zurücksetzen',
    resetBody:
      'Hallo {name},\n\nöffnen Sie diesen Link, um ein neues Passwort zu wählen (1 Stunde gültig, einmal):',
    codeSubject: 'Ihr Anmeldecode',
    codeBody: 'Hallo {name},\n\nIhr einmaliger Anmeldecode ist {code}. Er ist 10 Minuten gültig.',
    ignore: 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
  },
  fr: {
    confirmSubject: 'Confirmez votre adresse e-mail',
    confirmBody:
      'Bonjour {name},\n\nOuvrez ce lien pour confirmer votre adresse e-mail (valable 24 heures) :',
    knownSubject: 'Vous avez déjà un compte',
    knownBody:
      'Bonjour {name},\n\nQuelqu’un a tenté de s’inscrire avec cette adresse, qui a déjà un compte. Si vous avez oublié votre mot de passe, réinitialisez-le ici :',
    resetSubject: 'Réinitialisez votre mot de passe',
    resetBody:
      'Bonjour {name},\n\nOuvrez ce lien pour choisir un nouveau mot de passe (valable 1 heure, une seule fois) :',
    codeSubject: 'Votre code de connexion',
    codeBody:
      'Bonjour {name},\n\nVotre code de connexion à usage unique est {code}. Il est valable 10 minutes.',
    ignore: 'Si ce n’était pas vous, ignorez ce message.',
  },
};

const fill = (s: string, values: Record<string, string>) =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);

export type AccountMail =
  | { kind: 'confirm'; link: string }
  | { kind: 'known'; link: string }
  | { kind: 'reset'; link: string }
  | { kind: 'code'; code: string };

/** Builds one account mail to `to` (display name `name`) in `language`. */
export function accountMail(
  mail: AccountMail,
  to: string,
  name: string,
  language: MailLanguage = 'en',
): OutgoingMail {
  const t = TEXTS[language];
  const values = { name, code: mail.kind === 'code' ? mail.code : '' };
  const [subject, body] =
    mail.kind === 'confirm'
      ? [t.confirmSubject, t.confirmBody]
      : mail.kind === 'known'
        ? [t.knownSubject, t.knownBody]
        : mail.kind === 'reset'
          ? [t.resetSubject, t.resetBody]
          : [t.codeSubject, t.codeBody];
  const link = mail.kind === 'code' ? '' : `\n\n${mail.link}\n`;
  return { to, subject, text: `${fill(body, values)}${link}\n\n${t.ignore}\n` };
}
