import { Description, Field, Int32, McpServer, Param, Prompt, Range, RequestContext, Resource, Tool } from 'onemodelcontext';

export enum Unit { Celsius, Fahrenheit }

/** The current conditions in a city: a record, so the tool lists an outputSchema and returns structuredContent. */
export class Conditions {
  @Field() city!: string;
  @Field() temperature!: number;
  @Field(Unit) unit!: Unit;
  @Field() @Description('A short description such as "light rain"') summary!: string;
  @Field() observedAt!: Date;
}

const SUMMARIES = ['sunny', 'partly cloudy', 'overcast', 'light rain', 'showers', 'windy', 'snow flurries'];

/** Made-up but stable weather: the same city and day always give the same answer. */
function sample(city: string, day: number): { celsius: number; summary: string } {
  let hash = day * 31;
  for (const c of city.toLowerCase()) hash = (hash * 33 + c.charCodeAt(0)) >>> 0;
  return { celsius: (hash % 35) - 5, summary: SUMMARIES[hash % SUMMARIES.length] };
}

function inUnit(celsius: number, unit: Unit): number {
  return unit === Unit.Fahrenheit ? Math.round(celsius * 1.8 + 32) : celsius;
}

export class WeatherTools {
  @Tool({ readOnly: true, uiResource: 'ui://weather/view' })
  @Description('Gets the current conditions in a city')
  currentConditions(@Description('City name') city: string, @Param({ type: Unit }) unit: Unit = Unit.Celsius): Conditions {
    const { celsius, summary } = sample(city, 0);
    return Object.assign(new Conditions(), { city, temperature: inUnit(celsius, unit), unit, summary, observedAt: new Date() });
  }

  @Tool({ readOnly: true })
  @Description('Gets the forecast for a city, one line per day')
  async getForecast(
    @Description('City name') city: string,
    @Param({ type: Int32 }) @Range(1, 14) days: number = 3,
    @Param({ type: Unit }) unit: Unit = Unit.Celsius,
    @Description('First day of the forecast; default today') @Param({ optional: true }) from: Date,
    ctx: RequestContext,
  ): Promise<string> {
    const start = from ?? new Date();
    const lines: string[] = [];
    for (let day = 0; day < days; day++) {
      await ctx.reportProgress(day + 1, days);
      const date = new Date(start.getTime() + day * 86_400_000).toISOString().slice(0, 10);
      const { celsius, summary } = sample(city, day);
      lines.push(`${date}: ${summary}, ${inUnit(celsius, unit)}°${unit === Unit.Celsius ? 'C' : 'F'}`);
    }
    return `Forecast for ${city}:\n${lines.join('\n')}`;
  }

  @Resource('weather://{city}/today', { description: "Today's weather in a city", mimeType: 'text/plain' })
  today(city: string): string {
    const { celsius, summary } = sample(city, 0);
    return `${city} today: ${summary}, ${celsius}°C`;
  }

  @Prompt({ description: 'Plans a trip around the weather' })
  planTrip(@Description('Where to go') city: string, @Param({ type: Int32 }) days: number = 3): string {
    return `Use get_forecast for ${city} over ${days} days and suggest what to pack and what to do each day.`;
  }
}

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
