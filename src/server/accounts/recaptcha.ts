/**
 * reCAPTCHA on /register (issue 13; spec §9 "reCAPTCHA enabled"): OFF by default. It is on only when both
 * `RECAPTCHA_SITE_KEY` (given to the console by GET register-config) and `RECAPTCHA_SECRET` (checked against
 * Google's siteverify) are set. `RECAPTCHA_VERIFY_URL` overrides the verify address (tests).
 */

export interface RecaptchaSettings {
  siteKey: string;
  secret: string;
  verifyUrl: string;
}

/** The settings from the environment, or null when reCAPTCHA is off (the default). */
export function recaptchaFromEnv(env: NodeJS.ProcessEnv = process.env): RecaptchaSettings | null {
  const siteKey = env.RECAPTCHA_SITE_KEY?.trim();
  const secret = env.RECAPTCHA_SECRET?.trim();
  if (!siteKey || !secret) return null;
  return {
    siteKey,
    secret,
    verifyUrl: env.RECAPTCHA_VERIFY_URL?.trim() || 'https://www.google.com/recaptcha/api/siteverify',
  };
}

/** Asks siteverify about `answer`; false when missing, refused or unreachable (5 s). */
export async function verifyRecaptcha(
  settings: RecaptchaSettings,
  answer: string | undefined,
  remoteIp: string,
): Promise<boolean> {
  if (!answer) return false;
  try {
    const res = await fetch(settings.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: settings.secret, response: answer, remoteip: remoteIp }),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { success?: unknown };
    return body.success === true;
  } catch {
    return false;
  }
}
