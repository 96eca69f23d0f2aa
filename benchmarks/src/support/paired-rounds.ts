// Rounds of one transfer against the service and against a baseline server, one of each per
// round (load drift hits both): the throughput of each, every round's own ratio, and each
// server's CPU per round (user + system of its whole process, which noise on shared cores moves
// less than the wall time). Used by bench:attachments.
import { cpuSeconds } from './processes.js';

export interface Pair {
  /** MiB/s over all rounds, of the service and of the baseline. */
  readonly service: number;
  readonly baseline: number;
  /** Each round's ratio (the baseline's time / the service's). */
  readonly rounds: readonly number[];
  /** CPU ms per round, of the service's process and of the baseline's. */
  readonly serviceCpu: number;
  readonly baselineCpu: number;
}

export interface PairOptions {
  readonly rounds: number;
  /** Bytes one transfer moves. */
  readonly bytes: number;
  readonly servicePid: number | undefined;
  readonly baselinePid: number | undefined;
}

export const pairedRounds = async (
  { rounds, bytes, servicePid, baselinePid }: PairOptions,
  ofService: () => Promise<{ ms: number }>,
  ofBaseline: () => Promise<{ ms: number }>,
): Promise<Pair> => {
  let serviceMs = 0;
  let baselineMs = 0;
  let serviceCpu = 0;
  let baselineCpu = 0;
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const c0 = cpuSeconds(servicePid);
    const s = (await ofService()).ms;
    const c1 = cpuSeconds(servicePid);
    const b0 = cpuSeconds(baselinePid);
    const b = (await ofBaseline()).ms;
    const b1 = cpuSeconds(baselinePid);
    serviceMs += s;
    baselineMs += b;
    serviceCpu += c1 - c0;
    baselineCpu += b1 - b0;
    ratios.push(b / s);
  }
  const mibps = (ms: number) => (bytes * rounds) / (1024 * 1024) / (ms / 1000);
  return {
    service: mibps(serviceMs),
    baseline: mibps(baselineMs),
    rounds: ratios,
    serviceCpu: (serviceCpu * 1000) / rounds,
    baselineCpu: (baselineCpu * 1000) / rounds,
  };
};

/** The rounds' own ratios (lowest, median, highest) and each server's CPU per round, as one line. */
export const roundsLine = (pair: Pair, baselineName: string): string => {
  const r = [...pair.rounds].sort((a, b) => a - b);
  const median = r[Math.floor(r.length / 2)] ?? NaN;
  return `  rounds ${(r[0] ?? NaN).toFixed(2)} / ${median.toFixed(2)} / ${(r.at(-1) ?? NaN).toFixed(2)}x (min / median / max); CPU per round: service ${pair.serviceCpu.toFixed(1)} ms, ${baselineName} ${pair.baselineCpu.toFixed(1)} ms`;
};
