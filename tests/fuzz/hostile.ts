/**
 * Hostile values the fuzz harness sends: huge, odd and boundary strings and numbers, prototype keys, deep
 * nesting.
 */

/** A string of `n` characters. */
export const hugeString = (n: number, ch = 'A'): string => ch.repeat(n);

/** One megabyte of text (1,000,000 characters). */
export const ONE_MB = 1_000_000;

/** Strings every text field should survive: unicode oddities, control characters, injections. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '🙂🚀👨‍👩‍👧‍👦', // emoji, ZWJ sequence
  '\u202eevil\u202c', // RTL override
  'مرحبا بالعالم', // RTL script
  'e\u0301\u0301\u0301\u0301\u0301', // combining marks
  'Z̴̡̢̛̛̛͓̠̜̩͚̱̤͚̟͔̥̖̗̘͈̝̝͇̣̠͔͙̮̝̣̱̹̗̗̺͙̪̘̖̝͓͔̰̠͎̻͎̲̜̣̦͕̮̓̄̀͑̉̾̔̿̌̊͗̓̀̏̔͆̽̓͋̐͛͊̿̀̎̑̀̚̕͘͘͜͠͠͝͠͝ͅͅ', // zalgo
  '\ud800', // lone high surrogate
  'x\udc00y', // lone low surrogate
  'a\u0000b', // NUL
  '\u0000',
  '\u200b\u200c\u200d\ufeff', // zero-width, BOM
  '\r\n\t\b\f\v',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  "' OR '1'='1'; DROP TABLE users; --",
  '"; $(reboot) `id`',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e308',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '\\u0000',
  '\uffff\ufffe',
  '𝕳𝖊𝖑𝖑𝖔',
  'İıſK', // case-folding oddities
];

/** Numbers at the edges: NaN (JSON: null), infinities, negatives, unsafe integers, tiny fractions. */
export const BOUNDARY_NUMBERS: readonly number[] = [
  NaN,
  Infinity,
  -Infinity,
  -1,
  0,
  -0,
  0.5,
  -0.000001,
  1e-300,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
];

/** Keys that try to reach a prototype. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with an own enumerable `key` (also '__proto__'), which JSON.stringify writes out. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Nested arrays `depth` levels deep. */
export function deepArray(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
