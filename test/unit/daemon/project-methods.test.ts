import {describe, expect, it} from 'vitest';
import {PROJECT_METHODS} from '../../../source/daemon/client.js';
import {protocol} from '../../../source/daemon/protocol/index.js';

// The client adds the caller's project to exactly the methods whose params take one: a method
// left out of its list would run in the nameless project, one listed in vain would be refused.
describe('the methods that carry a project', () => {
  it('are the protocol methods whose params have a project field', () => {
    const withProject = Object.entries(protocol)
      .filter(([, spec]) => 'project' in (spec.params as unknown as {shape: Record<string, unknown>}).shape)
      .map(([name]) => name)
      .sort();
    expect(withProject.length).toBeGreaterThan(0);
    expect([...PROJECT_METHODS].sort()).toEqual(withProject);
  });
});
