/**
 * The console's Mantine theme and provider. Nothing on the signed-out path (/login, /404, /expired) uses
 * Mantine, so the provider is not at the root: each Mantine island — the signed-in layout, the generic
 * dialog, the toast container, the signed-in root-shell slots — wraps itself in <WithMantine>, and all of
 * them are lazy chunks. A Mantine component rendered outside such an island throws "MantineProvider was not
 * found", so new root-level Mantine UI must wrap itself too.
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_THEME,
  MantineProvider,
  createTheme,
  mergeThemeOverrides,
  type CSSVariablesResolver,
} from '@mantine/core';

/**
 * §9 UI breakpoints: sm 544, md 768, lg 992, xl 1200 (xxl 1800 has no Mantine slot). Primary shade 8 in the
 * light scheme: white text on indigo-6 is 4.3:1, under WCAG AA's 4.5:1 for normal text (indigo-8: 5.7:1).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 6 },
  breakpoints: { xs: '30em', sm: '34em', md: '48em', lg: '62em', xl: '75em' },
  focusRing: 'auto',
});

/** `hex` (#rrggbb) mixed with black: `share` of black, 0–1. */
function darken(hex: string, share: number): string {
  const n = parseInt(hex.slice(1), 16);
  const channel = (shift: number) =>
    Math.round(((n >> shift) & 255) * (1 - share))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/**
 * WCAG 2.1 AA contrast (4.5:1) in the light scheme, where Mantine's defaults fall short: dimmed text is
 * gray-7 (gray-6 is 3.3:1 on white; a toast's description too), links indigo-8, and the text of light variants (badges, light buttons)
 * the colour's shade 9 darkened by 35 % (green-9 on green-1 is 3.8:1; darkened, about 7:1), and so the text and
 * border of outline variants (an outline badge's green-8 on white is 3.4:1). Danger buttons (red
 * filled) use red-9: white on Mantine's red-8 is 4.51:1, a hair over the minimum, and fails while fading in.
 */
const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': darken(DEFAULT_THEME.colors.red[9], 0.15),
    ...Object.fromEntries(
      Object.entries(DEFAULT_THEME.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light-color`, darken(shades[9], 0.35)],
        [`--mantine-color-${name}-outline`, darken(shades[9], 0.35)],
      ]),
    ),
  },
  dark: {},
});

/**
 * Mantine's provider with the console theme (light scheme, as index.html's data-mantine-color-scheme). Every
 * Modal's, Drawer's and toast's close button is named for screen readers in the interface language.
 */
export function WithMantine({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const closeLabel = t('app.closeDialog');
  const closeToastLabel = t('app.closeNotification');
  const localized = useMemo(() => {
    const closeButtonProps = { 'aria-label': closeLabel };
    return mergeThemeOverrides(theme, {
      components: {
        Modal: { defaultProps: { closeButtonProps } },
        Drawer: { defaultProps: { closeButtonProps } },
        Notification: {
          defaultProps: { closeButtonProps: { 'aria-label': closeToastLabel } },
          // A toast's text under its title is gray-6 in Mantine's light scheme (3.3:1): dimmed is gray-7 there.
          styles: { description: { color: 'var(--mantine-color-dimmed)' } },
        },
      },
    });
  }, [closeLabel, closeToastLabel]);
  return (
    <MantineProvider theme={localized} defaultColorScheme="light" cssVariablesResolver={contrastVariables}>
      {children}
    </MantineProvider>
  );
}
