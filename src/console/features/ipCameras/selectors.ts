/**
 * The ipCameras feature's views: pure `*ToView(snapshot)` functions of the manager and its form
 * (machines/ipCameras/), and hooks that select them.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { ipCameraFormMachine } from '../../../../machines/ipCameras/ipCameraForm.machine';
import type { IpCameraFormRef, ipCamerasMachine } from '../../../../machines/ipCameras/ipCameras.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type ManagerSnapshot = SnapshotFrom<typeof ipCamerasMachine>;
type FormSnapshot = SnapshotFrom<typeof ipCameraFormMachine>;
export type IpCamerasRef = ReturnType<typeof useIpCamerasRef>;

/** The manager: open or not, its phase, the list, the devices, errors, the form. */
export function managerToView(s: ManagerSnapshot) {
  const open = typeof s.value === 'object' ? (s.value as { open: string }).open : null;
  return {
    open: open !== null,
    phase: (open ?? 'closed') as 'closed' | 'loading' | 'ready' | 'failed' | 'removing',
    cameras: s.context.cameras,
    devices: s.context.devices,
    error: s.context.error,
    removeError: s.context.removeError,
    form: s.context.form,
  };
}

/** The form: its phase, the draft, field errors, the still, the coded test/save errors. */
export function formToView(s: FormSnapshot) {
  return {
    phase: s.value as 'editing' | 'validating' | 'testing' | 'saving' | 'saved',
    editing: s.context.cameraId !== null,
    hasPassword: s.context.hasPassword,
    draft: s.context.draft,
    errors: s.context.errors,
    still: s.context.still,
    testError: s.context.testError,
    saveError: s.context.saveError,
  };
}

export function useIpCamerasRef() {
  return actorOf<import('xstate').ActorRefFrom<typeof ipCamerasMachine>>(useSystem(), SYSTEM_IDS.ipCameras);
}
export function useManagerView() {
  return useSelector(useIpCamerasRef(), managerToView, shallowEqual);
}
export function useFormView(ref: IpCameraFormRef) {
  return useSelector(ref, formToView, shallowEqual);
}
