import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { nodeHost } from '../../src/generate/cli';

/** The weather fixture project (test/fixtures/cli/weather). */
export const WEATHER = path.join(__dirname, '..', 'fixtures', 'cli', 'weather');

/** One in-process run of `onemodelcontext <argv>` in `cwd`, on the real file system; what it printed. */
export async function run(argv: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: [] as string[], stderr: [] as string[] };
  const host = {
    ...nodeHost(cwd),
    stdout: (line: string) => out.stdout.push(line),
    stderr: (line: string) => out.stderr.push(line),
    env: {},
  };
  const code = await main(argv, host);
  return { code, stdout: out.stdout.join('\n'), stderr: out.stderr.join('\n') };
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding `package.json` (the fixture's unless given), removed after the test file. */
export function projectFolder(packageJson?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-cli-'));
  folders.push(dir);
  const text = packageJson ?? fs.readFileSync(path.join(WEATHER, 'package.json'), 'utf8');
  fs.writeFileSync(path.join(dir, 'package.json'), text);
  return dir;
}

/** `--entry` of one of the fixture's entry modules. */
export function entry(name: string): string[] {
  return ['--entry', path.join(WEATHER, `${name}.ts`)];
}
