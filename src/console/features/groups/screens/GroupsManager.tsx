/**
 * The groups manager (issue 16 §2 groups; §7 groups): a dialog opened from the device list or the camera page
 * for one group type. It shows the tree (each group with Rename, a "Move to" choice — top level or any group
 * that is not itself or below it — and Delete, confirmed with what else goes: its subgroups; members stay,
 * ungrouped), a form to create a group (at the top level or inside another), and the assignment of devices or
 * cameras to a group or to none. Everything is buttons, inputs and selects: usable by keyboard alone.
 * It renders the groups actor's snapshot and sends it events (machines/groups/groups.machine.ts).
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GroupMember, GroupType } from '../../../../../machines/groups/groups.machine';
import '../i18n';
import { flattenGroups, useGroupsRef, useGroupsView, type FlatGroup, type GroupsRef } from '../selectors';

export interface GroupsManagerProps {
  groupType: GroupType;
  opened: boolean;
  onClose: () => void;
}

export default function GroupsManager({ groupType, opened, onClose }: GroupsManagerProps) {
  const { t } = useTranslation();
  const groups = useGroupsRef();
  const view = useGroupsView();
  const flat = useMemo(() => flattenGroups(view[groupType]), [view, groupType]);
  const [toDelete, setToDelete] = useState<FlatGroup | null>(null);

  useEffect(() => {
    if (!opened) return;
    groups.send({ type: 'groups.dismiss' });
    groups.send({ type: 'groups.members', groupType });
  }, [opened, groups, groupType]);

  const title = groupType === 'device' ? t('groups.manageDevice') : t('groups.manageCamera');
  const busy = view.status === 'saving' || view.status === 'loading';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': t('groups.close') }}
    >
      <Stack gap="md" data-testid="groups-manager">
        {view.status === 'failed' ? (
          <Alert color="red" role="alert" title={t('groups.loadFailed')}>
            <Button size="xs" variant="light" onClick={() => groups.send({ type: 'groups.reload' })}>
              {t('groups.retry')}
            </Button>
          </Alert>
        ) : (
          view.error && (
            <Alert color="red" role="alert" data-testid="groups-error">
              {t(`groups.errors.${view.error.code}`, {
                defaultValue: t('groups.errors.other', { message: view.error.message }),
              })}
            </Alert>
          )
        )}
        <Text role="status" size="sm" c="dimmed" data-testid="groups-notice">
          {view.notice ? t(`groups.saved.${view.notice}`) : ''}
        </Text>

        <section aria-labelledby="groups-tree-title">
          <Title order={3} size="h5" id="groups-tree-title" mb="xs">
            {groupType === 'device' ? t('groups.deviceGroups') : t('groups.cameraGroups')}
          </Title>
          {flat.length === 0 ? (
            <Text size="sm">{t('groups.noGroups')}</Text>
          ) : (
            <Box component="ul" aria-labelledby="groups-tree-title" p={0} m={0} style={{ listStyle: 'none' }}>
              {flat.map((g) => (
                <GroupRow
                  key={g.id}
                  group={g}
                  all={flat}
                  groups={groups}
                  busy={busy}
                  onDelete={setToDelete}
                />
              ))}
            </Box>
          )}
        </section>

        <CreateForm groupType={groupType} all={flat} groups={groups} busy={busy} />
        <AssignForm groupType={groupType} all={flat} groups={groups} busy={busy} />
      </Stack>

      <Modal
        opened={toDelete !== null}
        onClose={() => setToDelete(null)}
        title={t('groups.confirmTitle')}
        closeButtonProps={{ 'aria-label': t('groups.cancel') }}
      >
        {toDelete && (
          <Stack gap="sm" data-testid="groups-confirm">
            <Text>{t('groups.confirmText', { name: toDelete.name })}</Text>
            {toDelete.descendants.length > 0 && (
              <Text fw={600}>{t('groups.confirmChildren', { count: toDelete.descendants.length })}</Text>
            )}
            <Text size="sm">{t('groups.confirmMembers')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setToDelete(null)}>
                {t('groups.cancel')}
              </Button>
              <Button
                color="red"
                data-testid="groups-confirm-delete"
                onClick={() => {
                  groups.send({ type: 'groups.change', change: { op: 'delete', id: toDelete.id } });
                  setToDelete(null);
                }}
              >
                {t('groups.delete')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Modal>
  );
}

interface RowProps {
  group: FlatGroup;
  all: FlatGroup[];
  groups: GroupsRef;
  busy: boolean;
  onDelete: (g: FlatGroup) => void;
}

/** One group: its name (or the rename field), "Move to" and Delete. */
function GroupRow({ group, all, groups, busy, onDelete }: RowProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(group.name);
  const [moveTo, setMoveTo] = useState(group.parentId ?? '');
  useEffect(() => setMoveTo(group.parentId ?? ''), [group.parentId]);
  const targets = all.filter((g) => g.id !== group.id && !group.descendants.includes(g.id));
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && name.trim() !== group.name) {
      groups.send({ type: 'groups.change', change: { op: 'rename', id: group.id, name: name.trim() } });
    }
    setEditing(false);
  };
  return (
    <Box component="li" pl={group.depth * 24} py={4} data-testid="group-row" data-group={group.name}>
      <Group gap="xs" wrap="nowrap">
        {editing ? (
          <form onSubmit={save} style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
            <TextInput
              size="xs"
              aria-label={t('groups.newName', { name: group.name })}
              value={name}
              autoFocus
              maxLength={64}
              onChange={(e) => setName(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.stopPropagation();
                  setName(group.name);
                  setEditing(false);
                }
              }}
            />
            <Button size="xs" type="submit">
              {t('groups.save')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)}>
              {t('groups.cancel')}
            </Button>
          </form>
        ) : (
          <>
            <Text fw={500} style={{ flex: 1 }}>
              {group.name}
            </Text>
            <Button
              size="xs"
              variant="subtle"
              disabled={busy}
              aria-label={t('groups.renameGroup', { name: group.name })}
              onClick={() => {
                setName(group.name);
                setEditing(true);
              }}
            >
              {t('groups.rename')}
            </Button>
            <NativeSelect
              size="xs"
              aria-label={t('groups.moveGroup', { name: group.name })}
              disabled={busy}
              value={moveTo}
              onChange={(e) => setMoveTo(e.currentTarget.value)}
              data={[{ value: '', label: t('groups.root') }, ...targets.map(optionOf)]}
            />
            {/* A separate button: arrow keys on a closed select change it, and must not move the group. */}
            <Button
              size="xs"
              variant="subtle"
              disabled={busy || moveTo === (group.parentId ?? '')}
              aria-label={t('groups.moveGroup', { name: group.name })}
              onClick={() =>
                groups.send({
                  type: 'groups.change',
                  change: { op: 'move', id: group.id, parentId: moveTo || null },
                })
              }
            >
              {t('groups.move')}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="red"
              disabled={busy}
              aria-label={t('groups.deleteGroup', { name: group.name })}
              onClick={() => onDelete(group)}
            >
              {t('groups.delete')}
            </Button>
          </>
        )}
      </Group>
    </Box>
  );
}

