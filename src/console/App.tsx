/**
 * The console application: the actor system and the router. Mantine is not provided here: the signed-out
 * path is plain HTML (Mantine loads with the signed-in layout, dialogs and toasts; shell/mantine.tsx).
 */
import { BrowserRouter } from 'react-router-dom';
import type { ConsoleSystem } from './system';
import { ConsoleRoutes } from './routes/router';
import { SystemProvider } from './shell/SystemProvider';

export function App({ system }: { system: ConsoleSystem }) {
  return (
    <SystemProvider system={system}>
      <BrowserRouter>
        <ConsoleRoutes />
      </BrowserRouter>
    </SystemProvider>
  );
}
