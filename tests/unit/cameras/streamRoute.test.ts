import { describe, expect, it } from 'vitest';
import { findRoute, matchPattern } from '../../../src/console/routes/table';
import { parseStreamRoute, streamDetailPath } from '../../../src/console/features/cameras/streamRoute';

describe('stream detail routes (§2 cameraID and data as route parameters)', () => {
  it('round-trips deviceId and cameraId through the path', () => {
    const path = streamDetailPath({ deviceId: 'dev-0000000000000001', cameraId: 'cam/0 ü' });
    const params = matchPattern('/stream-detail/:cameraID?/:data?', path);
    expect(params).not.toBeNull();
    expect(parseStreamRoute(params!.cameraID, params!.data)).toEqual({
      deviceId: 'dev-0000000000000001',
      cameraId: 'cam/0 ü',
    });
    expect(findRoute(path)?.screen).toBe('streamDetail');
    expect(findRoute(streamDetailPath({ deviceId: 'd', cameraId: 'c' }, true))?.screen).toBe(
      'rawStreamDetail',
    );
  });

  it('rejects data that is not the expected JSON', () => {
    expect(parseStreamRoute('cam0', undefined)).toBeNull();
    expect(parseStreamRoute('cam0', 'not-base64!')).toBeNull();
    expect(parseStreamRoute('cam0', btoa('{"cameraId":"x"}'))).toBeNull();
  });
});
