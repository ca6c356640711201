import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../src/agent/options';

describe('agent command line', () => {
  it('reads server and token from flags with the sim backend by default', () => {
    expect(parseCli(['--server', 'http://127.0.0.1:8080', '--token', 't'], {})).toEqual({
      ok: true,
      options: expect.objectContaining({
        server: 'http://127.0.0.1:8080',
        token: 't',
        backend: 'sim',
        cameraSources: [],
      }),
    });
  });

  it('falls back to AGENT_SERVER and AGENT_TOKEN', () => {
    const r = parseCli(['--kind', 'x86', '--cameras', '4'], {
      AGENT_SERVER: 'https://edge.example',
      AGENT_TOKEN: 'tok',
    });
    expect(r).toMatchObject({
      ok: true,
      options: { server: 'https://edge.example', token: 'tok', kind: 'x86', cameras: 4 },
    });
  });

  it('collects repeated camera sources for the host backend', () => {
    const r = parseCli(
      [
        '--server',
        'http://h:1',
        '--token',
        't',
        '--backend',
        'host',
        '--camera-source',
        '/dev/video0',
        '--camera-source',
        'rtsp://cam/1',
      ],
      {},
    );
    expect(r).toMatchObject({
      ok: true,
      options: { backend: 'host', cameraSources: ['/dev/video0', 'rtsp://cam/1'] },
    });
  });

  it('takes the unique id of a camera shared with other devices for the sim backend', () => {
    expect(
      parseCli(['--server', 'http://h:1', '--token', 't', '--shared-camera', 'usb-3-lobby'], {}),
    ).toMatchObject({ ok: true, options: { backend: 'sim', sharedCamera: 'usb-3-lobby' } });
  });

  it('takes simulated failures for the sim backend', () => {
    expect(
      parseCli(['--server', 'http://h:1', '--token', 't', '--sim-fault', 'inference-connection'], {}),
    ).toMatchObject({ ok: true, options: { backend: 'sim', simFaults: ['inference-connection'] } });
    expect(parseCli(['--server', 'http://h:1', '--token', 't'], {})).toMatchObject({
      ok: true,
      options: { simFaults: [] },
    });
  });

  it.each([
    [['--server', 'http://h:1', '--token', 't', '--sim-fault', 'gpu-fire'], /--sim-fault must be one of/],
    [
      ['--server', 'http://h:1', '--token', 't', '--backend', 'host', '--sim-fault', 'inference-connection'],
      /--sim-fault applies to --backend sim only/,
    ],
    [['--server', 'http://h:1', '--token', 't', '--shared-camera', 'a b'], /--shared-camera must be/],
    [['--server', 'http://h:1', '--token', 't', '--backend', 'host', '--shared-camera', 'x'], /sim only/],
    [['--token', 't'], /--server/],
    [['--server', 'http://h:1'], /--token/],
    [['--server', 'ftp://h', '--token', 't'], /--server/],
    [['--server', 'http://h:1', '--token', 't', '--cameras', '9'], /2–4/],
    [['--server', 'http://h:1', '--token', 't', '--backend', 'gpu'], /host or sim/],
    [['--server', 'http://h:1', '--token', 't', '--camera-source', 'x.mp4'], /host only/],
    [['--server', 'http://h:1', '--token', 't', '--bogus'], /bogus/],
  ])('refuses %j with a message naming the problem', (argv, message) => {
    const r = parseCli(argv, {});
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });
});
