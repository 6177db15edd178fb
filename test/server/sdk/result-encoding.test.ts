import { Server } from '@modelcontextprotocol/server';
import { modernToolResult, type WireCodec } from '../../../src/server/sdk/server';

/**
 * Issue 39: a 2026-07-28 tools/call result is encoded in one object (sdk/server.ts `modernToolResult`) rather than
 * by the codec's four steps. Held to the SDK's own 2026-07-28 codec, as the SDK's `Server` uses it once the revision is
 * negotiated: the same JSON, key order included, for every result it takes, and no answer for
 * those it leaves to the codec.
 */

interface Negotiated {
  _negotiatedProtocolVersion?: string;
  _wireCodec(): WireCodec;
  _outboundServerInfo(): { name: string; version: string } | undefined;
}

let codec: WireCodec;
let serverInfo: { name: string; version: string } | undefined;

beforeAll(() => {
  // The SDK's private codec, reached on purpose: it is what the library's encoding must equal. A `Server` that
  // negotiated 2026-07-28 (as an HTTP request of that revision sets it) encodes with it.
  const server = new Server(
    { name: 'encoding', version: '1.2.3', title: 'Encoding' },
    { capabilities: { tools: {} } },
  ) as unknown as Negotiated;
  server._negotiatedProtocolVersion = '2026-07-28';
  codec = server._wireCodec();
  serverInfo = server._outboundServerInfo();
});

const TAKEN: [string, Record<string, unknown>][] = [
  ['text content', { content: [{ type: 'text', text: '10' }] }],
  ['an error result', { content: [{ type: 'text', text: 'no' }], isError: true }],
  ['structured content', { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }],
  ['empty content', { content: [] }],
  ['resultType present but undefined (keeps its place)', { resultType: undefined, content: [] }],
  ['_meta present but undefined (keeps its place)', { _meta: undefined, content: [], isError: false }],
  ['an unknown key', { content: [], extra: { deep: [1, 2] } }],
  // Copied key by key: an own `__proto__` stays a key, inherited and symbol keys stay out, index keys come first.
  ['an own __proto__ key (as JSON.parse makes it)', JSON.parse('{"content":[],"__proto__":{"x":1},"isError":true}')],
  ['an inherited enumerable key', Object.assign(Object.create({ inherited: 1 }) as object, { content: [] })],
  ['a symbol key', { content: [], [Symbol('hint')]: 1 }],
  ['index keys', { content: [], 2: 'b', 1: 'a' }],
  ['a getter', Object.defineProperty({ content: [] }, 'computed', { get: () => 'got', enumerable: true })],
];

const LEFT: [string, unknown][] = [
  ['resultType complete', { content: [], resultType: 'complete' }],
  ['resultType input_required', { resultType: 'input_required', inputRequests: {} }],
  ['its own _meta', { content: [], _meta: { note: 1 } }],
  ['its own server info', { content: [], _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '0' } } }],
  ['capabilities with tasks', { content: [], capabilities: { tasks: {} } }],
  ['null', null],
  ['an array', [1]],
  ['a string', 'text'],
];

describe("a 2026-07-28 tools/call result, encoded as the SDK's codec encodes it", () => {
  it('is the 2026-07-28 codec with the server info', () => {
    expect([codec.era, serverInfo]).toEqual(['2026-07-28', { name: 'encoding', version: '1.2.3', title: 'Encoding' }]);
  });

  it.each(TAKEN)('%s: the same JSON, in the same order', (_name, result) => {
    const ours = modernToolResult(result, serverInfo);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(codec.encodeResult('tools/call', result, serverInfo)));
    expect(ours).not.toBe(result);
  });

  it('writes resultType then the server info after the result keys', () => {
    expect(JSON.stringify(modernToolResult({ content: [], isError: true }, serverInfo))).toBe(
      '{"content":[],"isError":true,"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"encoding","version":"1.2.3","title":"Encoding"}}}',
    );
  });

  it('without server info, as the codec without it', () => {
    const result = { content: [{ type: 'text', text: 'x' }] };
    expect(JSON.stringify(modernToolResult(result, undefined))).toBe(JSON.stringify(codec.encodeResult('tools/call', result, undefined)));
  });

  it.each(LEFT)('leaves %s to the codec', (_name, result) => {
    expect(modernToolResult(result, serverInfo)).toBeUndefined();
  });

  it('does not change the result it was given', () => {
    const result = { content: [{ type: 'text', text: 'x' }] };
    modernToolResult(result, serverInfo);
    expect(JSON.stringify(result)).toBe('{"content":[{"type":"text","text":"x"}]}');
  });
});
