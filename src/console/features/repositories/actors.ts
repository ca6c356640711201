/**
 * The repositories feature's actors: the repositories machine (systemId 'repositories': GET repositories, GET
 * repositories/:alias/tags) and the image push machine (systemId 'imagePush': POST repositories/:alias/push).
 */
import { fromPromise } from 'xstate';
import {
  imagePushMachine,
  type PushRequest,
  type PushResult,
} from '../../../../machines/repositories/imagePush.machine';
import {
  repositoriesMachine,
  type RepositoriesLoaded,
} from '../../../../machines/repositories/repositories.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';

export function repositoriesActors({ http }: Platform): FeatureActor[] {
  const load = async (alias: string | null, signal: AbortSignal): Promise<RepositoriesLoaded> => {
    if (alias === null) {
      const r = await http.call('repositories.list', { signal });
      return { ...r, repository: null, tags: [] };
    }
    const r = await http.call('repositories.tags', { params: { alias }, signal });
    return { ...r, repositories: [] };
  };
  return [
    featureActor({
      systemId: SYSTEM_IDS.repositories,
      logic: repositoriesMachine.provide({
        actors: {
          loadRepositories: fromPromise<RepositoriesLoaded, { alias: string | null }>(({ input, signal }) =>
            load(input.alias, signal),
          ),
        },
      }),
      onSignOut: [{ type: 'repositories.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.imagePush,
      logic: imagePushMachine.provide({
        actors: {
          pushImage: fromPromise<PushResult, PushRequest>(({ input, signal }) =>
            http.call('repositories.push', {
              params: { alias: input.alias },
              body: {
                tag: input.tag,
                target_tag: input.targetTag,
                ...(input.targetRepository ? { target_repository: input.targetRepository } : {}),
              },
              signal,
            }),
          ),
        },
      }),
      onSignOut: [{ type: 'push.reset' }],
    }),
  ];
}
