import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const SCHEMAS = path.join(__dirname, '..', 'fixtures', 'cli', 'schemas');

function schema(file: string): object {
  return JSON.parse(fs.readFileSync(path.join(SCHEMAS, file), 'utf8')) as object;
}

/** The errors of a document against a vendored schema (test/fixtures/cli/schemas), as text; '' when valid. */
export function errorsAgainst(file: 'registry-server' | 'mcpb-manifest-v0.3' | 'server-card', document: unknown): string {
  // The publishers' schemas carry OpenAPI's `example`, which is no JSON Schema keyword: not strict.
  const ajv = file === 'mcpb-manifest-v0.3' ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema(`${file}.schema.json`));
  return validate(document) ? '' : ajv.errorsText(validate.errors);
}
