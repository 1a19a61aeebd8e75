/** Go projects: `go run` for each main package (the root or `cmd/<name>`), and `go test ./...`. */
import type {ProjectFiles} from './project-files.js';
import type {DetectedScript} from './types.js';

export interface GoDetection {
  packageManager: 'go';
  scripts: DetectedScript[];
}

export async function detectGo(files: ProjectFiles): Promise<GoDetection | null> {
  const names = [...(await files.list())];
  const rootGoFiles = names.filter(isSourceFile);
  if (!(await files.first('go.mod', 'go.work')) && rootGoFiles.length === 0) return null;

  const scripts: DetectedScript[] = [];
  if (await anyMainPackage(files, '', rootGoFiles)) scripts.push({name: 'run', command: 'go run .', source: 'go'});
  if (await files.isDirectory('cmd')) {
    for (const command of (await files.listDir('cmd')).sort()) {
      const dir = `cmd/${command}`;
      if (!(await files.isDirectory(dir))) continue;
      const goFiles = (await files.listDir(dir)).filter(isSourceFile);
      if (await anyMainPackage(files, dir, goFiles)) scripts.push({name: command, command: `go run ./${dir}`, source: 'go'});
    }
  }
  scripts.push({name: 'test', command: 'go test ./...', source: 'go'});
  return {packageManager: 'go', scripts};
}

function isSourceFile(name: string): boolean {
  return name.endsWith('.go') && !name.endsWith('_test.go');
}

async function anyMainPackage(files: ProjectFiles, dir: string, goFiles: string[]): Promise<boolean> {
  // main.go first: it is nearly always the one that says `package main`.
  const ordered = [...goFiles].sort((a, b) => Number(b === 'main.go') - Number(a === 'main.go'));
  for (const file of ordered) {
    const text = await files.read(dir ? `${dir}/${file}` : file);
    if (text !== undefined && packageName(text) === 'main') return true;
  }
  return false;
}

/** The package clause, after any comments and build constraints. */
export function packageName(source: string): string | undefined {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*)/m.exec(withoutComments)?.[1];
}
