// Pieces the TypeBox schemas of the vocabulary and of the webhook payload share.
import { type TLiteral, type TUnion, Type } from '@sinclair/typebox';

export const closed = { additionalProperties: false } as const;

/** A string enum as `anyOf` of `const`s, which every JSON Schema validator understands. */
export function literalUnion<const T extends readonly string[]>(
  values: T,
  description: string,
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );
}

// A pattern rather than `format: date-time`: TypeBox's Value.Check refuses unregistered formats, and
// a pattern means the same to every JSON Schema validator a tenant may use.
export const Timestamp = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'ISO 8601 timestamp, UTC with a trailing Z (API reference §2)',
});
