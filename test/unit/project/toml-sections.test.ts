import {describe, expect, it} from 'vitest';
import {tomlSections} from '../../../source/project/toml-sections.js';

describe('tomlSections', () => {
  it('reads keys and string values of each table', () => {
    const sections = tomlSections(`# comment
[project]
name = "shop"
description = """
[not.a.table]
fake = "no"
"""

[project.scripts]
shop = "shop.cli:main"   # trailing comment
"shop-admin" = 'shop.admin:main'
'with space' = "a \\"quoted\\" \\u00e9 value"
dotted.key = "skipped"

[ "tool" . "poetry" . scripts ]
run = { callable = "app:run" }

[[tool.mypy.overrides]]
module = "x"
`);
    expect([...sections.keys()]).toEqual(['project', 'project.scripts', 'tool.poetry.scripts']);
    expect(Object.fromEntries(sections.get('project.scripts')!)).toEqual({
      shop: 'shop.cli:main',
      'shop-admin': 'shop.admin:main',
      'with space': 'a "quoted" é value',
    });
    expect(sections.get('tool.poetry.scripts')!.get('run')).toBe('{ callable = "app:run" }');
    expect(sections.get('project')!.has('fake')).toBe(false);
  });
});
