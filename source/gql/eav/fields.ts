/**
 * The GraphQL names of a parent's attributes (source/gql/eav/README.md). `_meta` is upstream's
 * (BifrostQL's) name for the attributes as one JSON object; the same map is what a mutation
 * writes, so a client writes back what it read.
 */
export const EAV_MAP_FIELD = '_meta';
/** The attributes as a list of `{key value}`, ordered by key (the value typed by the value column). */
export const EAV_LIST_FIELD = '_attributes';
/** The filter field: `{_attr: {color: {_eq: "red"}}}`. */
export const EAV_FILTER_FIELD = '_attr';

export const EAV_FIELDS: readonly string[] = [EAV_MAP_FIELD, EAV_LIST_FIELD, EAV_FILTER_FIELD];

/** Which attributes field a row field name is, if any. */
export function eavFieldShape(name: string): 'map' | 'list' | undefined {
  return name === EAV_MAP_FIELD ? 'map' : name === EAV_LIST_FIELD ? 'list' : undefined;
}

/** Two actions of a batch on one row merged: their `_meta` maps merged too (the later value of an attribute wins), not replaced. */
export function mergedAttributes(earlier: Record<string, unknown>, later: Record<string, unknown>): Record<string, unknown> {
  const a = earlier[EAV_MAP_FIELD];
  const b = later[EAV_MAP_FIELD];
  const isMap = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  return isMap(a) && isMap(b) ? {[EAV_MAP_FIELD]: {...(a as object), ...(b as object)}} : {};
}
