/**
 * The applications feature's actors: the list machine (systemId 'applications': POST applications with
 * pages -1 and GET features, DELETE applications/:id) and the form machine's calls (GET models, GET
 * models/:id, POST applications/new or PUT applications/:id), provided to the form when a screen opens it.
 */
import { fromPromise } from 'xstate';
import { applicationFormMachine } from '../../../../machines/applications/applicationForm.machine';
import { applicationsMachine } from '../../../../machines/applications/applications.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Application, ApplicationBody } from '../../../protocol/applications';
import type { Model, ModelDetail } from '../../../protocol/models';
import type { Platform } from '../feature';

let formLogic: typeof applicationFormMachine | null = null;

/** The form machine with its real calls, once the feature's actors have started (after sign-in). */
export function applicationFormLogic(): typeof applicationFormMachine {
  if (!formLogic) throw new Error('applications: not started');
  return formLogic;
}

/** Most models the form offers (the models list's page limit). */
export const FORM_MODELS_MAX = 100;

export function applicationsActors({ http }: Platform): FeatureActor[] {
  formLogic = applicationFormMachine.provide({
    actors: {
      loadModels: fromPromise<Model[]>(async ({ signal }) => {
        const r = await http.call('models.list', {
          query: { per_page: FORM_MODELS_MAX, sort: 'name', order: 'asc' },
          signal,
        });
        return r.data.filter((m) => m.versions > 0);
      }),
      loadModel: fromPromise<ModelDetail, { modelId: string }>(({ input, signal }) =>
        http.call('models.get', { params: { id: input.modelId }, signal }),
      ),
      saveApplication: fromPromise<Application, { id: string | null; body: ApplicationBody }>(
        ({ input, signal }) =>
          input.id
            ? http.call('applications.update', { params: { id: input.id }, body: input.body, signal })
            : http.call('applications.create', { body: input.body, signal }),
      ),
    },
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.applications,
      logic: applicationsMachine.provide({
        actors: {
          loadApplications: fromPromise(async ({ signal }) => {
            const [list, features] = await Promise.all([
              http.call('applications.list', { body: { pages: -1 }, signal }),
              http.call('applications.features', { signal }),
            ]);
            return { ...list, features: features.features };
          }),
          deleteApplication: fromPromise<unknown, { id: string }>(({ input, signal }) =>
            http.call('applications.delete', { params: { id: input.id }, signal }),
          ),
        },
      }),
      onSignOut: [{ type: 'applications.reset' }],
    }),
  ];
}
