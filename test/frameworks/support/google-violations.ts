/**
 * The violations of Gemini's `Schema` rules in the exact listing of `Everything.order` (test/profiles/fixture.ts), as
 * `violationLines` says them: the type lists of the two nullable strings, the `uuid`, `date` and `uri` formats,
 * `contentEncoding` (bytes), `uniqueItems` (a set) and the `additionalProperties` of the dictionary and of both
 * closed objects. What the `'gemini'` profile writes differently, and a `parameters` field of Gemini refuses.
 */
export const EXACT_VIOLATIONS: readonly string[] = [
  '/properties/coupon/type: not one type: ["string","null"]',
  '/properties/id/format: not a format Gemini accepts for STRING: "uuid"',
  '/properties/day/format: not a format Gemini accepts for STRING: "date"',
  '/properties/where/format: not a format Gemini accepts for STRING: "uri"',
  '/properties/data/contentEncoding: unknown to Gemini\'s Schema: "base64"',
  "/properties/tags/uniqueItems: unknown to Gemini's Schema: true",
  '/properties/prices/additionalProperties: unknown to Gemini\'s Schema: {"type":"number"}',
  '/properties/lines/items/properties/note/type: not one type: ["string","null"]',
  "/properties/lines/items/additionalProperties: unknown to Gemini's Schema: false",
  "/additionalProperties: unknown to Gemini's Schema: false",
];
