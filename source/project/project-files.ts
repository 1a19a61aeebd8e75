/** Reading a project folder without throwing: a missing or unreadable file is just absent. */
import {readdir, readFile, stat} from 'node:fs/promises';
import {join} from 'node:path';

export class ProjectFiles {
  private names: Set<string> | null = null;

  constructor(readonly root: string) {}

  /** Names of the entries in the root folder. */
  async list(): Promise<Set<string>> {
    if (!this.names) this.names = new Set(await readdir(this.root).catch(() => [] as string[]));
    return this.names;
  }

  async has(name: string): Promise<boolean> {
    return (await this.list()).has(name);
  }

  /** The first of these names present in the root, if any. */
  async first(...names: string[]): Promise<string | undefined> {
    const present = await this.list();
    return names.find((name) => present.has(name));
  }

  async read(relative: string): Promise<string | undefined> {
    return readFile(join(this.root, relative), 'utf8').catch(() => undefined);
  }

  async isDirectory(relative: string): Promise<boolean> {
    return stat(join(this.root, relative)).then(
      (s) => s.isDirectory(),
      () => false,
    );
  }

  async listDir(relative: string): Promise<string[]> {
    return readdir(join(this.root, relative)).catch(() => [] as string[]);
  }
}