/** A select option for a group, indented by its depth. */
const optionOf = (g: FlatGroup) => ({ value: g.id, label: `${'\u2003'.repeat(g.depth)}${g.name}` });

function CreateForm({
  groupType,
  all,
  groups,
  busy,
}: Omit<RowProps, 'group' | 'onDelete'> & { groupType: GroupType }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return;
        groups.send({
          type: 'groups.change',
          change: { op: 'create', groupType, name: name.trim(), parentId: parent || null },
        });
        setName('');
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput
          label={t('groups.name')}
          value={name}
          required
          maxLength={64}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="groups-name"
        />
        <NativeSelect
          label={t('groups.parent')}
          value={parent}
          onChange={(e) => setParent(e.currentTarget.value)}
          data={[{ value: '', label: t('groups.root') }, ...all.map(optionOf)]}
          data-testid="groups-parent"
        />
        <Button type="submit" disabled={busy} data-testid="groups-create">
          {t('groups.create')}
        </Button>
      </Group>
    </form>
  );
}

function AssignForm({
  groupType,
  all,
  groups,
  busy,
}: Omit<RowProps, 'group' | 'onDelete'> & { groupType: GroupType }) {
  const { t } = useTranslation();
  const view = useGroupsView();
  const [chosen, setChosen] = useState<string[]>([]);
  const [target, setTarget] = useState('');
  const members = view.membersType === groupType ? view.members : [];
  const nameOf = (id: string | null) => all.find((g) => g.id === id)?.name ?? t('groups.noGroup');
  const keyOf = (m: GroupMember) => `${m.kind}:${m.id}`;
  const assign = () => {
    const picked = members.filter((m) => chosen.includes(keyOf(m)));
    if (picked.length === 0) return;
    const ids = (kind: GroupMember['kind']) => picked.filter((m) => m.kind === kind).map((m) => m.id);
    groups.send({
      type: 'groups.change',
      change: {
        op: 'assign',
        groupType,
        groupId: target || null,
        devices: ids('device'),
        physicalCameras: ids('physical'),
        ipCameras: ids('ip'),
      },
    });
    setChosen([]);
  };
  return (
    <section aria-labelledby="groups-assign-title">
      <Title order={3} size="h5" id="groups-assign-title" mb="xs">
        {t('groups.assignTitle')}
      </Title>
      {view.membersStatus === 'failed' && (
        <Alert color="red" role="alert">
          {t('groups.membersFailed')}
        </Alert>
      )}
      <Checkbox.Group
        label={groupType === 'device' ? t('groups.devices') : t('groups.cameras')}
        value={chosen}
        onChange={setChosen}
      >
        <Stack gap={4} mt={4} mah={200} style={{ overflowY: 'auto' }} data-testid="groups-members">
          {members.map((m) => (
            <Checkbox
              key={keyOf(m)}
              value={keyOf(m)}
              label={`${m.label} — ${t('groups.inGroup', { name: nameOf(m.groupId) })}`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Group align="flex-end" gap="xs" mt="xs">
        <NativeSelect
          label={t('groups.assignTo')}
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
          data={[{ value: '', label: t('groups.noGroup') }, ...all.map(optionOf)]}
          data-testid="groups-assign-target"
        />
        <Button onClick={assign} disabled={busy || chosen.length === 0} data-testid="groups-assign">
          {t('groups.assign')}
        </Button>
      </Group>
    </section>
  );
}
