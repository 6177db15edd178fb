import * as fs from 'node:fs';
import * as path from 'node:path';
import { entry, projectFolder, run, WEATHER } from './run';

const FILE = 'onemodelcontext.snapshot.json';

describe('onemodelcontext snapshot (issue 40: contract review)', () => {
  const dir = projectFolder();
  const committed = () => fs.readFileSync(path.join(dir, FILE), 'utf8');

  beforeAll(async () => {
    expect(await run(['snapshot', ...entry('entry')], dir)).toEqual({
      code: 0,
      stdout: `Wrote ${FILE}: 2 tools, 1 resource, 1 resource template, 1 prompt.`,
      stderr: '',
    });
  });

  it('writes every listing: tools under each profile, sorted by name, then resources, templates and prompts', () => {
    const snapshot = JSON.parse(committed()) as Record<string, Record<string, { tools: { name: string }[] }>>;
    expect(Object.keys(snapshot).join()).toBe('profiles,resources,resourceTemplates,prompts');
    expect(Object.keys(snapshot.profiles).join()).toBe('exact,gemini,openai-strict');
    expect(snapshot.profiles.exact.tools.map((t) => t.name).join()).toBe('alerts,get_forecast');
    expect(JSON.stringify(snapshot.profiles.exact.tools[1])).toBe(
      '{"name":"get_forecast","description":"The forecast for a city.","inputSchema":{"type":"object","properties":{"city":{"type":"string"},' +
        '"days":{"type":"integer","minimum":-2147483648,"maximum":2147483647},"sky":{"type":"string","enum":["clear","rain"]}},' +
        '"required":["city","days","sky"],"additionalProperties":false},"annotations":{"readOnlyHint":true}}',
    );
    expect(JSON.stringify(snapshot.resources)).toBe(
      '[{"uri":"weather://stations","name":"stations","description":"Every station.","mimeType":"application/json"}]',
    );
    expect(JSON.stringify(snapshot.resourceTemplates)).toBe(
      '[{"uriTemplate":"weather://cities/{city}","name":"city","description":"One city."}]',
    );
    expect(JSON.stringify(snapshot.prompts)).toBe(
      '[{"name":"ask_forecast","description":"Asks for a forecast.","arguments":[{"name":"city","description":"The city.","required":true}]}]',
    );
  });

  it('is stable: written again from the same server, the file is the same text', async () => {
    const before = committed();
    expect((await run(['snapshot', ...entry('as-function')], dir)).code).toBe(0);
    expect(committed()).toBe(before);
    expect(before.endsWith('}\n')).toBe(true);
  });

  it('--check passes when nothing changed', async () => {
    expect(await run(['snapshot', '--check', ...entry('entry')], dir)).toEqual({ code: 0, stdout: `${FILE} is up to date.`, stderr: '' });
  });

  it('--check reports a renamed parameter under every profile, and writes nothing', async () => {
    const before = committed();
    expect(await run(['snapshot', '--check', ...entry('renamed')], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        `The listings differ from ${FILE} (14 changes):`,
        '  [exact] tools.get_forecast.inputSchema.properties.days: removed {"type":"integer","minimum":-2147483648,"maximum":2147483647}',
        '  [exact] tools.get_forecast.inputSchema.properties.num_days: added {"type":"integer","minimum":-2147483648,"maximum":2147483647}',
        '  [exact] tools.get_forecast.inputSchema.required: removed "days"',
        '  [exact] tools.get_forecast.inputSchema.required: added "num_days"',
        '  [gemini] tools.get_forecast.inputSchema.properties.days: removed',
        '  [gemini] tools.get_forecast.inputSchema.properties.num_days: added',
        '  [gemini] tools.get_forecast.inputSchema.required: removed "days"',
        '  [gemini] tools.get_forecast.inputSchema.required: added "num_days"',
        '  [gemini] tools.get_forecast.inputSchema.propertyOrdering: removed "days"',
        '  [gemini] tools.get_forecast.inputSchema.propertyOrdering: added "num_days"',
        '  [openai-strict] tools.get_forecast.inputSchema.properties.days: removed',
        '  [openai-strict] tools.get_forecast.inputSchema.properties.num_days: added',
        '  [openai-strict] tools.get_forecast.inputSchema.required: removed "days"',
        '  [openai-strict] tools.get_forecast.inputSchema.required: added "num_days"',
        `If the changes are meant, run onemodelcontext snapshot and commit ${FILE}.`,
      ].join('\n'),
    });
    expect(committed()).toBe(before);
  });

  it('--check reports a parameter made optional (OpenAI strict mode keeps it required, as nullable)', async () => {
    expect(await run(['snapshot', '--check', ...entry('optional')], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        `The listings differ from ${FILE} (3 changes):`,
        '  [exact] tools.get_forecast.inputSchema.required: removed "days"',
        '  [gemini] tools.get_forecast.inputSchema.required: removed "days"',
        '  [openai-strict] tools.get_forecast.inputSchema.properties.days.type: changed "integer" -> ["integer","null"]',
        `If the changes are meant, run onemodelcontext snapshot and commit ${FILE}.`,
      ].join('\n'),
    });
  });

  it('--check reports an enum member added', async () => {
    expect(await run(['snapshot', '--check', ...entry('enum')], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        `The listings differ from ${FILE} (5 changes):`,
        '  [exact] tools.get_forecast.inputSchema.properties.sky.enum: added "hail"',
        '  [gemini] tools.get_forecast.inputSchema.properties.sky.description: changed "One of: clear, rain." -> "One of: clear, rain, hail."',
        '  [gemini] tools.get_forecast.inputSchema.properties.sky.enum: added "hail"',
        '  [openai-strict] tools.get_forecast.inputSchema.properties.sky.description: changed "One of: clear, rain." -> "One of: clear, rain, hail."',
        '  [openai-strict] tools.get_forecast.inputSchema.properties.sky.enum: added "hail"',
        `If the changes are meant, run onemodelcontext snapshot and commit ${FILE}.`,
      ].join('\n'),
    });
  });

  it('--out names another file, for writing and for checking', async () => {
    expect((await run(['snapshot', '--out', 'contract/listing.json', ...entry('entry')], dir)).stdout).toBe(
      `Wrote ${path.join('contract', 'listing.json')}: 2 tools, 1 resource, 1 resource template, 1 prompt.`,
    );
    expect(fs.readFileSync(path.join(dir, 'contract', 'listing.json'), 'utf8')).toBe(committed());
    expect((await run(['snapshot', '--check', '--out', 'contract/listing.json', ...entry('enum')], dir)).code).toBe(1);
  });
});

