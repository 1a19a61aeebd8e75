/**
 * GraphQL names from database names. Upstream keeps a table's or column's name as is; a name
 * GraphQL cannot spell (`Order Details`, `2fa`, `__x`) has each other character replaced by `_`,
 * a leading digit prefixed with `_`, and a leading `__` (reserved for introspection) reduced.
 */
export function graphqlName(dbName: string): string {
  let name = dbName.replace(/[^A-Za-z0-9_]/g, '_');
  if (name === '') name = '_';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (name.startsWith('__')) name = name.replace(/^_+/, '_');
  return name;
}

/**
 * English plural → singular for `de-pluralize` (`Albums` → `Album`, `Categories` → `Category`,
 * `Boxes` → `Box`, `Addresses` → `Address`). Words that do not end like a plural are kept
 * (`Status`, `Analysis`, `Address`); the case of the kept part is the name's own.
 */
export function dePluralize(name: string): string {
  const irregular = IRREGULAR[name.toLowerCase()];
  if (irregular !== undefined) return /[a-z]/.test(name) ? name.charAt(0) + irregular.slice(1) : irregular.toUpperCase();
  const rules: Array<[RegExp, string]> = [
    [/([^aeiou])ies$/i, '$1y'],
    [/(ss|x|z|ch|sh)es$/i, '$1'],
    [/(us|is|ss)$/i, '$1'],
    [/([^s])s$/i, '$1'],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(name)) {
      const singular = name.replace(pattern, replacement);
      // The plural suffix in upper case (`ALBUMS`, `CATEGORIES`) keeps the singular in upper case.
      return /[a-z]/.test(name) ? singular : singular.toUpperCase();
    }
  }
  return name;
}

// Plurals the suffix rules get wrong, and words that are their own plural.
const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  movies: 'movie',
  cookies: 'cookie',
  series: 'series',
  species: 'species',
  news: 'news',
  data: 'data',
};

export type SchemaPrefixFormat = {kind: 'underscore'} | {kind: 'camelcase'} | {kind: 'template'; template: string};

/**
 * `schema-prefix-format`: `underscore` (`sales_orders`, the default), `camelcase` (`salesOrders`),
 * or a template naming `{schema}` and `{table}` (`{schema}__{table}`).
 */
export function parsePrefixFormat(text: string | undefined): SchemaPrefixFormat | undefined {
  if (text === undefined || text.toLowerCase() === 'underscore') return {kind: 'underscore'};
  if (text.toLowerCase() === 'camelcase') return {kind: 'camelcase'};
  if (text.includes('{table}')) return {kind: 'template', template: text};
  return undefined;
}

export function prefixName(format: SchemaPrefixFormat, schema: string, name: string): string {
  const prefix = graphqlName(schema);
  if (format.kind === 'camelcase') return `${prefix}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  if (format.kind === 'template') return graphqlName(format.template.replaceAll('{schema}', schema).replaceAll('{table}', name));
  return `${prefix}_${name}`;
}

/**
 * A GraphQL name as BifrostQL's current conventions spell it (`conventions: bifrost`): spaces,
 * `-` and `_` become `_`, any other character that is not an ASCII letter or digit becomes `_`
 * and its low byte in hex (`Order€` → `Order_ac`), a leading digit gets a `_`, a name that then
 * starts with `_` gets `kind`'s prefix (`tbl` for tables, `col` for columns: `_x` → `col_x`, which
 * also keeps `__` names clear of introspection), and the first letter is lower-cased
 * (`OrderItems` → `orderItems`, `ProductId` → `productId`). Nothing is pluralised or singularised.
 */
export function bifrostName(dbName: string, kind: 'tbl' | 'col'): string {
  let name = '';
  for (const char of dbName) {
    if (/[A-Za-z0-9]/.test(char)) name += char;
    else if (char === ' ' || char === '-' || char === '_') name += '_';
    else name += `_${((char.codePointAt(0) ?? 0) & 0xff).toString(16)}`;
  }
  if (name === '') return '_';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (name.startsWith('_')) name = `${kind}${name}`;
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * Column field names unique within their table, as upstream keeps them: a name two columns would
 * share (`Name` and `name` both become `name` under `conventions: bifrost`) takes `_2`, `_3`… on
 * every later one, in the table's column order.
 */
export function uniqueNames(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let suffix = 2; taken.has(unique); suffix++) unique = `${name}_${suffix}`;
    taken.add(unique);
    return unique;
  });
}
