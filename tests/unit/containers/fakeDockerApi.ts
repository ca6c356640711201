/**
 * A fake Docker Engine API on a unix socket, answering in Docker's own wire format (Engine API v1.43 shapes):
 * /_ping, images (inspect, list, create = pull as chunked newline-delimited JSON), containers (create, start,
 * stop, delete, list with filters, inspect, logs with the multiplexed stream framing), exec create/start.
 * Every request is recorded (method, path, query, JSON body) so tests can assert what the adapter sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface FakeContainer {
  Id: string;
  Name: string;
  Image: string;
  Labels: Record<string, string>;
  State: 'created' | 'running' | 'exited';
  Tty: boolean;
  Created: number;
  /** container port → host port (published on 127.0.0.1 while running). */
  bindings: Record<number, number>;
  /** Log lines: 1 stdout, 2 stderr. */
  log: [1 | 2, string][];
  HostConfig: Record<string, unknown>;
}

export interface FakeDocker {
  socketPath: string;
  requests: RecordedRequest[];
  /** image ref → GET /images/{ref}/json answer. */
  images: Map<string, Record<string, unknown>>;
  containers: Map<string, FakeContainer>;
  /** ref → lines of the pull stream (an HTTP 404 when absent). */
  pulls: Map<string, string[]>;
  /** Delay between pull lines, ms. */
  pullLineDelayMs: number;
  /** Pull streams the client closed before their end. */
  abortedPulls: string[];
  /** Host port Docker "picks" for the next published port. */
  nextHostPort: number;
  /** Exit code of started execs (GET /exec/{id}/json); null: still running. */
  execExitCode: number | null;
  close(): Promise<void>;
}

/** Docker's recorded answer to GET /images/{name}/json (trimmed to the fields the adapter reads and a few more). */
export const imageInspect = (ref: string, size = 1_234_567_890) => ({
  Id: `sha256:${'ab'.repeat(32)}`,
  RepoTags: [ref],
  RepoDigests: [`${ref.split(':')[0]}@sha256:${'cd'.repeat(32)}`],
  Parent: '',
  Comment: '',
  Created: '2024-05-02T09:41:27.123456789Z',
  DockerVersion: '',
  Author: '',
  Architecture: 'amd64',
  Os: 'linux',
  Size: size,
  RootFS: { Type: 'layers', Layers: [] },
});

/** A realistic pull stream of two layers (plus one already present), as Docker writes it. */
export function pullLines(ref: string): string[] {
  const [repo, tag] = [ref.slice(0, ref.lastIndexOf(':')), ref.slice(ref.lastIndexOf(':') + 1)];
  const a = '4abcf2066143';
  const b = '8a1e25ce7c4f';
  const c = 'd3c894b5b2b0';
  const l = (o: object) => JSON.stringify(o);
  return [
    l({ status: `Pulling from ${repo}`, id: tag }),
    l({ status: 'Already exists', progressDetail: {}, id: c }),
    l({ status: 'Pulling fs layer', progressDetail: {}, id: a }),
    l({ status: 'Pulling fs layer', progressDetail: {}, id: b }),
    l({ status: 'Waiting', progressDetail: {}, id: b }),
    l({
      status: 'Downloading',
      progressDetail: { current: 1_048_576, total: 4_194_304 },
      progress: '[============>                                      ]  1.049MB/4.194MB',
      id: a,
    }),
    l({
      status: 'Downloading',
      progressDetail: { current: 4_194_304, total: 4_194_304 },
      progress: '[==================================================>]  4.194MB/4.194MB',
      id: a,
    }),
    l({ status: 'Verifying Checksum', progressDetail: {}, id: a }),
    l({ status: 'Download complete', progressDetail: {}, id: a }),
    l({ status: 'Downloading', progressDetail: { current: 524_288, total: 2_097_152 }, id: b }),
    l({
      status: 'Extracting',
      progressDetail: { current: 2_097_152, total: 4_194_304 },
      progress: '[=========================>                         ]  2.097MB/4.194MB',
      id: a,
    }),
    l({ status: 'Extracting', progressDetail: { current: 4_194_304, total: 4_194_304 }, id: a }),
    l({ status: 'Pull complete', progressDetail: {}, id: a }),
    l({ status: 'Downloading', progressDetail: { current: 2_097_152, total: 2_097_152 }, id: b }),
    l({ status: 'Download complete', progressDetail: {}, id: b }),
    l({ status: 'Extracting', progressDetail: { current: 2_097_152, total: 2_097_152 }, id: b }),
    l({ status: 'Pull complete', progressDetail: {}, id: b }),
    l({ status: `Digest: sha256:${'ef'.repeat(32)}` }),
    l({ status: `Status: Downloaded newer image for ${ref}` }),
  ];
}

