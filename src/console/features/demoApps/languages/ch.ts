import type { DemoAppsTranslation } from './en';

export const ch: DemoAppsTranslation = en;
import { en } from './en';
