import * as path from 'node:path';
import { isObject } from '../objects';
import { contractOf, contractSummary, contractText, type Contract } from './contract';
import { diffJson } from './diff';
import type { CommandContext } from './command';

/**
 * `onemodelcontext snapshot [--check]`: writes the project's listings to a committed file, or compares them with it
 * (docs/contract-review.md). Exit codes of `--check`: 0 unchanged, 1 changed (the changes printed), 2 no snapshot to
 * compare with (missing, or not a snapshot).
 */

export const SNAPSHOT_FILE = 'onemodelcontext.snapshot.json';

export const SNAPSHOT_USAGE = `Usage: onemodelcontext snapshot [--check] [--entry module] [--out ${SNAPSHOT_FILE}]

Writes every tool (under each listing profile: exact, gemini, openai-strict), resource, resource template and prompt
of the project's server, exactly as listed, to a file to commit. With --check, writes nothing and compares instead.

  --check   exit 0 when the listings match the file, 1 with each change when they do not, 2 when there is no
            snapshot to compare with
  --entry   the module that builds and exports the server (default: "main" of package.json); it must not serve
  --out     the snapshot file (default: ${SNAPSHOT_FILE})`;

export const SNAPSHOT_OPTIONS = { flags: ['--check'], valued: ['--entry', '--out'] };

export async function snapshot(context: CommandContext): Promise<number> {
  const { host, values, flags } = context;
  const out = path.resolve(host.cwd, values.get('--out') ?? SNAPSHOT_FILE);
  const shown = path.relative(host.cwd, out) || out;
  const contract = contractOf(await context.server());
  const text = contractText(contract);
  if (!flags.has('--check')) {
    host.writeFile(out, text);
    host.stdout(`Wrote ${shown}: ${contractSummary(contract)}.`);
    return 0;
  }
  const committed = host.readFile(out);
  if (committed === undefined) {
    host.stderr(`${shown} is missing: run onemodelcontext snapshot and commit the file.`);
    return 2;
  }
  const before = parsed(committed);
  if (before === undefined) {
    host.stderr(`${shown} is not a snapshot (not a JSON object with "profiles"): run onemodelcontext snapshot to write it again.`);
    return 2;
  }
  const changes = changesBetween(before, contract);
  if (changes.length === 0) {
    host.stdout(`${shown} is up to date.`);
    return 0;
  }
  host.stderr(`The listings differ from ${shown} (${changes.length} change${changes.length === 1 ? '' : 's'}):`);
  for (const change of changes) host.stderr(`  ${change}`);
  host.stderr(`If the changes are meant, run onemodelcontext snapshot and commit ${shown}.`);
  return 1;
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) && isObject(value.profiles) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Each profile's changes under its name (`[gemini] tools.x...`), then those of the resources and prompts. */
export function changesBetween(before: Record<string, unknown>, after: Contract): string[] {
  const was = before.profiles as Record<string, unknown>;
  const names = [...new Set([...Object.keys(was), ...Object.keys(after.profiles)])];
  const lines: string[] = [];
  for (const name of names) {
    if (!Object.hasOwn(after.profiles, name)) lines.push(`[${name}]: removed`);
    else if (!Object.hasOwn(was, name)) lines.push(`[${name}]: added`);
    else lines.push(...diffJson(was[name], after.profiles[name]).map((line) => `[${name}] ${line}`));
  }
  const { profiles: _before, ...rest } = before;
  const { profiles: _after, ...now } = after;
  return [...lines, ...diffJson(rest, now)];
}
