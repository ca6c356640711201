/**
 * The header's renew banner (issue 13 "an expired licence … the console says so plainly"): shown while a
 * licence lapsed recently without renewal (the `myLicences` actor's `lapsed`), linking to /profile/my-licences,
 * where the full notice and the renew links are.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../i18n';
import { useMyLicences } from '../selectors';
import './billing.css';

/** Test id: licence-renew-banner. */
export default function RenewBanner() {
  const { t } = useTranslation();
  const { lapsed } = useMyLicences();
  if (lapsed.length === 0) return null;
  return (
    <Link
      to="/profile/my-licences"
      className="billing-banner"
      title={t('billing.banner.label')}
      data-testid="licence-renew-banner"
    >
      <span aria-hidden="true">⚠</span> {t('billing.banner.expired')} · {t('billing.banner.renew')}
    </Link>
  );
}
