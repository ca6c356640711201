import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SIM_JUPYTER_TITLE, runCell, startSimJupyter } from '../../../src/agent/containers/simJupyter';
import type { SimJupyterServer } from '../../../src/agent/containers/simJupyter';

const BASE = '/remote/dev-1/0123456789ab/';
let server: SimJupyterServer;
let url: string;

beforeEach(async () => {
  server = await startSimJupyter(BASE);
  url = `http://127.0.0.1:${server.port}`;
});
afterEach(async () => {
  await server.close();
});

interface JupyterMessage {
  channel: string;
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

/** Opens a kernel's channels, sends one execute_request and collects the replies up to execute_reply. */
async function execute(code: string, msgId = 'req-1'): Promise<JupyterMessage[]> {
  const kernel = (await (await fetch(`${url}${BASE}api/kernels`, { method: 'POST', body: '{}' })).json()) as {
    id: string;
  };
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}${BASE}api/kernels/${kernel.id}/channels`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const messages: JupyterMessage[] = [];
  const done = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as JupyterMessage;
      messages.push(m);
      if (m.header.msg_type === 'execute_reply') resolve();
    });
  });
  ws.send(
    JSON.stringify({
      header: { msg_id: msgId, msg_type: 'execute_request', session: 's1', username: '', version: '5.3' },
      parent_header: {},
      metadata: {},
      channel: 'shell',
      content: { code, silent: false },
    }),
  );
  await done;
  ws.close();
  return messages;
}

describe('simulated JupyterLab', () => {
  it('serves a labelled, accessible page that names itself simulated', async () => {
    const res = await fetch(`${url}${BASE}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
    const html = await res.text();
    expect(html).toContain(`<title>${SIM_JUPYTER_TITLE}</title>`);
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<label for="code">Code<\/label>\s*<textarea id="code"/);
    expect(html).toMatch(/<button type="submit">Run<\/button>/);
    expect(html).toMatch(/id="output"[^>]*aria-live="polite"/);
    expect(html).toContain(`const base = "${BASE}"`);
    expect(html).toContain("location.protocol === 'https:' ? 'wss:' : 'ws:'");
  });

  it('serves nothing outside its base_url', async () => {
    for (const path of [
      '/',
      '/remote/dev-1/',
      '/remote/dev-1/0123456789ab',
      '/api/status',
      '/other/api/kernels',
    ]) {
      expect((await fetch(`${url}${path}`)).status).toBe(404);
    }
    expect((await fetch(`${url}${BASE}nope`)).status).toBe(404);
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/kernels/x/channels`);
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });

  it('lists kernels and reports its status', async () => {
    const created = await fetch(`${url}${BASE}api/kernels`, { method: 'POST', body: '{}' });
    expect(created.status).toBe(201);
    const k = (await created.json()) as { id: string; name: string };
    expect(k.name).toBe('python3');
    const list = (await (await fetch(`${url}${BASE}api/kernels`)).json()) as { id: string }[];
    expect(list.map((x) => x.id)).toEqual([k.id]);
    const status = (await (await fetch(`${url}${BASE}api/status`)).json()) as { kernels: number };
    expect(status.kernels).toBe(1);
    expect((await fetch(`${url}${BASE}api/kernels/${k.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('answers print() over a real WebSocket: busy, stream, idle, all with parent_header', async () => {
    const messages = await execute('print("hello sim")', 'abc-1');
    const types = messages.map((m) => m.header.msg_type);
    expect(types).toEqual(['status', 'execute_input', 'stream', 'status', 'execute_reply']);
    expect(messages[0]!.content).toEqual({ execution_state: 'busy' });
    expect(messages[2]!.content).toEqual({ name: 'stdout', text: 'hello sim\n' });
    expect(messages[3]!.content).toEqual({ execution_state: 'idle' });
    expect(messages.every((m) => m.parent_header.msg_id === 'abc-1')).toBe(true);
    expect(messages.map((m) => m.channel)).toEqual(['iopub', 'iopub', 'iopub', 'iopub', 'shell']);
  });

  it('answers arithmetic with execute_result text/plain', async () => {
    const messages = await execute('(2 + 3) * 7 - 10 / 4');
    const result = messages.find((m) => m.header.msg_type === 'execute_result')!;
    expect(result.content).toMatchObject({ data: { 'text/plain': '32.5' }, execution_count: 1 });
  });
});

describe('runCell (no eval)', () => {
  it('prints literals and computes integer arithmetic like Python', () => {
    expect(runCell("print('hi')")).toEqual({ kind: 'stream', text: 'hi\n' });
    expect(runCell('print(6 * 7)')).toEqual({ kind: 'stream', text: '42\n' });
    expect(runCell('1 + 2 * 3')).toEqual({ kind: 'result', text: '7' });
    expect(runCell('-(4 - 10) * 2')).toEqual({ kind: 'result', text: '12' });
    expect(runCell('8 / 2')).toEqual({ kind: 'result', text: '4.0' });
    expect(runCell('99999999999999999999 * 10')).toEqual({ kind: 'result', text: '999999999999999999990' });
    expect(runCell('1 / 0')).toEqual({
      kind: 'error',
      ename: 'ZeroDivisionError',
      evalue: 'division by zero',
    });
    expect(runCell('(1 + 2')).toMatchObject({ kind: 'error', ename: 'SyntaxError' });
    expect(runCell('')).toEqual({ kind: 'none' });
  });

  it('echoes anything else without running it', () => {
    expect(runCell('import os; os.system("rm -rf /")')).toEqual({
      kind: 'result',
      text: 'import os; os.system("rm -rf /")',
    });
    expect(runCell('process.exit(1)')).toEqual({ kind: 'result', text: 'process.exit(1)' });
    expect(runCell('print(open("/etc/passwd").read())')).toMatchObject({ kind: 'error' });
  });
});
