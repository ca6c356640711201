/**
 * The console application: the actor system and the router. Mantine is not provided here: the signed-out
 * path is plain HTML (Mantine loads with the signed-in layout, dialogs and toasts; shell/mantine.tsx).
 */
import { BrowserRouter } from 'react-router-dom';
import { FEATURES, type ConsoleSystem } from './system';
import { ConsoleRoutes } from './routes/router';
import { SystemProvider } from './shell/SystemProvider';

/** Every feature's device-page tabs (ConsoleFeature.deviceTabs), with the feature whose actors they need. */
const DEVICE_TABS = FEATURES.flatMap((f) =>
  (f.deviceTabs ?? []).map((tab) => ({ ...tab, feature: f.loadActors ? f.name : null })),
);

export function App({ system }: { system: ConsoleSystem }) {
  return (
    <SystemProvider system={system} deviceTabs={DEVICE_TABS}>
      <BrowserRouter>
        <ConsoleRoutes />
      </BrowserRouter>
    </SystemProvider>
  );
}
