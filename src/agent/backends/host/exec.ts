/** Runs short-lived tools (nvidia-smi, ffmpeg -version) with a time limit. */
import { execFile } from 'node:child_process';

/** stdout of `command args`, or null when it is missing, fails or exceeds `timeoutMs`. */
export function tryExec(command: string, args: readonly string[], timeoutMs = 3_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, windowsHide: true, maxBuffer: 1 << 20 }, (err, stdout) => {
      resolve(err ? null : stdout);
    });
  });
}

let ffmpegAvailable: Promise<boolean> | undefined;
/** Whether `ffmpeg` runs on this machine (checked once). */
export function hasFfmpeg(): Promise<boolean> {
  ffmpegAvailable ??= tryExec('ffmpeg', ['-hide_banner', '-version']).then((out) => out !== null);
  return ffmpegAvailable;
}
