import * as fs from 'node:fs';
import * as path from 'node:path';
import { entry, projectFolder, run, WEATHER } from './run';
import { errorsAgainst } from './schemas';

const PACKAGE = JSON.parse(fs.readFileSync(path.join(WEATHER, 'package.json'), 'utf8')) as Record<string, unknown>;

/** The artefact a run printed, parsed. */
async function printed(argv: readonly string[], dir: string): Promise<Record<string, unknown>> {
  const result = await run(argv, dir);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('onemodelcontext manifest --registry (the MCP Registry server.json)', () => {
  const dir = projectFolder();

  it('writes server.json from package.json, valid against the registry schema', async () => {
    const json = await printed(['manifest', '--registry', '--url', 'https://mcp.example.com/mcp'], dir);
    expect(JSON.stringify(json)).toBe(
      '{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.example/weather",' +
        '"description":"Forecasts and alerts for any city.","repository":{"url":"https://github.com/example/weather-mcp","source":"github"},' +
        '"version":"1.2.0","websiteUrl":"https://example.com/weather",' +
        '"packages":[{"registryType":"npm","identifier":"weather-mcp","version":"1.2.0","transport":{"type":"stdio"}}],' +
        '"remotes":[{"type":"streamable-http","url":"https://mcp.example.com/mcp"}]}',
    );
    expect(errorsAgainst('registry-server', json)).toBe('');
  });

  it('writes to --out, and --name wins over mcpName', async () => {
    expect(await run(['manifest', '--registry', '--name', 'com.example/forecasts', '--out', 'server.json'], dir)).toEqual({
      code: 0,
      stdout: 'Wrote server.json.',
      stderr: '',
    });
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'server.json'), 'utf8')) as Record<string, unknown>;
    expect(json.name).toBe('com.example/forecasts');
    expect(json.remotes).toBeUndefined();
    expect(errorsAgainst('registry-server', json)).toBe('');
  });

  it('is checked by schemas that refuse what their publisher refuses', () => {
    expect(errorsAgainst('registry-server', { name: 'weather', description: 'x', version: '1.0.0' })).toBe(
      'data/name must match pattern "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"',
    );
    expect(
      errorsAgainst('mcpb-manifest-v0.3', { name: 'w', version: '1', description: 'd', author: { name: 'a' }, server: { type: 'node' } }),
    ).toBe("data/server must have required property 'entry_point', data/server must have required property 'mcp_config'");
    expect(errorsAgainst('server-card', { $schema: 'https://example.com/s', name: 'io.github.a/b', version: '^1.0.0' })).toBe(
      "data must have required property 'capabilities', data/version must NOT be valid",
    );
  });

  it.each([
    [
      'no mcpName',
      { ...PACKAGE, mcpName: undefined },
      [],
      `server.json needs the server's name in reverse-DNS form, such as 'io.github.you/weather': set "mcpName" in package.json (the registry checks it against the npm package) or give --name; got undefined.`,
    ],
    [
      'a name that is not reverse-DNS',
      PACKAGE,
      ['--name', 'weather'],
      `server.json needs the server's name in reverse-DNS form, such as 'io.github.you/weather': set "mcpName" in package.json (the registry checks it against the npm package) or give --name; got "weather".`,
    ],
    [
      'a long description',
      { ...PACKAGE, description: 'x'.repeat(101) },
      [],
      "The registry takes a description of at most 100 characters; package.json's has 101.",
    ],
    ['no version', { ...PACKAGE, version: undefined }, [], 'package.json has no "version": the artefact takes it from there.'],
    [
      'no way to reach the server',
      { ...PACKAGE, private: true },
      [],
      'server.json lists no way to reach the server: publish it to npm (a "name" in package.json, not "private") or give --url.',
    ],
    [
      'a URL that is not http(s)',
      PACKAGE,
      ['--url', 'ftp://example.com/mcp'],
      '--url takes the endpoint\'s public http(s) URL, such as https://mcp.example.com/mcp; got "ftp://example.com/mcp".',
    ],
  ])('refuses %s with exit 1 and says what to do', async (_case, pkg, args, message) => {
    const project = projectFolder(JSON.stringify(pkg));
    expect(await run(['manifest', '--registry', ...args], project)).toEqual({ code: 1, stdout: '', stderr: message });
  });
});

