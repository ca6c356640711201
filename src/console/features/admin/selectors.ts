/**
 * Pure views of the admin panel's screens (issue 13) and their hooks: a list machine's snapshot as rows with
 * the pager's state, the user-action dialog, the engine backends table and form.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { adminListMachine, ListQuery } from '../../../../machines/admin/adminList.machine';
import type { BackendDraft, engineBackendsMachine } from '../../../../machines/admin/engineBackends.machine';
import type { UserActionKind, userActionMachine } from '../../../../machines/admin/userAction.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type {
  AdminClient,
  AdminInference,
  AdminUser,
  AuditEntry,
  EngineBackend,
} from '../../../protocol/admin';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type ListSnapshot = SnapshotFrom<typeof adminListMachine>;

/** A list screen's view: rows of the page shown, totals and which pager buttons work. */
export interface ListView<Row> {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  query: ListQuery;
  rows: Row[];
  total: number;
  totalCapped: boolean;
  extra: Record<string, number>;
  canPrev: boolean;
  canNext: boolean;
  prev: string | null;
  next: string | null;
  loading: boolean;
  error: string | null;
}

export function listToView<Row>(s: ListSnapshot): ListView<Row> {
  const page = s.context.page;
  return {
    state: s.value as ListView<Row>['state'],
    query: s.context.query,
    rows: (page?.rows ?? []) as Row[],
    total: page?.total ?? 0,
    totalCapped: page?.totalCapped ?? false,
    extra: page?.extra ?? {},
    canPrev: !!page?.prev,
    canNext: !!page?.next,
    prev: page?.prev ?? null,
    next: page?.next ?? null,
    loading: s.hasTag('busy'),
    error: s.context.error,
  };
}

/** The actions an admin may offer for a user row (the server decides; these are the sensible ones). */
export function userActionsOf(user: AdminUser, selfEmail: string | null): UserActionKind[] {
  const actions: UserActionKind[] = [];
  if (user.email !== selfEmail) actions.push(user.disabled_at ? 'enable' : 'disable');
  actions.push(user.roles.includes('admin') ? 'removeAdmin' : 'makeAdmin');
  if (user.two_factor) actions.push('resetTwoFactor');
  return actions;
}

export interface UserActionView {
  open: boolean;
  action: UserActionKind | null;
  email: string;
  busy: boolean;
  error: string | null;
}

export function userActionToView(s: SnapshotFrom<typeof userActionMachine>): UserActionView {
  return {
    open: !s.matches('idle'),
    action: s.context.action,
    email: s.context.user?.email ?? '',
    busy: s.hasTag('busy'),
    error: s.context.error,
  };
}

export interface BackendsView {
  state: 'idle' | 'loading' | 'ready' | 'failed' | 'editing' | 'saving' | 'confirming' | 'deleting';
  rows: EngineBackend[];
  editing: boolean;
  draft: BackendDraft;
  isNew: boolean;
  target: EngineBackend | null;
  busy: boolean;
  error: string | null;
  canSave: boolean;
}

export function backendsToView(s: SnapshotFrom<typeof engineBackendsMachine>): BackendsView {
  const c = s.context;
  return {
    state: s.value as BackendsView['state'],
    rows: c.backends,
    editing: s.matches('editing') || s.matches('saving'),
    draft: c.draft,
    isNew: c.editingId === null,
    target: s.matches('confirming') || s.matches('deleting') ? c.target : null,
    busy: s.hasTag('busy'),
    error: c.error,
    canSave: s.matches('editing') && c.draft.version.trim() !== '' && c.draft.image.trim() !== '',
  };
}

/** The details of an audit entry as short "key: value" text (nested values as JSON). */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('; ');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useAdminRef(systemId: string): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), systemId);
}

export function useListView<Row>(systemId: string): ListView<Row> {
  return useSelector(useAdminRef(systemId), (s: ListSnapshot) => listToView<Row>(s), same);
}

export const useUsersView = () => useListView<AdminUser>(SYSTEM_IDS.adminUsers);
export const useClientsView = () => useListView<AdminClient>(SYSTEM_IDS.adminClients);
export const useAuditView = () => useListView<AuditEntry>(SYSTEM_IDS.adminAudit);
export const useInferencesView = () => useListView<AdminInference>(SYSTEM_IDS.adminInferences);

export function useUserActionView(): UserActionView {
  return useSelector(useAdminRef(SYSTEM_IDS.adminUserAction), userActionToView, same);
}

export function useBackendsView(): BackendsView {
  return useSelector(useAdminRef(SYSTEM_IDS.adminEngineBackends), backendsToView, same);
}
