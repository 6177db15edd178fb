/**
 * A second MCP Apps view for the browser test: when its tool's result arrives, it asks the server for more through
 * the host (`app.callServerTool`, an app-only tool the model never sees) and shows that answer.
 */
import { App } from '@modelcontextprotocol/ext-apps';

const main = document.getElementById('forecast')!;
const app = new App({ name: 'Forecast', version: '1.0.0' });

let city = '';
app.ontoolinput = ({ arguments: args }) => {
  city = String(args?.city ?? '');
  main.textContent = `Opening the forecast for ${city}...`;
};
app.ontoolresult = async () => {
  const answer = await app.callServerTool({ name: 'forecast_lines', arguments: { city, days: 2 } });
  const text = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  main.textContent = answer.isError ? `No forecast: ${text}` : text;
  main.dataset.state = answer.isError ? 'error' : 'result';
};

void app.connect();
