/**
 * The grid of open streams (§2 Camera control page, §9 "Camera grid: 12 cells per page, 12 columns wide"):
 * react-grid-layout v2 (hooks API: useContainerWidth) with the shown page's cells from the camera grid
 * actor. Drag (by the cell's title bar) and resize send `grid.layout`; the page tabs send `grid.page`.
 * The layout lives in the machine; this only renders it.
 */
import { useCallback, useMemo } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { Alert, Button, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CAMERA_GRID_COLUMNS } from '../../../../protocol/constants';
import { useGridPage, useStreamsRef } from '../selectors';
import { StreamCell } from './StreamCell';

/** Height of one grid row, px: a §9 medium cell (4×7) holds a 16:9 video and its title bar. */
const ROW_HEIGHT_PX = 34;
const MARGIN: [number, number] = [8, 8];

export function StreamGrid() {
  const { t } = useTranslation();
  const streams = useStreamsRef();
  const { entries, page, pageCount, total, loading, notLoaded } = useGridPage();
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = useMemo<Layout>(() => entries.map((e) => ({ ...e.cell, i: e.streamId })), [entries]);
  const onLayoutChange = useCallback(
    (next: Layout) => streams.send({ type: 'grid.layout', cells: next.map((c) => ({ ...c })) }),
    [streams],
  );
  const pages = Array.from({ length: pageCount }, (_, i) => ({
    value: String(i),
    label: t('cameras.page', { page: i + 1 }),
  }));
  return (
    <section aria-labelledby="stream-grid-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="stream-grid-title">
          {t('cameras.grid')}
        </Title>
        {pageCount > 1 && (
          <nav aria-label={t('cameras.pages')} data-testid="stream-pages">
            <Button.Group>
              {pages.map((p) => (
                <Button
                  key={p.value}
                  size="xs"
                  variant={p.value === String(page) ? 'filled' : 'default'}
                  aria-pressed={p.value === String(page)}
                  onClick={() => streams.send({ type: 'grid.page', page: Number(p.value) })}
                  data-testid={`stream-page-${Number(p.value) + 1}`}
                >
                  {p.label}
                </Button>
              ))}
            </Button.Group>
          </nav>
        )}
      </Group>
      {notLoaded && (
        <Alert color="yellow" role="status" mb="sm" data-testid="layout-not-loaded">
          {t('cameras.layoutLoadRetrying')}
        </Alert>
      )}
      {total === 0 && (
        <Text c="dimmed" data-testid="stream-grid-empty">
          {loading ? t('cameras.loadingLayout') : t('cameras.noStreams')}
        </Text>
      )}
      <div ref={containerRef} className="stream-grid" data-testid="stream-grid" data-page={page}>
        {mounted && entries.length > 0 && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: CAMERA_GRID_COLUMNS, rowHeight: ROW_HEIGHT_PX, margin: MARGIN }}
            dragConfig={{ enabled: true, handle: '.stream-drag-handle', cancel: 'button,a,select,input' }}
            resizeConfig={{ enabled: true, handles: ['se'] }}
            compactor={verticalCompactor}
            onLayoutChange={onLayoutChange}
          >
            {entries.map((entry) => (
              <div key={entry.streamId} data-testid={`grid-item-${entry.streamId}`}>
                <StreamCell entry={entry} />
              </div>
            ))}
          </ReactGridLayout>
        )}
      </div>
    </section>
  );
}
