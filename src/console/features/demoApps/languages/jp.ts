import type { DemoAppsTranslation } from './en';

export const jp: DemoAppsTranslation = en;
import { en } from './en';
