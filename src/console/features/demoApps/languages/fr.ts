import type { DemoAppsTranslation } from './en';

export const fr: DemoAppsTranslation = en;
import { en } from './en';
