import type { IncomingMessage } from 'node:http';
import type { InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { modernPoolRoute, plainHeaderText } from '../../../src/server/http/modern/modern';

/**
 * The pool's admission checks written as walks rather than expressions and searches (http/modern/modern.ts): each answers
 * exactly what the expression it replaces answers.
 */
describe("the pool's header checks", () => {
  const reference = (text: string) => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(text) && !text.includes('=?');

  const texts = [
    '',
    'a',
    ' ',
    '~',
    '\x7f',
    'place_order',
    'with space',
    ' leading',
    'trailing ',
    'a b',
    'tab\there',
    '=?base64?eA==?=',
    'a=?',
    '=?',
    '?=',
    '=',
    '?',
    'x=y?z',
    'é',
    'file:///data/a.txt',
    'a\nb',
    '!',
    '!!',
    ' !',
  ];

  it.each(texts)('plainHeaderText(%j) is the expression with no =?', (text) => {
    expect(plainHeaderText(text)).toBe(reference(text));
  });

  it('agrees with the expression on every two-character text of the ASCII range and a few beyond', () => {
    const chars = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), 'é', '\u2028'];
    for (const a of chars) for (const b of chars) expect(plainHeaderText(a + b)).toBe(reference(a + b));
  });

  const route = (message: object) =>
    ({
      kind: 'modern',
      messageKind: 'request',
      message,
      classification: { revision: '2026-07-28' },
    }) as unknown as InboundClassificationOutcome;
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add' } };
  const request = (accept: string | undefined) =>
    ({
      headers: {
        accept,
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
      },
    }) as unknown as IncomingMessage;

  it.each([
    ['application/json, text/event-stream', true],
    ['text/event-stream, application/json', true],
    ['application/json,text/event-stream;q=0.5', true],
    ['application/json', false],
    ['text/event-stream', false],
    ['', false],
    [undefined, false],
  ])('takes a request whose Accept is %j: %s', (accept, taken) => {
    expect(modernPoolRoute(request(accept), route(call)) !== undefined).toBe(taken);
  });
});
