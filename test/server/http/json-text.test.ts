import { jsonTextOf } from '../../../src/server/http/wire/json-text';

/** The reply text of a legacy post or a modern exchange (http/wire/json-text.ts) is `JSON.stringify`'s, byte for byte, whatever the message. */
describe('jsonTextOf', () => {
  const text = (t: unknown) => ({ type: 'text', text: t });
  const reply = (result: unknown, id: unknown = 1) => ({ result, jsonrpc: '2.0', id });
  const withToJson = Object.assign([text('a')], { toJSON: () => 'replaced' });
  class Block {
    type = 'text';
    text = 'instance';
  }
  class Info {
    name = 'n';
    version = '1';
  }
  const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
  const INFO = { name: 'ours', version: '1.0.0' };
  const modern = (content: unknown[], info: object = INFO) => ({ content, resultType: 'complete', _meta: { [SERVER_INFO]: info } });
  const cases: [string, unknown][] = [
    ['one text block', reply({ content: [text('10')] })],
    ['several blocks', reply({ content: [text('a'), text('b'), text('')] })],
    ['no blocks', reply({ content: [] })],
    ['escapes and unicode', reply({ content: [text('"quoted"\\ \n\t\u0000\u001f \u2028 é 😀 \ud800')] })],
    ['a string id', reply({ content: [text('x')] }, 'id "7"')],
    ['a plain string id', reply({ content: [text('x')] }, 'id-7')],
    ['a negative, fractional, large id', reply({ content: [text('x')] }, -1.5e21)],
    ['a -0 id', reply({ content: [text('x')] }, -0)],
    ['a NaN id', reply({ content: [text('x')] }, NaN)],
    ['an Infinity id', reply({ content: [text('x')] }, Infinity)],
    ['a null id', reply({ content: [text('x')] }, null)],
    ['isError', reply({ content: [text('x')], isError: true })],
    ['structuredContent', reply({ content: [text('x')], structuredContent: { a: 1 } })],
    ['an image block', reply({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] })],
    ['a block with keys the other way round', reply({ content: [{ text: 'x', type: 'text' }] })],
    ['a block of another type with a text', reply({ content: [{ type: 'image', text: 'x' }] })],
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
    // A 2026-07-28 result (sdk/server.ts modernToolResult): the codec's resultType, the server info in _meta.
    ['a 2026-07-28 result', reply(modern([text('10')]))],
    ['a 2026-07-28 result, server info with a title', reply(modern([text('10')], { name: 'n', version: '1', title: 'T "q"' }))],
    ['a 2026-07-28 result, an empty server info', reply(modern([], {}))],
    ['a 2026-07-28 result, server info with an icon list', reply(modern([text('x')], { name: 'n', version: '1', icons: [] }))],
    ['a 2026-07-28 result, server info with a number', reply(modern([text('x')], { name: 'n', version: 1 }))],
    ['a 2026-07-28 result, server info with an index key', reply(modern([text('x')], { name: 'n', 7: 'seven' }))],
    ['a 2026-07-28 result, server info with a toJSON', reply(modern([text('x')], { name: 'n', toJSON: () => 'i' }))],
    ['a 2026-07-28 result, a class instance server info', reply(modern([text('x')], new Info()))],
    ['a 2026-07-28 result, a server info inheriting a key', reply(modern([text('x')], Object.create({ name: 'n' }) as object))],
    ['a 2026-07-28 result, escapes in the server info', reply(modern([text('x')], { 'na"me': 'a\nb\u0001', version: '\ud800' }))],
    ['a 2026-07-28 result, another resultType', reply({ ...modern([text('x')]), resultType: 'input_required' })],
    ['a 2026-07-28 result, more in _meta', reply({ ...modern([text('x')]), _meta: { ...modern([])._meta, more: 1 } })],
    ['a 2026-07-28 result, another key in _meta', reply({ ...modern([text('x')]), _meta: { other: INFO } })],
    ['a 2026-07-28 result, _meta with a toJSON', reply({ ...modern([text('x')]), _meta: { [SERVER_INFO]: INFO, toJSON: () => 'm' } })],
    ['a 2026-07-28 result, no _meta', reply({ content: [text('x')], resultType: 'complete' })],
    [
      'a 2026-07-28 result, isError',
      reply({ content: [text('x')], isError: true, resultType: 'complete', _meta: { [SERVER_INFO]: INFO } }),
    ],
    ['a 2026-07-28 result, an image block', reply(modern([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]))],
    ['a 2026-07-28 result, keys in another order', reply({ resultType: 'complete', content: [text('x')], _meta: { [SERVER_INFO]: INFO } })],
  ];

  it.each(cases)('writes %s as JSON.stringify does', (_name, message) => {
    expect(jsonTextOf(message as object)).toBe(JSON.stringify(message));
  });

  it('writes the usual replies as JSON.stringify does while Object.prototype has a toJSON (a polluted prototype)', () => {
    const messages = [reply({ content: [text('x')] }), reply(modern([text('x')]))];
    Object.defineProperty(Object.prototype, 'toJSON', { value: () => 'polluted', configurable: true, writable: true });
    try {
      for (const message of messages) expect(jsonTextOf(message)).toBe(JSON.stringify(message));
      expect(JSON.stringify(messages[0])).toBe('"polluted"');
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
  });

  it('writes the usual replies of both eras from their parts (JSON.stringify only writes strings)', () => {
    const messages = [reply({ content: [text('10')] }), reply(modern([text('10')]), 'a')];
    const expected = messages.map((message) => JSON.stringify(message));
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const written = messages.map(jsonTextOf);
      expect(stringify.mock.calls.filter(([value]) => typeof value !== 'string')).toEqual([]);
      expect(written).toEqual(expected);
    } finally {
      stringify.mockRestore();
    }
  });

  it('writes a server info changed between replies as it is then (its text is remembered)', () => {
    const info: Record<string, unknown> = { name: 'n', version: '1' };
    const changes: [string, () => void][] = [
      ['unchanged', () => {}],
      ['a value', () => (info.version = '2')],
      ['a key renamed in its place, its value kept', () => (delete info.version, (info.release = '2'))],
      ['a key added', () => (info.title = 'T')],
      ['a key deleted', () => delete info.title],
      ['the order', () => (delete info.name, (info.name = 'n'))],
      ['a value not a string', () => (info.name = 7)],
      ['a value a string again', () => (info.name = 'n')],
      ['a toJSON', () => (info.toJSON = () => 'j')],
      ['no toJSON', () => delete info.toJSON],
      ['a getter', () => Object.defineProperty(info, 'name', { get: () => 'g', enumerable: true, configurable: true })],
      ['not enumerable', () => Object.defineProperty(info, 'name', { value: 'n', enumerable: false })],
    ];
    for (const [, change] of changes) {
      change();
      const message = reply(modern([text('x')], info));
      expect(jsonTextOf(message)).toBe(JSON.stringify(message));
    }
    const other = { name: 'other', version: '1' };
    expect(jsonTextOf(reply(modern([text('x')], other)))).toBe(JSON.stringify(reply(modern([text('x')], other))));
  });

  it('writes a server info whose key became inherited as JSON.stringify does', () => {
    const info: Record<string, unknown> = { name: 'n', version: '1' };
    // Without a prototype, so that the key added to Object.prototype shows only in the server info.
    const bare = <T extends object>(value: T): T => Object.assign(Object.create(null) as T, value);
    const message = () =>
      bare({
        result: bare({ content: [bare({ type: 'text', text: 'x' })], resultType: 'complete', _meta: bare({ [SERVER_INFO]: info }) }),
        jsonrpc: '2.0',
        id: 1,
      });
    expect(jsonTextOf(message())).toBe(JSON.stringify(message()));
    delete info.version;
    (Object.prototype as Record<string, unknown>).version = '1';
    try {
      expect(jsonTextOf(message())).toBe(JSON.stringify(message()));
    } finally {
      delete (Object.prototype as Record<string, unknown>).version;
    }
  });

  it('writes an inherited enumerable key as JSON.stringify does (own keys only)', () => {
    const message = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.assign(message, reply({ content: [text('x')] }));
    expect(jsonTextOf(message)).toBe(JSON.stringify(message));
  });
});