describe('snapshot --check without a snapshot to compare with', () => {
  const dir = projectFolder();

  it('exits 2 when the file is missing', async () => {
    expect(await run(['snapshot', '--check', ...entry('entry')], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${FILE} is missing: run onemodelcontext snapshot and commit the file.`,
    });
  });

  it.each([['not json {'], ['[1, 2]'], ['{"tools": []}']])('exits 2 when the file is not a snapshot: %j', async (text) => {
    fs.writeFileSync(path.join(dir, FILE), text);
    expect(await run(['snapshot', '--check', ...entry('entry')], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${FILE} is not a snapshot (not a JSON object with "profiles"): run onemodelcontext snapshot to write it again.`,
    });
  });
});

describe('the entry module', () => {
  const dir = projectFolder();

  it('defaults to "main" of package.json', async () => {
    // The fixture's package.json names entry.ts, relative to the project folder.
    const project = projectFolder(JSON.stringify({ name: 'weather-mcp', main: path.join(WEATHER, 'entry.ts') }));
    expect((await run(['snapshot'], project)).stdout).toBe(`Wrote ${FILE}: 2 tools, 1 resource, 1 resource template, 1 prompt.`);
  });

  it.each([
    [
      'no entry at all',
      [],
      'No entry module: give --entry <module>, or set "main" in package.json. The entry is a module that builds the server without serving it ' +
        'and exports it: `export const server = ...`, a default export, or a function returning the server (or a promise of it); serve from another file.',
    ],
    [
      'a missing module',
      ['--entry', 'dist/nowhere.js'],
      `Cannot find the entry module ${path.join('dist', 'nowhere.js')}: build the project first, or give --entry <module>.`,
    ],
  ])('refuses %s with exit 1', async (_case, args, message) => {
    const project = projectFolder('{"name": "no-main"}');
    expect(await run(['snapshot', ...args], project)).toEqual({ code: 1, stdout: '', stderr: message });
  });

  it('refuses a module that exports no server', async () => {
    const result = await run(['snapshot', ...entry('no-server')], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `The entry module ${path.relative(dir, path.join(WEATHER, 'no-server.ts'))} exports no McpServer. The entry is a module that builds the server ` +
        'without serving it and exports it: `export const server = ...`, a default export, or a function returning the server (or a promise of it); serve from another file.',
    );
  });

  it('names a module that throws while loading, and what it threw', async () => {
    expect(await run(['snapshot', ...entry('throws')], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `The entry module ${path.relative(dir, path.join(WEATHER, 'throws.ts'))} failed to load: DATABASE_URL is not set`,
    });
  });

  it('names a factory that rejects, and why', async () => {
    expect(await run(['snapshot', ...entry('failing-factory')], dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `The entry module ${path.relative(dir, path.join(WEATHER, 'failing-factory.ts'))} failed to build its server: cannot reach the database`,
    });
  });

  it('refuses a package.json that is not JSON', async () => {
    const project = projectFolder('{ "name": ');
    const result = await run(['snapshot', ...entry('entry')], project);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^package\.json is not JSON: /);
  });
});

describe('a Nest entry', () => {
  const dir = projectFolder();

  it('is a function that creates the application context and returns its McpServer', async () => {
    expect(await run(['snapshot', ...entry('nest')], dir)).toEqual({
      code: 0,
      stdout: `Wrote ${FILE}: 3 tools, no resources, 1 resource template, 1 prompt.`,
      stderr: '',
    });
    const snapshot = JSON.parse(fs.readFileSync(path.join(dir, FILE), 'utf8')) as { profiles: { exact: { tools: { name: string }[] } } };
    expect(snapshot.profiles.exact.tools.map((t) => t.name).join()).toBe('get_docket,list_open_cases,open_case');
  });
});
