/**
 * /dev/mailbox (issue 13 "Mail"; admins; development and demo): the mails the embedded SMTP catcher received,
 * newest first, with their links. With SMTP_URL set the catcher is off and the page says so. Mail text is
 * shown as text (never as HTML); links are plain anchors.
 */
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mailboxToView } from '../flowSelectors';
import { mailboxLogic } from '../flows';
import '../i18n';
import './accounts.css';
import { Alert } from './Field';

export default function MailboxScreen() {
  const { t, i18n } = useTranslation();
  const [logic] = useState(mailboxLogic);
  const ref = useActorRef(logic);
  const view = useSelector(ref, mailboxToView, shallowEqual);
  return (
    <div className="ui-stack ui-stack--md accounts-form" data-testid="mailbox">
      <h1 className="ui-title">{t('accounts.mailbox.title')}</h1>
      <p className="ui-dimmed ui-small">{t('accounts.mailbox.intro')}</p>
      <div style={{ display: 'flex', gap: 8 }}>
        <button
          type="button"
          className="ui-button"
          aria-busy={view.loading}
          onClick={() => ref.send({ type: 'mailbox.refresh' })}
          data-testid="mailbox-refresh"
        >
          {t('accounts.mailbox.refresh')}
        </button>
        <button
          type="button"
          className="ui-button ui-button--light"
          onClick={() => ref.send({ type: 'mailbox.clear' })}
          data-testid="mailbox-clear"
        >
          {t('accounts.mailbox.clear')}
        </button>
      </div>
      {view.error && <Alert>{view.error}</Alert>}
      {!view.loading && !view.enabled && !view.error && (
        <p className="ui-text">{t('accounts.mailbox.disabled')}</p>
      )}
      {view.enabled && view.messages.length === 0 && <p className="ui-text">{t('accounts.mailbox.empty')}</p>}
      <ul
        className="ui-stack"
        style={{ listStyle: 'none', padding: 0 }}
        aria-label={t('accounts.mailbox.title')}
      >
        {view.messages.map((m) => (
          <li key={m.id} className="ui-card ui-stack" data-testid="mailbox-message">
            <h2 className="ui-text">
              <strong>{m.subject}</strong>
            </h2>
            <p className="ui-small ui-dimmed">
              {t('accounts.mailbox.to')}: {m.to.join(', ')} · {t('accounts.mailbox.from')}: {m.from} ·{' '}
              {t('accounts.mailbox.received')}: {new Date(m.received_at).toLocaleString(i18n.language)}
            </p>
            <pre className="ui-small" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {m.text}
            </pre>
            {m.links.length > 0 && (
              <p className="ui-small">
                {t('accounts.mailbox.links')}:{' '}
                {m.links.map((href) => (
                  <a key={href} className="ui-link" href={href} data-testid="mailbox-link">
                    {href}
                  </a>
                ))}
              </p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
