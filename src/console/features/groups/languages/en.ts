/**
 * The groups feature's texts in English (§2 language 'en'), the complete set the other languages must give
 * (GroupsTranslation).
 */
export const en = {
  deviceGroups: 'Device groups',
  cameraGroups: 'Camera groups',
  manage: 'Groups…',
  manageDevice: 'Manage device groups',
  manageCamera: 'Manage camera groups',
  filter: 'Group',
  allGroups: 'All groups',
  noGroups: 'No groups yet.',
  name: 'Group name',
  parent: 'Inside',
  root: 'Top level',
  create: 'Create group',
  rename: 'Rename',
  renameGroup: 'Rename {{name}}',
  newName: 'New name of {{name}}',
  save: 'Save',
  cancel: 'Cancel',
  close: 'Close',
  move: 'Move',
  moveGroup: 'Move {{name}} to',
  deleteGroup: 'Delete {{name}}',
  delete: 'Delete',
  confirmTitle: 'Delete group',
  confirmText: 'Delete the group “{{name}}”?',
  confirmChildren: 'Its subgroups ({{count}}) are deleted too.',
  confirmMembers: 'Devices and cameras in the deleted groups are kept, without a group.',
  assignTitle: 'Assign to a group',
  devices: 'Devices',
  cameras: 'Cameras',
  assignTo: 'Put them into',
  noGroup: 'No group',
  assign: 'Assign',
  inGroup: 'now in: {{name}}',
  loadFailed: 'Groups could not be loaded.',
  membersFailed: 'The devices or cameras could not be loaded.',
  retry: 'Retry',
  errors: {
    Group_exists: 'A group with this name already exists.',
    Group_cycle: 'A group cannot be moved into itself or one of its subgroups.',
    Not_found: 'This group or some of these devices or cameras no longer exist.',
    Validation_error: 'Check the name: 1 to 64 characters.',
    other: 'The change could not be saved: {{message}}',
  },
  saved: {
    create: 'Group created.',
    rename: 'Group renamed.',
    move: 'Group moved.',
    delete: 'Group deleted.',
    assign: 'Assignment saved.',
  },
};

export type GroupsTexts = typeof en;
/** Every key of `en`, nested objects included (the other languages must give all of them). */
export type GroupsTranslation = {
  [K in keyof GroupsTexts]: GroupsTexts[K] extends string ? string : { [J in keyof GroupsTexts[K]]: string };
};
