import './onemodelcontext.facts';
import { McpServer } from 'onemodelcontext';
import { WeatherTools } from './weather';

/** The MCP Apps view of current_conditions: a host that negotiated Apps renders it next to the result. */
export const VIEW = `<!doctype html>
<html><head><meta charset="utf-8"><title>Weather</title></head>
<body><main id="weather">Waiting for the tool result...</main>
<script>
  window.addEventListener('message', (event) => {
    const result = event.data && event.data.params && event.data.params.structuredContent;
    if (result) document.getElementById('weather').textContent = result.city + ': ' + result.summary + ', ' + result.temperature + '°';
  });
</script></body></html>`;

export function weatherServer(): McpServer {
  return new McpServer({ name: 'weather', version: '1.0.0' }, { requestTimeoutMs: 30_000 })
    .add(new WeatherTools())
    .addUiResource('ui://weather/view', { html: VIEW });
}
