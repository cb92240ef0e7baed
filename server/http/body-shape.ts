/**
 * The shape of a JSON body, checked on its raw bytes before JSON.parse and before any walk of the
 * parsed value: how deep it nests, how wide an object or array is, how long a key is, whether a
 * key repeats, whether a number overflows to Infinity, whether a \u escape leaves a lone
 * surrogate, and whether the bytes are UTF-8 at all. One linear pass with a small stack, so a
 * body nested 100,000 deep costs as much as reading it, never a stack overflow (a 500). Syntax
 * errors are left to JSON.parse (400 invalid_json).
 */
import { HttpError } from './errors.js';

export const BODY_SHAPE_LIMITS = {
  /** Deepest nesting of objects and arrays (the API's bodies need 6; an MCP call wraps them in 3 more). */
  maxDepth: 32,
  /** Most members of one object or array (an embedding of 8,192 numbers fits). */
  maxMembers: 10_000,
  /** Longest object key, in bytes as sent. */
  maxKeyBytes: 1_000,
} as const;

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function refuse(message: string): never {
  throw new HttpError(400, 'invalid_body', `request body: ${message}`, '(body)');
}

interface Container {
  object: boolean;
  members: number;
  keys: Set<string> | undefined;
  /** In an object: the next string is a key. */
  expectKey: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isNumberByte = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;

/** The index after the string that starts at buf[start] (a quote); refuses lone surrogate escapes. */
function skipString(buf: Uint8Array, start: number): number {
  let i = start + 1;
  let pendingHigh = false;
  while (i < buf.length) {
    const c = buf[i];
    if (c === QUOTE) {
      if (pendingHigh) refuse('a string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)');
      return i + 1;
    }
    if (c !== BACKSLASH) {
      if (pendingHigh) refuse('a string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)');
      i++;
      continue;
    }
    const esc = buf[i + 1];
    if (esc === 0x75 /* u */ && i + 5 < buf.length && isHex(buf[i + 2]) && isHex(buf[i + 3]) && isHex(buf[i + 4]) && isHex(buf[i + 5])) {
      const unit = Number.parseInt(String.fromCharCode(buf[i + 2], buf[i + 3], buf[i + 4], buf[i + 5]), 16);
      const high = unit >= 0xd800 && unit <= 0xdbff;
      const low = unit >= 0xdc00 && unit <= 0xdfff;
      // A low surrogate must follow a high one, and only a low one may follow a high one.
      if (low !== pendingHigh) refuse('a string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)');
      pendingHigh = high;
      i += 6;
    } else {
      if (pendingHigh) refuse('a string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)');
      i += 2;
    }
  }
  return i; // unterminated: JSON.parse names it
}

/** Throws a 400 HttpError (field "(body)") when the body's shape is past a limit; returns otherwise. */
export function checkBodyShape(buf: Uint8Array, limits = BODY_SHAPE_LIMITS): void {
  try {
    fatalUtf8.decode(buf);
  } catch {
    refuse('not valid UTF-8');
  }
  const stack: Container[] = [];
  const top = () => stack[stack.length - 1];
  let i = 0;
  while (i < buf.length) {
    const c = buf[i];
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= limits.maxDepth) refuse(`nested deeper than ${limits.maxDepth} levels`);
      const object = c === 0x7b;
      stack.push({ object, members: 0, keys: object ? new Set() : undefined, expectKey: object });
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      const t = top();
      if (t) {
        if (++t.members >= limits.maxMembers) refuse(`an object or array has more than ${limits.maxMembers} members`);
        t.expectKey = t.object;
      }
      i++;
    } else if (c === QUOTE) {
      const end = skipString(buf, i);
      const t = top();
      if (t?.object && t.expectKey) {
        t.expectKey = false;
        if (end - i - 2 > limits.maxKeyBytes) refuse(`a key is longer than ${limits.maxKeyBytes} bytes`);
        let key: string;
        try {
          key = JSON.parse(Buffer.from(buf.subarray(i, end)).toString('utf8'));
        } catch {
          return; // malformed: JSON.parse names it
        }
        if (t.keys!.has(key)) refuse(`the key "${key}" appears twice in one object`);
        t.keys!.add(key);
      }
      i = end;
    } else if (isNumberByte(c)) {
      let j = i;
      while (j < buf.length && isNumberByte(buf[j])) j++;
      const n = Number(Buffer.from(buf.subarray(i, j)).toString('latin1'));
      if (n === Number.POSITIVE_INFINITY || n === Number.NEGATIVE_INFINITY) refuse('a number is outside the range of a double (it would read as Infinity)');
      i = j;
    } else {
      i++;
    }
  }
}
