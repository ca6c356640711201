/**
 * The console's Mantine theme and provider. Nothing on the signed-out path (/login, /404, /expired) uses
 * Mantine, so the provider is not at the root: each Mantine island — the signed-in layout, the generic
 * dialog, the toast container, the signed-in root-shell slots — wraps itself in <WithMantine>, and all of
 * them are lazy chunks. A Mantine component rendered outside such an island throws "MantineProvider was not
 * found", so new root-level Mantine UI must wrap itself too.
 */
import type { ReactNode } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';

/** §9 UI breakpoints: sm 544, md 768, lg 992, xl 1200 (xxl 1800 has no Mantine slot). */
export const theme = createTheme({
  primaryColor: 'indigo',
  breakpoints: { xs: '30em', sm: '34em', md: '48em', lg: '62em', xl: '75em' },
  focusRing: 'auto',
});

/** Mantine's provider with the console theme (light scheme, as index.html's data-mantine-color-scheme). */
export function WithMantine({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
