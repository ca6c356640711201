/** The signed-in shell, loaded lazily so /login does not ship the AppShell, menus and navigation. */
import { lazyScreen } from './lazyScreen';

export const MainLayoutLazy = lazyScreen(() => import('./MainLayout'));
