import { Field, Int32, Param, Prompt, Range, RequestContext, Resource, Tool } from 'onemodelcontext';

export enum Unit {
  Celsius,
  Fahrenheit,
}

/** The current conditions in a city: a record, so the tool lists an outputSchema and returns structuredContent. */
export class Conditions {
  city!: string;
  temperature!: number;
  unit!: Unit;
  /** A short description such as "light rain" */
  summary!: string;
  observedAt!: Date;
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

/**
 * The weather tools. Descriptions come from these doc comments and enum, optional and element types from
 * the declarations, through the generated `onemodelcontext.facts.ts` (`npm run build` regenerates it);
 * only what TypeScript cannot say (`Int32`, ranges) is written as a decorator.
 */
export class WeatherTools {
  /**
   * Gets the current conditions in a city
   * @param city City name
   */
  @Tool({ readOnly: true, uiResource: 'ui://weather/view' })
  currentConditions(city: string, unit: Unit = Unit.Celsius): Conditions {
    const { celsius, summary } = sample(city, 0);
    return Object.assign(new Conditions(), { city, temperature: inUnit(celsius, unit), unit, summary, observedAt: new Date() });
  }

  /**
   * Gets the forecast for a city, one line per day
   * @param city City name
   * @param from First day of the forecast; default today
   */
  @Tool({ readOnly: true })
  async getForecast(
    city: string,
    @Param({ type: Int32 }) @Range(1, 14) days: number = 3,
    unit: Unit = Unit.Celsius,
    from: Date | undefined,
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

  /**
   * Plans a trip around the weather
   * @param city Where to go
   */
  @Prompt()
  planTrip(city: string, @Param({ type: Int32 }) days: number = 3): string {
    return `Use get_forecast for ${city} over ${days} days and suggest what to pack and what to do each day.`;
  }
}
