import type { DemoAppsTranslation } from './en';

export const es: DemoAppsTranslation = en;
import { en } from './en';
