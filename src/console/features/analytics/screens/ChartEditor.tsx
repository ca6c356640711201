/**
 * The chart form of a dashboard (issue 11 "add/remove/configure a chart"): title (optional), metric (the
 * data source: alarm events, line crossings, sightings), group by (time, or one of the source's dimensions:
 * SOURCE_DIMENSIONS) and chart type. Time charts use the dashboard's bucket, shown here. Every change goes to
 * the dashboard machine (editor.change); Save = editor.submit. Test ids: chart-editor, chart-title,
 * chart-source, chart-group-by, chart-type, chart-save.
 */
import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChartPatch } from '../../../../../machines/analytics/dashboard.machine';
import { CHART_SOURCES, CHART_TYPES } from '../../../../protocol/analytics';
import type { DashboardView } from '../selectors';

export function ChartEditor({
  view,
  onChange,
  onSubmit,
  onCancel,
}: {
  view: DashboardView;
  onChange: (patch: ChartPatch) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const editor = view.editor;
  return (
    <Modal
      opened={editor !== null}
      onClose={onCancel}
      title={editor?.isNew ? t('analytics.editor.addTitle') : t('analytics.editor.editTitle')}
    >
      {editor && (
        <form
          data-testid="chart-editor"
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('analytics.editor.title')}
              placeholder={t('analytics.editor.titlePlaceholder')}
              value={editor.chart.title}
              maxLength={120}
              onChange={(e) => onChange({ title: e.currentTarget.value })}
              data-testid="chart-title"
            />
            <NativeSelect
              label={t('analytics.editor.source')}
              value={editor.chart.source}
              data={CHART_SOURCES.map((s) => ({ value: s, label: t(`analytics.sources.${s}`) }))}
              onChange={(e) => onChange({ source: e.currentTarget.value as ChartPatch['source'] })}
              data-testid="chart-source"
            />
            <NativeSelect
              label={t('analytics.editor.groupBy')}
              value={editor.chart.group_by}
              data={['time', ...editor.dimensions].map((d) => ({
                value: d,
                label: t(`analytics.dimensions.${d}`),
              }))}
              onChange={(e) => onChange({ group_by: e.currentTarget.value as ChartPatch['group_by'] })}
              data-testid="chart-group-by"
            />
            <NativeSelect
              label={t('analytics.editor.type')}
              value={editor.chart.type}
              data={CHART_TYPES.map((c) => ({ value: c, label: t(`analytics.types.${c}`) }))}
              onChange={(e) => onChange({ type: e.currentTarget.value as ChartPatch['type'] })}
              data-testid="chart-type"
            />
            {editor.chart.group_by === 'time' && (
              <Text size="xs" c="dimmed">
                {t('analytics.editor.bucketNote', {
                  bucket: t(`analytics.buckets.${view.bucketSeconds}`),
                })}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onCancel}>
                {t('analytics.editor.cancel')}
              </Button>
              <Button type="submit" data-testid="chart-save">
                {t('analytics.editor.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
