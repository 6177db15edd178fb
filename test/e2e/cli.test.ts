import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt, ROOT } from './support/build';

/**
 * The built command line (`bin`: dist/cli/main.js) in its own process, on a project's compiled entry that loads the
 * built package by name (test/e2e/fixture): the snapshot written, checked, and a change reported; the process ends
 * when the command is done.
 */
jest.setTimeout(120_000);

beforeAll(() => ensureBuilt(), BUILD_HOOK_TIMEOUT_MS);

const dir = mkdtempSync(join(tmpdir(), 'omc-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'dist/cli/main.js'), ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

beforeAll(() => {
  // The entry: a CommonJS module whose export is a function returning the server (the fixture's live server).
  const live = JSON.stringify(join(ROOT, 'test/e2e/fixture/dist/live.js'));
  writeFileSync(join(dir, 'entry.js'), `module.exports = require(${live}).liveServer;\n`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bin-test', main: 'entry.js' }));
});

it('prints the version of the package', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(cli('--version')).toEqual({ status: 0, stdout: version, stderr: '' });
});

it('writes the snapshot, passes --check, and fails it with the change once the file differs', () => {
  const written = cli('snapshot');
  expect(written.status).toBe(0);
  expect(written.stdout).toMatch(/^Wrote onemodelcontext\.snapshot\.json: \d+ tools?, /);
  // (The fixture's server logs its own definition-time warnings on stderr.)
  const unchanged = cli('snapshot', '--check');
  expect([unchanged.status, unchanged.stdout]).toEqual([0, 'onemodelcontext.snapshot.json is up to date.']);
  const file = join(dir, 'onemodelcontext.snapshot.json');
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { profiles: { exact: { tools: { name: string }[] } } };
  const removed = snapshot.profiles.exact.tools[0].name;
  snapshot.profiles.exact.tools.shift();
  writeFileSync(file, JSON.stringify(snapshot));
  const checked = cli('snapshot', '--check');
  expect(checked.status).toBe(1);
  const report = checked.stderr.split('\n').filter((line) => !line.includes(' WARN '));
  expect(report.slice(0, 2)).toEqual([
    'The listings differ from onemodelcontext.snapshot.json (1 change):',
    `  [exact] tools.${removed}: added`,
  ]);
});
