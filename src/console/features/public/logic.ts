/** The public screens' machines with their real calls: the contact form (POST contact). */
import { fromPromise } from 'xstate';
import { contactMachine } from '../../../../machines/public/contact.machine';
import type { ContactBody } from '../../../protocol/public';
import { publicHttp } from './http';

export const contactLogic = () =>
  contactMachine.provide({
    actors: {
      send: fromPromise(async ({ input, signal }: { input: ContactBody; signal: AbortSignal }) => {
        const answer = await publicHttp().call('public.contact', { body: input, signal });
        return { id: answer.id };
      }),
    },
  });
