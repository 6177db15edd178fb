import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsEmail } from 'class-validator';
import { Bytes, Field, McpServer, SetOf, TimeOnly, Tool, Uuid, type TypeHint } from '../../src';
import { probe, textOf } from '../support/probe';

/**
 * DESIGN.md section 6's deliberate differences, exactly: each is pinned here against the listing's own
 * validator (ajv 2020-12 + ajv-formats), so a change on either side shows.
 */
describe('the deliberate differences from the listing', () => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const listed = (hint: TypeHint) => {
    const server = new McpServer({ name: 'd', version: '1' }).tool('p', { params: { v: hint } }, () => 'ok');
    return ajv.compile(server.listTools()[0].inputSchema);
  };

  it('SetOf drops duplicates the listing refuses (uniqueItems)', async () => {
    const v = ['0f8fad5b-d9cb-469f-a165-70867728950e', '0f8fad5b-d9cb-469f-a165-70867728950e'];
    expect(listed(SetOf(Uuid))({ v })).toBe(false);
    const { result, received } = await probe(SetOf(Uuid))(v);
    expect(result.isError).toBeUndefined();
    expect([...(received as Set<string>)]).toEqual([v[0]]);
  });

  it('Bytes refuses text that is not base64 (contentEncoding is only an annotation)', async () => {
    expect(listed(Bytes)({ v: 'not base64!' })).toBe(true);
    expect(textOf((await probe(Bytes)('not base64!')).result)).toBe(
      'Argument \'v\' is not valid. Expected base64 text, such as "aGVsbG8=".',
    );
  });

  it('TimeOnly accepts a time without an offset (format time requires one)', async () => {
    expect(listed(TimeOnly)({ v: '14:30:00' })).toBe(false);
    expect((await probe(TimeOnly)('14:30:00')).received).toBe('14:30:00');
  });

  it('URL refuses what the WHATWG URL parser cannot hold (format uri accepts it)', async () => {
    expect(listed(URL)({ v: 'http://a:99999' })).toBe(true);
    expect(textOf((await probe(URL)('http://a:99999')).result)).toBe(
      'Argument \'v\' is not valid. Expected an absolute URL, such as "https://example.com".',
    );
  });

  it("class-validator's own rules may be stricter than their nearest keyword (@IsEmail and format email)", async () => {
    class Contact {
      @IsEmail() @Field() email!: string;
    }
    class Tools {
      @Tool() contact(contact: Contact): void {}
    }
    const server = new McpServer({ name: 'd', version: '1' }).add(new Tools());
    expect(ajv.compile(server.listTools()[0].inputSchema)({ contact: { email: 'a@b.c' } })).toBe(true);
    expect(textOf(await server.callTool('contact', { contact: { email: 'a@b.c' } }))).toBe(
      "Argument 'contact.email' is not valid. email must be an email",
    );
  });
});
