/**
 * The header's "Mailbox" link (issue 13 "Mail"): shown to admins only, and only while the server runs its
 * embedded SMTP catcher (GET dev/mailbox-status, asked once through a promise actor).
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import '../i18n';
import { useSession } from '../selectors';
import { accountsHttp } from '../httpRef';

export default function MailboxLink() {
  const { isAdmin } = useSession();
  return isAdmin ? <AdminMailboxLink /> : null;
}

function AdminMailboxLink() {
  const { t } = useTranslation();
  const [logic] = useState(() =>
    fromPromise(async () => (await import('../flowsApi')).accountFlowsApi(accountsHttp()).mailboxEnabled()),
  );
  const enabled = useSelector(useActorRef(logic), (s) => s.status === 'done' && s.output === true);
  if (!enabled) return null;
  return (
    <Link className="ui-link ui-small" to="/dev/mailbox" data-testid="mailbox-link-header">
      {t('accounts.mailbox.link')}
    </Link>
  );
}
