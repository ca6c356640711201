/**
 * The console application: Mantine theme and toasts, the actor system, i18n and the router.
 */
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { ConsoleSystem } from './services/system';
import { createConsoleRouter } from './routes/router';
import { SystemProvider } from './state/SystemProvider';

/** §9 UI breakpoints: sm 544, md 768, lg 992, xl 1200 (xxl 1800 has no Mantine slot). */
const theme = createTheme({
  primaryColor: 'indigo',
  breakpoints: { xs: '30em', sm: '34em', md: '48em', lg: '62em', xl: '75em' },
  focusRing: 'auto',
});

export function App({ system }: { system: ConsoleSystem }) {
  const [router] = useState(createConsoleRouter);
  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <SystemProvider system={system}>
        <RouterProvider router={router} />
      </SystemProvider>
    </MantineProvider>
  );
}
