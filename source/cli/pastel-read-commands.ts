import type {Dirent} from 'node:fs';
import {readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import process from 'node:process';
import {pathToFileURL} from 'node:url';
import decamelize from 'decamelize';

/** A command as pastel's read-commands.js describes it (pastel/build/internal-types.d.ts). */
interface PastelCommand {
  name: string;
  description?: string;
  isDefault: boolean;
  alias?: string;
  options?: unknown;
  args?: unknown;
  component?: unknown;
  commands?: Map<string, PastelCommand>;
}

/**
 * What pastel gets for its read-commands.js in the built CLI (see scripts/build.mjs). pastel
 * imports every file in commands/, one after the other, to build the whole command tree before
 * it parses the command line: ~100 modules and their chunks for `workbench get-errors`, which
 * runs one. This reads the same tree, the same names in the same order, but loads only what the
 * command line can reach:
 * - where it names a command (`get-errors`, `proc stop`), only that one, with its group's index;
 * - where it asks for the help of a level and nothing else (`--help`, `proc -h`), the commands
 *   that help lists, and of a group only its index: commander's list shows a group's own
 *   description, options and arguments, never its subcommands;
 * - everywhere else (a word that names nothing, an option before the command), every command,
 *   as pastel does, all at once rather than in turn.
 * The command line is pastel's default (process.argv), which is what source/cli.tsx runs it with.
 * Commands are matched by their file names, so none may rename itself with `alias` or be a
 * group's `isDefault`: the build fails when one exports either.
 */
export default function readCommands(directory: string): Promise<Map<string, PastelCommand>> {
  return readLevel(directory, {words: process.argv.slice(2)});
}

/** What a level of commands/ is read for: the rest of the command line, or only a group's own index. */
type Reach = {words: string[]} | 'index';

const HELP_FLAGS = new Set(['--help', '-h']);

async function readLevel(directory: string, reach: Reach): Promise<Map<string, PastelCommand>> {
  const entries = (await readdir(directory, {withFileTypes: true})).filter((entry) => !entry.name.startsWith('_app'));
  let read: Array<Promise<PastelCommand | undefined>>;
  if (reach === 'index') {
    read = entries.filter((entry) => commandName(entry) === 'index').map((entry) => readEntry(directory, entry, {words: []}));
  } else {
    const [word, ...rest] = reach.words;
    const helpOnly = reach.words.length === 1 && HELP_FLAGS.has(word!);
    const named = word === undefined || word.startsWith('-') || word === 'index' ? undefined : entries.find((entry) => commandName(entry) === word);
    read = (named ? entries.filter((entry) => entry === named || commandName(entry) === 'index') : entries).map((entry) =>
      readEntry(directory, entry, entry === named ? {words: rest} : helpOnly ? 'index' : {words: []}),
    );
  }
  const commands = new Map<string, PastelCommand>();
  for (const command of await Promise.all(read)) if (command) commands.set(command.name, command);
  return commands;
}

/** The name pastel gives a folder or file of commands/; undefined for a file that is no command. */
function commandName(entry: Dirent): string | undefined {
  return entry.isDirectory() ? entry.name : fileCommandName(entry.name);
}

function fileCommandName(file: string): string | undefined {
  if (!/\.(js|ts)x?$/.test(file) || file.endsWith('.d.ts')) return undefined;
  return decamelize(file.replace(/\.(js|ts)x?$/, ''), {separator: '-'});
}

async function readEntry(directory: string, entry: Dirent, reach: Reach): Promise<PastelCommand | undefined> {
  const path = join(directory, entry.name);
  // pastel stats each entry, following links; only a link needs that here.
  const isDirectory = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(path)).isDirectory());
  if (isDirectory) {
    const subCommands = await readLevel(path, reach);
    const indexCommand = subCommands.get('index');
    if (indexCommand) {
      indexCommand.name = entry.name;
      indexCommand.commands = subCommands;
      subCommands.delete('index');
      return indexCommand;
    }
    return {name: entry.name, isDefault: false, commands: subCommands};
  }
  const name = fileCommandName(entry.name);
  if (name === undefined) return undefined;
  const m = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  return {
    name,
    description: m.description as string | undefined,
    isDefault: (m.isDefault as boolean | undefined) ?? false,
    alias: m.alias as string | undefined,
    options: m.options,
    args: m.args,
    component: m.default,
  };
}
