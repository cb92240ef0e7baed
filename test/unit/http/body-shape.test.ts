// Subject: server/http/body-shape.ts: request bodies refused by shape (depth, keys, sizes) before parsing them further.
import { BODY_SHAPE_LIMITS, checkBodyShape } from '../../../server/http/body-shape.js';
import { HttpError } from '../../../server/http/errors.js';
import { prototypeKey } from '../../../server/http/handlers.js';

const check = (s: string | Buffer) => checkBodyShape(typeof s === 'string' ? Buffer.from(s, 'utf8') : s);
/** The refusal's message, or undefined when the body passes. */
function refusal(s: string | Buffer): string | undefined {
  try {
    check(s);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ status: 400, field: '(body)' });
    return (e as Error).message;
  }
}
const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

test('depth: the limit passes, one more is refused, 1,000,000 deep costs no stack', () => {
  expect(refusal(nested(BODY_SHAPE_LIMITS.maxDepth))).toBeUndefined();
  expect(refusal(nested(BODY_SHAPE_LIMITS.maxDepth + 1))).toMatch(/nested deeper than 32/);
  expect(refusal('['.repeat(1_000_000))).toMatch(/nested deeper/);
  // Brackets inside strings are text, not nesting.
  expect(refusal(`{"q":"${'['.repeat(100)}"}`)).toBeUndefined();
  expect(refusal(`{"q":"\\"${'{'.repeat(100)}"}`)).toBeUndefined();
});

test('width: 10,000 members pass, 10,001 are refused, per container', () => {
  const arr = (n: number) => `[${Array(n).fill(0).join(',')}]`;
  expect(refusal(arr(10_000))).toBeUndefined();
  expect(refusal(arr(10_001))).toMatch(/more than 10000 members/);
  expect(refusal(`[${arr(9_000)},${arr(9_000)}]`)).toBeUndefined();
  const obj = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;
  expect(refusal(obj(10_001))).toMatch(/members/);
});

test('keys: 1,000 bytes pass, 1,001 are refused; a repeated key is refused, also through an escape; the same key in two objects passes', () => {
  expect(refusal(`{"${'k'.repeat(1000)}":1}`)).toBeUndefined();
  expect(refusal(`{"${'k'.repeat(1001)}":1}`)).toMatch(/longer than 1000 bytes/);
  expect(refusal('{"a":1,"a":2}')).toMatch(/"a" appears twice/);
  expect(refusal('{"a":1,"\\u0061":2}')).toMatch(/"a" appears twice/);
  expect(refusal('{"a":{"a":1},"b":{"a":1}}')).toBeUndefined();
  // A string value equal to a key is not a key.
  expect(refusal('{"a":"a","b":["a","a"]}')).toBeUndefined();
});

test('numbers: past a double is refused; underflow, 30 digits and -0 pass', () => {
  expect(refusal('{"x":1e400}')).toMatch(/Infinity/);
  expect(refusal('[-1E+309]')).toMatch(/Infinity/);
  expect(refusal(`[${'9'.repeat(400)}]`)).toMatch(/Infinity/);
  expect(refusal('[1e-400, 123456789012345678901234567890, -0, 1.7976931348623157e308]')).toBeUndefined();
  // Digits inside a string are text.
  expect(refusal('{"x":"1e400"}')).toBeUndefined();
});

test('UTF-8 and surrogates', () => {
  expect(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toMatch(/not valid UTF-8/);
  expect(refusal(Buffer.from([0x5b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x5d]))).toMatch(/not valid UTF-8/);
  expect(refusal('["\\ud800"]')).toMatch(/lone UTF-16 surrogate/);
  expect(refusal('["\\udc00"]')).toMatch(/lone/);
  expect(refusal('["\\ud800\\u0041"]')).toMatch(/lone/);
  expect(refusal('["\\ud800\\ud800\\udc00"]')).toMatch(/lone/);
  expect(refusal('["\\ud83d\\ude00", "😀", "\\u00e9", "\\\\ud800"]')).toBeUndefined();
});

test('prototypeKey walks a body of the allowed depth', () => {
  let v: unknown = { __proto__: null };
  v = JSON.parse(`${'{"a":'.repeat(BODY_SHAPE_LIMITS.maxDepth - 1)}{"__proto__":1}${'}'.repeat(BODY_SHAPE_LIMITS.maxDepth - 1)}`);
  expect(prototypeKey(v)).toBe(`${'a.'.repeat(BODY_SHAPE_LIMITS.maxDepth - 1)}__proto__`);
});
