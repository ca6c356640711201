/**
 * The use cases feature's actors (issue 11 use cases): the list machine (systemId 'useCases') with its calls
 * — GET use-cases, POST use-cases (start: the device running the job picks it up at its next sync, every
 * 5 s), DELETE use-cases/:id (stop: the use case and its records) — and the screens' calls bound (api.ts).
 */
import { fromPromise } from 'xstate';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { useCasesMachine } from '../../../../machines/useCases/useCases.machine';
import type { UseCase, UseCaseInput } from '../../../protocol/analytics';
import type { Platform } from '../feature';
import { bindUseCasesApi } from './api';

export function useCasesActors(p: Platform): FeatureActor[] {
  const { http } = p;
  bindUseCasesApi(p, null);
  return [
    featureActor({
      systemId: SYSTEM_IDS.useCases,
      logic: useCasesMachine.provide({
        actors: {
          loadUseCases: fromPromise<UseCase[]>(async ({ signal, system }) => {
            bindUseCasesApi(p, system);
            return (await http.call('useCases.list', { signal })).use_cases;
          }),
          startUseCase: fromPromise<UseCase, UseCaseInput>(({ input, signal }) =>
            http.call('useCases.create', { body: input, signal }),
          ),
          stopUseCase: fromPromise<unknown, { id: string }>(({ input, signal }) =>
            http.call('useCases.remove', { params: { id: input.id }, signal }),
          ),
        },
      }),
      onSignOut: [{ type: 'useCases.reset' }],
    }),
  ];
}
