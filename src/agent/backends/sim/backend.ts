/**
 * The simulated device backend (ARCHITECTURE "sim"): a Jetson (jtop available, jetpack, shared GPU memory)
 * or an x86 box with an NVIDIA-like GPU, 2–4 synthetic cameras, and smoothly varying load that grows with
 * the number of active streams. Numbers are plausible, not measured.
 */
import type { Backend, JtopHealth, SystemInformation, Usages } from '../types';
import { SimCamera } from './camera';
import { hashSeed } from './scene';

export interface SimBackendOptions {
  deviceId: string;
  kind: 'jetson' | 'x86';
  /** Number of cameras, 2–4 (clamped). */
  cameras: number;
  /** Display label (hostname of the simulated machine). */
  label: string;
  /** Jetson only: JetPack version reported by jtop, e.g. '6.0'. */
  jetpack?: string | null;
  /**
   * unique_id of a physical camera this device shares with others: its first camera reports it and shows
   * the same picture as every other device's camera with that unique_id (§2 camera chooser).
   */
  sharedCamera?: string;
}

/** Creates a simulated device. */
export function createSimBackend(options: SimBackendOptions): Backend & { cameras: readonly SimCamera[] } {
  const count = Math.min(4, Math.max(2, Math.round(options.cameras)));
  const cameras = Array.from(
    { length: count },
    (_, i) => new SimCamera(options.deviceId, i + 1, i === 0 ? options.sharedCamera : undefined),
  );
  const phase = (hashSeed(options.deviceId) % 10_000) / 1000;
  const jetson = options.kind === 'jetson';
  const memoryTotal = jetson ? 7_620 : 32_000;
  const gpuMemoryTotal = jetson ? memoryTotal : 12_288;
  // Slow wave in [0, 1] so charts move; period ~40 s.
  const wave = (offset: number) => 0.5 + 0.5 * Math.sin(Date.now() / 6_400 + phase + offset);
  const clamp = (n: number) => Math.round(Math.min(100, Math.max(0, n)) * 10) / 10;

  const load = (streams: number) => {
    const cpu = clamp(6 + 7 * streams + 10 * wave(0));
    const gpu = clamp(3 + 5 * streams + 15 * wave(1.3));
    const memoryUsed = Math.round(memoryTotal * (0.28 + 0.02 * streams + 0.05 * wave(2.1)));
    const gpuMemoryUsed = jetson
      ? memoryUsed
      : Math.round(gpuMemoryTotal * Math.min(0.95, 0.08 + 0.03 * streams + 0.04 * wave(0.7)));
    const temperature = Math.round((jetson ? 42 : 48) + 0.25 * gpu + 3 * wave(3.3));
    return { cpu, gpu, memoryUsed, gpuMemoryUsed, temperature };
  };

  const gpuName = jetson ? 'Orin (nvgpu)' : 'NVIDIA RTX A2000 (simulated)';

  return {
    name: 'sim',
    kind: options.kind,
    cameras,
    async usages(activeStreams: number): Promise<Usages> {
      const l = load(activeStreams);
      return {
        cpu: l.cpu,
        memory_used_mb: l.memoryUsed,
        memory_total_mb: memoryTotal,
        gpus: [
          {
            name: gpuName,
            utilisation: l.gpu,
            memory_used_mb: l.gpuMemoryUsed,
            memory_total_mb: gpuMemoryTotal,
          },
        ],
        temperature_c: l.temperature,
      };
    },
    async systemInformation(): Promise<SystemInformation> {
      return {
        hostname: options.label || options.deviceId,
        os: jetson ? 'Ubuntu 22.04 (simulated Jetson Linux)' : 'Ubuntu 22.04 (simulated)',
        kernel: jetson ? '5.15.136-tegra' : '6.8.0-sim',
        cpu_model: jetson ? 'ARMv8 Processor rev 1 (v8l) (simulated)' : 'Intel Core i7-12700 (simulated)',
        cpu_cores: jetson ? 6 : 12,
        memory_total_mb: memoryTotal,
        gpus: [{ name: gpuName, driver_version: jetson ? null : '550.54.15' }],
        arch: jetson ? 'arm64' : 'x64',
      };
    },
    async jtop(activeStreams: number): Promise<JtopHealth> {
      if (!jetson) {
        return {
          available: false,
          board: null,
          jetpack: null,
          gpu_utilisation: null,
          power_mw: null,
          temperatures_c: {},
        };
      }
      const l = load(activeStreams);
      return {
        available: true,
        board: 'NVIDIA Jetson Orin Nano Developer Kit (simulated)',
        jetpack: options.jetpack || '6.0',
        gpu_utilisation: l.gpu,
        power_mw: Math.round(4_000 + 60 * l.gpu + 20 * l.cpu),
        temperatures_c: { CPU: l.temperature - 2, GPU: l.temperature, SOC: l.temperature - 1 },
      };
    },
    async close() {
      // Captures are stopped by their owners; nothing else runs.
    },
  };
}