describe('onemodelcontext manifest --mcpb (an MCP Bundle manifest.json)', () => {
  const dir = projectFolder();

  it('writes the node server, its tools and the author, valid against the bundle manifest schema', async () => {
    const manifest = await printed(['manifest', '--mcpb', ...entry('entry')], dir);
    expect(JSON.stringify(manifest)).toBe(
      '{"manifest_version":"0.3","name":"weather-mcp","version":"1.2.0","description":"Forecasts and alerts for any city.",' +
        '"author":{"name":"Ada Example","email":"ada@example.com","url":"https://example.com"},"homepage":"https://example.com/weather","license":"MIT",' +
        '"server":{"type":"node","entry_point":"dist/serve.js","mcp_config":{"command":"node","args":["${__dirname}/dist/serve.js"]}},' +
        '"tools":[{"name":"get_forecast","description":"The forecast for a city."},{"name":"alerts","description":"Weather alerts."}],' +
        '"prompts_generated":true}',
    );
    expect(errorsAgainst('mcpb-manifest-v0.3', manifest)).toBe('');
  });

  it('takes --entry-point, and an author object', async () => {
    const project = projectFolder(JSON.stringify({ ...PACKAGE, author: { name: 'Ada', email: 'ada@example.com' } }));
    const manifest = await printed(['manifest', '--mcpb', '--entry-point', './build/stdio.js', ...entry('entry')], project);
    expect(JSON.stringify(manifest.author)).toBe('{"name":"Ada","email":"ada@example.com"}');
    expect(JSON.stringify(manifest.server)).toBe(
      '{"type":"node","entry_point":"build/stdio.js","mcp_config":{"command":"node","args":["${__dirname}/build/stdio.js"]}}',
    );
    expect(errorsAgainst('mcpb-manifest-v0.3', manifest)).toBe('');
  });

  it('refuses a package without an author', async () => {
    const project = projectFolder(JSON.stringify({ ...PACKAGE, author: undefined }));
    expect(await run(['manifest', '--mcpb', ...entry('entry')], project)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'package.json has no "author": the bundle names its author.',
    });
  });
});

describe('onemodelcontext manifest --card (the server card)', () => {
  const dir = projectFolder();

  it('writes the card: info, capabilities and the exact listings, valid against the card schema', async () => {
    const card = await printed(['manifest', '--card', '--url', 'https://mcp.example.com/mcp', ...entry('entry')], dir);
    expect(Object.keys(card).join()).toBe('$schema,name,version,description,websiteUrl,remotes,capabilities,resources,tools,prompts');
    expect(JSON.stringify(card.remotes)).toBe('[{"type":"streamable-http","url":"https://mcp.example.com/mcp"}]');
    expect(JSON.stringify(card.capabilities)).toBe(
      '{"tools":{"listChanged":true},"logging":{},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"completions":{}}',
    );
    expect((card.tools as { name: string }[]).map((t) => t.name).join()).toBe('get_forecast,alerts');
    expect(errorsAgainst('server-card', card)).toBe('');
  });

  it('refuses a card without a reverse-DNS name', async () => {
    const project = projectFolder(JSON.stringify({ ...PACKAGE, mcpName: undefined }));
    expect(await run(['manifest', '--card', ...entry('entry')], project)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'A server card needs a reverse-DNS name with one slash, such as \'io.github.you/weather\'; got "weather". Give serverCard: { name } (or --name on the command line).',
    });
  });
});

describe('onemodelcontext manifest: which artefact', () => {
  const dir = projectFolder();

  it.each([
    [[], 'Give one of --registry, --mcpb or --card.'],
    [['--registry', '--card'], 'Give one of --registry, --mcpb or --card, not --registry and --card.'],
  ])('refuses %j with exit 1', async (args, message) => {
    const result = await run(['manifest', ...args], dir);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(message);
  });
});
