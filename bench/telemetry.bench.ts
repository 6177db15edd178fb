import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Issue 12: the cost of OpenTelemetry on a tools/call round trip (the order tool, in-memory), with
 * `@opentelemetry/api` absent (it cannot be resolved in that process), present with the server's
 * `telemetry: false`, present with no SDK registered, and with the real SDK exporting to memory. Each
 * measurement runs alone in a fresh process, the modes alternating, and the median of 7 rounds is
 * reported, as a ratio of the absent case and of `telemetry: false`. Goal: API-only costs nothing
 * measurable (ratio within noise of 1.00).
 */

type Mode = 'absent' | 'off' | 'api' | 'sdk';
const MODES: readonly Mode[] = ['absent', 'off', 'api', 'sdk'];
const LABELS: Record<Mode, string> = {
  absent: '@opentelemetry/api absent',
  off: 'API present, telemetry: false',
  api: 'API present, no SDK',
  sdk: 'SDK + in-memory exporters',
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(mode: Mode, via: 'client' | 'raw'): number {
  const fixtures = join(__dirname, 'fixtures');
  const preload = mode === 'absent' ? ['-r', join(fixtures, 'hide-otel.js')] : [];
  return Number(execFileSync(process.execPath, [...preload, join(fixtures, 'otel-round-trip.js'), mode, via], { encoding: 'utf8' }));
}

function compare(title: string, via: 'client' | 'raw'): void {
  const rounds: Record<Mode, number[]> = { absent: [], off: [], api: [], sdk: [] };
  for (let round = 0; round < 7; round++) for (const mode of MODES) rounds[mode].push(measure(mode, via));
  const absent = median(rounds.absent);
  const off = median(rounds.off);
  console.log(`\n${title}`);
  for (const mode of MODES) {
    const ms = median(rounds[mode]);
    console.log(
      `  ${LABELS[mode].padEnd(30)} ${ms.toFixed(4).padStart(9)} ms   ${(ms / absent).toFixed(2)}x of absent   ${(ms / off).toFixed(2)}x of telemetry: false`,
    );
  }
}

console.log('Telemetry benchmark (issue 12): tools/call with OpenTelemetry absent, switched off, API only, SDK');
compare('tools/call round trip through the SDK v2 Client, order tool, in-memory (median of 7 processes each)', 'client');
compare('  the same through a raw JSON-RPC peer, in-memory (the server side alone)', 'raw');
