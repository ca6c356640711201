import { describe, expect, it } from 'vitest';
import { BUCKETS_MAX, type CountsAnswer, type PeopleAnswer } from '../../../src/protocol/analytics';
import {
  analyticsQueryOf,
  analyticsSearchOf,
  bucketFor,
  countsCsv,
  countsView,
  liveWindow,
  peopleView,
  pickerOf,
  roundLine,
  vehiclesView,
  type PickJob,
} from '../../../src/console/features/useCases/views';

const NOW = Date.parse('2026-11-28T04:00:00.000Z');

describe('use-case windows (issue 11)', () => {
  it('widens a bucket only when the period needs more than BUCKETS_MAX', () => {
    expect(bucketFor(0, 3600_000, 60)).toBe(60);
    expect(bucketFor(0, 7 * 86_400_000, 60)).toBe(Math.ceil((7 * 86_400) / BUCKETS_MAX));
    expect((7 * 86_400) / bucketFor(0, 7 * 86_400_000, 60)).toBeLessThanOrEqual(BUCKETS_MAX);
  });

  it('reads a live window from the start to just past now, bucketed by the interval', () => {
    const w = liveWindow({ created_at: '2026-11-28T03:30:00.000Z', interval_seconds: 300 }, NOW + 400);
    expect(w).toEqual({
      from: '2026-11-28T03:30:00.000Z',
      to: '2026-11-28T04:00:02.000Z',
      bucket_seconds: 300,
    });
  });

  it('keeps the analytics period in the URL and falls back to the last hour', () => {
    const q = { useCaseId: 'u1', from: NOW - 600_000, to: NOW, bucket: 300 };
    expect(analyticsQueryOf(analyticsSearchOf(q), 0)).toEqual(q);
    expect(analyticsQueryOf('', NOW)).toEqual({ useCaseId: null, from: NOW - 3600_000, to: NOW, bucket: 60 });
    // a bad bucket, an end before the start
    const bad = analyticsQueryOf('?from=2026-11-28T04:00:00Z&to=2026-11-28T03:00:00Z&bucket=-4', NOW);
    expect(bad.to - bad.from).toBe(3600_000);
    expect(bad.bucket).toBe(60);
    // a week at 1 minute is widened
    const week = analyticsQueryOf(`?from=${new Date(NOW - 7 * 86_400_000).toISOString()}&bucket=60`, NOW);
    expect(week.bucket).toBeGreaterThan(60);
  });
});

describe('use-case answers as views', () => {
  const counts: CountsAnswer = {
    buckets: [
      { start: '2026-11-28T03:00:00.000Z', in: 2, out: 1 },
      { start: '2026-11-28T03:01:00.000Z', in: 0, out: 3 },
    ],
    total: { in: 2, out: 4 },
  };

  it('gives the chart series in seconds and the totals with the net', () => {
    const v = countsView(counts);
    expect(v.chart).toEqual([
      [Date.parse(counts.buckets[0]!.start) / 1000, Date.parse(counts.buckets[1]!.start) / 1000],
      [2, 0],
      [1, 3],
    ]);
    expect(v.total).toEqual({ in: 2, out: 4, net: -2 });
  });

  it('writes the counts as CSV with bucket ends and a total, quoting what needs it', () => {
    const csv = countsCsv(counts, 60, 'Door, "north"');
    expect(csv.split('\r\n')).toEqual([
      'use_case,bucket_start,bucket_end,in,out',
      '"Door, ""north""",2026-11-28T03:00:00.000Z,2026-11-28T03:01:00.000Z,2,1',
      '"Door, ""north""",2026-11-28T03:01:00.000Z,2026-11-28T03:02:00.000Z,0,3',
      '"Door, ""north""",total,,2,4',
      '',
    ]);
    expect(countsCsv(counts, 60, '=cmd()').split('\r\n')[1]).toMatch(/^'=cmd\(\),/);
  });

  it('tables people by age band and gender, every band listed in order, unknown values after', () => {
    const a: PeopleAnswer = {
      buckets: [],
      people: [
        { identity: 'person-1', age_band: '25-34', gender: 'female', first_seen: '' },
        { identity: 'person-2', age_band: '25-34', gender: 'male', first_seen: '' },
        { identity: 'person-3', age_band: '0-17', gender: 'female', first_seen: '' },
        { identity: 'person-4', age_band: '', gender: 'x', first_seen: '' },
      ],
    };
    const v = peopleView(a);
    expect(v.ageBands).toEqual(['0-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+', '?']);
    expect(v.genders).toEqual(['female', 'male', 'x']);
    expect(v.cells['25-34']).toEqual({ female: 1, male: 1, x: 0 });
    expect(v.cells['?']).toEqual({ female: 0, male: 0, x: 1 });
    expect(v.byGender).toEqual({ female: 2, male: 1, x: 1 });
    expect(v.total).toBe(4);
    expect(v.chart[0]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(v.chart[1]).toEqual([1, 0, 1, 0, 0, 0, 0, 0]);
  });

  it('lists vehicles with the use case’s camera', () => {
    expect(
      vehiclesView(
        { vehicles: [{ plate: 'KX-4821', first_seen: 'a', last_seen: 'b', speed: null }] },
        'cam-1 (dev)',
      ),
    ).toEqual([{ plate: 'KX-4821', firstSeen: 'a', lastSeen: 'b', speed: null, camera: 'cam-1 (dev)' }]);
  });

  it('rounds a line to the thousandth', () => {
    expect(roundLine({ x1: 0.12345, y1: 0, x2: 0.99999, y2: 0.5 })).toEqual({
      x1: 0.123,
      y1: 0,
      x2: 1,
      y2: 0.5,
    });
  });
});

describe('the device → camera → job choice', () => {
  const job = (id: string, deviceId: string, cameraId: string, state = 'started'): PickJob => ({
    id,
    name: `job ${id}`,
    device: `Box ${deviceId}`,
    deviceId,
    camera: `Cam ${cameraId}`,
    cameraId,
    state,
  });
  const jobs = [
    job('1', 'a', 'c1'),
    job('2', 'a', 'c2'),
    job('3', 'b', 'c1'),
    job('4', 'b', 'c3', 'stopped'),
  ];

  it('offers only running jobs and fills in the first device, camera and job', () => {
    const v = pickerOf(jobs, { deviceId: '', cameraId: '', jobId: '' });
    expect(v.devices).toEqual([
      { value: 'a', label: 'Box a' },
      { value: 'b', label: 'Box b' },
    ]);
    expect(v.choice).toEqual({ deviceId: 'a', cameraId: 'c1', jobId: '1' });
  });

  it('narrows cameras to the device and jobs to the camera; drops a stale choice', () => {
    const v = pickerOf(jobs, { deviceId: 'b', cameraId: 'c3', jobId: '4' });
    expect(v.cameras).toEqual([{ value: 'c1', label: 'Cam c1' }]);
    expect(v.choice).toEqual({ deviceId: 'b', cameraId: 'c1', jobId: '3' });
    expect(pickerOf(jobs, { deviceId: 'a', cameraId: 'c2', jobId: '' }).choice.jobId).toBe('2');
  });

  it('has nothing to offer with no running job', () => {
    const v = pickerOf([job('4', 'b', 'c3', 'stopped')], { deviceId: 'b', cameraId: 'c3', jobId: '4' });
    expect(v).toEqual({
      devices: [],
      cameras: [],
      jobs: [],
      choice: { deviceId: '', cameraId: '', jobId: '' },
    });
  });
});
