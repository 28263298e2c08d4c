// What the benchmark drivers (*_vs_duckdb.mjs) share: argument parsing for the
// drivers that take a list of files, timing and the formatting of figures.
import { readFileSync } from 'node:fs';
import os from 'node:os';

/// Parses `--bench BIN [--runs N] [--threads 1,2] [--json OUT] FILE...` for the
/// driver `name`, and the options of `extra` (`{ key: default }`, a string value
/// each, e.g. `{ queries: 'a,b' }`) that only some drivers take; exits 2 with the
/// usage on anything else.
export function parseFileArgs(argv, name, extra = {}) {
  const args = { runs: 15, threads: [1, 2], files: [], ...extra };
  const extraUsage = Object.keys(extra).map((k) => ` [--${k} ${extra[k]}]`).join('');
  for (let i = 0; i < argv.length; ++i) {
    if (!argv[i].startsWith('--')) {
      args.files.push(argv[i]);
      continue;
    }
    const key = argv[i].slice(2);
    if (!['bench', 'runs', 'threads', 'json', ...Object.keys(extra)].includes(key) || i + 1 >= argv.length) {
      console.error(`usage: node ${name}.mjs --bench BIN [--runs N] [--threads 1,2] [--json OUT]${extraUsage} FILE...`);
      process.exit(2);
    }
    const value = argv[++i];
    if (key === 'runs') args.runs = Number(value);
    else if (key === 'threads') args.threads = value.split(',').map(Number);
    else args[key] = value;
  }
  if (!args.bench || args.files.length === 0) {
    console.error(`${name}: --bench and at least one FILE are required`);
    process.exit(2);
  }
  return args;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/// The geometric mean of positive ratios: the suite-wide figure beside the worst.
export function geometricMean(values) {
  return Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
}

export function nowMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function cpuModel() {
  const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
  return line ? line.split(':')[1].trim() : os.cpus()[0]?.model ?? 'unknown';
}

export function fmtMs(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}
