/**
 * The period of the analytics and demographic screens (issue 11 "interval picker"): a preset (the last 15
 * minutes … 7 days, to now), or the start and end typed (datetime-local, the browser's time zone), and the
 * interval the counts are grouped by. Everything is kept in the URL (views.ts analyticsQueryOf /
 * analyticsSearchOf). Test ids: period-preset, period-from, period-to, period-interval, period-refresh.
 */
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { bucketFor, fromLocalInput, INTERVALS, PERIODS, toLocalInput, type AnalyticsQuery } from '../views';

export function PeriodControls(props: {
  query: AnalyticsQuery;
  onChange: (q: AnalyticsQuery) => void;
  onRefresh: () => void;
  withInterval?: boolean;
}) {
  const { t } = useTranslation();
  const { query, onChange, onRefresh } = props;
  const set = (patch: Partial<AnalyticsQuery>) => {
    const next = { ...query, ...patch };
    if (next.from >= next.to) return;
    onChange({ ...next, bucket: bucketFor(next.from, next.to, next.bucket) });
  };
  return (
    <Group align="flex-end" wrap="wrap">
      <NativeSelect
        label={t('useCases.period.preset')}
        value=""
        onChange={(e) => {
          const s = Number(e.currentTarget.value);
          if (!s) return;
          const now = Date.now();
          set({ from: now - s * 1000, to: now });
        }}
        data={[
          { value: '', label: t('useCases.period.choose') },
          ...PERIODS.map((s) => ({ value: String(s), label: t(`useCases.period.last${s}`) })),
        ]}
        data-testid="period-preset"
      />
      <TextInput
        type="datetime-local"
        step={1}
        label={t('useCases.period.from')}
        value={toLocalInput(query.from)}
        onChange={(e) => {
          const v = fromLocalInput(e.currentTarget.value);
          if (v !== null) set({ from: v });
        }}
        data-testid="period-from"
      />
      <TextInput
        type="datetime-local"
        step={1}
        label={t('useCases.period.to')}
        value={toLocalInput(query.to)}
        onChange={(e) => {
          const v = fromLocalInput(e.currentTarget.value);
          if (v !== null) set({ to: v });
        }}
        data-testid="period-to"
      />
      {props.withInterval !== false && (
        <NativeSelect
          label={t('useCases.form.interval')}
          value={String(query.bucket)}
          onChange={(e) => set({ bucket: Number(e.currentTarget.value) })}
          data={[
            ...(INTERVALS.includes(query.bucket as (typeof INTERVALS)[number])
              ? []
              : [
                  { value: String(query.bucket), label: t('useCases.interval.seconds', { n: query.bucket }) },
                ]),
            ...INTERVALS.map((s) => ({ value: String(s), label: t(`useCases.interval.${s}`) })),
          ]}
          data-testid="period-interval"
        />
      )}
      <Button variant="default" onClick={onRefresh} data-testid="period-refresh">
        {t('useCases.refresh')}
      </Button>
    </Group>
  );
}