/** Docker's multiplexed stream framing: 8-byte header (stream, 0, 0, 0, big-endian size), then the payload. */
export function frame(stream: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

const hexId = (n: number) => n.toString(16).padStart(8, '0').repeat(8);

/** Starts the fake on a fresh socket in a temp dir. */
export async function startFakeDocker(): Promise<FakeDocker> {
  const dir = mkdtempSync(join(tmpdir(), 'fake-docker-'));
  const socketPath = join(dir, 'docker.sock');
  let counter = 0;
  const fake: FakeDocker = {
    socketPath,
    requests: [],
    images: new Map(),
    containers: new Map(),
    pulls: new Map(),
    pullLineDelayMs: 2,
    abortedPulls: [],
    nextHostPort: 49_153,
    execExitCode: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Api-Version': '1.43',
      Server: 'Docker/24.0.7 (linux)',
    });
    res.end(`${text}\n`);
  };
  const noContent = (res: http.ServerResponse, status = 204) => {
    res.writeHead(status, { 'Api-Version': '1.43' });
    res.end();
  };
  const find = (ref: string): FakeContainer | undefined => {
    const all = [...fake.containers.values()];
    return (
      fake.containers.get(ref) ??
      all.find((c) => c.Name === ref) ??
      (all.filter((c) => c.Id.startsWith(ref)).length === 1
        ? all.find((c) => c.Id.startsWith(ref))
        : undefined)
    );
  };
  const status = (c: FakeContainer) =>
    c.State === 'running' ? 'Up 3 seconds' : c.State === 'exited' ? 'Exited (0) 2 seconds ago' : 'Created';
  const summary = (c: FakeContainer) => ({
    Id: c.Id,
    Names: [`/${c.Name}`],
    Image: c.Image,
    ImageID: `sha256:${'ab'.repeat(32)}`,
    Command: '/bin/bash',
    Created: c.Created,
    Ports:
      c.State === 'running'
        ? Object.entries(c.bindings).map(([p, h]) => ({
            IP: '127.0.0.1',
            PrivatePort: Number(p),
            PublicPort: h,
            Type: 'tcp',
          }))
        : [],
    Labels: c.Labels,
    State: c.State,
    Status: status(c),
    HostConfig: { NetworkMode: 'default' },
    NetworkSettings: { Networks: {} },
    Mounts: [],
  });
  const inspect = (c: FakeContainer) => ({
    Id: c.Id,
    Created: new Date(c.Created * 1000).toISOString(),
    Name: `/${c.Name}`,
    State: { Status: c.State, Running: c.State === 'running', ExitCode: 0 },
    Image: `sha256:${'ab'.repeat(32)}`,
    Config: { Image: c.Image, Labels: c.Labels, Tty: c.Tty, Cmd: ['/bin/bash'] },
    HostConfig: c.HostConfig,
    NetworkSettings: {
      Ports: Object.fromEntries(
        Object.entries(c.bindings).map(([p, h]) => [
          `${p}/tcp`,
          c.State === 'running' ? [{ HostIp: '127.0.0.1', HostPort: String(h) }] : null,
        ]),
      ),
    },
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://docker');
      const path = url.pathname.replace(/^\/v[\d.]+/, '');
      const query = Object.fromEntries(url.searchParams);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // not JSON
      }
      const method = req.method ?? 'GET';
      fake.requests.push({ method, path, query, body });
      let m: RegExpExecArray | null;

      if (path === '/_ping') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Api-Version': '1.43' });
        res.end('OK');
        return;
      }
      if (method === 'GET' && path === '/images/json') {
        json(
          res,
          200,
          [...fake.images.values()].map((i) => ({
            Id: i.Id,
            ParentId: '',
            RepoTags: i.RepoTags,
            RepoDigests: i.RepoDigests,
            Created: Math.floor(Date.parse(String(i.Created)) / 1000),
            Size: i.Size,
            SharedSize: -1,
            Labels: null,
            Containers: -1,
          })),
        );
        return;
      }
      if (method === 'GET' && (m = /^\/images\/(.+)\/json$/.exec(path))) {
        const ref = decodeURIComponent(m[1]!);
        const img = fake.images.get(ref);
        if (img) json(res, 200, img);
        else json(res, 404, { message: `No such image: ${ref}` });
        return;
      }
      if (method === 'POST' && path === '/images/create') {
        const ref = `${query.fromImage}:${query.tag}`;
        const lines = fake.pulls.get(ref);
        if (!lines) {
          json(res, 404, {
            message: `pull access denied for ${query.fromImage}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`,
          });
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json', 'Api-Version': '1.43' });
        let i = 0;
        let ended = false;
        res.on('close', () => {
          if (!ended) fake.abortedPulls.push(ref);
        });
        const next = () => {
          if (res.destroyed) return;
          if (i >= lines.length) {
            ended = true;
            if (!lines.some((l) => l.includes('"error"'))) fake.images.set(ref, imageInspect(ref));
            res.end();
            return;
          }
          res.write(`${lines[i++]}\r\n`);
          setTimeout(next, fake.pullLineDelayMs);
        };
        next();
        return;
      }
      if (method === 'POST' && path === '/containers/create') {
        const b = body as {
          Image: string;
          Labels?: Record<string, string>;
          Tty?: boolean;
          HostConfig?: { PortBindings?: Record<string, unknown> };
        };
        if (!fake.images.has(b.Image)) {
          json(res, 404, { message: `No such image: ${b.Image}` });
          return;
        }
        if (query.name && find(query.name)) {
          json(res, 409, {
            message: `Conflict. The container name "/${query.name}" is already in use by container "${find(query.name)!.Id}". You have to remove (or rename) that container to be able to reuse that name.`,
          });
          return;
        }
        const Id = hexId(++counter);
        const bindings: Record<number, number> = {};
        for (const key of Object.keys(b.HostConfig?.PortBindings ?? {}))
          bindings[parseInt(key, 10)] = fake.nextHostPort++;
        fake.containers.set(Id, {
          Id,
          Name: query.name ?? `eager_turing${counter}`,
          Image: b.Image,
          Labels: b.Labels ?? {},
          State: 'created',
          Tty: b.Tty ?? false,
          Created: 1_763_900_000 + counter,
          bindings,
          log: [],
          HostConfig: (b.HostConfig ?? {}) as Record<string, unknown>,
        });
        json(res, 201, { Id, Warnings: [] });
        return;
      }
      if (method === 'GET' && path === '/containers/json') {
        const filters = query.filters ? (JSON.parse(query.filters) as { id?: string[] }) : {};
        let list = [...fake.containers.values()];
        if (!query.all || query.all === 'false') list = list.filter((c) => c.State === 'running');
        if (filters.id) list = list.filter((c) => filters.id!.some((p) => c.Id.startsWith(p)));
        json(res, 200, list.map(summary));
        return;
      }
      if ((m = /^\/containers\/([^/]+)(\/[a-z]+)?$/.exec(path))) {
        const c = find(decodeURIComponent(m[1]!));
        const action = m[2] ?? '';
        if (!c) {
          json(res, 404, { message: `No such container: ${decodeURIComponent(m[1]!)}` });
          return;
        }
        if (method === 'GET' && action === '/json') return json(res, 200, inspect(c));
        if (method === 'POST' && action === '/start') {
          if (c.State === 'running') return noContent(res, 304);
          c.State = 'running';
          c.log.push([1, `root@${c.Id.slice(0, 12)}:/# `]);
          return noContent(res);
        }
        if (method === 'POST' && action === '/stop') {
          if (c.State !== 'running') return noContent(res, 304);
          c.State = 'exited';
          return noContent(res);
        }
        if (method === 'DELETE' && action === '') {
          fake.containers.delete(c.Id);
          return noContent(res);
        }
        if (method === 'GET' && action === '/logs') {
          const tail = Number(query.tail ?? 'all');
          const lines = Number.isFinite(tail) ? c.log.slice(-tail) : c.log;
          res.writeHead(200, {
            'Content-Type': 'application/vnd.docker.multiplexed-stream',
            'Api-Version': '1.43',
          });
          res.end(
            c.Tty
              ? Buffer.from(lines.map(([, t]) => t).join(''))
              : Buffer.concat(lines.map(([s, t]) => frame(s, t))),
          );
          return;
        }
        if (method === 'POST' && action === '/exec') {
          if (c.State !== 'running') return json(res, 409, { message: `Container ${c.Id} is not running` });
          return json(res, 201, { Id: `exec${hexId(++counter)}`.slice(0, 64) });
        }
      }
      if (method === 'GET' && (m = /^\/exec\/([^/]+)\/json$/.exec(path))) {
        json(res, 200, {
          ID: m[1],
          Running: fake.execExitCode === null,
          ExitCode: fake.execExitCode,
          ProcessConfig: {
            entrypoint: 'jupyter',
            arguments: ['lab'],
            privileged: false,
            tty: false,
            user: '',
          },
          OpenStdin: false,
          OpenStderr: false,
          OpenStdout: false,
          CanRemove: false,
          ContainerID: '',
          DetachKeys: '',
          Pid: 4242,
        });
        return;
      }
      if (method === 'POST' && (m = /^\/exec\/([^/]+)\/start$/.exec(path))) {
        res.writeHead(200, { 'Api-Version': '1.43' });
        res.end();
        return;
      }
      json(res, 404, { message: 'page not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return fake;
}
