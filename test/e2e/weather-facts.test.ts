import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { weatherServer } from '../../samples/weather/src/server';
import { ROOT, ensureBuilt } from './support/build';

/**
 * samples/weather declares only what TypeScript cannot say (Int32, @Range); descriptions, enums and the
 * optional date come from its generated facts module. It must list exactly what it listed when every hint
 * and description was a decorator (the listing below was taken from that version), and its committed facts
 * module must be current.
 */
jest.setTimeout(120_000);

const WITH_EXPLICIT_HINTS = [
  {
    name: 'current_conditions',
    description: 'Gets the current conditions in a city',
    inputSchema: {
      type: 'object',
      properties: {
        city: {
          type: 'string',
          description: 'City name',
        },
        unit: {
          type: 'string',
          enum: ['Celsius', 'Fahrenheit'],
          default: 'Celsius',
        },
      },
      required: ['city'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        city: {
          type: 'string',
        },
        temperature: {
          type: 'number',
        },
        unit: {
          type: 'string',
          enum: ['Celsius', 'Fahrenheit'],
        },
        summary: {
          type: 'string',
          description: 'A short description such as "light rain"',
        },
        observedAt: {
          type: 'string',
          format: 'date-time',
        },
      },
      required: ['city', 'temperature', 'unit', 'summary', 'observedAt'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: true,
    },
    _meta: {
      ui: {
        resourceUri: 'ui://weather/view',
        visibility: ['model', 'app'],
      },
      'ui/resourceUri': 'ui://weather/view',
    },
  },
  {
    name: 'get_forecast',
    description: 'Gets the forecast for a city, one line per day',
    inputSchema: {
      type: 'object',
      properties: {
        city: {
          type: 'string',
          description: 'City name',
        },
        days: {
          type: 'integer',
          minimum: 1,
          maximum: 14,
          default: 3,
        },
        unit: {
          type: 'string',
          enum: ['Celsius', 'Fahrenheit'],
          default: 'Celsius',
        },
        from: {
          type: 'string',
          format: 'date-time',
          description: 'First day of the forecast; default today',
        },
      },
      required: ['city'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: true,
    },
  },
];

describe('samples/weather through the generator', () => {
  it('lists what the explicit-hint version listed, byte for byte', () => {
    expect(JSON.stringify(weatherServer().listTools())).toBe(JSON.stringify(WITH_EXPLICIT_HINTS));
  });

  it('keeps its facts module current (generate --check)', async () => {
    await ensureBuilt();
    const check = spawnSync(
      process.execPath,
      [join(ROOT, 'dist/cli/main.js'), 'generate', '--project', 'samples/weather/tsconfig.json', '--check'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});
