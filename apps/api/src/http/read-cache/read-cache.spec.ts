import { describe, expect, it } from '@jest/globals';
import { JsonText } from '#database';
import { WithMessage } from '#market';
import { asJsonText, ReadCache } from './read-cache.js';
import { SealedJsonText } from './sealed-json-text.js';

const text = (answer: unknown) => (answer as JsonText).text;

describe('ReadCache', () => {
  it('renders once and then gives the kept answer', async () => {
    const cache = new ReadCache(1_000);
    let renders = 0;
    const render = async () => ({ n: ++renders });
    expect(text(await cache.answer('a', render))).toBe('{"n":1}');
    expect(text(await cache.answer('a', render))).toBe('{"n":1}');
    expect(text(await cache.answer('b', render))).toBe('{"n":2}');
    expect(renders).toBe(2);
    expect(cache.counts).toEqual({ hit: 1, shared: 0, rendered: 2 });
  });

  it('shares one rendering between requests that arrive while it runs', async () => {
    const cache = new ReadCache(1_000);
    let renders = 0;
    let finish!: (value: unknown) => void;
    const render = () => {
      renders++;
      return new Promise((resolve) => (finish = resolve));
    };
    const answers = [cache.answer('k', render), cache.answer('k', render), cache.answer('k', render)];
    finish([1, 2]);
    expect((await Promise.all(answers)).map(text)).toEqual(['[1,2]', '[1,2]', '[1,2]']);
    expect(renders).toBe(1);
    expect(cache.counts).toEqual({ hit: 0, shared: 2, rendered: 1 });
  });

  it('keeps no failed rendering: its waiters get the error, the next request renders again', async () => {
    const cache = new ReadCache(1_000);
    let fail = true;
    const render = async () => {
      if (fail) throw new Error('unknown coin');
      return 'ok';
    };
    const first = cache.answer('k', render);
    const second = cache.answer('k', render);
    await expect(first).rejects.toThrow('unknown coin');
    await expect(second).rejects.toThrow('unknown coin');
    fail = false;
    expect(text(await cache.answer('k', render))).toBe('ok');
    // The key, the text and its bytes.
    expect(cache.size).toEqual({ entries: 1, bytes: 1 + 2 + 2 });
  });

  it('drops the least recently used answers once the kept text passes its bytes', async () => {
    // Each entry: a 1-character key, a 10-character text and its 10 bytes, 21 bytes; 63 fit.
    const cache = new ReadCache(63);
    const keep = (key: string) => cache.answer(key, async () => new JsonText(key.repeat(10)));
    await keep('a');
    await keep('b');
    await keep('c');
    await keep('a'); // a is now the most recently used
    await keep('d'); // drops b
    expect(cache.size).toEqual({ entries: 3, bytes: 63 });
    let rendered = '';
    const probe = (key: string) => cache.answer(key, async () => ((rendered += key), new JsonText(key.repeat(10))));
    await probe('a');
    await probe('c');
    await probe('d');
    expect(rendered).toBe('');
    await probe('b');
    expect(rendered).toBe('b');
  });

  it('does not keep an answer larger than the whole cache', async () => {
    const cache = new ReadCache(5);
    expect(text(await cache.answer('k', async () => new JsonText('0123456789')))).toBe('0123456789');
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('is off at 0 bytes', () => {
    expect(new ReadCache(0).enabled).toBe(false);
    expect(new ReadCache(1).enabled).toBe(true);
  });
});

describe('asJsonText', () => {
  it('keeps JSON text, takes a returned string as the JSON express would send, and serialises anything else once', () => {
    const page = asJsonText(new JsonText('{"fills":[]}'));
    expect(page).toBeInstanceOf(SealedJsonText);
    expect(text(page)).toBe('{"fills":[]}');
    expect((page as SealedJsonText).bytes.toString('utf8')).toBe('{"fills":[]}');
    expect(text(asJsonText('"2026-03-02T10:05:00.000Z"'))).toBe('"2026-03-02T10:05:00.000Z"');
    expect(text(asJsonText({ a: 1, b: [null, 'x'] }))).toBe('{"a":1,"b":[null,"x"]}');
  });

  it('keeps a note beside its data', () => {
    const answer = asJsonText(new WithMessage({ height: null }, 'no state update yet'));
    expect(answer).toBeInstanceOf(WithMessage);
    expect((answer as WithMessage<JsonText>).message).toBe('no state update yet');
    expect((answer as WithMessage<JsonText>).data.text).toBe('{"height":null}');
  });
});

describe('SealedJsonText', () => {
  it('keeps the UTF-8 bytes of its text and a weak tag of their length and SHA-1', () => {
    const sealed = new SealedJsonText('{"coin":"é"}');
    expect(sealed.bytes).toEqual(Buffer.from([0x7b, 0x22, 0x63, 0x6f, 0x69, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0xa9, 0x22, 0x7d]));
    // 13 bytes; `printf '{"coin":"é"}' | openssl sha1 -binary | base64`, first 27 characters.
    expect(sealed.etag).toBe('W/"d-YSPWSd7hfCBNM6m87afr6ndyY7g"');
  });
});
