import * as fs from 'node:fs';
import * as path from 'node:path';
import { INIT_USAGE } from '../../src/cli/init';
import { MANIFEST_USAGE } from '../../src/cli/manifest';
import { SNAPSHOT_USAGE } from '../../src/cli/snapshot';
import { projectFolder, run } from './run';

const VERSION = (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

const USAGE = `Usage: onemodelcontext <command> [options]

Commands:
  generate  write the facts module (doc comments, declared types) of the project
  snapshot  write the listings to a committed file; --check compares with it
  manifest  write server.json (--registry), manifest.json (--mcpb) or the server card (--card)
  init      write a new project (--nest: a Nest application)

Run onemodelcontext <command> --help for a command's options; --version prints the version.`;

describe('the onemodelcontext command line', () => {
  const dir = projectFolder();

  it.each([['--help'], ['-h']])('prints the commands for %s', async (flag) => {
    expect(await run([flag], dir)).toEqual({ code: 0, stdout: USAGE, stderr: '' });
  });

  it('prints the commands on stderr, exit 1, without a command or with an unknown one', async () => {
    expect(await run([], dir)).toEqual({ code: 1, stdout: '', stderr: USAGE });
    expect(await run(['publish'], dir)).toEqual({ code: 1, stdout: '', stderr: `Unknown command 'publish'.\n${USAGE}` });
  });

  it.each([
    [['--version']],
    [['-V']],
    [['generate', '--version']],
    [['snapshot', '--check', '-V']],
    [['manifest', '--version']],
    [['init', '--version']],
  ])('prints the package version for %j', async (argv) => {
    expect(await run(argv, dir)).toEqual({ code: 0, stdout: VERSION, stderr: '' });
  });

  it.each([
    ['snapshot', SNAPSHOT_USAGE],
    ['manifest', MANIFEST_USAGE],
  ])('prints the usage of %s for --help and -h; an option it does not know is refused with the usage', async (command, usage) => {
    expect(await run([command, '--help'], dir)).toEqual({ code: 0, stdout: usage, stderr: '' });
    expect(await run([command, '--bogus', '-h'], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Unknown or incomplete option '--bogus'.\n${usage}`,
    });
    expect(await run([command, '--out', '-h'], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `Unknown or incomplete option '--out'.\n${usage}`,
    });
  });

  it('hands generate its own arguments, usage and messages', async () => {
    const help = await run(['generate', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: onemodelcontext generate \[--project tsconfig.json\]/);
    expect((await run(['generate', '--bogus'], dir)).stderr.split('\n')[0]).toBe("Unknown or incomplete option '--bogus'.");
  });

  it('runs init from its row: its usage for --help, its refusals with exit 1', async () => {
    expect(await run(['init', '--help'], dir)).toEqual({ code: 0, stdout: INIT_USAGE, stderr: '' });
    const refused = await run(['init', '--bogus'], dir);
    expect([refused.code, refused.stdout, refused.stderr.split('\n')[0]]).toEqual([1, '', "Unknown option '--bogus'."]);
  });

  it.each([[['snapshot', 'extra']], [['snapshot', '--entry']], [['manifest', '--registry', '--url']]])(
    'refuses %j with exit 1',
    async (argv) => {
      const result = await run(argv, dir);
      expect(result.code).toBe(1);
      expect(result.stderr.split('\n')[0]).toBe(`Unknown or incomplete option '${argv[argv.length - 1]}'.`);
    },
  );
});
