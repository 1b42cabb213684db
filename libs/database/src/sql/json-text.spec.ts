import { describe, expect, it } from '@jest/globals';
import { JsonText } from './json-text.js';

describe('JsonText.object', () => {
  it('splices JsonText values as they are and stringifies the others, in the given order', () => {
    const body = JsonText.object({ fills: new JsonText('[{"px":60000.5}]'), nextCursor: 'a"b', count: 2, none: null });
    expect(body).toBeInstanceOf(JsonText);
    expect(body.text).toBe('{"fills":[{"px":60000.5}],"nextCursor":"a\\"b","count":2,"none":null}');
    expect(JSON.parse(body.text)).toEqual({ fills: [{ px: 60000.5 }], nextCursor: 'a"b', count: 2, none: null });
  });

  it('leaves out an undefined value, as JSON.stringify does, and nests', () => {
    const inner = JsonText.object({ data: new JsonText('[]'), message: undefined });
    expect(inner.text).toBe('{"data":[]}');
    expect(JsonText.object({ status: 'success', data: inner }).text).toBe('{"status":"success","data":{"data":[]}}');
    expect(JsonText.object({}).text).toBe('{}');
  });

  it('joins JsonText items into an array', () => {
    expect(JsonText.array([new JsonText('{"a":1}'), JsonText.object({ b: [2] })]).text).toBe('[{"a":1},{"b":[2]}]');
    expect(JsonText.array([]).text).toBe('[]');
  });
});
