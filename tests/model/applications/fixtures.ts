/** A sample application for the applications machines' tests. */
import type { Application } from '../../../src/protocol/applications';

export const sampleApplication: Application = {
  id: 'a1',
  name: 'Lobby people counter',
  description: '',
  model_id: 'M000000000A1',
  model_name: 'demo-people-detector',
  model_version_id: 'v1',
  version: 1,
  task: 'object-detection',
  format: 'onnx',
  model_classes: ['person', 'car'],
  input: { source: 'camera', width: null, height: null, fps: 25 },
  threshold: 0.3,
  classes: ['person'],
  tracker: 'bytetrack',
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
};
