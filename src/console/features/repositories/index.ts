/**
 * The repositories feature (spec §2 /repositories and /repositories/{alias}; §4 image push; §9 project
 * suffix _prod): the registry project's repositories and each one's tags (size, digest, created, platforms,
 * copy pull command), and pushing a tag under a new tag — loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const repositories: ConsoleFeature = {
  name: 'repositories',
  routes: {
    repositories: lazyScreen(() => import('./screens/RepositoriesScreen')),
    repositoryTags: lazyScreen(() => import('./screens/RepositoryTagsScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.repositoriesActors),
  notices: [{ systemId: SYSTEM_IDS.imagePush }],
};
