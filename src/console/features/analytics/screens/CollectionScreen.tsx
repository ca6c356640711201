/**
 * /analytics/dashboard-collection/{id} (§2 Analytics; issue 11): one collection's dashboards with how many
 * charts each has; create (an empty dashboard, opened at once), rename, delete. A new dashboard opens on
 * its own page. Test ids: dashboards-screen, dashboards-add, dashboards-row-<name>, dashboards-name,
 * dashboards-save.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { dashboardsLogic } from '../actors';
import { NamedListPage } from './NamedListPage';

export default function CollectionScreen() {
  const { id = '' } = useParams();
  return <CollectionView key={id} id={id} />;
}

function CollectionView({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [logic] = useState(dashboardsLogic);
  const actor = useActorRef(logic, { input: { parentId: id } });
  // A dashboard just created opens on its own page (it has no charts yet: the next step is to add them).
  const known = useRef(new Set<string>());
  const items = useSelector(actor, (s) => s.context.items);
  useEffect(() => {
    for (const i of items) known.current.add(i.id);
  }, [items]);
  const createdNew = useSelector(actor, (s) => s.matches('loading') && s.context.lastSaved);
  useEffect(() => {
    if (createdNew && !known.current.has(createdNew.id)) navigate(`/analytics/dashboard/${createdNew.id}`);
  }, [createdNew, navigate]);
  return (
    <NamedListPage
      actor={actor}
      texts="collection"
      testId="dashboards"
      hrefOf={(d) => `/analytics/dashboard/${d}`}
      above={
        <Link to="/analytics/dashboard-collections-manager" className="ui-link">
          {t('analytics.collection.back')}
        </Link>
      }
    />
  );
}
