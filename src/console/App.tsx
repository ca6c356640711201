/**
 * The console application: Mantine theme, the actor system and the router (toasts: shell/toast.tsx).
 */
import { BrowserRouter } from 'react-router-dom';
import { MantineProvider, createTheme } from '@mantine/core';
import type { ConsoleSystem } from './services/system';
import { ConsoleRoutes } from './routes/router';
import { SystemProvider } from './state/SystemProvider';

/** §9 UI breakpoints: sm 544, md 768, lg 992, xl 1200 (xxl 1800 has no Mantine slot). */
const theme = createTheme({
  primaryColor: 'indigo',
  breakpoints: { xs: '30em', sm: '34em', md: '48em', lg: '62em', xl: '75em' },
  focusRing: 'auto',
});

export function App({ system }: { system: ConsoleSystem }) {
  return (
    <MantineProvider theme={theme}>
      <SystemProvider system={system}>
        <BrowserRouter>
          <ConsoleRoutes />
        </BrowserRouter>
      </SystemProvider>
    </MantineProvider>
  );
}
