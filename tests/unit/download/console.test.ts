/**
 * The download page's pure view (src/console/features/download/selectors.ts), the install commands
 * (src/protocol/download.ts: a token with a quote stays one shell word), and the six languages.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { downloadMachine, type DownloadInfo } from '../../../machines/download/download.machine';
import { ch } from '../../../src/console/features/download/languages/ch';
import { de } from '../../../src/console/features/download/languages/de';
import { en } from '../../../src/console/features/download/languages/en';
import { es } from '../../../src/console/features/download/languages/es';
import { fr } from '../../../src/console/features/download/languages/fr';
import { jp } from '../../../src/console/features/download/languages/jp';
import { downloadToView, REQUIREMENTS } from '../../../src/console/features/download/selectors';
import { installCommands } from '../../../src/protocol/download';

describe('download view and commands', () => {
  it('maps the machine to the page', async () => {
    const actor = createActor(
      downloadMachine.provide({
        actors: {
          loadInfo: fromPromise<DownloadInfo>(async () => ({
            release: null,
            server: 'http://s',
            install_script: 'http://s/x',
          })),
        },
      }),
    ).start();
    expect(downloadToView(actor.getSnapshot())).toMatchObject({ state: 'idle', server: null, busy: false });
    actor.send({ type: 'download.load' });
    expect(downloadToView(actor.getSnapshot()).busy).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(downloadToView(actor.getSnapshot())).toMatchObject({
      state: 'ready',
      server: 'http://s',
      release: null,
    });
    actor.send({ type: 'device.create', label: '', kind: 'x86' });
    expect(downloadToView(actor.getSnapshot())).toMatchObject({ state: 'ready', invalid: true });
  });

  it('quotes the token as one shell word', () => {
    const c = installCommands('http://127.0.0.1:8080', "a'b c", 'x86');
    const echoed = execFileSync('sh', [
      '-c',
      c.npm.replace(/ npm run agent.*$/, ' sh -c \'printf %s "$AGENT_TOKEN"\''),
    ]);
    expect(echoed.toString()).toBe("a'b c");
    expect(c.curl).toBe(
      `curl -fsSL http://127.0.0.1:8080/api/download/install.sh | AGENT_TOKEN='a'\\''b c' sh`,
    );
  });

  it('names Node, ffmpeg, Docker and JetPack in the requirements, in six languages', () => {
    expect(REQUIREMENTS.jetson).toContain('reqJetpack');
    expect(REQUIREMENTS.x86).toEqual(expect.arrayContaining(['reqNode', 'reqFfmpeg', 'reqDocker']));
    for (const lang of [ch, es, jp, de, fr]) expect(Object.keys(lang).sort()).toEqual(Object.keys(en).sort());
  });
});
