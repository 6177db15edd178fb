import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { EraClassifier } from '../../../src/server/http/wire/era';

/**
 * Issue 16: the HTTP endpoint classifies each request's era without the SDK's classifier when it can (a plain
 * 2025-era hot request; an envelope the classifier already accepted). Every answer must be the classifier's,
 * the first time and every time after.
 */

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const request = (headers: Record<string, string>, method = 'POST') => ({ method, headers }) as unknown as IncomingMessage;

const modernHeaders = (method: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method });

const cases: [string, Record<string, string>, unknown, string?][] = [
  [
    'a 2026-07-28 tools/call',
    { ...modernHeaders('tools/call'), 'mcp-name': 'add' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', _meta: ENVELOPE } },
  ],
  [
    'the same envelope with another id and tool',
    { ...modernHeaders('tools/call'), 'mcp-name': 'sub' },
    { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'sub', _meta: ENVELOPE } },
  ],
  [
    'the same envelope with a method header that disagrees',
    modernHeaders('tools/list'),
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', _meta: ENVELOPE } },
  ],
  [
    'the same envelope without a version header',
    { 'mcp-method': 'tools/call' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'add', _meta: ENVELOPE } },
  ],
  [
    'the same envelope under a 2025 version header',
    { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call' },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { _meta: ENVELOPE } },
  ],
  // The memo finds remembered answers by method and client name and then compares every input: an envelope of the
  // same client that differs anywhere (a value, a key, the order of keys, deep inside) is the classifier's again.
  [
    'the envelope of the same client with capabilities the classifier refuses',
    modernHeaders('tools/call'),
    {
      jsonrpc: '2.0',
      id: 14,
      method: 'tools/call',
      params: { name: 'add', _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': 'none' } },
    },
  ],
  [
    'the envelope of the same client naming another revision',
    modernHeaders('tools/call'),
    {
      jsonrpc: '2.0',
      id: 15,
      method: 'tools/call',
      params: { name: 'add', _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } },
    },
  ],
  [
    'the envelope of the same client with its keys in another order',
    modernHeaders('tools/call'),
    {
      jsonrpc: '2.0',
      id: 16,
      method: 'tools/call',
      params: {
        name: 'add',
        _meta: {
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { version: '1', name: 'raw' },
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        },
      },
    },
  ],
  [
    'the envelope of the same client with a capability deep inside',
    modernHeaders('tools/call'),
    {
      jsonrpc: '2.0',
      id: 17,
      method: 'tools/call',
      params: { name: 'add', _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { sampling: { tools: {} } } } },
    },
  ],
  [
    'the envelope of the same client with an own __proto__ key',
    modernHeaders('tools/call'),
    JSON.parse(
      '{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"add","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{},"__proto__":{"x":1}}}}',
    ),
  ],
  [
    'an envelope whose clientInfo is a string',
    modernHeaders('tools/list'),
    { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': 'me' } } },
  ],
  [
    'an envelope naming an unknown revision',
    { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' },
    {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/list',
      params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
    },
  ],
  [
    'a progress token that is an object',
    modernHeaders('tools/list'),
    { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: { ...ENVELOPE, progressToken: { a: 1 } } } },
  ],
  ['an id that is a fraction', modernHeaders('tools/list'), { jsonrpc: '2.0', id: 1.5, method: 'tools/list', params: { _meta: ENVELOPE } }],
  [
    'an extra top-level key',
    modernHeaders('tools/list'),
    { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: ENVELOPE }, extra: 1 },
  ],
  [
    'a notification with the envelope',
    modernHeaders('notifications/cancelled'),
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } },
  ],
  [
    'a plain 2025-era tools/call',
    { 'mcp-protocol-version': '2025-11-25' },
    { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'add', arguments: { a: 1 } } },
  ],
  [
    'a 2025-era tools/call under a 2026 header',
    modernHeaders('tools/call'),
    { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'add' } },
  ],
  [
    'initialize',
    {},
    {
      jsonrpc: '2.0',
      id: 11,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a', version: '1' } },
    },
  ],
  ...(['resources/list', 'resources/templates/list', 'prompts/list'] as const).flatMap(
    (method, i): [string, Record<string, string>, unknown][] => [
      [
        `a plain 2025-era ${method}`,
        { 'mcp-protocol-version': '2025-11-25' },
        { jsonrpc: '2.0', id: 20 + i, method, params: { cursor: 'c' } },
      ],
      [`a plain ${method} with no version header`, {}, { jsonrpc: '2.0', id: 30 + i, method }],
      [`a 2025-era ${method} under a 2026 header`, modernHeaders(method), { jsonrpc: '2.0', id: 40 + i, method }],
      [`a 2026-07-28 ${method}`, modernHeaders(method), { jsonrpc: '2.0', id: 50 + i, method, params: { _meta: ENVELOPE } }],
    ],
  ),
  ['a batch', {}, [{ jsonrpc: '2.0', id: 12, method: 'ping' }]],
  ['a response', {}, { jsonrpc: '2.0', id: 13, result: {} }],
];

describe('era classification', () => {
  const classifier = new EraClassifier();

  it.each(cases)("answers %s as the SDK's classifier does, every time", (_label, headers, body) => {
    const expected = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: headers['mcp-protocol-version'],
      mcpMethodHeader: headers['mcp-method'],
      mcpNameHeader: headers['mcp-name'],
      body,
    });
    const wanted = JSON.stringify(expected);
    for (let i = 0; i < 3; i++) expect(JSON.stringify(classifier.classify(request(headers), body))).toBe(wanted);
  });

  it('classifies a GET as the classifier does (2025-era: the SSE stream of a session)', () => {
    expect(classifier.classify(request({}, 'GET'), undefined)).toEqual(classifyInboundRequest({ httpMethod: 'GET' }));
  });

  it('takes a POST without a JSON body as 2025-era, whose transport refuses it', () => {
    expect(classifier.classify(request({}), undefined).kind).toBe('legacy');
  });
});
