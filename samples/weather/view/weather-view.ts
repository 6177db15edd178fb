/**
 * The MCP Apps view of `current_conditions`, built with the extension's own `App` class and bundled into one HTML
 * file by scripts/build-view.mjs (`npm run build`). A host renders it in a sandboxed iframe: `app.connect()` sends
 * `ui/initialize` over `postMessage`, and only after that handshake does the host send the tool's input, then its
 * result (or a cancellation), and the host context (theme, styles) whenever it changes.
 */
import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

interface Conditions {
  city: string;
  temperature: number;
  unit: 'Celsius' | 'Fahrenheit';
  summary: string;
}

const main = document.getElementById('weather')!;
const show = (text: string, state: string) => {
  main.textContent = text;
  main.dataset.state = state;
};

function applyHostContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

const app = new App({ name: 'Weather', version: '1.0.0' });

// Handlers are set before connect(): the host may send the input right after the handshake.
app.ontoolinput = ({ arguments: args }) => show(`Looking up ${String(args?.city ?? 'the city')}...`, 'input');
app.ontoolresult = (result) => {
  const conditions = result.structuredContent as Conditions | undefined;
  if (result.isError || !conditions) {
    show(`No weather: ${result.content?.map((c) => (c.type === 'text' ? c.text : '')).join(' ') || 'the tool failed.'}`, 'error');
    return;
  }
  show(`${conditions.city}: ${conditions.summary}, ${conditions.temperature}°${conditions.unit === 'Fahrenheit' ? 'F' : 'C'}`, 'result');
};
app.ontoolcancelled = ({ reason }) => show(`Cancelled${reason ? `: ${reason}` : '.'}`, 'cancelled');
app.onhostcontextchanged = applyHostContext;

app.connect().then(
  () => applyHostContext(app.getHostContext()),
  (error: unknown) => show(`Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`, 'error'),
);
