/**
 * The five §2 policy pages (/policies/privacy-policy, cookie-policy, terms-conditions, user-guidelines,
 * legal-guidelines; /policies redirects to privacy-policy): readable signed in or out (the login and register
 * forms link the terms). The page is chosen by its route path; the texts are in the six interface languages.
 */
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { PolicyTexts } from '../policies/en';
import '../i18n';
import { policyOf, POLICY_SLUGS } from '../selectors';

type Policy = PolicyTexts['privacy-policy'];

/** Test ids: policy (data-policy = slug). */
export default function PolicyScreen() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const slug = policyOf(pathname);
  const policy = t(`policies.${slug}`, { returnObjects: true }) as Policy;
  return (
    <article
      className="ui-card ui-stack ui-stack--md"
      style={{ maxWidth: 760 }}
      data-testid="policy"
      data-policy={slug}
    >
      <h1 className="ui-title">{policy.title}</h1>
      <p className="ui-text">
        <strong>{policy.summary}</strong>
      </p>
      <p className="ui-dimmed ui-small">{t('policies.updated')}</p>
      {policy.sections.map((section) => (
        <section key={section.heading} className="ui-stack">
          <h2 className="ui-text" style={{ fontSize: '1.125rem', fontWeight: 700 }}>
            {section.heading}
          </h2>
          {section.paragraphs.map((p) => (
            <p key={p.slice(0, 40)} className="ui-text">
              {p}
            </p>
          ))}
        </section>
      ))}
      <nav aria-label={t('public.policies.nav')}>
        <ul
          className="ui-small"
          style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px', padding: 0, listStyle: 'none' }}
        >
          {POLICY_SLUGS.map((s) => (
            <li key={s}>
              <Link className="ui-link" to={`/policies/${s}`} aria-current={s === slug ? 'page' : undefined}>
                {(t(`policies.${s}`, { returnObjects: true }) as Policy).title}
              </Link>
            </li>
          ))}
          <li>
            <Link className="ui-link" to="/contact">
              {t('public.policies.contact')}
            </Link>
          </li>
          <li>
            <Link className="ui-link" to="/pricing">
              {t('public.policies.pricing')}
            </Link>
          </li>
        </ul>
      </nav>
    </article>
  );
}
