/**
 * The function declaration `@google/adk` (2.0.0) makes of `Everything.order` (test/profiles/fixture.ts), as the
 * exact string of `JSON.stringify([tool._getDeclaration()])`, for each listing of our server.
 *
 * Under `'gemini'` ADK drops our `nullable: true` (`coupon`, `lines[].note`): its `toGeminiSchema` says `nullable`
 * only for a type list naming `null`, and copies no `nullable` it is given. Under `'exact'` it keeps them, from
 * the type lists; the `'gemini'` profile's words (bounds, formats, the default) survive in the descriptions.
 */
export const ADK_DECLARATIONS: Readonly<Record<'gemini' | 'exact', string>> = {
  gemini:
    '[{"name":"order","parameters":{"type":"OBJECT","properties":{' +
    '"customer":{"type":"STRING","description":"The customer. 2 to 5 characters."},' +
    '"count":{"type":"INTEGER","description":"From 1 to 1000."},' +
    '"coupon":{"type":"STRING"},' +
    '"level":{"type":"STRING","description":"One of: low, high. Default: low.","enum":["low","high"]},' +
    '"id":{"type":"STRING","description":"A UUID such as 123e4567-e89b-12d3-a456-426614174000."},' +
    '"day":{"type":"STRING","description":"A date such as 2026-12-02."},' +
    '"when":{"type":"STRING","description":"A date and time such as 2026-12-02T10:30:00Z."},' +
    '"where":{"type":"STRING","description":"An absolute URL such as https://example.com/."},' +
    '"data":{"type":"STRING","description":"Base64-encoded bytes."},' +
    '"tags":{"type":"ARRAY","description":"No duplicates.","items":{"type":"STRING"}},' +
    '"prices":{"type":"OBJECT","description":"An object of any property names, each value a number.","properties":{}},' +
    '"lines":{"type":"ARRAY","items":{"type":"OBJECT","properties":{"sku":{"type":"STRING"},"qty":{"type":"INTEGER","description":"From 1 to 1000."},"note":{"type":"STRING"}},"required":["sku"]}},' +
    '"sizes":{"type":"ARRAY","description":"Sizes.","items":{"type":"INTEGER","description":"From -2147483648 to 2147483647."}},' +
    '"wait":{"type":"STRING","description":"A time span such as 1.02:03:04.5 ([-][d.]hh:mm:ss[.fffffff])."}},' +
    '"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"]}}]',
  exact:
    '[{"name":"order","parameters":{"type":"OBJECT","properties":{' +
    '"customer":{"type":"STRING","description":"The customer."},' +
    '"count":{"type":"INTEGER"},' +
    '"coupon":{"type":"STRING","nullable":true},' +
    '"level":{"type":"STRING","enum":["low","high"]},' +
    '"id":{"type":"STRING"},' +
    '"day":{"type":"STRING"},' +
    '"when":{"type":"STRING"},' +
    '"where":{"type":"STRING"},' +
    '"data":{"type":"STRING"},' +
    '"tags":{"type":"ARRAY","items":{"type":"STRING"}},' +
    '"prices":{"type":"OBJECT","properties":{}},' +
    '"lines":{"type":"ARRAY","items":{"type":"OBJECT","properties":{"sku":{"type":"STRING"},"qty":{"type":"INTEGER"},"note":{"type":"STRING","nullable":true}},"required":["sku"]}},' +
    '"sizes":{"type":"ARRAY","description":"Sizes.","items":{"type":"INTEGER"}},' +
    '"wait":{"type":"STRING"}},' +
    '"required":["customer","count","coupon","id","when","where","data","tags","prices","lines","sizes","wait"]}}]',
};
