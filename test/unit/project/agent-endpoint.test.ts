import {describe, expect, it} from 'vitest';
import {parseProjectConfig} from '../../../source/project/config.js';

// `agent { api …; base-url …; model … }`: where the Chat pane (no flags) and `workbench agent`
// (when its flags leave it open) send the model requests.
describe('the agent block: endpoint settings beside the rules', () => {
  it('reads api, base-url and model, and keeps the rules', () => {
    const config = parseProjectConfig('agent {\n  api "chat-completions"\n  base-url "http://127.0.0.1:8080/v1"\n  model "local-model"\n  allow "shell" "npm test*"\n}\n');
    expect(config.agentEndpoint).toEqual({api: 'chat-completions', baseUrl: 'http://127.0.0.1:8080/v1', model: 'local-model'});
    expect(config.agent).toEqual([{action: 'allow', tool: 'shell', pattern: 'npm test*', source: '.workbench.kdl:5'}]);
  });

  it.each([
    ['api "soap"', /:2: agent\.api: expected auto, messages or chat-completions, got "soap"/],
    ['base-url "ftp://x"', /:2: agent\.base-url: expected an http or https URL/],
    ['base-url', /:2: agent\.base-url: takes one value in quotes/],
    ['model ""', /:2: agent\.model: must not be empty/],
    ['model "a" "b"', /:2: agent\.model: takes one value in quotes/],
    ['model 5', /:2: agent\.model: takes one value in quotes/],
    ['endpoint "x"', /:2: agent: unknown rule "endpoint" .*a setting: api, base-url, model/],
  ])('refuses %s with its line', (line, message) => {
    expect(() => parseProjectConfig(`agent {\n  ${line}\n}\n`)).toThrow(message);
  });
});
