/**
 * GPU and Jetson readings from the vendor tools when they are installed: `nvidia-smi` (x86) and
 * `tegrastats` (Jetson). Missing tools give empty readings, never errors.
 */
import { spawn } from 'node:child_process';
import type { GpuUsage } from '../../../protocol';
import { tryExec } from './exec';

/** One GPU as nvidia-smi reports it; memory in MiB, utilisation in %. */
export interface NvidiaGpu extends GpuUsage {
  driver_version: string | null;
}

/** Parses `nvidia-smi --query-gpu=name,utilization.gpu,memory.used,memory.total,driver_version --format=csv,noheader,nounits`. */
export function parseNvidiaSmi(csv: string): NvidiaGpu[] {
  const num = (s: string | undefined) => {
    const n = Number((s ?? '').trim());
    return Number.isFinite(n) ? n : 0;
  };
  return csv
    .split('\n')
    .map((line) => line.split(',').map((s) => s.trim()))
    .filter((cols) => cols.length >= 4 && cols[0])
    .map((cols) => ({
      name: cols[0] as string,
      utilisation: Math.min(100, Math.max(0, num(cols[1]))),
      memory_used_mb: Math.max(0, num(cols[2])),
      memory_total_mb: Math.max(0, num(cols[3])),
      driver_version: cols[4] && cols[4] !== '[N/A]' ? cols[4] : null,
    }));
}

/** GPUs from nvidia-smi; [] when it is not installed or fails. */
export async function readNvidiaGpus(): Promise<NvidiaGpu[]> {
  const out = await tryExec('nvidia-smi', [
    '--query-gpu=name,utilization.gpu,memory.used,memory.total,driver_version',
    '--format=csv,noheader,nounits',
  ]);
  return out ? parseNvidiaSmi(out) : [];
}

/** One tegrastats line: GPU load in %, RAM in MiB, power in mW, temperatures in °C. */
export interface TegraStats {
  gpu_utilisation: number | null;
  ram_used_mb: number | null;
  ram_total_mb: number | null;
  power_mw: number | null;
  temperatures_c: Record<string, number>;
}

/**
 * Parses a tegrastats line, e.g.
 * `RAM 2034/7620MB ... GR3D_FREQ 12% cpu@45.5C gpu@44C ... VDD_IN 4242mW/4242mW ...`.
 */
export function parseTegrastats(line: string): TegraStats {
  const gpu = /GR3D_FREQ (\d+)%/.exec(line);
  const ram = /RAM (\d+)\/(\d+)MB/.exec(line);
  const power = /(?:VDD_IN|POM_5V_IN) (\d+)(?:mW)?\//.exec(line);
  const temperatures_c: Record<string, number> = {};
  for (const m of line.matchAll(/([A-Za-z0-9_]+)@(-?\d+(?:\.\d+)?)C\b/g)) {
    const t = Number(m[2]);
    if (t > -200) temperatures_c[(m[1] as string).toUpperCase()] = t;
  }
  return {
    gpu_utilisation: gpu ? Number(gpu[1]) : null,
    ram_used_mb: ram ? Number(ram[1]) : null,
    ram_total_mb: ram ? Number(ram[2]) : null,
    power_mw: power ? Number(power[1]) : null,
    temperatures_c,
  };
}

/** Reads one tegrastats line (tegrastats runs until killed); null when missing or silent for 3 s. */
export function readTegrastats(): Promise<TegraStats | null> {
  return new Promise((resolve) => {
    let done = false;
    let buffer = '';
    const child = spawn('tegrastats', ['--interval', '500'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const finish = (value: TegraStats | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGTERM');
      resolve(value);
    };
    const timer = setTimeout(() => finish(null), 3_000);
    child.on('error', () => finish(null));
    child.on('exit', () => finish(null));
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      const nl = buffer.indexOf('\n');
      if (nl >= 0) finish(parseTegrastats(buffer.slice(0, nl)));
    });
  });
}
