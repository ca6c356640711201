/**
 * Channel picker for the alarm editor (features/alarms): a multi-select of the user's alarm channels, read
 * from the alarmChannels actor (loaded on first show). Controlled: `value` channel ids, `onChange` the new
 * ids; the editor saves them with `setAlarmChannels` (../api.ts). Test id: channel-picker.
 */
import { MultiSelect } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n';
import { useChannelsRef, useChannelsView } from '../selectors';

export function ChannelPicker({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const ref = useChannelsRef();
  const view = useChannelsView();
  useEffect(() => {
    if (ref.getSnapshot().matches('idle')) ref.send({ type: 'channels.load' });
  }, [ref]);
  return (
    <MultiSelect
      label={t('alarmChannels.picker')}
      description={t('alarmChannels.pickerHint')}
      data={view.rows.map((r) => ({
        value: r.id,
        label: `${r.name} (${t(`alarmChannels.kinds.${r.kind}`)})`,
      }))}
      value={value}
      onChange={onChange}
      searchable
      data-testid="channel-picker"
    />
  );
}

export default ChannelPicker;
