/**
 * Console entry (index.html → /src/console/main.tsx): styles, i18n, the actor system, the React root.
 * The system is created once here, outside React, so StrictMode's double effects never start two.
 */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './shell/plain.css';
import './styles.css';
import './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import i18n from './i18n';
import { App } from './App';
import { authRefOf, snapshotToView as authView } from './features/accounts/selectors';
import { signalRefOf } from './features/signalling/selectors';
import { notificationsRefOf } from './shell/notifications';
import { createConsoleSystem } from './system';
import { installAssetReload } from './shell/chunkReload';

const system = createConsoleSystem({
  // Stately inspector: development builds only; shell/inspect.ts also requires localStorage inspect = '1'.
  inspect: import.meta.env.DEV,
  debugGlobal: localStorage.getItem('edge.debug') === '1',
});

// §2: a failed static-asset load also reloads the page (after 3 s), with a visible message; not when it failed
// only because the server was away and the asset is there again (issue 15, shell/chunkReload.ts).
installAssetReload(() =>
  notificationsRefOf(system).send({
    type: 'notice.show',
    title: i18n.t('app.title'),
    message: i18n.t('chunk.failed'),
    variant: 'warning',
    source: 'shell',
  }),
);

// Leaving the page: close signalling and every device link now, so the agents stop this tab's streams at
// once instead of after the keep-alive time-out; a page restored from the back/forward cache reconnects.
window.addEventListener('pagehide', () => signalRefOf(system).send({ type: 'signal.disconnect' }));
window.addEventListener('pageshow', (event) => {
  if (event.persisted && authView(authRefOf(system).getSnapshot()).signedIn) {
    signalRefOf(system).send({ type: 'signal.connect' });
  }
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App system={system} />
  </StrictMode>,
);
