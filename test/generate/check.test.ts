import { fixtureFile, run } from '../support/generate';

const OUT = 'src/onemodelcontext.facts.ts';

describe('onemodelcontext generate --check (issue 6)', () => {
  const committed = fixtureFile('documented', OUT);

  it('passes when the module on disk is what would be written', () => {
    const result = run('documented', ['generate', '--check']);
    expect(result).toEqual({ code: 0, stdout: `${OUT} is up to date.`, stderr: '', written: new Map() });
  });

  it('fails on a stale module, writing nothing', () => {
    const stale = committed.replace("description: 'How many days.', ", '');
    expect(stale).not.toBe(committed);
    const result = run('documented', ['generate', '--check'], { [OUT]: stale });
    expect(result).toEqual({ code: 1, stdout: '', stderr: `${OUT} is stale: run onemodelcontext generate.`, written: new Map() });
  });

  it('fails on a missing module; without --check the same run writes it', () => {
    expect(run('documented', ['generate', '--check'], { [OUT]: undefined }).stderr).toBe(
      `${OUT} is missing: run onemodelcontext generate.`,
    );
    const written = run('documented', ['generate', '--project', 'tsconfig.json', '--out', OUT], { [OUT]: undefined });
    expect(written.code).toBe(0);
    expect(written.stdout).toBe(`Wrote ${OUT}: facts of 8 classes.`);
    expect(written.written.get(OUT)).toBe(committed);
  });
});

describe('the command line', () => {
  it.each([
    [['generate', '--bogus'], "Unknown or incomplete option '--bogus'."],
    [['generate', '--out'], "Unknown or incomplete option '--out'."],
    [['build'], "Unknown command 'build'."],
  ])('refuses %j with exit 1', (argv, message) => {
    const result = run('documented', argv);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(message);
  });

  it('prints the usage for --help', () => {
    const result = run('documented', ['generate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: onemodelcontext generate \[--project tsconfig.json\]/);
  });

  it('reports a tsconfig that cannot be read like the compiler does', () => {
    const result = run('documented', ['generate', '--project', 'missing.json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error TS5083: Cannot read file '.*missing\.json'/);
  });
});
