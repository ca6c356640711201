import type { DemoAppsTranslation } from './en';

export const de: DemoAppsTranslation = en;
import { en } from './en';
