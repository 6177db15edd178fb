import { jsonTextOf } from '../../../src/server/http/json-text';

/** The reply text of a legacy post (http/json-text.ts) is `JSON.stringify`'s, byte for byte, whatever the message. */
describe('jsonTextOf', () => {
  const text = (t: unknown) => ({ type: 'text', text: t });
  const reply = (result: unknown, id: unknown = 1) => ({ result, jsonrpc: '2.0', id });
  const withToJson = Object.assign([text('a')], { toJSON: () => 'replaced' });
  class Block {
    type = 'text';
    text = 'instance';
  }
  const cases: [string, unknown][] = [
    ['one text block', reply({ content: [text('10')] })],
    ['several blocks', reply({ content: [text('a'), text('b'), text('')] })],
    ['no blocks', reply({ content: [] })],
    ['escapes and unicode', reply({ content: [text('"quoted"\\ \n\t\u0000\u001f \u2028 é 😀 \ud800')] })],
    ['a string id', reply({ content: [text('x')] }, 'id "7"')],
    ['a negative, fractional, large id', reply({ content: [text('x')] }, -1.5e21)],
    ['a -0 id', reply({ content: [text('x')] }, -0)],
    ['a NaN id', reply({ content: [text('x')] }, NaN)],
    ['an Infinity id', reply({ content: [text('x')] }, Infinity)],
    ['a null id', reply({ content: [text('x')] }, null)],
    ['isError', reply({ content: [text('x')], isError: true })],
    ['structuredContent', reply({ content: [text('x')], structuredContent: { a: 1 } })],
    ['an image block', reply({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] })],
    ['a block with keys the other way round', reply({ content: [{ text: 'x', type: 'text' }] })],
    ['a block with _meta', reply({ content: [{ type: 'text', text: 'x', _meta: { a: 1 } }] })],
    ['a non-string text', reply({ content: [text(42)] })],
    ['an undefined text', reply({ content: [text(undefined)] })],
    // eslint-disable-next-line no-sparse-arrays -- a hole, which JSON.stringify writes as null
    ['a hole', reply({ content: [text('a'), , text('b')] })],
    ['a class instance block', reply({ content: [new Block()] })],
    ['a toJSON on the content', reply({ content: withToJson })],
    ['a toJSON on the result', reply({ content: [text('x')], toJSON: () => 'r' })],
    ['a toJSON on the message', { ...reply({ content: [text('x')] }), toJSON: () => 'm' }],
    ['keys in another order', { jsonrpc: '2.0', id: 1, result: { content: [text('x')] } }],
    ['an error answer', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } }],
    ['another jsonrpc', { result: { content: [text('x')] }, jsonrpc: '1.0', id: 1 }],
    ['an extra key', { result: { content: [text('x')] }, jsonrpc: '2.0', id: 1, extra: true }],
    ['an undefined extra key', { result: { content: [text('x')] }, jsonrpc: '2.0', id: 1, extra: undefined }],
    ['a null-prototype result', reply(Object.assign(Object.create(null), { content: [text('x')] }))],
    ['a result that is not an object', reply('x')],
    ['a content that is not an array', reply({ content: { 0: text('x'), length: 1 } })],
  ];

  it.each(cases)('writes %s as JSON.stringify does', (_name, message) => {
    expect(jsonTextOf(message as object)).toBe(JSON.stringify(message));
  });

  it('writes an inherited enumerable key as JSON.stringify does (own keys only)', () => {
    const message = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.assign(message, reply({ content: [text('x')] }));
    expect(jsonTextOf(message)).toBe(JSON.stringify(message));
  });
});
