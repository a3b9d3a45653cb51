// Small numeric helpers for the benchmark.
import { sleep } from "../lib/util/sleep.ts";

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Linear-interpolated percentile (q in 0..1) of unsorted samples. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

export function summarize(samples: readonly number[]): Summary {
  return {
    n: samples.length,
    p50: round(percentile(samples, 0.5)),
    p90: round(percentile(samples, 0.9)),
    p99: round(percentile(samples, 0.99)),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    mean: round(samples.reduce((sum, x) => sum + x, 0) / (samples.length || 1)),
  };
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

export { sleep };

/** Resolves when `check` is truthy (polled), or rejects after `timeoutMs`. */
export async function until<T>(check: () => T | undefined | false | null, timeoutMs: number, what: string, intervalMs = 2): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false && value !== null) return value;
    if (performance.now() > deadline) throw new Error(`bench: timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
