/**
 * The groups feature's contract (issue 16 §2 groups; §3 Group; §7 groups (group_type device or camera): create,
 * rename, nest, delete, assign devices and cameras). The spec lists only GET groups (src/protocol/devices.ts
 * `devices.groups`); the paths and shapes below are ours ("not shown"), documented field by field.
 *
 * A group is one of the caller's, of one type: 'device' groups hold devices, 'camera' groups hold physical and IP
 * cameras. Groups nest (parent_id); deleting a group deletes its descendants (cascade) and leaves their members
 * ungrouped (group_id null). Every call is scoped to the caller: another user's group is a 404.
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

/** Longest group name, characters. */
export const GROUP_NAME_MAX_CHARS = 64;
/** Most members one assign call moves. */
export const GROUP_ASSIGN_MAX = 100;

/** The two kinds of group (§3 Group "device or camera"). */
export const GroupType = z.enum(['camera', 'device']);
export type GroupType = z.infer<typeof GroupType>;

/** A group's name: trimmed, 1–64 characters, unique per user and group type (409 otherwise). */
export const GroupName = z.string().trim().min(1, 'Enter a group name').max(GROUP_NAME_MAX_CHARS);

/** One group row (no children): what create and update answer. parent_id null = a root group. */
export const GroupRow = z.object({
  id: z.string(),
  name: z.string(),
  group_type: GroupType,
  parent_id: z.string().nullable(),
});
export type GroupRow = z.infer<typeof GroupRow>;

/** POST groups { name, group_type, parent_id? } — parent_id must be the caller's group of the same type (404). */
export const CreateGroupRequest = z.object({
  name: GroupName,
  group_type: GroupType,
  parent_id: Id.nullable().optional(),
});
export type CreateGroupRequest = z.input<typeof CreateGroupRequest>;

/**
 * PUT groups/:id { name?, parent_id? } — renames and/or moves. parent_id null moves to the root; a parent of the
 * other type is a 400; the group itself or one of its descendants as parent is a 409 (a cycle).
 */
export const UpdateGroupRequest = z
  .object({ name: GroupName.optional(), parent_id: Id.nullable().optional() })
  .refine((b) => b.name !== undefined || b.parent_id !== undefined, 'Give a name or a parent_id');
export type UpdateGroupRequest = z.input<typeof UpdateGroupRequest>;

export const GroupParams = z.object({ id: Id });
export const GroupAnswer = z.object({ group: GroupRow });
/** DELETE groups/:id → deleted = the group and its descendants (count). */
export const DeleteGroupResponse = z.object({ ok: z.boolean(), deleted: z.number().int() });

/**
 * POST groups/assign — puts members into `group_id` (null = no group). device groups take `devices` (row ids or
 * device_ids); camera groups take `physical_cameras` and `ip_cameras` (row ids). Members that are not the
 * caller's are a 404 and nothing changes; members of the other type are a 400.
 */
export const AssignGroupRequest = z.object({
  group_type: GroupType,
  group_id: Id.nullable(),
  devices: z.array(Id).max(GROUP_ASSIGN_MAX).default([]),
  physical_cameras: z.array(Id).max(GROUP_ASSIGN_MAX).default([]),
  ip_cameras: z.array(Id).max(GROUP_ASSIGN_MAX).default([]),
});
export type AssignGroupRequest = z.input<typeof AssignGroupRequest>;
/** assigned = how many members now have that group. */
export const AssignGroupResponse = z.object({ ok: z.boolean(), assigned: z.number().int() });

/** English error texts of the groups calls (the console shows its own translations by code). */
export const GROUP_TEXTS = {
  notFound: 'Group not found.',
  duplicate: 'A group with this name already exists.',
  cycle: 'A group cannot be moved into itself or one of its subgroups.',
  wrongType: 'The parent group is of another type.',
  membersMissing: 'Some of these devices or cameras were not found.',
} as const;

export const groupRoutes = defineRoutes({
  'groups.create': {
    method: 'POST',
    path: '/api/groups',
    auth: 'user',
    summary: 'Create a device or camera group, at the root or under a parent of the same type',
    body: CreateGroupRequest,
    answer: GroupAnswer,
    errors: [404, 409],
  },
  'groups.update': {
    method: 'PUT',
    path: '/api/groups/:id',
    auth: 'user',
    summary: 'Rename a group and/or move it under another group of its type or to the root (no cycles)',
    params: GroupParams,
    body: UpdateGroupRequest,
    answer: GroupAnswer,
    errors: [404, 409],
  },
  'groups.delete': {
    method: 'DELETE',
    path: '/api/groups/:id',
    auth: 'user',
    summary: 'Delete a group and its subgroups; their members become ungrouped',
    params: GroupParams,
    answer: DeleteGroupResponse,
    errors: [404],
  },
  'groups.assign': {
    method: 'POST',
    path: '/api/groups/assign',
    auth: 'user',
    summary: 'Put devices or cameras into a group of their type, or into none',
    body: AssignGroupRequest,
    answer: AssignGroupResponse,
    errors: [404],
  },
});
