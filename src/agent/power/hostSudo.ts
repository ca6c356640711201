/**
 * Checking a sudo password on this machine for real (§7 check-sudo, host): `sudo -S -k -v -p <marker>` with the
 * password written to its stdin (never on a command line, never logged). `-k` forgets cached credentials so the
 * password is really asked; `-p` sets a prompt marker, so we can tell whether sudo asked for it at all.
 *
 * Outcomes (SudoCheck.outcome):
 *  - 'accepted': sudo asked for the password and accepted it;
 *  - 'wrong': sudo refused it (or the user may not use sudo);
 *  - 'absent': there is no sudo on this machine;
 *  - 'unasked': sudo succeeded without asking (root, NOPASSWD): the password proves nothing, so it is not
 *    taken as valid;
 *  - 'timeout': sudo did not finish within the time-out (killed).
 * Only 'accepted' is valid; check-sudo answers every other one with "Invalid Password." (the log says why).
 */
import { spawn } from 'node:child_process';

export type SudoOutcome = 'accepted' | 'wrong' | 'absent' | 'unasked' | 'timeout';

/** A marker prompt that cannot be mistaken for sudo's other words. */
const PROMPT = '[edge-agent-sudo-prompt]';
/** Default time allowed for one check, ms (sudo may pause ~2 s after a wrong password). */
export const SUDO_CHECK_TIMEOUT_MS = 10_000;

export interface SudoCheckOptions {
  /** The sudo program (tests give a stand-in); default 'sudo'. */
  sudo?: string;
  timeoutMs?: number;
}

/** Checks `password` with sudo; never rejects. */
export function checkSudoPassword(password: string, options: SudoCheckOptions = {}): Promise<SudoOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: SudoOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    let stderr = '';
    const child = spawn(options.sudo ?? 'sudo', ['-S', '-k', '-v', '-p', PROMPT], {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done('timeout');
    }, options.timeoutMs ?? SUDO_CHECK_TIMEOUT_MS);
    child.on('error', (err: NodeJS.ErrnoException) => done(err.code === 'ENOENT' ? 'absent' : 'wrong'));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('close', (code) => {
      const asked = stderr.includes(PROMPT);
      done(code === 0 ? (asked ? 'accepted' : 'unasked') : 'wrong');
    });
    // One line, then end of input: a wrong password cannot make sudo wait for another try.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${password}\n`);
  });
}
