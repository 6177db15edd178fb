import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { Int32, McpServer, Param, Tool } from '../../src';
import { weatherServer } from '../../samples/weather/src/server';
import { BUILD_HOOK_TIMEOUT_MS, ensureBuilt } from './support/build';

/**
 * Issue 28: MCP Apps views as a conforming host runs them. A page on 127.0.0.1 (apps/host.ts) holds a real MCP
 * client connected to our server over Streamable HTTP and the extension's own `AppBridge`; it embeds each view
 * from `resources/read` in a sandboxed iframe under the policy the view's `_meta.ui.csp` declares, in Debian's
 * headless Chromium driven by playwright-core (no downloaded browser). The host sends tool input and results only
 * after the view's `ui/initialize` handshake, so a view that does not perform it stays on its placeholder.
 */
jest.setTimeout(120_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As root, in a closed network: no sandbox, no GPU, and none of the background connections Chromium would wait on.
// playwright-core gives every launch a fresh temporary --user-data-dir.
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

/** The second view's tools: one that opens it, and one only views may call (the model never sees it). */
class ForecastViews {
  @Tool({ description: 'Opens the forecast view of a city', uiResource: 'ui://tests/forecast' })
  openForecast(city: string): string {
    return `Opening the forecast for ${city}`;
  }

  @Tool({ description: 'The forecast of a city, one line per day', uiVisibility: ['app'] })
  forecastLines(city: string, @Param({ type: Int32 }) days: number): string {
    return Array.from({ length: days }, (_, day) => `${city}, day ${day + 1}: ${['dry', 'wet'][(city.length + day) % 2]}`).join('\n');
  }
}

async function bundle(file: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [join(__dirname, 'apps', file)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
}

const page = (body: string, script: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title></head><body>${body}<script>${script}</script></body></html>`;

type Host = {
  run(
    mcpUrl: string,
    tool: string,
    args: Record<string, unknown>,
    context: Record<string, unknown>,
  ): Promise<{ structuredContent?: Record<string, unknown> }>;
  cancel(mcpUrl: string, tool: string, args: Record<string, unknown>, reason: string): Promise<void>;
  setTheme(theme: 'light' | 'dark'): void;
  close(): Promise<void>;
};

describe('MCP Apps views in a browser, behind the extension’s AppBridge', () => {
  let hostServer: Server;
  let hostUrl: string;
  let mcp: McpServer;
  let mcpUrl: string;
  let browser: Browser;
  let tab: Page;
  const pageErrors: string[] = [];

  /** Runs `call` in the host page with its `omcHost`, the MCP URL and `args` (serialised: `call` sees nothing else). */
  const host = <A, R>(call: (host: Host, url: string, args: A) => Promise<R> | R, args?: A): Promise<R> =>
    tab.evaluate(({ source, url, args }) => (0, eval)(`(${source})`)((globalThis as unknown as { omcHost: Host }).omcHost, url, args), {
      source: call.toString(),
      url: mcpUrl,
      args,
    }) as Promise<R>;
  const view = (uri: string): FrameLocator => tab.frameLocator(`iframe[title="${uri}"]`);
  const nodeClient = async (capabilities: Record<string, unknown>) => {
    const client = new Client({ name: 'browser-test', version: '1.0.0' }, { capabilities: capabilities as never });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    return client;
  };

  beforeAll(async () => {
    // The sample's view as its `npm run build` makes it (dist/view.html).
    await ensureBuilt();
    const [hostScript, forecastScript] = await Promise.all([bundle('host.ts'), bundle('forecast-view.ts')]);
    hostServer = createServer((req, res) => {
      res
        .writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
        .end(req.url === '/' ? page('', hostScript) : '');
    });
    await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(hostServer.address() as AddressInfo).port}`;
    mcp = weatherServer()
      .addUiResource('ui://tests/forecast', {
        html: page('<main id="forecast">Waiting for the tool result...</main>', forecastScript),
        title: 'Forecast',
      })
      .add(new ForecastViews());
    mcpUrl = (await mcp.serveHttp({ host: '127.0.0.1', port: 0, path: '/mcp', cors: { origins: [hostUrl] } })).url;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    tab = await browser.newPage();
    tab.on('pageerror', (error) => pageErrors.push(error.message));
    tab.on('console', (message) => void (message.type() === 'error' && pageErrors.push(message.text())));
    await tab.goto(`${hostUrl}/`);
  }, BUILD_HOOK_TIMEOUT_MS);

  afterEach(() => host((h) => h.close()));

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await new Promise((resolve) => hostServer?.close(resolve));
  });

  it('renders the sample’s view: handshake, tool input, then the tool result, in the host’s theme', async () => {
    const result = await host((h, url, args) => h.run(url, 'current_conditions', args, { theme: 'dark', displayMode: 'inline' }), {
      city: 'Paris',
    });
    const weather = view('ui://weather/view').locator('#weather[data-state="result"]');
    await weather.waitFor();
    const conditions = result.structuredContent as { city: string; summary: string; temperature: number };
    expect(await weather.textContent()).toBe(`${conditions.city}: ${conditions.summary}, ${conditions.temperature}°C`);
    // The host's result is the server's: a Node client gets the same conditions.
    const client = await nodeClient(APPS);
    const direct = (await client.callTool({ name: 'current_conditions', arguments: { city: 'Paris' } })).structuredContent as Record<
      string,
      unknown
    >;
    await client.close();
    expect({ ...conditions, observedAt: undefined }).toEqual({ ...direct, observedAt: undefined });

    await view('ui://weather/view').locator('html[data-theme="dark"]').waitFor();
    await host((h) => h.setTheme('light'));
    await view('ui://weather/view').locator('html[data-theme="light"]').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('shows the input while the tool runs, then the cancellation', async () => {
    await host((h, url, args) => h.cancel(url, 'current_conditions', args, 'The user stopped it'), { city: 'Lima' });
    const weather = view('ui://weather/view').locator('#weather[data-state="cancelled"]');
    await weather.waitFor();
    expect(await weather.textContent()).toBe('Cancelled: The user stopped it');
    expect(pageErrors).toEqual([]);
  });

  it('lets a second view call an app-only tool back through the host (app.callServerTool) and shows the answer', async () => {
    await host((h, url, args) => h.run(url, 'open_forecast', args, { theme: 'light' }), { city: 'Oslo' });
    const forecast = view('ui://tests/forecast').locator('#forecast[data-state="result"]');
    await forecast.waitFor();
    const apps = await nodeClient(APPS);
    const expected = (await apps.callTool({ name: 'forecast_lines', arguments: { city: 'Oslo', days: 2 } })).content as { text: string }[];
    await apps.close();
    expect(await forecast.textContent()).toBe(expected[0].text);
    expect(expected[0].text.split('\n')).toHaveLength(2);
    // The tool exists only for views: a client without the extension neither sees nor calls it.
    const plain = await nodeClient({});
    expect((await plain.listTools()).tools.map((t) => t.name)).not.toContain('forecast_lines');
    await expect(plain.callTool({ name: 'forecast_lines', arguments: { city: 'Oslo', days: 2 } })).rejects.toThrow(
      'Unknown tool: forecast_lines',
    );
    await plain.close();
    expect(pageErrors).toEqual([]);
  });
});
