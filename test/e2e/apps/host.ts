/**
 * A minimal MCP Apps host, as a chat client embeds a view: a real MCP client in the page that negotiated the
 * extension, the tool's view read from the server and rendered in a sandboxed iframe (scripts only, an opaque
 * origin) under the Content-Security-Policy its `_meta.ui.csp` allows, and the extension's own `AppBridge` on the
 * other end of `postMessage`. Bundled by esbuild for the browser test (apps-browser.test.ts), which drives it
 * through `window.omcHost`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport, type McpUiHostContext, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';

/** How long a view may take to load and send ui/initialize: generous, the machine may be busy. */
const HANDSHAKE_MS = 30_000;

const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

interface Shown {
  readonly bridge: AppBridge;
  readonly client: Client;
  readonly iframe: HTMLIFrameElement;
  context: McpUiHostContext;
}

/** The policy a host derives from the view's `_meta.ui.csp`: nothing beyond what it declares, inline code allowed. */
function policyOf(csp: McpUiResourceCsp | undefined): string {
  const origins = (list: readonly string[] | undefined) => (list?.length ? ` ${list.join(' ')}` : '');
  const resources = origins(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data:${resources}`,
    `font-src${resources || " 'none'"}`,
    `connect-src${origins(csp?.connectDomains) || " 'none'"}`,
    `frame-src${origins(csp?.frameDomains) || " 'none'"}`,
  ].join('; ');
}

/** The view's document with the policy as its first element, so that it governs everything the view loads. */
function withPolicy(html: string, csp: McpUiResourceCsp | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policyOf(csp)}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => head + meta) : meta + html;
}

async function connect(mcpUrl: string): Promise<Client> {
  const client = new Client({ name: 'omc-test-host', version: '1.0.0' }, { capabilities: { extensions: APPS } as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return client;
}

/**
 * Shows a tool's view as a host does: finds the view the tool names, reads it, embeds it, and waits for the view's
 * `ui/initialize` handshake to complete. Only then may tool input and results go to the view.
 */
async function open(mcpUrl: string, toolName: string, hostContext: McpUiHostContext): Promise<Shown> {
  const client = await connect(mcpUrl);
  const tool = (await client.listTools()).tools.find((t) => t.name === toolName);
  const uri =
    (tool?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri ?? (tool?._meta?.['ui/resourceUri'] as string | undefined);
  if (!tool || !uri) throw new Error(`The server lists no view for the tool ${toolName}.`);
  const content = (await client.readResource({ uri })).contents[0] as {
    mimeType?: string;
    text?: string;
    _meta?: { ui?: { csp?: McpUiResourceCsp } };
  };
  if (content.mimeType !== 'text/html;profile=mcp-app' || typeof content.text !== 'string')
    throw new Error(`${uri} is not an MCP Apps view.`);

  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = uri;
  document.body.append(iframe);
  const context: McpUiHostContext = { ...hostContext, toolInfo: { tool } };
  const bridge = new AppBridge(
    client,
    { name: 'omc-test-host', version: '1.0.0' },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: context },
  );
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  // The bridge listens before the view's document loads, so the view's first message cannot be missed.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = withPolicy(content.text, content._meta?.ui?.csp);
  // A view that never sends ui/initialize gets nothing from a conforming host: say so instead of hanging until
  // the test's own timeout.
  let waited: ReturnType<typeof setTimeout> | undefined;
  const silent = new Promise<never>((_, reject) => {
    waited = setTimeout(
      () => reject(new Error(`The view ${uri} did not complete the ui/initialize handshake within ${HANDSHAKE_MS / 1000} s.`)),
      HANDSHAKE_MS,
    );
  });
  await Promise.race([initialized, silent]).finally(() => clearTimeout(waited));
  return { bridge, client, iframe, context };
}

const shown: Shown[] = [];

const host = {
  /** Shows the tool's view, sends it the input, calls the tool and sends it the result; returns the result. */
  async run(mcpUrl: string, toolName: string, args: Record<string, unknown>, hostContext: McpUiHostContext): Promise<unknown> {
    const view = await open(mcpUrl, toolName, hostContext);
    shown.push(view);
    await view.bridge.sendToolInput({ arguments: args });
    const result = await view.client.callTool({ name: toolName, arguments: args });
    await view.bridge.sendToolResult(result as never);
    return result;
  },

  /** Shows the view and sends it the input, then cancels the call (as a user who stops it). */
  async cancel(mcpUrl: string, toolName: string, args: Record<string, unknown>, reason: string): Promise<void> {
    const view = await open(mcpUrl, toolName, { theme: 'light' });
    shown.push(view);
    await view.bridge.sendToolInput({ arguments: args });
    await view.bridge.sendToolCancelled({ reason });
  },

  /** Changes the theme of every shown view. */
  setTheme(theme: 'light' | 'dark'): void {
    for (const view of shown) {
      view.context = { ...view.context, theme };
      view.bridge.setHostContext(view.context);
    }
  },

  async close(): Promise<void> {
    for (const view of shown.splice(0)) {
      await view.bridge.close();
      await view.client.close();
      view.iframe.remove();
    }
  },
};

(window as unknown as { omcHost: typeof host }).omcHost = host;
