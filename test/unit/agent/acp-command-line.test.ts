import {describe, expect, it} from 'vitest';
import {parseAgentCommand} from '../../../source/agent/acp/command-line.js';

describe('--agent as a command line (split like a shell, run without one)', () => {
  it('splits words; quotes keep a path with spaces whole', () => {
    expect(parseAgentCommand('gemini --experimental-acp')).toEqual({file: 'gemini', args: ['--experimental-acp']});
    expect(parseAgentCommand(`node '/tmp/my agents/stub.mjs' --flag "a b"`)).toEqual({file: 'node', args: ['/tmp/my agents/stub.mjs', '--flag', 'a b']});
  });

  it('leaves $VARIABLES and globs as written (no shell expands them)', () => {
    expect(parseAgentCommand('agent $HOME *.js')).toEqual({file: 'agent', args: ['$HOME', '*.js']});
  });

  it.each([
    ['agent; rm -rf ~', ';'],
    ['agent | tee log', '|'],
    ['agent && other', '&&'],
    ['agent > out.txt', '>'],
    ['agent &', '&'],
  ])('refuses %j: a second command or a redirection the user did not mean', (line, op) => {
    expect(() => parseAgentCommand(line)).toThrow(`--agent is one command run without a shell: quote '${op}' to pass it as an argument`);
  });

  it('refuses a comment and an empty line', () => {
    expect(() => parseAgentCommand('agent # note')).toThrow("quote '#'");
    expect(() => parseAgentCommand('   ')).toThrow('--agent needs the command that starts the agent');
  });
});
