/**
 * A simulated JupyterLab for the `sim` container engine (spec §1 "containers (including Jupyter)", §7
 * request_remote_device): a real HTTP + WebSocket server on 127.0.0.1 so the console's remote proxy and
 * tunnel are exercised end to end. It says plainly that it is simulated. Everything is served under its
 * base_url (the container's remoteBasePath); anything outside answers 404.
 *
 *   GET  <base>                          HTML page: "Code" textarea, "Run" button, live output region
 *   GET  <base>api/status                { started, last_activity, connections, kernels }
 *   GET  <base>api/kernels               [Kernel]
 *   POST <base>api/kernels               201 Kernel (at most MAX_KERNELS)
 *   DELETE <base>api/kernels/<id>        204
 *   WS   <base>api/kernels/<id>/channels Jupyter messages (JSON, `channel` field): execute_request →
 *        status busy, stream (print of a literal) or execute_result (integer arithmetic, else the code
 *        echoed) or error (ZeroDivisionError), status idle (iopub), execute_reply (shell), each with
 *        parent_header = the request's header.
 *
 * Code is never evaluated: arithmetic is parsed by a small grammar (+ - * / and parentheses on integers).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';

/** Page title and heading: says what this is. */
export const SIM_JUPYTER_TITLE = 'Simulated JupyterLab — sim backend';
/** Kernels one server keeps at most. */
export const MAX_KERNELS = 20;
/** Longest code of an execute_request, characters. */
export const MAX_CODE_CHARS = 10_000;

/** A running simulated Jupyter server. */
export interface SimJupyterServer {
  /** Port on 127.0.0.1. */
  readonly port: number;
  readonly baseUrl: string;
  /** Closes the server and every socket. Idempotent. */
  close(): Promise<void>;
}

/** What running one cell gives (a Jupyter iopub message kind). */
export type CellOutcome =
  | { kind: 'stream'; text: string }
  | { kind: 'result'; text: string }
  | { kind: 'error'; ename: string; evalue: string }
  | { kind: 'none' };

type Num = { int: bigint } | { float: number };

