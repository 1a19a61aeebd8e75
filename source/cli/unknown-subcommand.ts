import {readdirSync, type Dirent} from 'node:fs';

/**
 * Groups whose default command takes free text (`workbench agent "<prompt>"`): a word that names
 * no subcommand is the text, not a typo.
 */
const FREE_TEXT_GROUPS = new Set(['agent']);

/**
 * `workbench proc lsit`: commander takes `lsit` for an argument of the group's default command and
 * says "too many arguments". This names the subcommand meant instead, before pastel runs.
 * Returns the message, or undefined when the words name a known command (or no group).
 */
export function unknownSubcommand(commandsDir: URL, argv: string[]): string | undefined {
  const [group, word] = argv;
  if (!group || !word || group.startsWith('-') || word.startsWith('-')) return undefined;
  if (FREE_TEXT_GROUPS.has(group)) return undefined;
  let entries: Dirent[];
  try {
    entries = readdirSync(new URL(`${group}/`, commandsDir), {withFileTypes: true});
  } catch {
    return undefined; // not a group
  }
  // Commands are files; a folder is a nested group (`agent perms test`).
  const names = entries
    .filter((entry) => entry.isDirectory() || (/\.js$/.test(entry.name) && entry.name !== 'index.js'))
    .map((entry) => entry.name.replace(/\.js$/, ''))
    .sort();
  if (names.includes(word)) return undefined;
  const close = names.filter((name) => distance(word, name) <= Math.max(1, Math.floor(name.length / 3)) || name.startsWith(word));
  const suggestion = close.length ? ` Did you mean ${close.join(' or ')}?` : '';
  return `unknown command "${group} ${word}".${suggestion} The ${group} commands are ${names.join(', ')} (see \`workbench ${group} --help\`).`;
}

/** Edit distance with transpositions (Damerau–Levenshtein, optimal string alignment): `lsit` is one from `list`. */
function distance(a: string, b: string): number {
  const rows = Array.from({length: a.length + 1}, (_, i) => Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i]![j] = Math.min(rows[i]![j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}
