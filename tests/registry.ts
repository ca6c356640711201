/**
 * A real registry for the tests (Debian's docker-registry, Distribution 2.8) on a loopback port with a temp
 * storage folder, anonymous or behind token authentication: `withTokenAuth` starts a small token service
 * (the role Harbor's /service/token plays) that checks HTTP Basic credentials and signs RS256 JWTs with an
 * x5c header whose self-signed certificate (made with openssl) is the registry's rootcertbundle. The registry
 * then answers 401 `WWW-Authenticate: Bearer realm=…,service=…,scope=…` and accepts only those tokens.
 */
import { execFileSync } from 'node:child_process';
import { createSign, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startLocalRegistry, type LocalRegistry } from '../src/server/registry/local';

export interface TestRegistry extends LocalRegistry {
  dir: string;
  /** Token requests the token service answered (scopes asked), for assertions. */
  tokenRequests: string[];
  dispose(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/**
 * Starts a test registry. withTokenAuth: { username, password } the token service accepts (anonymous token
 * requests are refused with 401).
 */
export async function startTestRegistry(
  options: { withTokenAuth?: { username: string; password: string } } = {},
): Promise<TestRegistry> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'registry-test-'));
  const tokenRequests: string[] = [];
  let tokenServer: http.Server | null = null;
  let auth: string | undefined;
  if (options.withTokenAuth) {
    const creds = options.withTokenAuth;
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=test-token-issuer',
      ],
      { stdio: 'ignore' },
    );
    const keyPem = readFileSync(key, 'utf8');
    const certDer = Buffer.from(
      readFileSync(cert, 'utf8')
        .replace(/-----[^-]+-----/g, '')
        .replace(/\s+/g, ''),
      'base64',
    );
    const port = await freePort();
    tokenServer = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      const expected = `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`;
      const scopes = url.searchParams.getAll('scope');
      tokenRequests.push(scopes.join(' '));
      if (req.headers.authorization !== expected) {
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"errors":[{"code":"UNAUTHORIZED"}]}');
        return;
      }
      const access = scopes.map((s) => {
        const [type, ...rest] = s.split(':');
        const actions = rest.pop() ?? '';
        return { type, name: rest.join(':'), actions: actions.split(',') };
      });
      const now = Math.floor(Date.now() / 1000);
      const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'RS256', x5c: [certDer.toString('base64')] }));
      const claims = b64url(
        JSON.stringify({
          iss: 'test-issuer',
          sub: creds.username,
          aud: url.searchParams.get('service'),
          exp: now + 300,
          nbf: now - 10,
          iat: now,
          jti: randomUUID(),
          access,
        }),
      );
      const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(keyPem);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ token: `${header}.${claims}.${b64url(signature)}`, expires_in: 300 }));
    });
    await new Promise<void>((r) => tokenServer!.listen(port, '127.0.0.1', () => r()));
    auth = [
      'token:',
      `  realm: http://127.0.0.1:${port}/token`,
      '  service: test-registry',
      '  issuer: test-issuer',
      `  rootcertbundle: ${JSON.stringify(cert)}`,
    ].join('\n');
  }
  const registry = await startLocalRegistry({ dir, auth });
  return {
    ...registry,
    dir,
    tokenRequests,
    async dispose() {
      await registry.close();
      await new Promise<void>((r) => (tokenServer ? tokenServer.close(() => r()) : r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
