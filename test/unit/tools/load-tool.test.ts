import {describe, expect, it} from 'vitest';
import {loadTool, loadableTools} from '../../../source/tools/load-tool.js';
import {tools} from '../../../source/tools/registry.js';

describe('loadTool', () => {
  it('knows every tool the registry serves, and no other', () => {
    expect([...loadableTools].sort()).toEqual(tools.map((tool) => tool.name).sort());
  });

  it('loads each tool under its own name, as the registry registers it', async () => {
    for (const registered of tools) {
      const loaded = await loadTool(registered.name);
      expect(loaded?.name).toBe(registered.name);
      expect(loaded?.input).toBe(registered.input);
      expect(loaded?.description).toBe(registered.description);
    }
  });

  it('answers undefined for a name that is no tool, own or inherited', async () => {
    expect(await loadTool('get_error')).toBeUndefined();
    expect(await loadTool('constructor')).toBeUndefined();
  });
});
