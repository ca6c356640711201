/**
 * The group filter of the device table and the camera page (issue 16 §2 groups; §7 get_devices/,
 * ip-cameras and physical-cameras take group_id — the group's descendants count too), with the button that
 * opens the groups manager. Renders nothing until the groups feature's actor runs.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Anchor, Button, Group, NativeSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { GroupType } from '../../../../../machines/groups/groups.machine';
import { FeatureReady } from '../../../shell/FeatureReady';
import '../i18n';
import { flattenGroups, useCameraFilterView, useGroupsRef, useGroupsView } from '../selectors';

const GroupsManager = lazy(() => import('./GroupsManager'));

export interface GroupFilterProps {
  groupType: GroupType;
  /** The chosen group's id, null = all. */
  value: string | null;
  onChange: (groupId: string | null) => void;
  /** Called after every saved group change (a list showing members reloads). */
  onChanged?: () => void;
}

/** The filter select and the "Groups…" button; waits for the groups feature. */
export function GroupFilter(props: GroupFilterProps) {
  return (
    <FeatureReady feature="groups" fallback={null}>
      <GroupFilterReady {...props} />
    </FeatureReady>
  );
}

function GroupFilterReady({ groupType, value, onChange, onChanged }: GroupFilterProps) {
  const { t } = useTranslation();
  const view = useGroupsView();
  const groups = useGroupsRef();
  const seen = useRef(view.revision);
  useEffect(() => {
    if (view.revision === seen.current) return;
    seen.current = view.revision;
    onChanged?.();
  }, [view.revision, onChanged]);
  const flat = useMemo(() => flattenGroups(view[groupType]), [view, groupType]);
  const [open, setOpen] = useState(false);
  // A deleted group filters nothing any more: show (and ask for) all.
  const known = value !== null && flat.some((g) => g.id === value);
  useEffect(() => {
    if (value !== null && !known && view.status === 'ready') onChange(null);
  }, [value, known, view.status, onChange]);
  return (
    <Group align="flex-end" gap="xs">
      <NativeSelect
        label={t('groups.filter')}
        value={known ? value : ''}
        onChange={(e) => onChange(e.currentTarget.value || null)}
        data={[
          { value: '', label: t('groups.allGroups') },
          ...flat.map((g) => ({ value: g.id, label: `${'\u2003'.repeat(g.depth)}${g.name}` })),
        ]}
        data-testid={`group-filter-${groupType}`}
      />
      <Button variant="default" onClick={() => setOpen(true)} data-testid={`groups-open-${groupType}`}>
        {groupType === 'device' ? t('groups.manageDevice') : t('groups.manageCamera')}
      </Button>
      {view.status === 'failed' && (
        // §8 "Group retrieval failure warnings".
        <Text role="alert" size="sm" c="red" data-testid={`groups-load-failed-${groupType}`}>
          {t('groups.loadFailed')}{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => groups.send({ type: 'groups.reload' })}
          >
            {t('groups.retry')}
          </Anchor>
        </Text>
      )}
      {open && (
        <Suspense fallback={null}>
          <GroupsManager groupType={groupType} opened={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </Group>
  );
}

/** The camera page's group filter: the choice is kept by the groups actor (its camera filter). */
export function CameraGroupFilter() {
  return (
    <FeatureReady feature="groups" fallback={null}>
      <CameraGroupFilterReady />
    </FeatureReady>
  );
}

function CameraGroupFilterReady() {
  const groups = useGroupsRef();
  const { groupId } = useCameraFilterView();
  // Quick search opens /control-panel/cameras?group=<id>.
  const [params] = useSearchParams();
  const asked = params.get('group');
  useEffect(() => {
    if (asked) groups.send({ type: 'groups.cameraFilter', groupId: asked });
  }, [asked, groups]);
  return (
    <GroupFilterReady
      groupType="camera"
      value={groupId}
      onChange={(id) => groups.send({ type: 'groups.cameraFilter', groupId: id })}
    />
  );
}
