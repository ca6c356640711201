/**
 * /contact (spec §2; public: signed in or out; issue 13 "a form that is stored and mailed"): name, e-mail,
 * subject and message, checked before sending (src/protocol/public.ts rules) and by the server, which stores
 * and mails it. Signed in, the e-mail starts as the account's. Sent: a confirmation with "send another".
 * Plain HTML: signed out it renders in the auth-free layout.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_LIMITS, type ContactBody } from '../../../../protocol/public';
import { useSession } from '../../accounts/selectors';
import '../i18n';
import { contactLogic } from '../logic';
import { contactToView } from '../selectors';
import { Field } from './form';

const EMPTY: ContactBody = { name: '', email: '', subject: '', message: '' };

/** Test ids: contact, contact-sent. */
export default function ContactScreen() {
  const { t } = useTranslation();
  const { email } = useSession();
  const [logic] = useState(contactLogic);
  const actor = useActorRef(logic);
  const [form, setForm] = useState<ContactBody>({ ...EMPTY, email: email ?? '' });
  const view = useSelector(
    actor,
    (s) => contactToView(s, form),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
  const refs = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    subject: useRef<HTMLInputElement>(null),
    message: useRef<HTMLTextAreaElement>(null),
  };
  const sentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (view.state === 'sent') sentRef.current?.focus();
  }, [view.state]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'contact.submit', form });
  };
  // After a refused send, focus the first field in error.
  useEffect(() => {
    const first = (['name', 'email', 'subject', 'message'] as const).find((k) => view.errors[k]);
    if (first) refs[first].current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the set of errors changes
  }, [Object.keys(view.errors).join()]);

  const set = (field: keyof ContactBody) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [field]: e.currentTarget.value });
  const err = (field: keyof ContactBody) => {
    const key = view.errors[field];
    return key ? t(key, { min: CONTACT_LIMITS.messageMin }) : null;
  };

  return (
    <section className="ui-card ui-stack ui-stack--md" style={{ maxWidth: 640 }} data-testid="contact">
      <h1 className="ui-title">{t('public.contact.title')}</h1>
      <p className="ui-text">{t('public.contact.intro')}</p>
      {view.state === 'sent' ? (
        <div className="ui-stack" data-testid="contact-sent">
          <div className="ui-alert ui-alert--info" role="status" tabIndex={-1} ref={sentRef}>
            <strong className="ui-alert__title">{t('public.contact.sentTitle')}</strong>
            {t('public.contact.sentText', { email: form.email })}
          </div>
          <button
            type="button"
            className="ui-button ui-button--light"
            onClick={() => {
              setForm({ ...EMPTY, email: email ?? '' });
              actor.send({ type: 'contact.again' });
            }}
          >
            {t('public.contact.again')}
          </button>
        </div>
      ) : (
        <form className="ui-stack" noValidate onSubmit={onSubmit}>
          {view.error && (
            <div className="ui-alert" role="alert">
              {view.error}
            </div>
          )}
          <Field label={t('public.contact.name')} required error={err('name')}>
            {(ids) => (
              <input
                {...ids}
                ref={refs.name}
                className="ui-input"
                autoComplete="name"
                maxLength={CONTACT_LIMITS.name}
                value={form.name}
                onChange={set('name')}
              />
            )}
          </Field>
          <Field label={t('public.contact.email')} required error={err('email')}>
            {(ids) => (
              <input
                {...ids}
                ref={refs.email}
                className="ui-input"
                type="email"
                autoComplete="email"
                maxLength={CONTACT_LIMITS.email}
                value={form.email}
                onChange={set('email')}
              />
            )}
          </Field>
          <Field label={t('public.contact.subject')} required error={err('subject')}>
            {(ids) => (
              <input
                {...ids}
                ref={refs.subject}
                className="ui-input"
                maxLength={CONTACT_LIMITS.subject}
                value={form.subject}
                onChange={set('subject')}
              />
            )}
          </Field>
          <Field
            label={t('public.contact.message')}
            required
            error={err('message')}
            hint={t('public.contact.count', { count: form.message.length, max: CONTACT_LIMITS.message })}
          >
            {(ids) => (
              <textarea
                {...ids}
                ref={refs.message}
                className="ui-input"
                rows={7}
                maxLength={CONTACT_LIMITS.message}
                value={form.message}
                onChange={set('message')}
                style={{ height: 'auto', paddingTop: 8 }}
              />
            )}
          </Field>
          <p className="ui-dimmed ui-small">{t('public.contact.privacy')}</p>
          <div>
            <button type="submit" className="ui-button" disabled={view.state === 'sending'}>
              {view.state === 'sending' ? t('public.contact.sending') : t('public.contact.send')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
