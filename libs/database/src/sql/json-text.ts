/**
 * A response body, or a part of one, that is already JSON text (a page of rows rendered by Postgres,
 * see `jsonKeysetPage`). The api sends it as it is, with `Content-Type: application/json`, instead of
 * building objects and stringifying them again: at 500 rows a page that per-row work was most of a
 * request's cost.
 */
export class JsonText {
  constructor(readonly text: string) {}

  /**
   * `{"key": value, ...}` in the given order: a JsonText value goes in as it is, any other value as
   * JSON.stringify writes it (an undefined one is left out, as JSON.stringify leaves it out).
   *
   *   JsonText.object({ fills: page.json, nextCursor })  // {"fills":[...],"nextCursor":"..."}
   */
  static object(fields: Readonly<Record<string, unknown>>): JsonText {
    let text = '';
    for (const [key, value] of Object.entries(fields)) {
      const json = value instanceof JsonText ? value.text : JSON.stringify(value);
      if (json === undefined) continue;
      text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${json}`;
    }
    return new JsonText(`{${text}}`);
  }

  /** `[item, ...]` of JsonText items. */
  static array(items: readonly JsonText[]): JsonText {
    return new JsonText(`[${items.map((item) => item.text).join(',')}]`);
  }
}