class ArithmeticError extends Error {
  constructor(
    readonly ename: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses and computes integer arithmetic (+ - * / parentheses, unary minus) like Python; null when not arithmetic. */
export function arithmetic(source: string): Num | null {
  const tokens = source.match(/\d+|[-+*/()]|\S/g) ?? [];
  if (tokens.length === 0 || tokens.some((t) => !/^(\d+|[-+*/()])$/.test(t))) return null;
  let at = 0;
  let depth = 0;
  const toFloat = (n: Num): number => ('int' in n ? Number(n.int) : n.float);
  const apply = (op: string, a: Num, b: Num): Num => {
    if (op === '/') {
      const d = toFloat(b);
      if (d === 0) throw new ArithmeticError('ZeroDivisionError', 'division by zero');
      return { float: toFloat(a) / d };
    }
    if ('int' in a && 'int' in b) {
      return { int: op === '+' ? a.int + b.int : op === '-' ? a.int - b.int : a.int * b.int };
    }
    const x = toFloat(a);
    const y = toFloat(b);
    return { float: op === '+' ? x + y : op === '-' ? x - y : x * y };
  };
  const fail = (): never => {
    throw new ArithmeticError('SyntaxError', 'invalid syntax');
  };
  const factor = (): Num => {
    const t = tokens[at++];
    if (t === undefined) return fail();
    if (t === '-' || t === '+') {
      const v = factor();
      if (t === '+') return v;
      return 'int' in v ? { int: -v.int } : { float: -v.float };
    }
    if (t === '(') {
      if (++depth > 100) fail();
      const v = expr();
      if (tokens[at++] !== ')') fail();
      depth--;
      return v;
    }
    if (/^\d+$/.test(t)) return { int: BigInt(t) };
    return fail();
  };
  const term = (): Num => {
    let v = factor();
    while (tokens[at] === '*' || tokens[at] === '/') v = apply(tokens[at++]!, v, factor());
    return v;
  };
  const expr = (): Num => {
    let v = term();
    while (tokens[at] === '+' || tokens[at] === '-') v = apply(tokens[at++]!, v, term());
    return v;
  };
  const v = expr();
  if (at !== tokens.length) fail();
  return v;
}

/** Python's repr of a number (floats keep a '.0'). */
const repr = (n: Num): string =>
  'int' in n
    ? n.int.toString()
    : Number.isInteger(n.float) && Math.abs(n.float) < 1e16
      ? n.float.toFixed(1)
      : String(n.float);

/** Runs one cell: print(<string or number literal or arithmetic>), arithmetic, or echo. Never throws. */
export function runCell(code: string): CellOutcome {
  const src = code.trim();
  if (!src) return { kind: 'none' };
  try {
    const print = /^print\(([\s\S]*)\)$/.exec(src);
    if (print) {
      const arg = print[1]!.trim();
      const str = /^(['"])((?:(?!\1)[^\\\n])*)\1$/.exec(arg);
      if (str) return { kind: 'stream', text: `${str[2]}\n` };
      const n = arithmetic(arg);
      if (n) return { kind: 'stream', text: `${repr(n)}\n` };
      return { kind: 'error', ename: 'NameError', evalue: 'the simulated kernel prints literals only' };
    }
    const n = /^[\d\s()+\-*/]+$/.test(src) ? arithmetic(src) : null;
    return n ? { kind: 'result', text: repr(n) } : { kind: 'result', text: src };
  } catch (err) {
    if (err instanceof ArithmeticError) return { kind: 'error', ename: err.ename, evalue: err.message };
    return { kind: 'error', ename: 'Error', evalue: String(err) };
  }
}

/** The page, with the base path and a CSP nonce filled in. */
function page(baseUrl: string, nonce: string): string {
  const base = JSON.stringify(baseUrl).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SIM_JUPYTER_TITLE}</title>
<style nonce="${nonce}">
body { font-family: system-ui, sans-serif; margin: 2rem; max-width: 48rem; color: #1a1a1a; }
textarea { display: block; width: 100%; font-family: ui-monospace, monospace; font-size: 1rem; margin: .25rem 0 .5rem; }
button { font-size: 1rem; padding: .4rem 1.2rem; }
pre { background: #f4f4f4; border: 1px solid #ccc; padding: .75rem; min-height: 2.5rem; white-space: pre-wrap; }
.note { color: #555; }
</style>
</head>
<body>
<main>
<h1>${SIM_JUPYTER_TITLE}</h1>
<p class="note">This is not JupyterLab: the edge console's simulated device stands in for it. The kernel prints
literals (<code>print("hello")</code>) and computes integer arithmetic (<code>(2 + 3) * 7</code>).</p>
<form id="cell">
<label for="code">Code</label>
<textarea id="code" name="code" rows="4">print("hello from the sim kernel")</textarea>
<button type="submit">Run</button>
</form>
<h2 id="output-title">Output</h2>
<pre id="output" role="status" aria-live="polite" aria-labelledby="output-title"></pre>
<p id="kernel-state">Kernel: starting…</p>
</main>
<script nonce="${nonce}">
(() => {
  const base = ${base};
  const out = document.getElementById('output');
  const state = document.getElementById('kernel-state');
  const session = Math.random().toString(16).slice(2);
  let ws = null;
  let counter = 0;
  const show = (text) => { out.textContent += text; };
  const connect = async () => {
    try {
      const res = await fetch(base + 'api/kernels', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      const kernel = await res.json();
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      ws = new WebSocket(proto + '//' + location.host + base + 'api/kernels/' + encodeURIComponent(kernel.id) + '/channels');
      ws.onopen = () => { state.textContent = 'Kernel: idle'; };
      ws.onclose = () => { state.textContent = 'Kernel: disconnected'; };
      ws.onmessage = (event) => {
        let msg;
        try { msg = JSON.parse(event.data); } catch { return; }
        const type = msg && msg.header && msg.header.msg_type;
        const c = msg.content || {};
        if (type === 'status') state.textContent = 'Kernel: ' + c.execution_state;
        else if (type === 'stream') show(c.text);
        else if (type === 'execute_result') show(((c.data || {})['text/plain'] || '') + '\\n');
        else if (type === 'error') show(c.ename + ': ' + c.evalue + '\\n');
      };
    } catch (err) {
      state.textContent = 'Kernel: could not start (' + err.message + ')';
    }
  };
  document.getElementById('cell').addEventListener('submit', (event) => {
    event.preventDefault();
    out.textContent = '';
    if (!ws || ws.readyState !== WebSocket.OPEN) { show('The kernel is not connected.\\n'); return; }
    ws.send(JSON.stringify({
      header: { msg_id: session + '-' + (++counter), msg_type: 'execute_request', session, username: '', date: new Date().toISOString(), version: '5.3' },
      parent_header: {}, metadata: {}, channel: 'shell', buffers: [],
      content: { code: document.getElementById('code').value, silent: false, store_history: true, user_expressions: {}, allow_stdin: false, stop_on_error: true },
    }));
  });
  void connect();
})();
</script>
</body>
</html>
`;
}

interface Kernel {
  id: string;
  name: string;
  last_activity: string;
  execution_state: 'idle' | 'busy';
  connections: number;
  executionCount: number;
}

const kernelModel = (k: Kernel) => ({
  id: k.id,
  name: k.name,
  last_activity: k.last_activity,
  execution_state: k.execution_state,
  connections: k.connections,
});

/**
 * Starts a simulated Jupyter server on 127.0.0.1 (port 0: a free one) serving under `baseUrl` (must start
 * and end with '/'). Rejects when the base is not a path or the server cannot listen.
 */
export async function startSimJupyter(baseUrl: string): Promise<SimJupyterServer> {
  if (!/^\/([A-Za-z0-9._~%!$&'()*+,;=:@-]+\/)*$/.test(baseUrl)) {
    throw new Error(`Not a base path: ${JSON.stringify(baseUrl)}`);
  }
  const started = new Date().toISOString();
  let lastActivity = started;
  const kernels = new Map<string, Kernel>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const touch = () => {
    lastActivity = new Date().toISOString();
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
    const text = type === 'application/json' ? JSON.stringify(body) : String(body);
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
    res.end(text);
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith(baseUrl)) {
      send(res, 404, 'Not Found', 'text/plain');
      return;
    }
    const rest = path.slice(baseUrl.length);
    const method = req.method ?? 'GET';
    req.resume();
    touch();
    if ((rest === '' || rest === 'lab') && (method === 'GET' || method === 'HEAD')) {
      const nonce = randomBytes(16).toString('base64');
      res.setHeader(
        'content-security-policy',
        `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'`,
      );
      send(res, 200, page(baseUrl, nonce), 'text/html');
      return;
    }
    if (rest === 'api/status' && method === 'GET') {
      let connections = 0;
      for (const k of kernels.values()) connections += k.connections;
      send(res, 200, { started, last_activity: lastActivity, connections, kernels: kernels.size });
      return;
    }
    if (rest === 'api/kernels' && method === 'GET') {
      send(res, 200, [...kernels.values()].map(kernelModel));
      return;
    }
    if (rest === 'api/kernels' && method === 'POST') {
      if (kernels.size >= MAX_KERNELS) {
        send(res, 503, { message: `At most ${MAX_KERNELS} kernels` });
        return;
      }
      const k: Kernel = {
        id: randomUUID(),
        name: 'python3',
        last_activity: new Date().toISOString(),
        execution_state: 'idle',
        connections: 0,
        executionCount: 0,
      };
      kernels.set(k.id, k);
      send(res, 201, kernelModel(k));
      return;
    }
    const one = /^api\/kernels\/([0-9a-f-]{36})$/.exec(rest);
    if (one && method === 'DELETE' && kernels.has(one[1]!)) {
      kernels.delete(one[1]!);
      for (const ws of wss.clients)
        if ((ws as WebSocket & { kernelId?: string }).kernelId === one[1]) ws.close();
      res.writeHead(204).end();
      return;
    }
    send(res, 404, { message: 'Not Found' });
  });

  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const m = path.startsWith(baseUrl)
      ? /^api\/kernels\/([0-9a-f-]{36})\/channels$/.exec(path.slice(baseUrl.length))
      : null;
    const kernel = m ? kernels.get(m[1]!) : undefined;
    if (!kernel) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      (ws as WebSocket & { kernelId?: string }).kernelId = kernel.id;
      kernel.connections++;
      ws.on('close', () => {
        kernel.connections = Math.max(0, kernel.connections - 1);
      });
      ws.on('error', () => ws.terminate());
      ws.on('message', (data) => onMessage(ws, kernel, data.toString()));
    });
  });

  const onMessage = (ws: WebSocket, kernel: Kernel, text: string) => {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg !== 'object' || msg === null) return;
    const header = (msg as { header?: unknown }).header;
    if (typeof header !== 'object' || header === null) return;
    const { msg_type: type, session } = header as { msg_type?: unknown; session?: unknown };
    const reply = (channel: 'iopub' | 'shell', msgType: string, content: unknown) => {
      if (ws.readyState !== ws.OPEN) return;
      ws.send(
        JSON.stringify({
          channel,
          header: {
            msg_id: randomUUID(),
            msg_type: msgType,
            session: typeof session === 'string' ? session.slice(0, 200) : '',
            username: 'sim',
            date: new Date().toISOString(),
            version: '5.3',
          },
          parent_header: header,
          metadata: {},
          content,
          buffers: [],
        }),
      );
    };
    touch();
    kernel.last_activity = lastActivity;
    if (type === 'kernel_info_request') {
      reply('shell', 'kernel_info_reply', {
        status: 'ok',
        protocol_version: '5.3',
        implementation: 'sim',
        implementation_version: '1.0',
        language_info: { name: 'python', version: '3.11', mimetype: 'text/x-python', file_extension: '.py' },
        banner: SIM_JUPYTER_TITLE,
      });
      return;
    }
    if (type !== 'execute_request') return;
    const raw = (msg as { content?: { code?: unknown } }).content?.code;
    const code = typeof raw === 'string' ? raw.slice(0, MAX_CODE_CHARS) : '';
    const count = ++kernel.executionCount;
    kernel.execution_state = 'busy';
    reply('iopub', 'status', { execution_state: 'busy' });
    reply('iopub', 'execute_input', { code, execution_count: count });
    const outcome = runCell(code);
    if (outcome.kind === 'stream') reply('iopub', 'stream', { name: 'stdout', text: outcome.text });
    if (outcome.kind === 'result') {
      reply('iopub', 'execute_result', {
        execution_count: count,
        data: { 'text/plain': outcome.text },
        metadata: {},
      });
    }
    if (outcome.kind === 'error') {
      reply('iopub', 'error', {
        ename: outcome.ename,
        evalue: outcome.evalue,
        traceback: [`${outcome.ename}: ${outcome.evalue}`],
      });
    }
    kernel.execution_state = 'idle';
    reply('iopub', 'status', { execution_state: 'idle' });
    reply(
      'shell',
      'execute_reply',
      outcome.kind === 'error'
        ? {
            status: 'error',
            execution_count: count,
            ename: outcome.ename,
            evalue: outcome.evalue,
            traceback: [],
          }
        : { status: 'ok', execution_count: count, user_expressions: {}, payload: [] },
    );
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    port,
    baseUrl,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
