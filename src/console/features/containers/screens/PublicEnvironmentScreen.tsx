/**
 * The named route environment-detail (§2 "stays reachable without login"; /environment-detail/{alias}):
 * an environment's catalogue facts only — name, description, image, versions, Jupyter and GPU — read with
 * containers.publicEnvironment, nothing about users or devices. Plain HTML (shell/plain.css): signed out it
 * renders in the auth-free layout, which ships no Mantine. A missing or non-public alias shows a 404 text.
 */
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useSession } from '../../accounts/selectors';
import { useEnvironmentDetail, useEnvironmentsRef } from '../selectors';

/** Test ids: public-environment, public-environment-missing, public-environment-versions. */
export default function PublicEnvironmentScreen() {
  const { t } = useTranslation();
  const { envId = '' } = useParams();
  const environments = useEnvironmentsRef();
  const view = useEnvironmentDetail(envId);
  const { signedIn } = useSession();
  useEffect(() => {
    if (envId) environments.send({ type: 'environments.open', alias: envId, public: true });
  }, [environments, envId]);

  const env = view.environment;
  const missing = !envId || view.missing;
  return (
    <section className="ui-card ui-stack" style={{ maxWidth: 760 }} data-testid="public-environment">
      {missing ? (
        <>
          <h1 className="ui-title">404</h1>
          <p className="ui-text" data-testid="public-environment-missing">
            {t('containers.notFound', { alias: envId })}
          </p>
        </>
      ) : view.error ? (
        <div className="ui-alert ui-alert--warning" role="alert">
          {view.error}
        </div>
      ) : !env ? (
        <p className="ui-dimmed" role="status">
          {t('containers.loading')}
        </p>
      ) : (
        <>
          <h1 className="ui-title">{env.name}</h1>
          {env.description && <p className="ui-text">{env.description}</p>}
          <p className="ui-text">
            {t('containers.image')}: <code>{env.image}</code>
          </p>
          <p className="ui-small">
            {[env.jupyter && t('containers.jupyterBadge'), env.gpu && t('containers.gpuBadge')]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <table
            style={{ textAlign: 'left', borderSpacing: '1rem 0.25rem' }}
            data-testid="public-environment-versions"
          >
            <caption className="ui-small">{t('containers.versions')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('containers.tag')}</th>
                <th scope="col">{t('containers.platform')}</th>
                <th scope="col">{t('containers.size')}</th>
              </tr>
            </thead>
            <tbody>
              {env.tags.map((tag) => (
                <tr key={tag.tag}>
                  <td>
                    <code>{tag.tag}</code>
                  </td>
                  <td>{t(`containers.platforms.${tag.platform}`)}</td>
                  <td>{t('containers.sizeMb', { size: tag.size_mb })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {signedIn ? (
        env && (
          <Link className="ui-link" to={`/containers/${env.alias}`}>
            {t('containers.createTitle')}
          </Link>
        )
      ) : (
        <p className="ui-text">
          {t('containers.publicNote')}{' '}
          <Link className="ui-link" to="/login">
            {t('containers.signIn')}
          </Link>
        </p>
      )}
    </section>
  );
}
