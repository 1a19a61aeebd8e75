/** `detect` for people: a short summary and a table of scripts. */
import type {ProjectInfo} from './types.js';

export function formatProjectInfo(info: ProjectInfo): string {
  const lines = [`Project  ${info.root}`];
  if (info.types.length === 0) {
    lines.push('Type     unknown (no package.json, go.mod or Python project files)');
  } else {
    const managers = info.types.map((type) => `${type} (${info.packageManagers[type] ?? '?'})`);
    lines.push(`Type     ${managers.join(', ')}`);
  }

  if (info.scripts.length === 0) {
    lines.push('Scripts  none found');
  } else {
    lines.push('', ...table([['NAME', 'COMMAND', 'FROM'], ...info.scripts.map((s) => [s.name, s.command, s.source])]));
  }
  for (const warning of info.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
}
