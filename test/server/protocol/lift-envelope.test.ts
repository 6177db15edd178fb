import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { liftEnvelope } from '../../../src/server/protocol/hot-path';
import type { HotRequest } from '../../../src/server/protocol/rules';

/**
 * A 2026-07-28 request's envelope lifted out of `_meta` (hot-path.ts `liftEnvelope`), the usual `tools/call` by two
 * literals: the same keys, values and order as the SDK's `liftWireOnlyMaterial` (written out here) for every shape.
 */
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY];

function reference(request: HotRequest): HotRequest {
  const params = request.params as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown>;
  const keys = ENVELOPE_KEYS.filter((key) => key in meta);
  if (keys.length === 0) return request;
  const envelope: Record<string, unknown> = {};
  const nextMeta = { ...meta };
  const nextParams = { ...params };
  for (const key of keys) {
    envelope[key] = meta[key];
    delete nextMeta[key];
  }
  if (Object.keys(nextMeta).length > 0) nextParams._meta = nextMeta;
  else delete nextParams._meta;
  return { id: request.id, method: request.method, params: nextParams, envelope };
}

const version = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' };
const info = { [CLIENT_INFO_META_KEY]: { name: 'c', version: '1' } };
const capabilities = { [CLIENT_CAPABILITIES_META_KEY]: { elicitation: {} } };
const call = (params: Record<string, unknown>): HotRequest => ({ id: 7, method: 'tools/call', params });

const cases: [string, HotRequest][] = [
  ['the usual call', call({ name: 't', arguments: { a: 1 }, _meta: { ...version, ...info, ...capabilities } })],
  ['arguments undefined', call({ name: 't', arguments: undefined, _meta: { ...version, ...info, ...capabilities } })],
  ['no arguments', call({ name: 't', _meta: { ...version, ...info, ...capabilities } })],
  ['a log level too', call({ name: 't', arguments: {}, _meta: { ...version, ...info, ...capabilities, [LOG_LEVEL_META_KEY]: 'info' } })],
  ['a progress token too', call({ name: 't', arguments: {}, _meta: { progressToken: 1, ...version, ...info, ...capabilities } })],
  ['no client info', call({ name: 't', arguments: {}, _meta: { ...version, ...capabilities } })],
  ['_meta first', call({ _meta: { ...version, ...info, ...capabilities }, name: 't', arguments: {} })],
  ['a list', { id: 'x', method: 'tools/list', params: { cursor: 'c', _meta: { ...version, ...info, ...capabilities } } }],
];

describe('liftEnvelope', () => {
  it.each(cases)('lifts %s as the SDK does, key order included', (_name, request) => {
    const lifted = liftEnvelope(request);
    expect(JSON.stringify(lifted)).toBe(JSON.stringify(reference(request)));
    // Strictly: a key the envelope or params hold with an undefined value would be left out of the JSON above.
    expect(lifted).toStrictEqual(reference(request));
    expect(Object.keys(lifted.envelope!)).toEqual(Object.keys(reference(request).envelope!));
  });

  it.each([
    ['no params', { id: 1, method: 'tools/list' } as HotRequest],
    ['no _meta', call({ name: 't', arguments: {} })],
    ['a _meta without an envelope key', call({ name: 't', arguments: {}, _meta: { progressToken: 3 } })],
  ])('leaves a request with %s as it is, as the SDK does', (_name, request) => {
    expect(liftEnvelope(request)).toBe(request);
  });

  it("lifts an envelope sent in another order in the SDK's order", () => {
    const request = call({ name: 't', arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: 'info', ...info, ...version, ...capabilities } });
    const lifted = liftEnvelope(request);
    expect(JSON.stringify(lifted)).toBe(JSON.stringify(reference(request)));
    expect(Object.keys(lifted.envelope!)).toEqual([
      PROTOCOL_VERSION_META_KEY,
      CLIENT_INFO_META_KEY,
      CLIENT_CAPABILITIES_META_KEY,
      LOG_LEVEL_META_KEY,
    ]);
  });

  it("copies own keys only, as the SDK's spread does, even with an enumerable key on Object.prototype", () => {
    const request = call({ name: 't', arguments: {}, _meta: { progressToken: 1, ...version, ...info } });
    const expected = reference(request);
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true });
    let lifted: HotRequest;
    try {
      lifted = liftEnvelope(request);
    } finally {
      delete (Object.prototype as { polluted?: number }).polluted;
    }
    expect(Object.keys(lifted.params!)).toEqual(['name', 'arguments', '_meta']);
    expect(Object.keys(lifted.params!._meta as object)).toEqual(['progressToken']);
    expect(lifted).toStrictEqual(expected);
  });

  it('keeps the request values themselves, not copies', () => {
    const request = cases[0][1];
    const lifted = liftEnvelope(request);
    const meta = request.params!._meta as Record<string, unknown>;
    expect(lifted.params!.arguments).toBe(request.params!.arguments);
    expect(lifted.envelope![CLIENT_INFO_META_KEY]).toBe(meta[CLIENT_INFO_META_KEY]);
    expect(lifted.envelope![CLIENT_CAPABILITIES_META_KEY]).toBe(meta[CLIENT_CAPABILITIES_META_KEY]);
  });
});
