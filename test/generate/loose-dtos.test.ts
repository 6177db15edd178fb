import '../fixtures/loose-dtos/src/onemodelcontext.facts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { McpServer } from '../../src';
import { Profiles, UpdateProfileDto } from '../fixtures/loose-dtos/src/profiles';
import { fixtureFile, run } from '../support/generate';

/**
 * A Nest application compiled without strictNullChecks (test/fixtures/loose-dtos has its own tsconfig): the
 * checker drops `| null`, the generator reads it from the written type, and DTOs with no hint of ours start,
 * list and read as class-validator validates.
 */

describe('DTOs compiled without strictNullChecks', () => {
  it('the generator writes the committed facts, `| null` included', () => {
    const result = run('loose-dtos', ['generate']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.written.size).toBe(0);
    expect(result.stdout).toBe('Kept src/onemodelcontext.facts.ts: facts of 2 classes.');
    expect(fixtureFile('loose-dtos', 'src/onemodelcontext.facts.ts')).toContain(
      "{ key: 'platformId', description: 'The platform, or null to unlink it.', type: Nullable(String) }",
    );
  });

  const server = new McpServer({ name: 'profiles', version: '1' }).add(new Profiles());

  it('lists what class-validator means', () => {
    expect(JSON.stringify(server.listTools()[0].inputSchema)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          profile: {
            type: 'object',
            properties: {
              tags: { type: 'array', items: { type: 'string' } },
              sort: { type: 'string', enum: ['name', 'date'] },
              settings: { type: 'object' },
              comment: { type: ['string', 'null'] },
              platformId: { type: ['string', 'null'], description: 'The platform, or null to unlink it.' },
              clearsAt: { type: ['string', 'null'], format: 'date-time', description: 'When the profile is cleared; null clears it now.' },
              countries: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { code: { type: 'string', minLength: 2, maxLength: 2 } },
                  required: ['code'],
                  additionalProperties: false,
                },
              },
            },
            // A @ValidateIf property is never required: its condition, run by class-validator, decides.
            required: ['tags', 'sort', 'settings', 'countries'],
            additionalProperties: false,
          },
        },
        required: ['profile'],
        additionalProperties: false,
      }),
    );
  });

  const valid = { tags: ['a'], sort: 'name', settings: {}, platformId: 'p', clearsAt: '2026-12-01T00:00:00Z', countries: [{ code: 'FR' }] };
  const cases: [string, object][] = [
    ['a valid update', valid],
    ['null that unlinks and clears', { ...valid, platformId: null, clearsAt: null, comment: null }],
  ];

  it.each(cases)('accepts %s, as class-validator does', async (_name, plain) => {
    expect(validateSync(plainToInstance(UpdateProfileDto, plain), { forbidUnknownValues: false })).toEqual([]);
    const result = await server.callTool('update', { profile: plain });
    expect(result.isError).toBeFalsy();
  });
});
