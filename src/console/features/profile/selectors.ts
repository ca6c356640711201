/**
 * Hooks of the profile feature: each subscribes to one actor's snapshot through a pure view (views.ts).
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { apiKeysMachine } from '../../../../machines/profile/apiKeys.machine';
import { PROFILE_IDS } from '../../../../machines/profile/ids';
import type { profileFormMachine } from '../../../../machines/profile/profileForm.machine';
import type { reportMachine } from '../../../../machines/profile/profileReport.machine';
import { actorOf, useSystem } from '../../shell/SystemProvider';
import { apiKeysToView, headerToView, profileToView, reportToView, type ReportView } from './views';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useProfileRef(id: (typeof PROFILE_IDS)[keyof typeof PROFILE_IDS]): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), id);
}

export function useProfileView() {
  return useSelector(
    useProfileRef(PROFILE_IDS.form),
    (s: SnapshotFrom<typeof profileFormMachine>) => profileToView(s),
    sameJson,
  );
}

export function useHeaderView() {
  return useSelector(
    useProfileRef(PROFILE_IDS.form),
    (s: SnapshotFrom<typeof profileFormMachine>) => headerToView(s.context.user),
    sameJson,
  );
}

export function useApiKeysView() {
  return useSelector(
    useProfileRef(PROFILE_IDS.apiKeys),
    (s: SnapshotFrom<typeof apiKeysMachine>) => apiKeysToView(s),
    sameJson,
  );
}

export function useReportView<T>(id: (typeof PROFILE_IDS)[keyof typeof PROFILE_IDS]): ReportView<T> {
  return useSelector(
    useProfileRef(id),
    (s: SnapshotFrom<typeof reportMachine>) => reportToView<T>(s),
    sameJson,
  );
}
