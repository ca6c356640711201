/** The console words 503 Database_unavailable in the interface language (issue 15; §2 six languages). */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/protocol/constants';
import { DATABASE_UNAVAILABLE } from '../../../src/server/db/availability';
import { serverErrorText } from '../../../src/console/platform/serverTexts';

describe('serverErrorText', () => {
  it('has Database_unavailable in all six languages, each its own translation; en is the server text', () => {
    const texts = LANGUAGES.map((language) => serverErrorText('Database_unavailable', language));
    expect(texts.every((t) => typeof t === 'string' && t.length > 10)).toBe(true);
    expect(new Set(texts).size).toBe(LANGUAGES.length);
    expect(serverErrorText('Database_unavailable', 'en')).toBe(DATABASE_UNAVAILABLE.message);
  });

  it('leaves other codes to the server message', () => {
    expect(serverErrorText('Validation_error', 'de')).toBeNull();
    expect(serverErrorText('toString', 'de')).toBeNull();
  });
});
