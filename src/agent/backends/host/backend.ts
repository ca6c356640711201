/**
 * The host backend (ARCHITECTURE "host"): the real machine. Metrics from `systeminformation`, GPUs from
 * `nvidia-smi` (x86) or `tegrastats` (Jetson) when present, cameras from ffmpeg sources (`--camera-source`).
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import si from 'systeminformation';
import type { Logger } from '../../log';
import type { Backend, JtopHealth, SystemInformation, Usages } from '../types';
import { hasFfmpeg } from './exec';
import { FfmpegCamera } from './ffmpegCamera';
import { readNvidiaGpus, readTegrastats } from './gpu';

export interface HostBackendOptions {
  /** ffmpeg sources: file paths, rtsp:// URLs, /dev/videoN. */
  cameraSources: readonly string[];
  /** JetPack version the server knows for this device (device/me), reported by jtop-health. */
  jetpack?: string | null;
  logger: Logger;
}

/** The Jetson board name from the device tree, or null on other machines. */
export function jetsonModel(): string | null {
  try {
    if (existsSync('/proc/device-tree/model')) {
      const model = readFileSync('/proc/device-tree/model', 'utf8').replace(/\0/g, '').trim();
      if (/jetson|tegra/i.test(model)) return model;
    }
    if (existsSync('/etc/nv_tegra_release')) return 'NVIDIA Jetson';
  } catch {
    // unreadable: not a Jetson we can recognise
  }
  return null;
}

/** Creates the host backend. Cameras are listed even when ffmpeg is missing; starting them then fails. */
export function createHostBackend(options: HostBackendOptions): Backend {
  const board = jetsonModel();
  const kind = board ? 'jetson' : 'x86';
  const cameras = options.cameraSources.map((s, i) => new FfmpegCamera(s, i + 1, options.logger));
  if (cameras.length > 0 && !hasFfmpeg()) {
    options.logger.warn('ffmpeg is not installed: cameras are listed but cannot stream until it is');
  }
  const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

  return {
    name: 'host',
    kind,
    cameras,
    async usages(): Promise<Usages> {
      const [load, mem, temp] = await Promise.all([si.currentLoad(), si.mem(), si.cpuTemperature()]);
      let gpus: Usages['gpus'] = [];
      if (kind === 'x86') {
        gpus = (await readNvidiaGpus()).map(({ driver_version: _d, ...g }) => g);
      } else {
        const t = await readTegrastats();
        if (t && t.gpu_utilisation !== null) {
          // Jetson GPUs share system memory.
          gpus = [
            {
              name: board ?? 'Jetson GPU',
              utilisation: t.gpu_utilisation,
              memory_used_mb: t.ram_used_mb ?? mb(mem.total - mem.available),
              memory_total_mb: t.ram_total_mb ?? mb(mem.total),
            },
          ];
        }
      }
      const cpu = Number.isFinite(load.currentLoad) ? Math.min(100, Math.max(0, load.currentLoad)) : 0;
      return {
        cpu: Math.round(cpu * 10) / 10,
        memory_used_mb: mb(mem.total - mem.available),
        memory_total_mb: mb(mem.total),
        gpus,
        temperature_c: typeof temp.main === 'number' && temp.main > -100 ? temp.main : null,
      };
    },
    async systemInformation(): Promise<SystemInformation> {
      const [osInfo, cpu, mem] = await Promise.all([si.osInfo(), si.cpu(), si.mem()]);
      let gpus: SystemInformation['gpus'] = (await readNvidiaGpus()).map((g) => ({
        name: g.name,
        driver_version: g.driver_version,
      }));
      if (gpus.length === 0) {
        const graphics = await si
          .graphics()
          .catch(() => ({ controllers: [] as si.Systeminformation.GraphicsControllerData[] }));
        gpus = graphics.controllers.map((c) => ({
          name: c.model || c.vendor || 'GPU',
          driver_version: c.driverVersion || null,
        }));
      }
      return {
        hostname: osInfo.hostname || os.hostname(),
        os: `${osInfo.distro} ${osInfo.release}`.trim(),
        kernel: osInfo.kernel || os.release(),
        cpu_model: `${cpu.manufacturer} ${cpu.brand}`.trim(),
        cpu_cores: cpu.cores || os.cpus().length,
        memory_total_mb: mb(mem.total),
        gpus,
        arch: osInfo.arch || os.arch(),
      };
    },
    async jtop(): Promise<JtopHealth> {
      const t = kind === 'jetson' ? await readTegrastats() : null;
      if (!t) {
        return {
          available: false,
          board,
          jetpack: options.jetpack ?? null,
          gpu_utilisation: null,
          power_mw: null,
          temperatures_c: {},
        };
      }
      return {
        available: true,
        board,
        jetpack: options.jetpack ?? null,
        gpu_utilisation: t.gpu_utilisation,
        power_mw: t.power_mw,
        temperatures_c: t.temperatures_c,
      };
    },
    async close() {
      for (const c of cameras) c.close();
    },
  };
}
