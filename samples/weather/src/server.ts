import './onemodelcontext.facts';
import { resolve } from 'node:path';
import { McpServer } from 'onemodelcontext';
import { WeatherTools } from './weather';

/**
 * The MCP Apps view of current_conditions, built by `npm run build` (scripts/build-view.mjs) from
 * view/weather-view.ts. Resolved from this module's folder, src/ or dist/, so that both the built server and
 * `npm run dev` find it; read on every resources/read, so a rebuilt view is served without a restart.
 */
export const VIEW_FILE = resolve(__dirname, '../dist/view.html');

export function weatherServer(): McpServer {
  return (
    new McpServer({ name: 'weather', version: '1.0.0' }, { requestTimeoutMs: 30_000 })
      // Views are registered before the tools that name them (a tool naming an unknown view is OMCG0015).
      .addUiResource('ui://weather/view', {
        file: VIEW_FILE,
        title: 'Current conditions',
        description: 'The conditions in a city, as one line',
        // The view reaches no network and asks for no browser feature: an empty policy is the strictest.
        csp: { connectDomains: [], resourceDomains: [] },
        prefersBorder: true,
      })
      .add(new WeatherTools())
  );
}
