/** Runs short-lived tools (nvidia-smi, ffmpeg -version) with a time limit. */
import { execFile, spawnSync } from 'node:child_process';

/** stdout of `command args`, or null when it is missing, fails or exceeds `timeoutMs`. */
export function tryExec(command: string, args: readonly string[], timeoutMs = 3_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, windowsHide: true, maxBuffer: 1 << 20 }, (err, stdout) => {
      resolve(err ? null : stdout);
    });
  });
}

let ffmpegAvailable: boolean | undefined;
/** Whether `ffmpeg` runs on this machine (checked once, synchronously: ~50 ms the first time). */
export function hasFfmpeg(): boolean {
  ffmpegAvailable ??=
    spawnSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return ffmpegAvailable;
}
